/* dbd_report.c — sreport's usage figures from the records (dbd_report.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_private.h"
#include "dbd/dbd_report.h"
#include "dbd/dbd_rollup.h"
#include "dbd/dbd_tres.h"
#include "slurm/slurm_errno.h"

typedef struct {
	dbd_db_t               *db;
	const dbd_report_msg_t *req;
	char                  **users;    /* uid filter */
	bool                    priv;     /* PrivateData=usage for priv_uid */
	uid_t                   priv_uid;
	int64_t                 start;
	int64_t                 end;      /* min(end, now) */
	int64_t                 now;
	uint32_t                tres;      /* id_tres of the figures */
	char                   *tres_name; /* its name ("gres/gpu") */
	int64_t                 roll_end;  /* [start, roll_end) from roll-ups */
	const char             *table;     /* "hour", "day" or "month" */
	char                  **cells;
	size_t                  ncells, cap;
	/* rolled-up figures, added to the ones computed from records */
	uint64_t                r_cap, r_down, r_pdown, r_alloc, r_plan,
				r_over, r_cpus;
	dbd_rows_t              r_use;     /* acct, uid, secs, count */
} rep_t;

#define NCOLS 7

static void cell(rep_t *r, const char *v)
{
	if (r->ncells + 2 > r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->cells = xrealloc(r->cells, r->cap * sizeof(char *));
	}
	r->cells[r->ncells++] = xstrdup(v ? v : "");
	r->cells[r->ncells] = NULL;
}

static void row(rep_t *r, const char *kind, const char *acct,
		const char *parent, const char *uid, const char *cpus,
		uint64_t secs, uint64_t count)
{
	char n[32];

	cell(r, kind);
	cell(r, acct);
	cell(r, parent);
	cell(r, uid);
	cell(r, cpus);
	snprintf(n, sizeof(n), "%" PRIu64, secs);
	cell(r, n);
	snprintf(n, sizeof(n), "%" PRIu64, count);
	cell(r, n);
}

/* The report's TRES in a TRES string. */
static uint64_t tres_of(const rep_t *r, const char *tres)
{
	return dbd_tres_count(tres, r->tres_name);
}

/* SQL: the report's TRES of job t, allocated (or requested). */
static void job_tres(const rep_t *r, char **sql, bool req)
{
	if (r->tres == DBD_TRES_CPU)
		xstrcat(sql, req ? "t.cpus_req" : "t.cpus_alloc");
	else
		dbd_tres_sql(r->db, sql, req ? "t.tres_req" : "t.tres_alloc",
			     r->tres_name);
}

static void where_cluster(rep_t *r, char **sql, const char *col)
{
	xstrfmtcat(sql, " WHERE %s=", col);
	dbd_db_quote(r->db, sql, r->req->cluster);
}

/* Node events (cluster == true: the cluster's own TRES records, node
 * name "") overlapping the window: CPU-seconds inside it. */
