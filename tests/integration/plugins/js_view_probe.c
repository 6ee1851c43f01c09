/* js_view_probe.c — a job_submit plugin built in tests against a
 * job_submit header: with -I tests/fixtures/job_submit_view_v1 against
 * ops 1, -I tests/fixtures/job_submit_ops_v2 against ops 2, with
 * -I src/ctld against the current one.  -DPROBE_NAME names it;
 * -DPROBE_CLAIM=n makes it claim ops version n instead of its header's.
 * submit appends "<name>:v<its ops version>" (and the client's protocol
 * version from ops 2 on, and from ops 3 on the partition views' names in
 * order with "*" after the default) to the job's comment, and refuses a
 * job named "refuse-<name>" with a message; it also sets --time-min to 1
 * minute to show that a number it changes reaches the job.  From ops 3
 * on, modify (scontrol update) refuses a new time limit above the job's
 * partition's MaxTime, read from the job view and the partition views,
 * and names the job, its user and state in the message.
 */
#include <stdio.h>
#include <string.h>

#include "job_submit_plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#ifndef PROBE_CLAIM
#define PROBE_CLAIM JOB_SUBMIT_OPS_VERSION
#endif
#if JOB_SUBMIT_OPS_VERSION >= 2
typedef job_submit_view_t probe_desc_t;
#else
typedef job_desc_t probe_desc_t;
#endif
#if JOB_SUBMIT_OPS_VERSION >= 3
typedef const part_view_t *const *probe_parts_t;
#else
typedef const part_info_t *probe_parts_t;
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

static void append(probe_desc_t *d, const char *add)
{
	if (d->comment && *d->comment) {
		char *c = xstrdup_printf("%s,%s", d->comment, add);

		xfree(d->comment);
		d->comment = c;
	} else {
		xfree(d->comment);
		d->comment = xstrdup(add);
	}
}

static int probe_submit(probe_desc_t *d, probe_parts_t parts,
			size_t part_cnt, uint32_t uid, char **user_msg)
{
	char refuse[64], add[256];

	(void) parts; (void) part_cnt; (void) uid;
	snprintf(refuse, sizeof(refuse), "refuse-%s", STR(PROBE_NAME));
	if (d->name && !strcmp(d->name, refuse)) {
		*user_msg = xstrdup_printf("%s refuses this job",
					   STR(PROBE_NAME));
		return ESLURM_ACCESS_DENIED;
	}
#if JOB_SUBMIT_OPS_VERSION >= 2
	snprintf(add, sizeof(add), "%s:v%d:%x", STR(PROBE_NAME),
		 JOB_SUBMIT_OPS_VERSION, (unsigned) d->client_version);
#else
	snprintf(add, sizeof(add), "%s:v%d", STR(PROBE_NAME),
		 JOB_SUBMIT_OPS_VERSION);
#endif
#if JOB_SUBMIT_OPS_VERSION >= 3
	for (size_t i = 0; i < part_cnt; i++) {
		if (parts[i]->version != PART_VIEW_VERSION ||
		    parts[i]->size < sizeof(part_view_t))
			return ESLURM_INTERNAL;
		snprintf(add + strlen(add), sizeof(add) - strlen(add),
			 ":%s%s", parts[i]->name,
			 parts[i]->is_default ? "*" : "");
	}
#endif
	append(d, add);
	d->time_min = 1;
	return 0;
}

#if JOB_SUBMIT_OPS_VERSION >= 3
static int probe_modify(probe_desc_t *d, const job_view_t *job,
			probe_parts_t parts, size_t part_cnt, uint32_t uid,
			char **user_msg)
{
	(void) uid;
	if (job->version != JOB_VIEW_VERSION || !job->partition)
		return ESLURM_INTERNAL;
	if (d->time_limit == 0xfffffffe)    /* NO_VAL32: not changed */
		return 0;
	for (size_t i = 0; i < part_cnt; i++) {
		if (strcmp(parts[i]->name, job->partition))
			continue;
		if (d->time_limit <= parts[i]->max_time)
			return 0;
		*user_msg = xstrdup_printf("%s: job %u of %s (%s, limit %u) "
					   "may not exceed %s's %u minutes",
					   STR(PROBE_NAME), job->job_id,
					   job->user_name,
					   job->job_state == 0 ? "pending" :
					   "not pending", job->time_limit,
					   parts[i]->name,
					   parts[i]->max_time);
		return ESLURM_INVALID_TIME_LIMIT;
	}
	return 0;
}

static const job_submit_ops_t ops = {
	.submit = probe_submit, .modify = probe_modify,
};
#else
static const job_submit_ops_t ops = { .submit = probe_submit };
#endif

const struct sluice_plugin sluice_plugin = {
	.type = "job_submit", .name = STR(PROBE_NAME),
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = PROBE_CLAIM,
	.ops = &ops,
};
