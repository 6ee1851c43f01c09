/* job_submit_stock.c — see job_submit_stock.h. */
#include "ctld/job_submit_stock.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_submit_plugin.h"
#include "slurm/slurm_errno.h"

#define PLUGIN(n, o) { .type = "job_submit", .name = n, \
	.abi_version = SLUICE_PLUGIN_ABI, \
	.ops_version = JOB_SUBMIT_OPS_VERSION, .ops = &(o) }

static const char *str_or_null(const char *s)
{
	return s ? s : "(null)";
}

/* ---- all_partitions ---- */

static int ap_submit(job_submit_view_t *desc, const part_view_t *const *parts,
		     size_t part_cnt, uint32_t uid, char **user_msg)
{
	char *list = NULL;

	if (desc->partition)
		return SLURM_SUCCESS;
	for (size_t i = 0; i < part_cnt; i++) {
		/* DRAIN and INACTIVE take no new jobs */
		if (parts[i]->state_up != PART_VIEW_UP &&
		    parts[i]->state_up != PART_VIEW_DOWN)
			continue;
		xstrfmtcat(&list, "%s%s", list ? "," : "", parts[i]->name);
	}
	desc->partition = list;
	return SLURM_SUCCESS;
}

static const job_submit_ops_t ap_ops = { .submit = ap_submit };
const struct sluice_plugin job_submit_all_partitions_plugin =
	PLUGIN("all_partitions", ap_ops);

/* ---- defaults: Slurm's template for sites, which changes nothing ---- */

static const job_submit_ops_t def_ops = { 0 };
const struct sluice_plugin job_submit_defaults_plugin =
	PLUGIN("defaults", def_ops);

/* ---- logging ---- */

static int log_submit(job_submit_view_t *d, const part_view_t *const *parts,
		      size_t part_cnt, uint32_t uid, char **user_msg)
{
	info("job_submit/logging: Job submit request: account:%s "
	     "begin_time:%ld dependency:%s name:%s partition:%s qos:%s "
	     "submit_uid:%u time_limit:%u user_id:%u",
	     str_or_null(d->account), (long) d->begin_time,
	     str_or_null(d->dependency), str_or_null(d->name),
	     str_or_null(d->partition), str_or_null(d->qos), uid,
	     d->time_limit, d->user_id);
	return SLURM_SUCCESS;
}

static int log_modify(job_submit_view_t *d, const job_view_t *job,
		      const part_view_t *const *parts, size_t part_cnt, uint32_t uid,
		      char **user_msg)
{
	info("job_submit/logging: Job modify request: account:%s "
	     "begin_time:%ld dependency:%s job_id:%u name:%s partition:%s "
	     "qos:%s submit_uid:%u time_limit:%u",
	     str_or_null(d->account), (long) d->begin_time,
	     str_or_null(d->dependency), job->job_id, str_or_null(d->name),
	     str_or_null(d->partition), str_or_null(d->qos), uid,
	     d->time_limit);
	return SLURM_SUCCESS;
}

static const job_submit_ops_t log_ops = {
	.submit = log_submit, .modify = log_modify,
};
const struct sluice_plugin job_submit_logging_plugin =
	PLUGIN("logging", log_ops);

/* ---- require_timelimit ---- */

static int rt_submit(job_submit_view_t *d, const part_view_t *const *parts,
		     size_t part_cnt, uint32_t uid, char **user_msg)
{
	if (d->time_limit == NO_VAL32) {
		info("job_submit/require_timelimit: Missing time limit for "
		     "job by uid:%u", uid);
		return ESLURM_MISSING_TIME_LIMIT;
	}
	if (d->time_limit == INFINITE32) {
		info("job_submit/require_timelimit: Bad time limit for job "
		     "by uid:%u", uid);
		return ESLURM_INVALID_TIME_LIMIT;
	}
	return SLURM_SUCCESS;
}