static int events(rep_t *r, bool cluster, uint64_t *secs, uint64_t *cpus)
{
	dbd_rows_t rows;
	char *sql = xstrdup("SELECT time_start, time_end, tres FROM "
			    "event_table");
	int rc;

	where_cluster(r, &sql, "cluster");
	xstrfmtcat(&sql, " AND node_name%s'' AND time_start < %" PRId64
		   " AND (time_end = 0 OR time_end > %" PRId64 ")"
		   " ORDER BY time_start", cluster ? "=" : "!=", r->end,
		   r->start);
	rc = dbd_db_select(r->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	*secs = 0;
	for (uint32_t i = 0; i < rows.rows; i++) {
		int64_t s = strtoll(dbd_rows_get(&rows, i, 0), NULL, 10);
		int64_t e = strtoll(dbd_rows_get(&rows, i, 1), NULL, 10);
		uint64_t n = tres_of(r, dbd_rows_get(&rows, i, 2));

		if (!e || e > r->end)
			e = r->end;
		if (s < r->start)
			s = r->start;
		if (e > s)
			*secs += n * (uint64_t)(e - s);
		if (cpus)
			*cpus = n;
	}
	dbd_rows_free(&rows);
	return 0;
}

/* CPU-seconds of MAINT reservations (not IGNORE_JOBS) in the window:
 * planned down. */
static int maint(rep_t *r, uint64_t *secs)
{
	dbd_rows_t rows;
	char *sql = xstrdup("SELECT time_start, time_end, tres FROM "
			    "resv_table");
	int rc;

	where_cluster(r, &sql, "cluster");
	xstrfmtcat(&sql, " AND (flags & %u) != 0 AND (flags & %u) = 0 AND "
		   "time_start < %" PRId64 " AND (time_end = 0 OR time_end > %"
		   PRId64 ")", (unsigned)RESV_MAINT,
		   (unsigned)RESV_IGNORE_JOBS, r->end, r->start);
	rc = dbd_db_select(r->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	*secs = 0;
	for (uint32_t i = 0; i < rows.rows; i++) {
		int64_t s = strtoll(dbd_rows_get(&rows, i, 0), NULL, 10);
		int64_t e = strtoll(dbd_rows_get(&rows, i, 1), NULL, 10);

		if (!e || e > r->end)
			e = r->end;
		if (s < r->start)
			s = r->start;
		if (e > s)
			*secs += tres_of(r, dbd_rows_get(&rows, i, 2)) *
				 (uint64_t)(e - s);
	}
	dbd_rows_free(&rows);
	return 0;
}

/* SQL for a job's TRES-seconds allocated inside the window. */
static void alloc_expr(rep_t *r, char **sql)
{
	xstrcat(sql, "SUM(");
	job_tres(r, sql, false);
	xstrfmtcat(sql, " * GREATEST(0, LEAST(IF(t.time_end=0, %" PRId64
		   ", t.time_end), %" PRId64 ") - GREATEST(t.time_start, %"
		   PRId64 ")))", r->now, r->end, r->start);
}

/* PrivateData=usage: own usage, and a coordinator's accounts' (and
 * below). */
static void private_where(rep_t *r, const char *uid_col,
			  const char *acct_col, char **sql)
{
	char *own;

	if (!r->priv)
		return;
	own = xstrdup_printf("%s=%u", uid_col, (unsigned)r->priv_uid);
	dbd_private_where(r->db, r->priv_uid, own, acct_col, sql);
	xfree(own);
}

static void alloc_where(rep_t *r, char **sql)
{
	xstrfmtcat(sql, " FROM job_table t WHERE t.cluster=");
	dbd_db_quote(r->db, sql, r->req->cluster);
	xstrfmtcat(sql, " AND t.time_start != 0 AND t.time_start < %" PRId64
		   " AND (t.time_end = 0 OR t.time_end > %" PRId64 ")",
		   r->end, r->start);
	if (r->users && r->users[0]) {
		xstrcat(sql, " AND t.id_user IN (");
		for (size_t i = 0; r->users[i]; i++)
			xstrfmtcat(sql, "%s%s", i ? "," : "", r->users[i]);
		xstrcatc(sql, ')');
	}
	private_where(r, "t.id_user", "t.account", sql);
	if (r->req->accounts && r->req->accounts[0]) {
		xstrcat(sql, " AND ");
		dbd_db_in(r->db, sql, "t.account", r->req->accounts);
	}
}

static int one_number(rep_t *r, const char *sql, uint64_t *out)
{
	dbd_rows_t rows;

	if (dbd_db_select(r->db, sql, &rows) < 0)
		return -1;
	*out = strtoull(dbd_rows_get(&rows, 0, 0), NULL, 10);
	dbd_rows_free(&rows);
	return 0;
}

/* TRES-seconds eligible jobs waited inside the window. */
static int waited(rep_t *r, uint64_t *out)
{
	char *sql = xstrdup("SELECT SUM(");
	int rc;

	job_tres(r, &sql, true);
	xstrfmtcat(&sql, " * GREATEST(0, LEAST(IF(t.time_start=0, IF("
		   "t.time_end=0, %" PRId64 ", t.time_end), t.time_start), %"
		   PRId64 ") - GREATEST(t.time_eligible, %" PRId64 "))) FROM "
		   "job_table t WHERE t.cluster=", r->now, r->end, r->start);

	dbd_db_quote(r->db, &sql, r->req->cluster);
	xstrfmtcat(&sql, " AND t.time_eligible != 0 AND t.time_eligible < %"
		   PRId64, r->end);
	rc = one_number(r, sql, out);
	xfree(sql);
	return rc;
}

/* ---- the rolled-up part of the window ---- */

/* Slurm's choice: the month table for whole months, the day table for
 * whole days, else the hour table. */
static const char *pick_table(int64_t start, int64_t end, time_t day_last,
			      time_t month_last)
{
	time_t s = (time_t)start, e = (time_t)end;

	if (dbd_day_floor(s) != s || dbd_day_floor(e) != e ||
	    e < dbd_day_next(s) || e > day_last)
		return "hour";
	if (dbd_month_floor(s) == s && dbd_month_floor(e) == e &&
	    e > dbd_day_next(s) && e <= month_last)
		return "month";
	return "day";
}

/* Which part of [start, end) the roll-ups cover. */
static int rolled_span(rep_t *r)
{
	time_t hour, day, month;

	r->roll_end = r->start;
	if (dbd_rollup_marks(r->db, r->req->cluster, &hour, &day, &month) < 0)
		return -1;
	if (hour <= r->start)
		return 0;
	r->roll_end = hour < r->end ? hour : r->end;
	r->table = pick_table(r->start, r->roll_end, day, month);
	debug("sreport %s: [%" PRId64 ", %" PRId64 ") from the %s roll-ups, "
	      "[%" PRId64 ", %" PRId64 ") from the records", r->req->cluster,
	      r->start, r->roll_end, r->table, r->roll_end, r->end);
	return 0;
}

static void rolled_where(rep_t *r, char **sql)
{
	where_cluster(r, sql, "cluster");
	xstrfmtcat(sql, " AND id_tres=%u AND time_start >= %" PRId64 " AND "
		   "time_start < %" PRId64, r->tres, r->start, r->roll_end);
}

static int rolled_cluster(rep_t *r)
{
	dbd_rows_t rows;
	char *sql;

	if (r->roll_end <= r->start)
		return 0;
	sql = xstrdup_printf("SELECT SUM(total_secs), SUM(down_secs), "
			     "SUM(pdown_secs), SUM(alloc_secs), "
			     "SUM(plan_secs), SUM(over_secs), "
			     "SUBSTRING_INDEX(GROUP_CONCAT(count ORDER BY "
			     "time_start DESC), ',', 1) FROM "
			     "cluster_usage_%s_table", r->table);
	rolled_where(r, &sql);
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		xfree(sql);
		return -1;
	}
	xfree(sql);
	r->r_cap = strtoull(dbd_rows_get(&rows, 0, 0), NULL, 10);
	r->r_down = strtoull(dbd_rows_get(&rows, 0, 1), NULL, 10);
	r->r_pdown = strtoull(dbd_rows_get(&rows, 0, 2), NULL, 10);
	r->r_alloc = strtoull(dbd_rows_get(&rows, 0, 3), NULL, 10);
	r->r_plan = strtoull(dbd_rows_get(&rows, 0, 4), NULL, 10);
	r->r_over = strtoull(dbd_rows_get(&rows, 0, 5), NULL, 10);
	r->r_cpus = strtoull(dbd_rows_get(&rows, 0, 6), NULL, 10);
	dbd_rows_free(&rows);
	return 0;
}

static int rolled_use(rep_t *r)
{
	char *sql;
	int rc;

	if (r->roll_end <= r->start)
		return 0;
	sql = xstrdup_printf("SELECT acct, id_user, SUM(alloc_secs), "
			     "SUM(job_cnt) FROM assoc_usage_%s_table",
			     r->table);
	rolled_where(r, &sql);
	if (r->users && r->users[0]) {
		xstrcat(&sql, " AND id_user IN (");
		for (size_t i = 0; r->users[i]; i++)
			xstrfmtcat(&sql, "%s%s", i ? "," : "", r->users[i]);
		xstrcatc(&sql, ')');
	}
	private_where(r, "id_user", "acct", &sql);
	if (r->req->accounts && r->req->accounts[0]) {
		xstrcat(&sql, " AND ");
		dbd_db_in(r->db, &sql, "acct", r->req->accounts);
	}
	xstrcat(&sql, " GROUP BY acct, id_user");
	rc = dbd_db_select(r->db, sql, &r->r_use);
	xfree(sql);
	return rc;
}

/* The part after the roll-ups comes from the records. */
static bool live_part(rep_t *r, int64_t *saved)
{
	*saved = r->start;
	if (r->roll_end > r->start)
		r->start = r->roll_end;
	return r->start < r->end;
}

static int cluster_report(rep_t *r)
{
	uint64_t cap = 0, cpus = 0, down = 0, pdown = 0, alloc = 0, plan = 0;
	int64_t start;
	char n[32];

	if (rolled_span(r) < 0 || rolled_cluster(r) < 0)
		return -1;
	if (live_part(r, &start)) {
		char *sql = xstrdup("SELECT ");
		int rc;

		alloc_expr(r, &sql);
		alloc_where(r, &sql);
		rc = one_number(r, sql, &alloc);
		xfree(sql);
		if (rc < 0 || events(r, true, &cap, &cpus) < 0 ||
		    events(r, false, &down, NULL) < 0 || maint(r, &pdown) < 0 ||
		    waited(r, &plan) < 0) {
			r->start = start;
			return -1;
		}
	}
	r->start = start;
	snprintf(n, sizeof(n), "%" PRIu64, cpus ? cpus : r->r_cpus);
	row(r, "cap", NULL, NULL, NULL, n, cap + r->r_cap, 0);
	row(r, "down", NULL, NULL, NULL, NULL, down + r->r_down, 0);
	row(r, "pdown", NULL, NULL, NULL, NULL, pdown + r->r_pdown, 0);
	row(r, "alloc", NULL, NULL, NULL, NULL, alloc + r->r_alloc, 0);
	row(r, "plan", NULL, NULL, NULL, NULL, plan + r->r_plan, 0);
	row(r, "over", NULL, NULL, NULL, NULL, r->r_over, 0);
	return 0;
}

static int capacity(rep_t *r)
{
	uint64_t cap = 0, cpus = 0;
	int64_t start;
	char n[32];

	if (rolled_span(r) < 0 || rolled_cluster(r) < 0)
		return -1;
	if (live_part(r, &start) && events(r, true, &cap, &cpus) < 0)
		return -1;
	r->start = start;
	snprintf(n, sizeof(n), "%" PRIu64, cpus ? cpus : r->r_cpus);
	row(r, "cap", NULL, NULL, NULL, n, cap + r->r_cap, 0);
	return 0;
}

static int account_tree(rep_t *r)
{
	dbd_rows_t rows;
	char *sql = xstrdup("SELECT acct, parent_acct FROM assoc_table");

	where_cluster(r, &sql, "cluster");
	xstrcat(&sql, " AND user_name='' AND `partition`='' AND deleted=0 "
		"ORDER BY acct");
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		xfree(sql);
		return -1;
	}
	xfree(sql);
	for (uint32_t i = 0; i < rows.rows; i++)
		row(r, "acct", dbd_rows_get(&rows, i, 0),
		    dbd_rows_get(&rows, i, 1), NULL, NULL, 0, 0);
	dbd_rows_free(&rows);
	return 0;
}

