/* rest_slurmdb_jobs.c — /slurmdb/v0.0.4N/ping, jobs and job/{job_id}:
 * slurmdbd's answer to sacct's query, as sacct --json prints it (the
 * same rows, walked through sacct's field table).  The query parameters
 * are sacct's filters; one Sluice cannot honour is refused by name. */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_ping.h"
#include "cli/cli_sacct.h"
#include "common/hostlist.h"
#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_dbd.h"
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

/* ---- query parameters ---- */

typedef struct {
	dbd_job_cond_msg_t cond;
	hostlist_t        *nodes;
} jobs_query_t;

/* "a,b" appended to *list; each item through conv (NULL: as is) */
static int add_list(rest_req_t *r, const char *name, const char *csv,
		    char ***list, int (*conv)(const char *, char *, size_t))
{
	char **items = xstrsplit(csv, ",", NULL);
	int rc = 0;

	for (size_t i = 0; items[i] && rc == 0; i++) {
		char buf[64];

		if (!items[i][0])
			continue;
		if (conv && conv(items[i], buf, sizeof(buf)) < 0) {
			rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
				   "%s: invalid value %s", name, items[i]);
			rc = -1;
			break;
		}
		*list = xstrarray_append(*list, conv ? buf : items[i]);
	}
	xstrarray_free(items);
	return rc;
}

static int conv_uid(const char *s, char *buf, size_t len)
{
	uid_t uid;
	uint32_t v;

	if (uid_cache_by_name(s, &uid, NULL) == 0)
		v = (uint32_t)uid;
	else if (parse_u32(s, &v) < 0)
		return -1;
	snprintf(buf, len, "%u", v);
	return 0;
}

static int conv_gid(const char *s, char *buf, size_t len)
{
	struct group gr, *g = NULL;
	char tmp[4096];
	uint32_t v;

	if (getgrnam_r(s, &gr, tmp, sizeof(tmp), &g) == 0 && g)
		v = (uint32_t)g->gr_gid;
	else if (parse_u32(s, &v) < 0)
		return -1;
	snprintf(buf, len, "%u", v);
	return 0;
}

static int conv_state(const char *s, char *buf, size_t len)
{
	uint32_t st;

	if (job_state_from_string(s, &st) < 0)
		return -1;
	snprintf(buf, len, "%u", st & JOB_STATE_BASE);
	return 0;
}

/* "123", "123_4" (a step part, "123.batch", selects the job) */
static int conv_job(const char *s, char *buf, size_t len)
{
	size_t n = strcspn(s, ".");
	uint32_t job, task;
	char *id = xstrndup(s, n), *us = strchr(id, '_');
	int rc;

	if (us)
		*us = '\0';
	rc = parse_u32(id, &job) < 0 || !job ||
	     (us && parse_u32(us + 1, &task) < 0) ? -1 : 0;
	if (us)
		*us = '_';
	if (rc == 0)
		snprintf(buf, len, "%s", id);
	xfree(id);
	return rc;
}

static int parse_when(rest_req_t *r, const char *name, const char *v,
		      time_t *out)
{
	char *end;
	long long t;

	errno = 0;
	t = strtoll(v, &end, 10);
	if (!errno && end != v && !*end && t >= 0) {
		*out = (time_t)t;
		return 0;
	}
	if (parse_time_past(v, time(NULL), out) == 0)
		return 0;
	rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
		   "%s: invalid time %s", name, v);
	return -1;
}

/* Parameters a Sluice job record cannot answer, and flags with nothing
 * to change here (no heterogeneous jobs; slurmdbd always answers in
 * full). */
