/* dbd_query.c — sacct's job query (dbd_jobs.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/job_info.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_jobs.h"
#include "dbd/dbd_private.h"
#include "slurm/slurm_errno.h"

/* The column of each record member, by the member's name in
 * acct_job_rec_fields / acct_step_rec_fields. */
typedef struct {
	const char *member;
	const char *expr;
} col_t;

static const col_t job_cols[] = {
	{ "job_id", "t.id_job" }, { "array_job_id", "t.id_array_job" },
	{ "array_task_id", "t.id_array_task" }, { "name", "t.job_name" },
	{ "uid", "t.id_user" }, { "gid", "t.id_group" },
	{ "account", "t.account" }, { "partition", "t.`partition`" },
	{ "qos", "t.qos" }, { "state", "t.state" }, { "reason", "t.reason" },
	{ "requid", "t.requid" }, { "exit_code", "t.exit_code" },
	{ "derived_ec", "t.derived_ec" }, { "submit", "t.time_submit" },
	{ "eligible", "t.time_eligible" }, { "start", "t.time_start" },
	{ "end", "t.time_end" }, { "time_limit", "t.timelimit" },
	{ "nodes", "t.nodelist" }, { "num_nodes", "t.nodes_alloc" },
	{ "num_cpus", "t.cpus_alloc" }, { "req_cpus", "t.cpus_req" },
	{ "tres_alloc", "t.tres_alloc" }, { "tres_req", "t.tres_req" },
	{ "req_mem", "t.req_mem" }, { "mem_per_cpu", "t.mem_per_cpu" },
	{ "work_dir", "t.work_dir" }, { "comment", "t.comment" },
	{ "submit_line", "t.submit_line" },
	{ "constraints", "t.constraints" },
	{ "restart_cnt", "t.restart_cnt" }, { "priority", "t.priority" },
	{ "cluster", "t.cluster" }, { "array_task_str", "t.array_task_str" },
	{ "container", "t.container" },
	{ "wckey", "t.wckey" }, { "wckey_id", "t.id_wckey" },
	{ "resv_id", "t.id_resv" },
	{ "het_job_id", "t.het_job_id" },
	{ "het_job_offset", "t.het_job_offset" },
	/* a job suspended now: seconds up to now (acct_rec.h) */
	{ "time_suspended", "IF(t.state & 255 = 2 AND t.time_suspended > 0, "
	  "GREATEST(UNIX_TIMESTAMP() - t.time_suspended, 0), "
	  "t.time_suspended)" },
	{ NULL, NULL }
};

static const col_t step_cols[] = {
	{ "job_id", "t.id_job" }, { "submit", "t.time_submit" },
	{ "step_id", "s.id_step" }, { "name", "s.step_name" },
	{ "start", "s.time_start" }, { "end", "s.time_end" },
	{ "state", "s.state" }, { "exit_code", "s.exit_code" },
	{ "requid", "s.requid" }, { "nodes", "s.nodelist" },
	{ "num_nodes", "s.nodes_alloc" }, { "ntasks", "s.tasks" },
	{ "num_cpus", "s.cpus_alloc" }, { "tres_alloc", "s.tres_alloc" },
	{ "user_usec", "s.user_sec * 1000000 + s.user_usec" },
	{ "sys_usec", "s.sys_sec * 1000000 + s.sys_usec" },
	{ "max_rss_kb", "s.max_rss" }, { "max_vsize_kb", "s.max_vsize" },
	{ "ave_rss_kb", "s.ave_rss" }, { "ave_vsize_kb", "s.ave_vsize" },
	{ "consumed_energy", "s.consumed_energy" },
	{ "container", "s.container" },
	{ NULL, NULL }
};

#define MAX_COLS 64

/* The members a query reads, in the order it selects them. */
typedef struct {
	const field_desc_t *f[MAX_COLS];
	size_t              n;
} cols_t;

typedef struct {
	dbd_db_t            *db;
	const dbd_job_cond_msg_t *c;
	dbd_jobs_msg_t      *resp;
	char                *sql;
} query_t;

/* "col IN ('a','b')" for a list of strings. */
static void add_in(query_t *q, const char *col, char **vals)
{
	if (!vals || !vals[0])
		return;
	xstrcat(&q->sql, " AND ");
	dbd_db_in(q->db, &q->sql, col, vals);
}