/* One row per (account, second key) with allocated seconds and jobs. */
static int grouped_rows(rep_t *r, const char *key, dbd_rows_t *rows)
{
	char *sql = xstrdup_printf("SELECT t.account, %s, ", key);
	int rc;

	alloc_expr(r, &sql);
	xstrcat(&sql, ", COUNT(*)");
	alloc_where(r, &sql);
	xstrfmtcat(&sql, " GROUP BY 1, 2");
	rc = dbd_db_select(r->db, sql, rows);
	xfree(sql);
	return rc;
}

/* Usage per (account, user): the roll-ups' and the records' after them,
 * one row each. */
static int uses(rep_t *r)
{
	dbd_rows_t live = { 0 }, *ru = &r->r_use;
	bool *merged;
	int64_t start;

	if (rolled_use(r) < 0)
		return -1;
	if (live_part(r, &start) && grouped_rows(r, "t.id_user", &live) < 0) {
		r->start = start;
		return -1;
	}
	r->start = start;
	merged = xcalloc(live.rows + 1, sizeof(bool));
	for (uint32_t i = 0; i < ru->rows; i++) {
		uint64_t secs = strtoull(dbd_rows_get(ru, i, 2), NULL, 10);
		uint64_t cnt = strtoull(dbd_rows_get(ru, i, 3), NULL, 10);

		for (uint32_t k = 0; k < live.rows; k++)
			if (!merged[k] &&
			    !strcmp(dbd_rows_get(&live, k, 0),
				    dbd_rows_get(ru, i, 0)) &&
			    !strcmp(dbd_rows_get(&live, k, 1),
				    dbd_rows_get(ru, i, 1))) {
				merged[k] = true;
				secs += strtoull(dbd_rows_get(&live, k, 2),
						 NULL, 10);
				cnt += strtoull(dbd_rows_get(&live, k, 3),
						NULL, 10);
			}
		row(r, "use", dbd_rows_get(ru, i, 0), NULL,
		    dbd_rows_get(ru, i, 1), NULL, secs, cnt);
	}
	for (uint32_t k = 0; k < live.rows; k++)
		if (!merged[k])
			row(r, "use", dbd_rows_get(&live, k, 0), NULL,
			    dbd_rows_get(&live, k, 1), NULL,
			    strtoull(dbd_rows_get(&live, k, 2), NULL, 10),
			    strtoull(dbd_rows_get(&live, k, 3), NULL, 10));
	xfree(merged);
	dbd_rows_free(&live);
	return 0;
}

