/* rest_slurm_job.c — /slurm/v0.0.4N/jobs, job/{job_id} (GET, DELETE) and
 * jobs/state: the queue as squeue --json shows it, and cancelling. */
#include <errno.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_fields.h"
#include "cli/cli_opt.h"
#include "cli/cli_show.h"
#include "common/job_info.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_ctld.h"
#include "restd/rest_handlers.h"
#include "restd/rest_list.h"
#include "restd/rest_resp.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

/* "123" or "123_4": job id and array task (NO_VAL32 = none). */
static int parse_job_id(const char *s, uint32_t *job, uint32_t *task)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || !v || v > 0xfffffff0ul)
		return -1;
	*job = (uint32_t)v;
	*task = NO_VAL32;
	if (*end == '_') {
		const char *t = end + 1;

		v = strtoul(t, &end, 10);
		if (errno || end == t || v >= NO_VAL32)
			return -1;
		*task = (uint32_t)v;
	}
	return *end ? -1 : 0;
}

/* ?flags=: DETAIL adds the detail fields; ALL is what REST always shows
 * (hidden partitions' jobs too); the federation flags (LOCAL, SIBLING,
 * FEDERATION, MIXED) and FUTURE change nothing on a cluster that is not
 * federated, as in Slurm.  Anything else is refused: -1 (reported). */
static int show_flags(rest_req_t *r, uint16_t *fl)
{
	static const char *const known[] = {
		"ALL", "DETAIL", "MIXED", "LOCAL", "SIBLING", "FEDERATION",
		"FUTURE",
	};
	const char *f = rest_query(r, "flags");
	char *copy, *save, *t;
	int rc = 0;

	*fl = SHOW_ALL;
	if (!f || !*f)
		return 0;
	copy = xstrdup(f);
	for (t = strtok_r(copy, ",", &save); t && !rc;
	     t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcasecmp(t, known[i]))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			rest_error(r, ESLURM_REST_INVALID_QUERY,
				   "slurm_load_jobs", "flags: unknown flag %s",
				   t);
			rc = -1;
		} else if (!strcasecmp(t, "DETAIL")) {
			*fl |= SHOW_DETAIL;
		}
	}
	xfree(copy);
	return rc;
}

/* The jobs written one by one (rest_list.h), after the envelope. */
static void write_jobs(rest_req_t *r, const job_info_msg_t *m)
{
	json_object_object_add(r->resp, "last_update",
			       cli_json_time(m->last_update));
	json_object_object_add(r->resp, "last_backfill", cli_json_time(0));
	rest_list_write(r, "jobs", &(rest_list_recs_t){
		cli_job_fields, m->jobs, sizeof(*m->jobs), m->cnt });
}

/* ?update_time=T (seconds since the epoch): only answer with jobs when
 * something changed since T.  0, or -1 (reported) if T is not a time. */
static int update_time(rest_req_t *r, time_t *t)
{
	const char *s = rest_query(r, "update_time");
	char *end;
	long long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < 0) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, "slurm_load_jobs",
			   "update_time: %s is not a time in seconds", s);
		return -1;
	}
	*t = (time_t)v;
	return 0;
}