/* Lists of numbers: each must be one. */
static int add_in_num(query_t *q, const char *col, char **vals)
{
	uint32_t v;

	if (!vals || !vals[0])
		return 0;
	xstrfmtcat(&q->sql, " AND %s IN (", col);
	for (size_t i = 0; vals[i]; i++) {
		if (parse_u32(vals[i], &v) < 0)
			return -1;
		xstrfmtcat(&q->sql, "%s%u", i ? "," : "", v);
	}
	xstrcatc(&q->sql, ')');
	return 0;
}

/* "123" = the job, or every task of array 123; "123_4" = one task. */
static int add_job_ids(query_t *q)
{
	char **ids = q->c->job_ids;

	if (!ids || !ids[0])
		return 0;
	xstrcat(&q->sql, " AND (");
	for (size_t i = 0; ids[i]; i++) {
		char *us = strchr(ids[i], '_');
		uint32_t job, task;

		if (i)
			xstrcat(&q->sql, " OR ");
		if (us) {
			char *head = xstrndup(ids[i], us - ids[i]);
			int bad = parse_u32(head, &job) < 0 ||
				  parse_u32(us + 1, &task) < 0;

			xfree(head);
			if (bad)
				return -1;
			xstrfmtcat(&q->sql, "(t.id_array_job=%u AND "
				   "t.id_array_task=%u)", job, task);
		} else {
			if (parse_u32(ids[i], &job) < 0)
				return -1;
			xstrfmtcat(&q->sql, "t.id_job=%u OR t.id_array_job=%u "
				   "OR t.het_job_id=%u", job, job, job);
		}
	}
	xstrcatc(&q->sql, ')');
	return 0;
}

/* A job matches a state if it was in that state during [start, end]. */
static int add_states(query_t *q, time_t start, time_t end)
{
	char **st = q->c->states;

	xstrcat(&q->sql, " AND (");
	for (size_t i = 0; st[i]; i++) {
		uint32_t s;

		if (parse_u32(st[i], &s) < 0 || s >= JOB_END)
			return -1;
		if (i)
			xstrcat(&q->sql, " OR ");
		switch (s) {
		case JOB_PENDING:
			xstrfmtcat(&q->sql, "(t.time_eligible AND "
				   "t.time_eligible <= %" PRId64 " AND "
				   "(t.time_start = 0 OR t.time_start >= %"
				   PRId64 ") AND (t.time_end = 0 OR "
				   "t.time_end >= %" PRId64 "))",
				   (int64_t)end, (int64_t)start,
				   (int64_t)start);
			break;
		case JOB_RUNNING:
		case JOB_SUSPENDED:
			xstrfmtcat(&q->sql, "(t.time_start AND t.time_start "
				   "<= %" PRId64 " AND (t.time_end = 0 OR "
				   "t.time_end >= %" PRId64 "))",
				   (int64_t)end, (int64_t)start);
			break;
		default:
			xstrfmtcat(&q->sql, "(t.state=%u AND t.time_end "
				   "BETWEEN %" PRId64 " AND %" PRId64 ")",
				   s, (int64_t)start, (int64_t)end);
		}
	}
	xstrcatc(&q->sql, ')');
	return 0;
}

static int build_where(query_t *q)
{
	const dbd_job_cond_msg_t *c = q->c;
	time_t end = c->end ? c->end : time(NULL);

	if (c->cluster && c->cluster[0]) {     /* "a" or "a,b" */
		char **names = xstrsplit(c->cluster, ",", NULL);

		add_in(q, "t.cluster", names);
		xstrarray_free(names);
	}
	if (add_job_ids(q) < 0 || add_in_num(q, "t.id_user", c->users) < 0 ||
	    add_in_num(q, "t.id_group", c->gids) < 0)
		return -1;
	add_in(q, "t.account", c->accounts);
	add_in(q, "t.`partition`", c->partitions);
	add_in(q, "t.qos", c->qos);
	add_in(q, "t.job_name", c->names);
	if (c->states && c->states[0])
		return add_states(q, c->start, end);
	/* In the system during the window; without ids, eligible only. */
	if (!c->job_ids || !c->job_ids[0])
		xstrcat(&q->sql, " AND t.time_eligible != 0");
	xstrfmtcat(&q->sql, " AND t.time_submit <= %" PRId64 " AND "
		   "(t.time_end = 0 OR t.time_end >= %" PRId64 ")",
		   (int64_t)end, (int64_t)c->start);
	return 0;
}