/* Job sizes: from the records (as Slurm's job reports), by the count
 * of the report's TRES. */
static int sizes(rep_t *r)
{
	dbd_rows_t rows;
	char *key = NULL;
	int rc;

	job_tres(r, &key, false);
	rc = grouped_rows(r, key, &rows);
	xfree(key);
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows; i++)
		row(r, "size", dbd_rows_get(&rows, i, 0), NULL, NULL,
		    dbd_rows_get(&rows, i, 1),
		    strtoull(dbd_rows_get(&rows, i, 2), NULL, 10),
		    strtoull(dbd_rows_get(&rows, i, 3), NULL, 10));
	dbd_rows_free(&rows);
	return 0;
}

/* Per wckey or QOS, from the records (as sizes(): no roll-up keeps
 * them): kind "wuse" (wckey, uid), "wsize" (account, wckey, cpus) or
 * "quse" (account, QOS). */
static int keyed(rep_t *r, const char *kind)
{
	static const char wck[] = "IF(LEFT(t.wckey, 1)='*', "
				  "SUBSTRING(t.wckey, 2), t.wckey)";
	bool wuse = !strcmp(kind, "wuse"), wsize = !strcmp(kind, "wsize");
	char *keys = xstrdup(wuse ? "t.id_user" : "t.account"), *sql;
	dbd_rows_t rows;
	int rc;

	if (wsize) {            /* by the count of the report's TRES */
		xstrcat(&keys, ", ");
		job_tres(r, &keys, false);
	}
	sql = xstrdup_printf("SELECT %s, %s, ", keys,
			     wuse || wsize ? wck : "t.qos");
	alloc_expr(r, &sql);
	xstrcat(&sql, ", COUNT(*)");
	alloc_where(r, &sql);
	xstrfmtcat(&sql, " GROUP BY %s", wsize ? "1, 2, 3" : "1, 2");
	xfree(keys);
	rc = dbd_db_select(r->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows; i++) {
		uint32_t k = wsize ? 3 : 2;   /* the sum's column */
		uint64_t secs = strtoull(dbd_rows_get(&rows, i, k), NULL, 10);
		uint64_t cnt = strtoull(dbd_rows_get(&rows, i, k + 1), NULL,
					10);

		if (wuse)
			row(r, kind, NULL, dbd_rows_get(&rows, i, 1),
			    dbd_rows_get(&rows, i, 0), NULL, secs, cnt);
		else if (wsize)
			row(r, kind, dbd_rows_get(&rows, i, 0),
			    dbd_rows_get(&rows, i, 2),
			    NULL, dbd_rows_get(&rows, i, 1), secs, cnt);
		else
			row(r, kind, dbd_rows_get(&rows, i, 0),
			    dbd_rows_get(&rows, i, 1), NULL, NULL, secs, cnt);
	}
	dbd_rows_free(&rows);
	return 0;
}