/* The jobs (all, or those of id / id_task) in r->resp's "jobs". */
static void jobs_answer(rest_req_t *r, const char *id)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32 };
	uint32_t job = 0, task = NO_VAL32;
	job_info_msg_t sel = { 0 };
	const job_info_msg_t *m;
	slurm_msg_t resp;
	int rc;

	if (show_flags(r, &req.show_flags) < 0)
		return;
	if (id) {
		if (parse_job_id(id, &job, &task) < 0) {
			rest_error(r, ESLURM_INVALID_JOB_ID, "slurm_load_job",
				   "Invalid job id %s", id);
			return;
		}
		req.job_ids = &job;
		req.job_id_cnt = 1;
	}
	if (!id && (rc = update_time(r, &req.last_update)))
		return;
	rc = rest_ctld_info(r, REQUEST_JOB_INFO, &req, RESPONSE_JOB_INFO,
			    &resp, id ? "slurm_load_job" : "slurm_load_jobs");
	if (rc == SLURM_NO_CHANGE_IN_DATA) {
		/* nothing changed since update_time: no jobs, and the
		 * caller keeps what it has */
		json_object_object_add(r->resp, "jobs", json_object_new_array());
		json_object_object_add(r->resp, "last_update",
				       cli_json_time(req.last_update));
		json_object_object_add(r->resp, "last_backfill",
				       cli_json_time(0));
		return;
	}
	if (rc)
		return;
	m = resp.data;
	sel = *m;
	if (task != NO_VAL32) {
		sel.jobs = xcalloc(m->cnt + 1, sizeof(job_info_t));
		sel.cnt = 0;
		for (uint32_t i = 0; i < m->cnt; i++)
			if (m->jobs[i].array_task_id == task)
				sel.jobs[sel.cnt++] = m->jobs[i];
	}
	if (id && !sel.cnt) {
		rest_error(r, ESLURM_INVALID_JOB_ID, "slurm_load_job",
			   "Unable to query JobId=%s", id);
	} else {
		write_jobs(r, &sel);
	}
	if (task != NO_VAL32)
		xfree(sel.jobs);
	msg_free(&resp);
}

void rest_op_jobs(rest_req_t *r)
{
	jobs_answer(r, NULL);
}

void rest_op_job_get(rest_req_t *r)
{
	jobs_answer(r, r->param[0]);
}

/* GET jobs/state?job_id=1,2: each job's id and state list. */
void rest_op_jobs_state(rest_req_t *r)
{
	job_info_request_msg_t req = { .show_flags = SHOW_ALL,
				       .user_id = NO_VAL32 };
	const char *ids = rest_query(r, "job_id");
	json_object *list = json_object_new_array();
	uint32_t *want = NULL;
	size_t nwant = 0;
	const job_info_msg_t *m;
	slurm_msg_t resp;

	if (ids && *ids) {
		char *copy = xstrdup(ids), *save, *t;

		want = xcalloc(strlen(ids) / 2 + 2, sizeof(*want));
		for (t = strtok_r(copy, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			uint32_t task;

			if (parse_job_id(t, &want[nwant], &task) < 0) {
				rest_error(r, ESLURM_INVALID_JOB_ID,
					   "slurm_load_jobs",
					   "Invalid job id %s", t);
				xfree(copy);
				goto out;
			}
			nwant++;
		}
		xfree(copy);
		req.job_ids = want;
		req.job_id_cnt = (uint32_t)nwant;
	}
	if (rest_ctld_info(r, REQUEST_JOB_INFO, &req, RESPONSE_JOB_INFO,
			   &resp, "slurm_load_jobs"))
		goto out;
	m = resp.data;
	for (uint32_t i = 0; i < m->cnt; i++) {
		const job_info_t *j = &m->jobs[i];
		json_object *o = json_object_new_object(), *st;
		const char *names[8];
		int n = job_state_strings(j->job_state, names);
		char id[32];

		if (j->array_job_id && j->array_task_id != NO_VAL32)
			snprintf(id, sizeof(id), "%u_%u", j->array_job_id,
				 j->array_task_id);
		else
			snprintf(id, sizeof(id), "%u", j->job_id);
		json_object_object_add(o, "job_id", json_object_new_string(id));
		st = json_object_new_array();
		for (int k = 0; k < n; k++)
			json_object_array_add(st,
					      json_object_new_string(names[k]));
		json_object_object_add(o, "state", st);
		json_object_array_add(list, o);
	}
	msg_free(&resp);
out:
	json_object_object_add(r->resp, "jobs", list);
	xfree(want);
}

/* DELETE job/{job_id}?signal=..&flags=..: as scancel. */
static int kill_flags(rest_req_t *r, const char *f, uint16_t *flags)
{
	static const struct {
		const char *name;
		uint16_t    flag;
	} names[] = {
		{ "BATCH_JOB", KILL_JOB_BATCH }, { "FULL_JOB", KILL_FULL_JOB },
		{ "FULL_STEPS_ONLY", KILL_STEPS_ONLY }, { "HURRY", KILL_HURRY },
	};
	char *copy, *save, *t;
	int rc = 0;

	*flags = 0;
	if (!f || !*f)
		return 0;
	copy = xstrdup(f);
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcasecmp(t, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			rest_error(r, ESLURM_REST_INVALID_QUERY, "slurm_kill_job",
				   "flags: %s is not supported by Sluice", t);
			rc = -1;
			break;
		}
		*flags |= names[i].flag;
	}
	xfree(copy);
	return rc;
}