static const char *const refused[] = {
	"association", "constraints", "exit_code", "reason", "reservation",
	"reservation_id", "wckey", "scheduler_unset", "scheduled_on_submit",
	"scheduled_by_main", "scheduled_by_backfill", "job_started",
	"show_batch_script", "show_job_environment",
	"usage_time_as_submit_time", "cpus_max", "cpus_min", "nodes_max",
	"nodes_min", "submit_time", "timelimit_max", "timelimit_min",
};
static const char *const no_effect[] = {
	"whole_hetjob", "disable_whole_hetjob", "disable_wait_for_result",
	"disable_truncate_usage_time", "format",
};

static bool in(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

#define N(a) (sizeof(a) / sizeof(a[0]))

static int one_param(rest_req_t *r, jobs_query_t *q, const char *k,
		     const char *v)
{
	dbd_job_cond_msg_t *c = &q->cond;
	char err[128];

	if (!strcmp(k, "users"))
		return add_list(r, k, v, &c->users, conv_uid);
	if (!strcmp(k, "groups"))
		return add_list(r, k, v, &c->gids, conv_gid);
	if (!strcmp(k, "account"))
		return add_list(r, k, v, &c->accounts, NULL);
	if (!strcmp(k, "partition"))
		return add_list(r, k, v, &c->partitions, NULL);
	if (!strcmp(k, "qos"))
		return add_list(r, k, v, &c->qos, NULL);
	if (!strcmp(k, "job_name"))
		return add_list(r, k, v, &c->names, NULL);
	if (!strcmp(k, "state"))
		return add_list(r, k, v, &c->states, conv_state);
	if (!strcmp(k, "step"))
		return add_list(r, k, v, &c->job_ids, conv_job);
	if (!strcmp(k, "cluster")) {
		xfree(c->cluster);
		c->cluster = xstrdup(v);
		return 0;
	}
	if (!strcmp(k, "start_time"))
		return parse_when(r, k, v, &c->start);
	if (!strcmp(k, "end_time"))
		return parse_when(r, k, v, &c->end);
	if (!strcmp(k, "node")) {
		if (q->nodes)
			hostlist_destroy(q->nodes);
		if ((q->nodes = hostlist_parse(v, err, sizeof(err))))
			return 0;
		rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
			   "node: invalid node list %s: %s", v, err);
		return -1;
	}
	if (!strcmp(k, "skip_steps")) {
		c->flags |= DBD_JOBS_NO_STEPS;
		return 0;
	}
	if (!strcmp(k, "show_duplicates")) {
		c->flags |= DBD_JOBS_DUPLICATES;
		return 0;
	}
	if (in(no_effect, N(no_effect), k))
		return 0;
	rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
		   in(refused, N(refused), k) ?
		   "%s: not supported by Sluice's job records" :
		   "%s: unknown query parameter", k);
	return -1;
}

static void query_free(jobs_query_t *q)
{
	dbd_job_cond_msg_t *c = &q->cond;

	xfree(c->cluster);
	xstrarray_free(c->job_ids);
	xstrarray_free(c->users);
	xstrarray_free(c->gids);
	xstrarray_free(c->accounts);
	xstrarray_free(c->partitions);
	xstrarray_free(c->qos);
	xstrarray_free(c->names);
	xstrarray_free(c->states);
	if (q->nodes)
		hostlist_destroy(q->nodes);
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

static void jobs_answer(rest_req_t *r, jobs_query_t *q)
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
	jobs_query_t q = { 0 };

	q.cond.end = time(NULL);
	for (size_t i = 0; i < r->nquery; i++)
		if (one_param(r, &q, r->query[i].name, r->query[i].value) < 0)
			goto out;
	jobs_answer(r, &q);
out:
	if (!json_object_object_get_ex(r->resp, "jobs", NULL))
		json_object_object_add(r->resp, "jobs",
				       json_object_new_array());
	query_free(&q);
}

void rest_op_dbd_job_get(rest_req_t *r)
{
	jobs_query_t q = { 0 };
	char buf[64];
	json_object *jobs;

	if (conv_job(r->param[0], buf, sizeof(buf)) < 0 ||
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
	query_free(&q);
}