static int check(const dbd_report_msg_t *req, table_resp_msg_t *resp)
{
	uint32_t v;

	if (req->report < DBD_REPORT_CLUSTER ||
	    req->report > DBD_REPORT_RESV) {
		resp->msg = xstrdup("Unknown report");
		return -1;
	}
	if (!req->cluster || !req->cluster[0]) {
		resp->msg = xstrdup("No cluster given");
		return -1;
	}
	if (req->start < 0 || req->end <= req->start) {
		resp->msg = xstrdup("The report's end is not after its start");
		return -1;
	}
	for (size_t i = 0; req->users && req->users[i]; i++)
		if (parse_u32(req->users[i], &v) < 0) {
			resp->msg = xstrdup_printf("Invalid user id: %s",
						   req->users[i]);
			return -1;
		}
	return 0;
}

/* The report's TRES must be a live one of the TRES table. */
static int tres_known(rep_t *r, table_resp_msg_t *resp)
{
	dbd_tres_list_t l;

	if (dbd_tres_load(r->db, &l) < 0) {
		resp->msg = xstrdup("Cannot read the TRES table");
		return -1;
	}
	r->tres_name = xstrdup(dbd_tres_list_name(&l, r->tres));
	dbd_tres_list_free(&l);
	if (!r->tres_name) {
		resp->msg = xstrdup_printf("Unknown TRES id %u", r->tres);
		return -1;
	}
	return 0;
}