static int rt_modify(job_submit_view_t *d, const job_view_t *job,
		     const part_view_t *const *parts, size_t part_cnt, uint32_t uid,
		     char **user_msg)
{
	if (d->time_limit != INFINITE32)
		return SLURM_SUCCESS;
	info("job_submit/require_timelimit: Bad replacement time limit for "
	     "JobId=%u", job->job_id);
	return ESLURM_INVALID_TIME_LIMIT;
}

static const job_submit_ops_t rt_ops = {
	.submit = rt_submit, .modify = rt_modify,
};
const struct sluice_plugin job_submit_require_timelimit_plugin =
	PLUGIN("require_timelimit", rt_ops);

/* ---- throttle ---- */

/* The counts stay across a reconfigure (init runs again; the table is
 * kept). */
typedef struct {
	uint32_t       uid;
	uint32_t       count;
	time_t         last;      /* the drain is computed from here */
	UT_hash_handle hh;
} th_user_t;

static struct {
	uint32_t   limit;         /* 0: none */
	th_user_t *users;
} th;

uint32_t job_submit_throttle_drain(uint32_t count, uint32_t limit,
				   time_t *last, time_t now)
{
	uint64_t gone;

	if (!limit || now <= *last || !count) {
		if (!count)
			*last = now;
		return count;
	}
	/* limit per hour, in whole minutes since the last drain */
	gone = (uint64_t) limit * ((uint64_t) (now - *last) / 60) / 60;
	if (!gone)
		return count;
	if (gone >= count) {
		*last = now;
		return 0;
	}
	*last += (time_t) (gone * 3600 / limit);
	return count - (uint32_t) gone;
}

/* jobs_per_user_per_hour=N of SchedulerParameters (0 when absent). */
static int th_limit(const char *params, uint32_t *limit, char *err,
		    size_t errlen)
{
	static const char key[] = "jobs_per_user_per_hour=";
	char **items = xstrsplit(params ? params : "", ",", NULL);
	int rc = 0;

	*limit = 0;
	for (size_t i = 0; items[i] && !rc; i++) {
		if (strncmp(items[i], key, sizeof(key) - 1))
			continue;
		if (parse_u32(items[i] + sizeof(key) - 1, limit) < 0) {
			snprintf(err, errlen, "Invalid SchedulerParameters %s",
				 items[i]);
			rc = -1;
		}
	}
	xstrarray_free(items);
	return rc;
}

static int th_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	if (th_limit(conf->scheduler_parameters, &th.limit, err, errlen) < 0)
		return -1;
	info("job_submit/throttle: jobs_per_user_per_hour=%u", th.limit);
	return 0;
}

static int th_submit(job_submit_view_t *d, const part_view_t *const *parts,
		     size_t part_cnt, uint32_t uid, char **user_msg)
{
	time_t now = time(NULL);
	th_user_t *u;
	uint32_t was;

	if (!th.limit)
		return SLURM_SUCCESS;
	HASH_FIND(hh, th.users, &uid, sizeof(uid), u);
	if (!u) {
		u = xcalloc(1, sizeof(*u));
		u->uid = uid;
		u->last = now;
		HASH_ADD(hh, th.users, uid, sizeof(u->uid), u);
	}
	was = u->count;
	u->count = job_submit_throttle_drain(u->count, th.limit, &u->last,
					     now);
	if (u->count != was)
		debug("job_submit/throttle: count for user %u reset from %u "
		      "to %u", uid, was, u->count);
	if (u->count >= th.limit) {
		*user_msg = xstrdup("Reached jobs per hour limit");
		return ESLURM_ACCOUNTING_POLICY;
	}
	u->count++;
	return SLURM_SUCCESS;
}

static const job_submit_ops_t th_ops = {
	.init = th_init, .submit = th_submit,
};
const struct sluice_plugin job_submit_throttle_plugin =
	PLUGIN("throttle", th_ops);
