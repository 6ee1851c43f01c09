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

/* Selected in this order; job_db_inx last (for the steps). */
#define JOB_SELECT \
	"SELECT t.id_job, t.id_array_job, t.id_array_task, t.job_name, " \
	"t.id_user, t.id_group, t.account, t.`partition`, t.qos, t.state, " \
	"t.reason, t.requid, t.exit_code, t.derived_ec, t.time_submit, " \
	"t.time_eligible, t.time_start, t.time_end, t.timelimit, " \
	"t.nodelist, t.nodes_alloc, t.cpus_alloc, t.cpus_req, " \
	"t.tres_alloc, t.tres_req, t.req_mem, t.mem_per_cpu, t.work_dir, " \
	"t.comment, t.submit_line, t.constraints, t.restart_cnt, " \
	"t.priority, t.cluster, t.array_task_str, t.job_db_inx " \
	"FROM job_table t WHERE 1"

/* The steps of the jobs the same conditions select (on t). */
#define STEP_SELECT \
	"SELECT t.id_job, t.time_submit, s.id_step, s.step_name, " \
	"s.time_start, s.time_end, s.state, s.exit_code, s.requid, " \
	"s.nodelist, s.nodes_alloc, s.tasks, s.cpus_alloc, s.tres_alloc, " \
	"s.user_sec * 1000000 + s.user_usec, " \
	"s.sys_sec * 1000000 + s.sys_usec, s.max_rss, s.max_vsize, " \
	"s.ave_rss, s.ave_vsize, s.consumed_energy FROM step_table s " \
	"JOIN job_table t ON " \
	"t.job_db_inx = s.job_db_inx WHERE 1"

typedef struct {
	dbd_db_t            *db;
	const dbd_job_cond_msg_t *c;
	dbd_jobs_msg_t      *resp;
	char                *sql;
} query_t;

static uint32_t u32(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	return (uint32_t)strtoul(dbd_rows_get(r, row, col), NULL, 10);
}

static uint64_t u64(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	return strtoull(dbd_rows_get(r, row, col), NULL, 10);
}

static time_t tm(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	return (time_t)strtoll(dbd_rows_get(r, row, col), NULL, 10);
}