static json_object *kill_status(const kill_jobs_resp_job_t *j)
{
	json_object *o = json_object_new_object(), *e = json_object_new_object();
	uint32_t job = 0, task;

	if (j->job_id_str)
		(void)parse_job_id(j->job_id_str, &job, &task);
	json_object_object_add(o, "job_id", json_object_new_int64(job));
	json_object_object_add(o, "step_id", json_object_new_string(""));
	json_object_object_add(e, "code", json_object_new_int(j->error_code));
	json_object_object_add(e, "message", json_object_new_string(
		j->error_msg ? j->error_msg :
		slurm_strerror(j->error_code)));
	json_object_object_add(e, "string", json_object_new_string(
		slurm_strerror(j->error_code)));
	json_object_object_add(o, "error", e);
	return o;
}

/* Send req (verbose: every selected job comes back) and list each job's
 * outcome in "status"; a job that could not be signalled is an error. */
static void kill_jobs(rest_req_t *r, kill_jobs_msg_t *req)
{
	json_object *status = json_object_new_array();
	const kill_jobs_resp_msg_t *k;
	slurm_msg_t resp;
	int err;

	json_object_object_add(r->resp, "status", status);
	req->verbose = true;
	if ((err = cli_ctld_rpc(REQUEST_KILL_JOBS, req, &resp))) {
		rest_error(r, err, "slurm_kill_jobs", "%s",
			   cli_comm_strerror(err));
		return;
	}
	if (resp.type == RESPONSE_SLURM_RC) {
		int rc = cli_resp_rc(&resp);

		if (rc)
			rest_error(r, rc, "slurm_kill_jobs", "%s",
				   slurm_strerror(rc));
		msg_free(&resp);
		return;
	}
	k = resp.type == RESPONSE_KILL_JOBS ? resp.data : NULL;
	for (uint32_t i = 0; k && i < k->cnt; i++) {
		json_object_array_add(status, kill_status(&k->jobs[i]));
		if (k->jobs[i].error_code)
			rest_error(r, k->jobs[i].error_code, "slurm_kill_jobs",
				   "Signal to JobId=%s failed: %s",
				   k->jobs[i].job_id_str ?
				   k->jobs[i].job_id_str : "?",
				   slurm_strerror(k->jobs[i].error_code));
	}
	msg_free(&resp);
}

static int signal_of(rest_req_t *r, const char *sig, kill_jobs_msg_t *req)
{
	int s;

	req->cancel = true;
	if (!sig || !*sig)
		return 0;
	if ((s = cli_opt_signal_from_string(sig)) < 0) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, "slurm_kill_jobs",
			   "Unknown job signal: %s", sig);
		return -1;
	}
	req->signal = (uint16_t)s;
	req->cancel = false;
	return 0;
}

void rest_op_job_delete(rest_req_t *r)
{
	char *ids[2] = { r->param[0], NULL };
	kill_jobs_msg_t req = { .job_ids = ids };
	uint32_t job, task;

	if (parse_job_id(r->param[0], &job, &task) < 0) {
		json_object_object_add(r->resp, "status",
				       json_object_new_array());
		rest_error(r, ESLURM_INVALID_JOB_ID, "slurm_kill_job",
			   "Invalid job id %s", r->param[0]);
		return;
	}
	if (signal_of(r, rest_query(r, "signal"), &req) < 0 ||
	    kill_flags(r, rest_query(r, "flags"), &req.flags) < 0) {
		json_object_object_add(r->resp, "status",
				       json_object_new_array());
		return;
	}
	kill_jobs(r, &req);
}

