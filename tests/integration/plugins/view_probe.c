/* view_probe.c — priority, preempt, site_factor and jobcomp plugins built
 * in tests against the plugin headers: with -I tests/fixtures/
 * plugin_ops_v1 first, site_factor and jobcomp are built against their
 * ops version 1 (job_info_t); with -I src alone against the current ops
 * (job views).  -DPROBE_TYPE=1..4 picks priority, preempt, site_factor,
 * jobcomp; -DPROBE_NAME names it; -DPROBE_CLAIM=n claims ops version n.
 *
 *   priority   new_job: 424200 + CPUs; recalc: 434300 + CPUs
 *   preempt    a job of partition "high" preempts one of any other
 *              partition (tier 2 / 1), cancelled at once
 *   site_factor  7 x CPUs (ops 1: from job_info_t, 2: from the view)
 *   jobcomp    appends "<name> v<ops> <jobid> <user> <state>" to
 *              JobCompLoc
 */
#include <stdio.h>
#include <string.h>

#include "common/conf.h"
#include "common/plugin.h"

#define STR2(x) #x
#define STR(x) STR2(x)

#if PROBE_TYPE == 1
#include "ctld/priority_plugin.h"
#define OPS_VERSION PRIORITY_OPS_VERSION
#define TYPE "priority"

static uint32_t p_new_job(const job_view_t *j, time_t now)
{
	(void) now;
	return 424200 + j->num_cpus;
}

static void p_recalc(priority_job_t *jobs, size_t cnt, time_t now)
{
	(void) now;
	for (size_t k = 0; k < cnt; k++)
		jobs[k].priority = 434300 + jobs[k].job->num_cpus;
}

static const priority_ops_t ops = {
	.new_job = p_new_job, .recalc = p_recalc,
};

#elif PROBE_TYPE == 2
#include "ctld/preempt_plugin.h"
#define OPS_VERSION PREEMPT_OPS_VERSION
#define TYPE "preempt"

static uint32_t e_tier(const job_view_t *j)
{
	return j->partition && !strcmp(j->partition, "high") ? 2 : 1;
}

static bool e_preempts(const job_view_t *j, const job_view_t *r)
{
	return e_tier(j) > e_tier(r);
}

static int e_mode(const job_view_t *r)
{
	(void) r;
	return PREEMPT_VIEW_MODE_CANCEL;
}

static const preempt_ops_t ops = {
	.preempts = e_preempts, .tier = e_tier, .mode = e_mode,
};

#elif PROBE_TYPE == 3
#include "ctld/site_factor.h"
#define OPS_VERSION SITE_FACTOR_OPS_VERSION
#define TYPE "site_factor"
#if SITE_FACTOR_OPS_VERSION >= 2
typedef job_view_t probe_job_t;
#else
typedef job_info_t probe_job_t;
#endif

static void s_set(const probe_job_t *j, int32_t *factor)
{
	*factor = 7 * (int32_t) j->num_cpus;
}

static void s_update(site_factor_job_t *jobs, size_t cnt)
{
	for (size_t k = 0; k < cnt; k++)
		s_set(jobs[k].job, &jobs[k].factor);
}

static const site_factor_ops_t ops = { .set = s_set, .update = s_update };

#elif PROBE_TYPE == 4
#include "ctld/jobcomp.h"
#define OPS_VERSION JOBCOMP_OPS_VERSION
#define TYPE "jobcomp"
#if JOBCOMP_OPS_VERSION >= 2
typedef job_view_t probe_job_t;
#else
typedef job_info_t probe_job_t;
#endif

static char loc[512];

static int c_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	if (!conf->job_comp_loc || !*conf->job_comp_loc) {
		snprintf(err, errlen, "no JobCompLoc");
		return -1;
	}
	snprintf(loc, sizeof(loc), "%s", conf->job_comp_loc);
	return 0;
}

static void c_job_end(const probe_job_t *j)
{
	FILE *f = fopen(loc, "a");

	if (!f)
		return;
	fprintf(f, "%s v%u %u %s %u\n", STR(PROBE_NAME), OPS_VERSION,
		j->job_id, j->user_name ? j->user_name : "?", j->job_state);
	fclose(f);
}

static const jobcomp_ops_t ops = { .init = c_init, .job_end = c_job_end };
#endif

#ifndef PROBE_CLAIM
#define PROBE_CLAIM OPS_VERSION
#endif

const struct sluice_plugin sluice_plugin = {
	.type = TYPE, .name = STR(PROBE_NAME),
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = PROBE_CLAIM,
	.ops = &ops,
};