static char *str(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	const char *v = dbd_rows_get(r, row, col);

	return *v ? xstrdup(v) : NULL;
}

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
			xstrfmtcat(&q->sql, "t.id_job=%u OR t.id_array_job=%u",
				   job, job);
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

	if (c->cluster && c->cluster[0]) {
		xstrcat(&q->sql, " AND t.cluster=");
		dbd_db_quote(q->db, &q->sql, c->cluster);
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

static void fill_job(acct_job_rec_t *j, const dbd_rows_t *r, uint32_t i)
{
	j->job_id = u32(r, i, 0);
	j->array_job_id = u32(r, i, 1);
	j->array_task_id = u32(r, i, 2);
	j->name = str(r, i, 3);
	j->uid = u32(r, i, 4);
	j->gid = u32(r, i, 5);
	j->account = str(r, i, 6);
	j->partition = str(r, i, 7);
	j->qos = str(r, i, 8);
	j->state = u32(r, i, 9);
	j->reason = u32(r, i, 10);
	j->requid = u32(r, i, 11);
	j->exit_code = u32(r, i, 12);
	j->derived_ec = u32(r, i, 13);
	j->submit = tm(r, i, 14);
	j->eligible = tm(r, i, 15);
	j->start = tm(r, i, 16);
	j->end = tm(r, i, 17);
	j->time_limit = u32(r, i, 18);
	j->nodes = str(r, i, 19);
	j->num_nodes = u32(r, i, 20);
	j->num_cpus = u32(r, i, 21);
	j->req_cpus = u32(r, i, 22);
	j->tres_alloc = str(r, i, 23);
	j->tres_req = str(r, i, 24);
	j->req_mem = u64(r, i, 25);
	j->mem_per_cpu = u32(r, i, 26) != 0;
	j->work_dir = str(r, i, 27);
	j->comment = str(r, i, 28);
	j->submit_line = str(r, i, 29);
	j->constraints = str(r, i, 30);
	j->restart_cnt = u32(r, i, 31);
	j->priority = u32(r, i, 32);
	j->cluster = str(r, i, 33);
	j->array_task_str = str(r, i, 34);
}

static void fill_step(acct_step_rec_t *s, const dbd_rows_t *r, uint32_t i)
{
	s->job_id = u32(r, i, 0);
	s->submit = tm(r, i, 1);
	s->step_id = (uint32_t)strtol(dbd_rows_get(r, i, 2), NULL, 10);
	s->name = str(r, i, 3);
	s->start = tm(r, i, 4);
	s->end = tm(r, i, 5);
	s->state = u32(r, i, 6);
	s->exit_code = u32(r, i, 7);
	s->requid = u32(r, i, 8);
	s->nodes = str(r, i, 9);
	s->num_nodes = u32(r, i, 10);
	s->ntasks = u32(r, i, 11);
	s->num_cpus = u32(r, i, 12);
	s->tres_alloc = str(r, i, 13);
	s->user_usec = u64(r, i, 14);
	s->sys_usec = u64(r, i, 15);
	s->max_rss_kb = u64(r, i, 16);
	s->max_vsize_kb = u64(r, i, 17);
	s->ave_rss_kb = u64(r, i, 18);
	s->ave_vsize_kb = u64(r, i, 19);
	s->consumed_energy = u64(r, i, 20);
}

/* The steps of the jobs selected by where (no list of ids: a sacct over
 * 100,000 jobs would send a statement that large). */
static int load_steps(query_t *q, const dbd_rows_t *jobs, const char *where)
{
	dbd_rows_t r;
	char *sql;
	int rc;

	if (!jobs->rows)
		return 0;
	sql = xstrdup_printf("%s%s ORDER BY t.time_submit, t.id_job, "
			     "s.id_step", STEP_SELECT, where);
	rc = dbd_db_select(q->db, sql, &r);
	xfree(sql);
	if (rc < 0)
		return -1;
	q->resp->steps = xcalloc(r.rows + 1, sizeof(acct_step_rec_t));
	for (uint32_t i = 0; i < r.rows; i++)
		fill_step(&q->resp->steps[i], &r, i);
	q->resp->step_cnt = r.rows;
	dbd_rows_free(&r);
	return 0;
}

void dbd_jobs_query(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		    const dbd_job_cond_msg_t *req, dbd_jobs_msg_t *resp)
{
	query_t q = { .db = db, .c = req, .resp = resp };
	dbd_rows_t r;
	char *where;
	int rc;

	q.sql = xstrdup("");
	rc = build_where(&q);
	/* PrivateData=jobs: a user sees their own jobs, and a coordinator
	 * those of its accounts (and below). */
	if (rc == 0 && dbd_private_limits(db, ctx, DBD_PRIVATE_JOBS)) {
		char *mine = xstrdup_printf("t.id_user=%u",
					    (unsigned)ctx->uid);

		dbd_private_where(db, ctx->uid, mine, "t.account", &q.sql);
		xfree(mine);
	}
	if (rc < 0) {
		resp->rc = SLURM_ERROR;
		xfree(q.sql);
		return;
	}
	where = q.sql;
	q.sql = xstrdup_printf("%s%s ORDER BY t.time_submit, t.id_job",
			       JOB_SELECT, where);
	if (dbd_db_select(db, q.sql, &r) < 0) {
		resp->rc = ESLURM_DB_CONNECTION;
		xfree(q.sql);
		xfree(where);
		return;
	}
	xfree(q.sql);
	resp->jobs = xcalloc(r.rows + 1, sizeof(acct_job_rec_t));
	for (uint32_t i = 0; i < r.rows; i++)
		fill_job(&resp->jobs[i], &r, i);
	resp->job_cnt = r.rows;
	if (!(req->flags & DBD_JOBS_NO_STEPS) && load_steps(&q, &r, where) < 0)
		resp->rc = ESLURM_DB_CONNECTION;
	xfree(where);
	dbd_rows_free(&r);
}
