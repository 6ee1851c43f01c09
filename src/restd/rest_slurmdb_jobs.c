/* rest_slurmdb_jobs.c — /slurmdb/v0.0.4N/ping, jobs and job/{job_id}:
 * slurmdbd's answer to sacct's query, as sacct --json prints it (the
 * same rows, walked through sacct's field table).  The query parameters
 * are sacct's filters (rest_dbd_query.h). */
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_ping.h"
#include "cli/cli_sacct.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_dbd.h"
#include "restd/rest_dbd_query.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

#define WHAT "slurmdb_jobs_get"

void rest_op_dbd_ping(rest_req_t *r)
{
	json_object *pings = json_object_new_array();
	bool up;

	json_object_array_add(pings, cli_ping_dbd(&up));
	json_object_object_add(r->resp, "pings", pings);
	if (!up)
		rest_error(r, ESLURM_DB_CONNECTION, "slurmdb_ping",
			   "slurmdbd at %s does not answer",
			   cli_conf()->accounting_storage_host ?
			   cli_conf()->accounting_storage_host : "localhost");
}

/* ---- the answer ---- */

typedef struct {
	json_object *list;
	bool         no_steps;
} add_arg_t;

static bool add_job(const sacct_row_t *row, void *arg)
{
	add_arg_t *a = arg;
	sacct_row_t jr = *row;

	if (a->no_steps)
		jr.nsteps = 0;
	json_object_array_add(a->list, sacct_json_row(&jr));
	return true;
}

static void jobs_answer(rest_req_t *r, rest_jobs_query_t *q)
{
	add_arg_t a = { .list = json_object_new_array(),
			.no_steps = q->cond.flags & DBD_JOBS_NO_STEPS };
	dbd_jobs_msg_t *m;

	json_object_object_add(r->resp, "jobs", a.list);
	if (rest_dbd_jobs(r, &q->cond, &m))
		return;
	sacct_rows_walk(m, q->cond.flags & DBD_JOBS_DUPLICATES, q->nodes,
			add_job, &a);
	msg_body_free(RESPONSE_DBD_JOBS, m);
}

void rest_op_dbd_jobs(rest_req_t *r)
{
	rest_jobs_query_t q = { 0 };
	char *err = NULL;

	q.cond.end = time(NULL);
	if (rest_jobs_query_parse(r->query, r->nquery, &q, &err) < 0) {
		json_object_object_add(r->resp, "jobs",
				       json_object_new_array());
		rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT, "%s", err);
	} else {
		jobs_answer(r, &q);
	}
	xfree(err);
	rest_jobs_query_free(&q);
}

void rest_op_dbd_job_get(rest_req_t *r)
{
	rest_jobs_query_t q = { 0 };
	char buf[64];
	json_object *jobs;

	if (rest_jobs_query_job_id(r->param[0], buf, sizeof(buf)) < 0 ||
	    strchr(r->param[0], '.')) {
		json_object_object_add(r->resp, "jobs",
				       json_object_new_array());
		rest_error(r, ESLURM_INVALID_JOB_ID, WHAT,
			   "Invalid job id %s", r->param[0]);
		return;
	}
	q.cond.job_ids = xstrarray_append(NULL, buf);
	q.cond.end = time(NULL);
	jobs_answer(r, &q);
	if (json_object_object_get_ex(r->resp, "jobs", &jobs) &&
	    !json_object_array_length(jobs) && r->status < 400)
		rest_error(r, ESLURM_INVALID_JOB_ID, WHAT,
			   "Unable to find JobId=%s", r->param[0]);
	rest_jobs_query_free(&q);
}
