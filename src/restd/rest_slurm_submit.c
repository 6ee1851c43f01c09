/* rest_slurm_submit.c — POST job/submit (a batch job, as sbatch submits
 * it) and POST job/{job_id} (changes, as scontrol update job and hold /
 * release send them).  The bodies are read by rest_job_desc.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_ctld.h"
#include "restd/rest_handlers.h"
#include "restd/rest_job_desc.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

static json_object *warnings_of(rest_req_t *r)
{
	json_object *w = NULL;

	if (!json_object_object_get_ex(r->resp, "warnings", &w)) {
		w = json_object_new_array();
		json_object_object_add(r->resp, "warnings", w);
	}
	return w;
}

static char *short_host(void)
{
	char h[256] = "";
	char *dot;

	if (gethostname(h, sizeof(h) - 1) < 0)
		return xstrdup("localhost");
	if ((dot = strchr(h, '.')))
		*dot = '\0';
	return xstrdup(h);
}

/* v0.0.40/41's result object beside the top-level members (the view
 * drops it in the versions without it). */
static void submit_result(rest_req_t *r, uint32_t job_id, int rc,
			  const char *user_msg)
{
	json_object *res = json_object_new_object();

	json_object_object_add(r->resp, "job_id", json_object_new_int64(job_id));
	json_object_object_add(r->resp, "step_id",
			       json_object_new_string("batch"));
	json_object_object_add(r->resp, "job_submit_user_msg",
			       json_object_new_string(user_msg ? user_msg : ""));
	json_object_object_add(res, "job_id", json_object_new_int64(job_id));
	json_object_object_add(res, "step_id", json_object_new_string("batch"));
	json_object_object_add(res, "error_code", json_object_new_int(rc));
	json_object_object_add(res, "error", json_object_new_string(
		slurm_strerror(rc)));
	json_object_object_add(res, "job_submit_user_msg",
			       json_object_new_string(user_msg ? user_msg : ""));
	json_object_object_add(r->resp, "result", res);
}

typedef int (*desc_parse_f)(json_object *body, int ver, job_desc_t *d,
			    json_object *warnings, char **err);

/* Read the body into a job description as parse does, send it as type
 * and hand the answer (want, with its data) to done; every failure is
 * reported into r under what ("Batch job submission failed: ..."). */
static void send_desc(rest_req_t *r, desc_parse_f parse, uint16_t type,
		      uint16_t want, const char *what, const char *fail,
		      void (*done)(rest_req_t *r, const submit_response_msg_t *s,
				   int rc))
{
	json_object *b = rest_ctld_body(r, what);
	job_desc_t d;
	slurm_msg_t resp;
	char *err = NULL;
	int rc, e;

	if (!b)
		return;
	rc = parse(b, r->ver, &d, warnings_of(r), &err);
	json_object_put(b);
	if (rc) {
		rest_error_http(r, 400, rc, what, "%s",
				err ? err : slurm_strerror(rc));
		xfree(err);
		return;
	}
	d.user_name = xstrdup(r->user);
	d.submit_host = short_host();
	if ((e = cli_ctld_rpc(type, &d, &resp))) {
		rest_error(r, e, what, "%s", cli_comm_strerror(e));
		goto out;
	}
	if (resp.type != want || !resp.data) {
		rc = cli_resp_rc(&resp);
		rc = rc ? rc : SLURM_UNEXPECTED_MSG_ERROR;
		/* an unknown partition, account...: the body is at fault,
		 * not the path */
		rest_error_http(r, rest_http_status(rc) == 404 ? 400 :
				rest_http_status(rc), rc, what, "%s: %s", fail,
				slurm_strerror(rc));
		done(r, NULL, rc);
	} else {
		done(r, resp.data, 0);
		debug("JobId=%u: %s through REST by %s",
		      ((const submit_response_msg_t *)resp.data)->job_id,
		      what, r->user);
	}
	msg_free(&resp);
out:
	job_desc_free_members(&d);
}

static void submitted(rest_req_t *r, const submit_response_msg_t *s, int rc)
{
	if (s)
		submit_result(r, s->job_id, s->error_code,
			      s->job_submit_user_msg);
	else
		submit_result(r, 0, rc, NULL);
}

