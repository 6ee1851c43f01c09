/* dbd_report.c — sreport's usage figures from the records (dbd_report.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_private.h"
#include "dbd/dbd_report.h"
#include "slurm/slurm_errno.h"

typedef struct {
	dbd_db_t               *db;
	const dbd_report_msg_t *req;
	char                  **users;    /* uid filter (may be replaced) */
	int64_t                 start;
	int64_t                 end;      /* min(end, now) */
	int64_t                 now;
	char                  **cells;
	size_t                  ncells, cap;
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

/* "cpu=N,..." -> N */
static uint64_t tres_cpus(const char *tres)
{
	const char *p = tres ? strstr(tres, "cpu=") : NULL;

	if (!p || (p != tres && p[-1] != ','))
		return 0;
	return strtoull(p + 4, NULL, 10);
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
		uint64_t n = tres_cpus(dbd_rows_get(&rows, i, 2));

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

/* SQL for a job's CPU-seconds allocated inside the window. */
static void alloc_expr(rep_t *r, char **sql)
{
	xstrfmtcat(sql, "SUM(t.cpus_alloc * GREATEST(0, LEAST(IF(t.time_end"
		   "=0, %" PRId64 ", t.time_end), %" PRId64 ") - GREATEST("
		   "t.time_start, %" PRId64 ")))", r->now, r->end, r->start);
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

/* CPU-seconds eligible jobs waited inside the window. */
static int waited(rep_t *r, uint64_t *out)
{
	char *sql = xstrdup_printf(
		"SELECT SUM(t.cpus_req * GREATEST(0, LEAST(IF(t.time_start"
		"=0, IF(t.time_end=0, %" PRId64 ", t.time_end), t.time_start), "
		"%" PRId64 ") - GREATEST(t.time_eligible, %" PRId64 "))) "
		"FROM job_table t WHERE t.cluster=", r->now, r->end, r->start);
	int rc;

	dbd_db_quote(r->db, &sql, r->req->cluster);
	xstrfmtcat(&sql, " AND t.time_eligible != 0 AND t.time_eligible < %"
		   PRId64, r->end);
	rc = one_number(r, sql, out);
	xfree(sql);
	return rc;
}

static int cluster_report(rep_t *r)
{
	uint64_t cap = 0, cpus = 0, down = 0, alloc = 0, plan = 0;
	char *sql = xstrdup("SELECT ");
	char n[32];
	int rc;

	alloc_expr(r, &sql);
	alloc_where(r, &sql);
	rc = one_number(r, sql, &alloc);
	xfree(sql);
	if (rc < 0 || events(r, true, &cap, &cpus) < 0 ||
	    events(r, false, &down, NULL) < 0 || waited(r, &plan) < 0)
		return -1;
	snprintf(n, sizeof(n), "%" PRIu64, cpus);
	row(r, "cap", NULL, NULL, NULL, n, cap, 0);
	row(r, "down", NULL, NULL, NULL, NULL, down, 0);
	row(r, "alloc", NULL, NULL, NULL, NULL, alloc, 0);
	row(r, "plan", NULL, NULL, NULL, NULL, plan, 0);
	return 0;
}

static int capacity(rep_t *r)
{
	uint64_t cap = 0, cpus = 0;
	char n[32];

	if (events(r, true, &cap, &cpus) < 0)
		return -1;
	snprintf(n, sizeof(n), "%" PRIu64, cpus);
	row(r, "cap", NULL, NULL, NULL, n, cap, 0);
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
static int grouped(rep_t *r, const char *kind, const char *key)
{
	dbd_rows_t rows;
	char *sql = xstrdup_printf("SELECT t.account, t.%s, ", key);
	bool by_uid = !strcmp(key, "id_user");

	alloc_expr(r, &sql);
	xstrcat(&sql, ", COUNT(*)");
	alloc_where(r, &sql);
	xstrfmtcat(&sql, " GROUP BY t.account, t.%s", key);
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		xfree(sql);
		return -1;
	}
	xfree(sql);
	for (uint32_t i = 0; i < rows.rows; i++)
		row(r, kind, dbd_rows_get(&rows, i, 0), NULL,
		    by_uid ? dbd_rows_get(&rows, i, 1) : NULL,
		    by_uid ? NULL : dbd_rows_get(&rows, i, 1),
		    strtoull(dbd_rows_get(&rows, i, 2), NULL, 10),
		    strtoull(dbd_rows_get(&rows, i, 3), NULL, 10));
	dbd_rows_free(&rows);
	return 0;
}

static int check(const dbd_report_msg_t *req, table_resp_msg_t *resp)
{
	uint32_t v;

	if (req->report < DBD_REPORT_CLUSTER ||
	    req->report > DBD_REPORT_JOB_SIZES) {
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

void dbd_report_handle(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		       const dbd_report_msg_t *req, table_resp_msg_t *resp)
{
	static const char *const cols[] = DBD_REPORT_COLS;
	rep_t r = { .db = db, .req = req, .now = time(NULL) };
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
		dbd_private_own_only(ctx, &r.users);
	}
	r.start = req->start;
	r.end = req->end < r.now ? req->end : r.now;
	if (r.end < r.start)
		r.end = r.start;
	switch (req->report) {
	case DBD_REPORT_CLUSTER:
		rc = cluster_report(&r);
		break;
	case DBD_REPORT_ASSOC:
		rc = capacity(&r) < 0 || account_tree(&r) < 0 ||
		     grouped(&r, "use", "id_user") < 0 ? -1 : 0;
		break;
	default:
		rc = capacity(&r) < 0 || account_tree(&r) < 0 ||
		     grouped(&r, "size", "cpus_alloc") < 0 ? -1 : 0;
	}
	xstrarray_free(r.users);
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