void dbd_report_handle(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		       const dbd_report_msg_t *req, table_resp_msg_t *resp)
{
	static const char *const cols[] = DBD_REPORT_COLS;
	rep_t r = { .db = db, .req = req, .now = time(NULL),
		    .tres = req->tres_id ? req->tres_id : DBD_TRES_CPU };
	int rc;

	if (check(req, resp) < 0) {
		resp->rc = SLURM_ERROR;
		return;
	}
	r.users = xstrarray_dup(req->users);
	if (dbd_private_limits(db, ctx, DBD_PRIVATE_USAGE)) {
		if (req->report == DBD_REPORT_CLUSTER) {
			resp->rc = ESLURM_ACCESS_DENIED;
			xstrarray_free(r.users);
			return;
		}
		r.priv = true;
		r.priv_uid = ctx->uid;
	}
	r.start = req->start;
	r.end = req->end < r.now ? req->end : r.now;
	if (r.end < r.start)
		r.end = r.start;
	if (req->report == DBD_REPORT_RESV) {
		static const char *const rcols[] = DBD_REPORT_RESV_COLS;

		xstrarray_free(r.users);
		if (r.priv) {           /* as cluster Utilization */
			resp->rc = ESLURM_ACCESS_DENIED;
			return;
		}
		if (dbd_report_resv(db, req->cluster, r.start, r.end, r.now,
				    &resp->cells) < 0) {
			xstrarray_free(resp->cells);
			resp->cells = NULL;
			resp->rc = ESLURM_DB_CONNECTION;
			return;
		}
		resp->cols = xstrarray_dup((char *const *)rcols);
		return;
	}
	if (tres_known(&r, resp) < 0) {
		resp->rc = SLURM_ERROR;
		xstrarray_free(r.users);
		return;
	}
	switch (req->report) {
	case DBD_REPORT_CLUSTER:
		rc = cluster_report(&r);
		break;
	case DBD_REPORT_ASSOC:
		rc = capacity(&r) < 0 || account_tree(&r) < 0 ||
		     uses(&r) < 0 ? -1 : 0;
		break;
	case DBD_REPORT_WCKEY:
		rc = capacity(&r) < 0 || keyed(&r, "wuse") < 0 ? -1 : 0;
		break;
	case DBD_REPORT_WCKEY_SIZES:
		rc = capacity(&r) < 0 || account_tree(&r) < 0 ||
		     keyed(&r, "wsize") < 0 ? -1 : 0;
		break;
	case DBD_REPORT_QOS:
		rc = capacity(&r) < 0 || account_tree(&r) < 0 ||
		     keyed(&r, "quse") < 0 ? -1 : 0;
		break;
	default:
		rc = capacity(&r) < 0 || account_tree(&r) < 0 ||
		     sizes(&r) < 0 ? -1 : 0;
	}
	xstrarray_free(r.users);
	xfree(r.tres_name);
	dbd_rows_free(&r.r_use);
	if (rc < 0) {
		for (size_t i = 0; i < r.ncells; i++)
			xfree(r.cells[i]);
		xfree(r.cells);
		resp->rc = ESLURM_DB_CONNECTION;
		return;
	}
	resp->cols = xstrarray_dup((char *const *)cols);
	resp->cells = r.cells ? r.cells : xcalloc(1, sizeof(char *));
}