static const char *col_expr(const col_t *cols, const char *member)
{
	for (; cols->member; cols++)
		if (!strcmp(cols->member, member))
			return cols->expr;
	return NULL;
}

/* "SELECT a, b, c" of the chosen members of table f into *sql, the
 * members into *out.  -1 if one has no column (a table and its columns
 * that drifted apart: logged). */
static int select_cols(const field_desc_t *f, const col_t *cols,
		       const fields_sel_t *sel, char **sql, cols_t *out)
{
	bool all = fields_sel_is_all(sel);

	out->n = 0;
	xstrcat(sql, "SELECT ");
	for (size_t i = 0; f[i].name && i < FIELDS_SEL_MAX; i++) {
		const char *expr;

		if (!all && !(sel->w[i / 64] >> (i % 64) & 1))
			continue;
		if (!(expr = col_expr(cols, f[i].name)) || out->n == MAX_COLS) {
			error("sacct query: no column for %s", f[i].name);
			return -1;
		}
		xstrfmtcat(sql, "%s%s", out->n ? ", " : "", expr);
		out->f[out->n++] = &f[i];
	}
	if (!out->n)   /* a selection of members none of which exists */
		xstrcat(sql, "1");
	return 0;
}

/* One cell into its member (text as MariaDB sends numbers). */
static void set_member(void *rec, const field_desc_t *f, const char *v)
{
	char *p = (char *)rec + f->offset;

	switch (f->type) {
	case FT_U32:    /* step ids are stored signed: -5 wraps as before */
		*(uint32_t *)p = (uint32_t)strtoll(v, NULL, 10);
		break;
	case FT_U64:
		*(uint64_t *)p = strtoull(v, NULL, 10);
		break;
	case FT_TIME:
		*(time_t *)p = (time_t)strtoll(v, NULL, 10);
		break;
	case FT_BOOL:
		*(bool *)p = strtoll(v, NULL, 10) != 0;
		break;
	case FT_STR:
		*(char **)p = *v ? xstrdup(v) : NULL;
		break;
	default:        /* no such member in these records */
		break;
	}
}

/* Rows into a growing array of records of size bytes. */
typedef struct {
	const cols_t *c;
	size_t        size;
	char         *recs;
	uint32_t      cnt;
	uint32_t      cap;
} fill_t;

static void fill_row(void *arg, const char *const *cells, uint32_t cols)
{
	fill_t *f = arg;
	char *rec;

	if (f->cnt + 1 >= f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 1024;

		f->recs = xrealloc_sz(f->recs, f->cap * f->size, cap * f->size);
		f->cap = cap;
	}
	rec = f->recs + (size_t)f->cnt++ * f->size;
	for (size_t k = 0; k < f->c->n && k < cols; k++)
		set_member(rec, f->c->f[k], cells[k]);
}

/* SELECT sql into records; *cnt of them, zeroed past them. */
static void *select_recs(dbd_db_t *db, const char *sql, const cols_t *c,
			 size_t size, uint32_t *cnt, int *rc)
{
	fill_t f = { .c = c, .size = size };

	*rc = dbd_db_select_each(db, sql, fill_row, &f);
	*cnt = f.cnt;
	return f.recs ? f.recs : xcalloc(1, size);
}

/* Steps of one job in step order (batch and extern, stored negative,
 * first): the query orders jobs only, so that MariaDB reads them in
 * index order and joins each job's steps without sorting the lot; they
 * come in primary key order already, this only makes sure. */
static void order_steps(acct_step_rec_t *s, uint32_t cnt)
{
	for (uint32_t i = 1; i < cnt; i++) {
		acct_step_rec_t x = s[i];
		uint32_t k = i;

		while (k > 0 && s[k - 1].job_id == x.job_id &&
		       s[k - 1].submit == x.submit &&
		       (int32_t)s[k - 1].step_id > (int32_t)x.step_id) {
			s[k] = s[k - 1];
			k--;
		}
		s[k] = x;
	}
}

/* A plain window (no ids, users, names or states, which have their own
 * indexes) over the named clusters? */
static bool plain_window(const dbd_job_cond_msg_t *c)
{
	return !(c->job_ids && c->job_ids[0]) && !(c->users && c->users[0]) &&
	       !(c->names && c->names[0]) && !(c->states && c->states[0]) &&
	       c->cluster && c->cluster[0];
}

