/* rest_sluice.c — Sluice's own endpoints (/sluice/v1/, doc/rest.md
 * "Sluice endpoints"): what Slurm's references have no operation for.
 *
 * GET /sluice/v1/job/{job_id}/metrics: the run tracking values of a job
 * (or of every task of an array), the document of
 * `sacct -j {job_id} --metrics --json`.
 *
 * GET /sluice/v1/job/{job_id}/profile: the usage samples of a profiled
 * job (--profile=task), the document of `sacct -j {job_id} --profile
 * --json`; only the job's user and Operators see them.
 *
 * POST /sluice/v1/job/{job_id}/requeue: `scontrol requeue {job_id}`, or
 * with the body {"hold": true} `scontrol requeuehold {job_id}`; the
 * controller decides as for scontrol (the job's user or an operator,
 * batch jobs only, JobRequeue). */
#include <string.h>
#include <time.h>

#include "cli/cli_sacct.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_ctld.h"
#include "restd/rest_dbd_query.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

#define WHAT "sluice_job_metrics"

void rest_op_sluice_job_metrics(rest_req_t *r)
{
	dbd_job_cond_msg_t cond = { 0 };
	json_object *list = json_object_new_array();
	dbd_track_msg_t *m = NULL;
	char buf[64];
	int rc;

	json_object_object_add(r->resp, "metrics", list);
	if (rest_jobs_query_job_id(r->param[0], buf, sizeof(buf)) < 0) {
		rest_error(r, ESLURM_INVALID_JOB_ID, WHAT, "Invalid job id %s",
			   r->param[0]);
		return;
	}
	/* "123_4": that task only; "123": the job or every task */
	cond.job_ids = xstrarray_append(NULL, r->param[0]);
	cond.end = time(NULL);
	rc = sacct_track_query(&cond, &m);
	xstrarray_free(cond.job_ids);
	if (rc) {
		rest_error(r, rc == ESLURM_ACCESS_DENIED ? rc :
			   ESLURM_DB_CONNECTION, WHAT,
			   "Problem talking to the database: %s",
			   slurm_strerror(rc));
		return;
	}
	for (uint32_t i = 0; i < m->cnt; i++)
		json_object_array_add(list, sacct_track_json(&m->recs[i]));
	msg_body_free(RESPONSE_DBD_TRACK, m);
}

void rest_op_sluice_job_profile(rest_req_t *r)
{
	dbd_job_cond_msg_t cond = { 0 };
	json_object *list = json_object_new_array();
	dbd_profile_msg_t *m = NULL;
	char buf[64];
	int rc;

	json_object_object_add(r->resp, "profile", list);
	if (rest_jobs_query_job_id(r->param[0], buf, sizeof(buf)) < 0) {
		rest_error(r, ESLURM_INVALID_JOB_ID, "sluice_job_profile",
			   "Invalid job id %s", r->param[0]);
		return;
	}
	cond.job_ids = xstrarray_append(NULL, r->param[0]);
	cond.end = time(NULL);
	rc = sacct_profile_query(&cond, &m);
	xstrarray_free(cond.job_ids);
	if (rc) {
		rest_error(r, rc == ESLURM_ACCESS_DENIED ? rc :
			   ESLURM_DB_CONNECTION, "sluice_job_profile",
			   "Problem talking to the database: %s",
			   slurm_strerror(rc));
		return;
	}
	for (uint32_t i = 0; i < m->cnt; i++)
		json_object_array_add(list, sacct_profile_json(&m->recs[i]));
	msg_body_free(RESPONSE_DBD_PROFILE, m);
}

/* {"hold": bool} or nothing; any other member is refused (400). */
static int requeue_flags(rest_req_t *r, uint32_t *flags)
{
	json_object *body, *v;
	const char *bad = NULL;

	*flags = 0;
	if (!r->body_len)
		return 0;
	if (!(body = rest_ctld_body(r, "slurm_requeue")))
		return -1;
	if (!json_object_is_type(body, json_type_object)) {
		bad = "the body must be an object such as {\"hold\": true}";
	} else {
		json_object_object_foreach(body, k, val) {
			(void) val;
			if (strcmp(k, "hold"))
				bad = "unknown member: only \"hold\" is taken";
		}
		if (!bad && json_object_object_get_ex(body, "hold", &v)) {
			if (!json_object_is_type(v, json_type_boolean))
				bad = "hold must be true or false";
			else if (json_object_get_boolean(v))
				*flags |= REQUEUE_HOLD;
		}
	}
	json_object_put(body);
	if (bad) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, "slurm_requeue", "%s",
			   bad);
		return -1;
	}
	return 0;
}

void rest_op_sluice_job_requeue(rest_req_t *r)
{
	char buf[64];
	requeue_msg_t m = { 0 };

	if (rest_jobs_query_job_id(r->param[0], buf, sizeof(buf)) < 0) {
		rest_error(r, ESLURM_INVALID_JOB_ID, "slurm_requeue",
			   "Invalid job id %s", r->param[0]);
		return;
	}
	if (requeue_flags(r, &m.flags) < 0)
		return;
	m.job_id_str = r->param[0];
	(void) rest_ctld_rc(r, REQUEST_JOB_REQUEUE, &m, "slurm_requeue");
}