/* A kill_jobs_msg string list member: ["a","b"] or "a,b". */
static char **str_list(json_object *v)
{
	char **list = NULL;

	if (!v)
		return NULL;
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++)
			list = xstrarray_append(list, json_object_get_string(
				json_object_array_get_idx(v, i)));
		return list;
	}
	if (*json_object_get_string(v)) {
		char *copy = xstrdup(json_object_get_string(v)), *save, *t;

		for (t = strtok_r(copy, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			list = xstrarray_append(list, t);
		xfree(copy);
	}
	return list;
}

/* DELETE jobs: a kill_jobs_msg body, scancel's filters. */
void rest_op_jobs_delete(rest_req_t *r)
{
	json_object *b = rest_ctld_body(r, "slurm_kill_jobs");
	kill_jobs_msg_t req = { 0 };
	char *flags = NULL, *nodes = NULL;
	bool ok = true;

	if (!b) {
		json_object_object_add(r->resp, "status",
				       json_object_new_array());
		return;
	}
	json_object_object_foreach(b, k, v) {
		if (!strcmp(k, "jobs"))
			req.job_ids = str_list(v);
		else if (!strcmp(k, "account"))
			req.accounts = str_list(v);
		else if (!strcmp(k, "job_name"))
			req.names = str_list(v);
		else if (!strcmp(k, "partition"))
			req.partitions = str_list(v);
		else if (!strcmp(k, "qos"))
			req.qos = str_list(v);
		else if (!strcmp(k, "wckey"))
			req.wckeys = str_list(v);
		else if (!strcmp(k, "user_name") || !strcmp(k, "user_id")) {
			char **l = str_list(v);

			for (size_t i = 0; l && l[i]; i++)
				req.users = xstrarray_append(req.users, l[i]);
			xstrarray_free(l);
		}
		else if (!strcmp(k, "job_state"))
			req.states = str_list(v);
		else if (!strcmp(k, "nodes")) {
			char **l = str_list(v);

			for (size_t i = 0; l && l[i]; i++) {
				if (i)
					xstrcatc(&nodes, ',');
				xstrcat(&nodes, l[i]);
			}
			xstrarray_free(l);
		} else if (!strcmp(k, "flags")) {
			char **l = str_list(v);

			for (size_t i = 0; l && l[i]; i++) {
				if (i)
					xstrcatc(&flags, ',');
				xstrcat(&flags, l[i]);
			}
			xstrarray_free(l);
		} else if (!strcmp(k, "signal")) {
			if (signal_of(r, json_object_get_string(v), &req) < 0)
				ok = false;
		} else if (!(json_object_is_type(v, json_type_string) &&
			     !*json_object_get_string(v))) {
			rest_error(r, ESLURM_REST_FAIL_PARSING,
				   "slurm_kill_jobs",
				   "%s: not supported by Sluice", k);
			ok = false;
		}
	}
	if (!json_object_object_length(b) && ok) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, "slurm_kill_jobs",
			   "No job or filter given");
		ok = false;
	}
	if (!json_object_object_get_ex(b, "signal", NULL))
		req.cancel = true;
	req.nodelist = nodes;
	/* as scancel: users other than root and SlurmUser pick only their
	 * own jobs by filter */
	if (!req.users && !req.job_ids && r->uid != 0 &&
	    !(cli_conf() && r->uid == cli_conf()->slurm_user_id))
		req.users = xstrarray_append(NULL, r->user);
	if (ok && kill_flags(r, flags, &req.flags) == 0)
		kill_jobs(r, &req);
	else if (!json_object_object_get_ex(r->resp, "status", NULL))
		json_object_object_add(r->resp, "status",
				       json_object_new_array());
	xstrarray_free(req.job_ids);
	xstrarray_free(req.accounts);
	xstrarray_free(req.names);
	xstrarray_free(req.partitions);
	xstrarray_free(req.qos);
	xstrarray_free(req.wckeys);
	xstrarray_free(req.users);
	xstrarray_free(req.states);
	xfree(nodes);
	xfree(flags);
	json_object_put(b);
}