/* The window's rows by span class (schema v22, dbd_db.c): a job that
 * ended at or after start took less than 2^k seconds from submit to end
 * (class k), so it was submitted after start - 2^k; still in the system
 * (class 0), submitted before end.  A conjunct every row of the window
 * meets (the same rows), which job_window (cluster, span_cls,
 * time_submit, time_end, ...: v22's job_span, then what the window's test
 * and a short -X format read, so those read no row) reads as one range
 * per class. */
static void span_bound(char **sql, time_t start, time_t end)
{
	xstrfmtcat(sql, " AND ((t.span_cls = 0 AND t.time_submit <= %" PRId64
		   ")", (int64_t)end);
	for (int k = 1; k < 64; k++) {
		int64_t lo = (int64_t)start - ((int64_t)1 << k);

		if (k == 63 || lo <= 0) {
			xstrfmtcat(sql, " OR (t.span_cls >= %d AND "
				   "t.time_submit <= %" PRId64 ")", k,
				   (int64_t)end);
			break;
		}
		xstrfmtcat(sql, " OR (t.span_cls = %d AND t.time_submit "
			   "BETWEEN %" PRId64 " AND %" PRId64 ")", k, lo,
			   (int64_t)end);
	}
	xstrcatc(sql, ')');
}

/* The table of a plain window, and (*bound) the conjunct that makes
 * its range: job_window's class ranges (span_bound()), unless the window
 * holds most of the records (from the first submit to now, taken as
 * evenly spread), when job_submit_id reads them in the order wanted
 * without a sort.  (Before v22: job_end, the jobs that ended since the
 * window's start and those still running, or job_submit_id, those
 * submitted before its end; 1.3-1.9 s for a one-day window over
 * 1,000,000 jobs, tests/perf/bench_acct.py.) */
static char *jobs_table(dbd_db_t *db, const dbd_job_cond_msg_t *c,
			char **bound)
{
	time_t now = time(NULL), end = c->end ? c->end : now, first;
	char **names, *sql = NULL;
	dbd_rows_t r;
	int rc;

	if (!plain_window(c))
		return xstrdup("job_table t");
	names = xstrsplit(c->cluster, ",", NULL);
	xstrcat(&sql, "SELECT MIN(time_submit) FROM job_table WHERE ");
	dbd_db_in(db, &sql, "cluster", names);
	xstrarray_free(names);
	rc = dbd_db_select(db, sql, &r);
	xfree(sql);
	if (rc < 0)
		return xstrdup("job_table t");
	first = r.rows && dbd_rows_get(&r, 0, 0) ?
		(time_t)strtoll(dbd_rows_get(&r, 0, 0), NULL, 10) : now;
	dbd_rows_free(&r);
	if (c->start <= first || 2 * (end - c->start) >= now - first)
		return xstrdup("job_table t FORCE INDEX (job_submit_id)");
	span_bound(bound, c->start, end);
	return xstrdup("job_table t FORCE INDEX (job_window)");
}

/* The steps of the jobs selected by where (no list of ids: a sacct over
 * 100,000 jobs would send a statement that large). */
static int load_steps(query_t *q, const char *table, const char *where)
{
	fields_sel_t *sel = &q->resp->step_fields;
	cols_t c;
	char *sql = NULL;
	int rc;

	if (!fields_sel_is_all(sel) &&
	    fields_sel_add_list(sel, acct_step_rec_fields,
				"job_id,submit,step_id") < 0)
		return -1;
	if (select_cols(acct_step_rec_fields, step_cols, sel, &sql, &c) < 0) {
		xfree(sql);
		return -1;
	}
	xstrfmtcat(&sql, " FROM %s STRAIGHT_JOIN step_table s ON "
		   "t.job_db_inx = s.job_db_inx WHERE 1%s ORDER BY "
		   "t.time_submit, t.id_job", table, where);
	q->resp->steps = select_recs(q->db, sql, &c, sizeof(acct_step_rec_t),
				     &q->resp->step_cnt, &rc);
	xfree(sql);
	order_steps(q->resp->steps, q->resp->step_cnt);
	return rc;
}

/* The stored scripts and environments of the jobs selected by where
 * (sacct -B / -E), keyed by each job's id and submit time; an array
 * task's are its array's. */