void rest_op_job_submit(rest_req_t *r)
{
	send_desc(r, rest_job_submit_parse, REQUEST_SUBMIT_BATCH_JOB,
		  RESPONSE_SUBMIT_BATCH_JOB, "slurm_submit_batch_job",
		  "Batch job submission failed", submitted);
}

/* One results[] entry of an update. */
static void update_result(rest_req_t *r, uint32_t job_id, int rc,
			  const char *why)
{
	json_object *list = NULL, *e = json_object_new_object();

	if (!json_object_object_get_ex(r->resp, "results", &list)) {
		list = json_object_new_array();
		json_object_object_add(r->resp, "results", list);
	}
	json_object_object_add(e, "job_id", json_object_new_int64(job_id));
	json_object_object_add(e, "step_id", json_object_new_string(""));
	json_object_object_add(e, "error_code", json_object_new_int(rc));
	json_object_object_add(e, "error", json_object_new_string(
		slurm_strerror(rc)));
	json_object_object_add(e, "why", json_object_new_string(why ? why : ""));
	json_object_array_add(list, e);
}

static bool update_has_changes(const job_update_msg_t *u)
{
	return u->time_limit != NO_VAL32 || u->priority != NO_VAL32 ||
	       u->nice != NO_VAL32 || u->min_nodes != NO_VAL32 ||
	       u->max_nodes != NO_VAL32 || u->name || u->comment ||
	       u->partition || u->features || u->exc_nodes || u->req_nodes ||
	       u->dependency || u->account || u->qos || u->begin_time ||
	       u->requeue != NO_VAL16 || u->array_max_tasks != NO_VAL32 ||
	       u->reservation;
}

void rest_op_job_update(rest_req_t *r)
{
	json_object *b = rest_ctld_body(r, "slurm_update_job");
	job_update_msg_t u;
	char *err = NULL, *end;
	unsigned long id = strtoul(r->param[0], &end, 10);
	int hold = -1, rc;

	if (!b)
		return;
	if (!*r->param[0] || (*end && *end != '_')) {
		rest_error(r, ESLURM_INVALID_JOB_ID, "slurm_update_job",
			   "Invalid job id %s", r->param[0]);
		json_object_put(b);
		return;
	}
	rc = rest_job_update_parse(b, r->ver, &u, &hold, warnings_of(r), &err);
	json_object_put(b);
	if (rc) {
		rest_error_http(r, 400, rc, "slurm_update_job", "%s",
				err ? err : slurm_strerror(rc));
		xfree(err);
		return;
	}
	if (u.job_id_str && strcmp(u.job_id_str, r->param[0])) {
		rest_error_http(r, 400, ESLURM_REST_FAIL_PARSING,
				"slurm_update_job",
				"job.job_id %s is not the job of the path, %s",
				u.job_id_str, r->param[0]);
		goto out;
	}
	xfree(u.job_id_str);
	u.job_id_str = xstrdup(r->param[0]);
	rc = 0;
	if (update_has_changes(&u))
		rc = rest_ctld_rc(r, REQUEST_UPDATE_JOB, &u, "slurm_update_job");
	if (!rc && hold >= 0) {
		job_hold_msg_t h = { .job_id_str = r->param[0],
				     .hold = hold == 1, .user_hold = true };

		rc = rest_ctld_rc(r, REQUEST_JOB_HOLD, &h, "slurm_update_job");
	}
	update_result(r, (uint32_t)id, rc, rc ? slurm_strerror(rc) : NULL);
out:
	job_update_free_members(&u);
}

static void allocated(rest_req_t *r, const submit_response_msg_t *s, int rc)
{
	(void)rc;
	if (!s)
		return;
	json_object_object_add(r->resp, "job_id",
			       json_object_new_int64(s->job_id));
	json_object_object_add(r->resp, "job_submit_user_msg",
			       json_object_new_string(s->job_submit_user_msg ?
						      s->job_submit_user_msg :
						      ""));
}

/* POST job/allocate (v0.0.41 on): an allocation without a script, as
 * salloc asks for one; it lasts until its time limit or a DELETE. */
void rest_op_job_allocate(rest_req_t *r)
{
	send_desc(r, rest_job_alloc_parse, REQUEST_RESOURCE_ALLOCATION,
		  RESPONSE_RESOURCE_ALLOCATION, "slurm_allocate_resources",
		  "Unable to allocate resources", allocated);
}
