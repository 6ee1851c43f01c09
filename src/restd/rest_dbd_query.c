/* rest_dbd_query.c — GET jobs' query parameters (rest_dbd_query.h). */
#include "restd/rest_dbd_query.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/job_info.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* "a,b" appended to *list; each item through conv (NULL: as is) */
static int add_list(char **err, const char *name, const char *csv,
		    char ***list, int (*conv)(const char *, char *, size_t))
{
	char **items = xstrsplit(csv, ",", NULL);
	int rc = 0;

	for (size_t i = 0; items[i] && rc == 0; i++) {
		char buf[64];

		if (!items[i][0])
			continue;
		if (conv && conv(items[i], buf, sizeof(buf)) < 0) {
			*err = xstrdup_printf("%s: invalid value %s", name,
					      items[i]);
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

int rest_jobs_query_job_id(const char *s, char *buf, size_t len)
{
	uint32_t job, task;
	char *id, *us;
	int rc;

	if (strchr(s, '.'))
		return -1;      /* rows of steps are not selected apart */
	id = xstrdup(s);
	us = strchr(id, '_');
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

static int parse_when(char **err, const char *name, const char *v,
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
	*err = xstrdup_printf("%s: invalid time %s", name, v);
	return -1;
}

/* Parameters a Sluice job record cannot answer, and flags with nothing
 * to change here (no heterogeneous jobs; slurmdbd always answers in
 * full). */
static const char *const refused[] = {
	"association", "constraints", "exit_code", "reason", "reservation",
	"reservation_id", "wckey", "scheduler_unset", "scheduled_on_submit",
	"scheduled_by_main", "scheduled_by_backfill", "job_started",
	"usage_time_as_submit_time", "cpus_max", "cpus_min", "nodes_max",
	"nodes_min", "submit_time", "timelimit_max", "timelimit_min",
	/* the job schema has no member for it: sacct --env-vars shows it */
	"show_job_environment",
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

static int one_param(char **err, rest_jobs_query_t *q, const char *k,
		     const char *v)
{
	dbd_job_cond_msg_t *c = &q->cond;
	char why[128];

	if (!strcmp(k, "users"))
		return add_list(err, k, v, &c->users, conv_uid);
	if (!strcmp(k, "groups"))
		return add_list(err, k, v, &c->gids, conv_gid);
	if (!strcmp(k, "account"))
		return add_list(err, k, v, &c->accounts, NULL);
	if (!strcmp(k, "partition"))
		return add_list(err, k, v, &c->partitions, NULL);
	if (!strcmp(k, "qos"))
		return add_list(err, k, v, &c->qos, NULL);
	if (!strcmp(k, "job_name"))
		return add_list(err, k, v, &c->names, NULL);
	if (!strcmp(k, "state"))
		return add_list(err, k, v, &c->states, conv_state);
	if (!strcmp(k, "step"))
		return add_list(err, k, v, &c->job_ids,
				rest_jobs_query_job_id);
	if (!strcmp(k, "cluster")) {
		xfree(c->cluster);
		c->cluster = xstrdup(v);
		return 0;
	}
	if (!strcmp(k, "start_time"))
		return parse_when(err, k, v, &c->start);
	if (!strcmp(k, "end_time"))
		return parse_when(err, k, v, &c->end);
	if (!strcmp(k, "node")) {
		if (q->nodes)
			hostlist_destroy(q->nodes);
		if ((q->nodes = hostlist_parse(v, why, sizeof(why))))
			return 0;
		*err = xstrdup_printf("node: invalid node list %s: %s", v,
				      why);
		return -1;
	}
	if (!strcmp(k, "skip_steps")) {
		c->flags |= DBD_JOBS_NO_STEPS;
		return 0;
	}
	if (!strcmp(k, "show_batch_script")) {
		c->flags |= DBD_JOBS_SCRIPT;
		return 0;
	}
	if (!strcmp(k, "show_duplicates")) {
		c->flags |= DBD_JOBS_DUPLICATES;
		return 0;
	}
	if (in(no_effect, N(no_effect), k))
		return 0;
	*err = xstrdup_printf(in(refused, N(refused), k) ?
			      "%s: not supported by Sluice's job records" :
			      "%s: unknown query parameter", k);
	return -1;
}

void rest_jobs_query_free(rest_jobs_query_t *q)
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

int rest_jobs_query_parse(const rest_kv_t *kv, size_t n,
			  rest_jobs_query_t *q, char **err)
{
	*err = NULL;
	for (size_t i = 0; i < n; i++)
		if (one_param(err, q, kv[i].name, kv[i].value) < 0)
			return -1;
	return 0;
}