static int load_scripts(query_t *q, const char *where)
{
	static const char *const names[] = { "job_id", "submit", "script",
					     "env" };
	bool script = q->c->flags & DBD_JOBS_SCRIPT;
	bool env = q->c->flags & DBD_JOBS_ENV;
	cols_t c = { .n = 0 };
	char *sql;
	int rc;

	for (size_t i = 0; i < 4; i++)
		for (size_t k = 0; acct_script_rec_fields[k].name; k++)
			if (!strcmp(acct_script_rec_fields[k].name, names[i]))
				c.f[c.n++] = &acct_script_rec_fields[k];
	sql = xstrdup_printf("SELECT t.id_job, t.time_submit, %s, %s FROM "
			     "job_table t STRAIGHT_JOIN job_script_table sc "
			     "ON sc.cluster = t.cluster AND sc.id_job = "
			     "IF(t.id_array_job, t.id_array_job, t.id_job) "
			     "AND sc.time_submit = t.time_submit WHERE 1%s "
			     "ORDER BY t.time_submit, t.id_job",
			     script ? "sc.script" : "NULL",
			     env ? "sc.env" : "NULL", where);
	q->resp->scripts = select_recs(q->db, sql, &c,
				       sizeof(acct_script_rec_t),
				       &q->resp->script_cnt, &rc);
	xfree(sql);
	return rc;
}

char *dbd_jobs_where(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		     const dbd_job_cond_msg_t *req)
{
	query_t q = { .db = db, .c = req };

	q.sql = xstrdup("");
	if (build_where(&q) < 0) {
		xfree(q.sql);
		return NULL;
	}
	/* PrivateData=jobs: a user sees their own jobs, and a coordinator
	 * those of its accounts (and below). */
	if (dbd_private_limits(db, ctx, DBD_PRIVATE_JOBS)) {
		char *mine = xstrdup_printf("t.id_user=%u",
					    (unsigned)ctx->uid);

		dbd_private_where(db, ctx->uid, mine, "t.account", &q.sql);
		xfree(mine);
	}
	return q.sql;
}

/* The jobs the conditions select, then (unless -X) their steps: only the
 * members the request chose, selected, filled and (by the caller)
 * packed. */
void dbd_jobs_query(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		    const dbd_job_cond_msg_t *req, dbd_jobs_msg_t *resp)
{
	query_t q = { .db = db, .c = req, .resp = resp };
	cols_t c;
	char *where, *sql = NULL, *table = NULL, *bound = NULL;
	int rc;

	resp->job_fields = req->job_fields;
	resp->step_fields = req->step_fields;
	/* MaxQueryTimeRange: a window too wide (not a query by job id) */
	if (ctx->conf && ctx->conf->max_query_range && !req->job_ids &&
	    (req->end ? req->end : time(NULL)) - req->start >
	    (time_t)ctx->conf->max_query_range) {
		resp->rc = ESLURM_DB_QUERY_TOO_WIDE;
		return;
	}
	if (!(where = dbd_jobs_where(db, ctx, req))) {
		resp->rc = SLURM_ERROR;
		return;
	}
	if (select_cols(acct_job_rec_fields, job_cols, &req->job_fields,
			&sql, &c) < 0) {
		resp->rc = SLURM_ERROR;
		goto out;
	}
	bound = xstrdup(where);
	table = jobs_table(db, req, &bound);
	xstrfmtcat(&sql, " FROM %s WHERE 1%s ORDER BY "
		   "t.time_submit, t.id_job", table, bound);
	resp->jobs = select_recs(db, sql, &c, sizeof(acct_job_rec_t),
				 &resp->job_cnt, &rc);
	if (rc < 0) {
		resp->rc = ESLURM_DB_CONNECTION;
		goto out;
	}
	if (!(req->flags & DBD_JOBS_NO_STEPS) && resp->job_cnt &&
	    load_steps(&q, table, bound) < 0)
		resp->rc = ESLURM_DB_CONNECTION;
	if (req->flags & (DBD_JOBS_SCRIPT | DBD_JOBS_ENV) && resp->job_cnt &&
	    load_scripts(&q, where) < 0)
		resp->rc = ESLURM_DB_CONNECTION;
out:
	xfree(sql);
	xfree(where);
	xfree(bound);
	xfree(table);
}
