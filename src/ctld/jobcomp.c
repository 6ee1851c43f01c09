/* jobcomp.c — see jobcomp.h. */
#include "ctld/jobcomp.h"

#include <stdio.h>
#include <string.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/plugin_ctx.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/job_mgr.h"
#include "ctld/job_view_fill.h"

/* Ops version 1, frozen: job_end took job_info_t. */
typedef struct {
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	void (*job_end)(const job_info_t *job);
} jobcomp_ops_v1_t;

static plugin_ctx_t        *ctx;
static const jobcomp_ops_t *ops;
static uint32_t             ops_ver;   /* the plugin's ops version */

static const jobcomp_ops_t none_ops;   /* records nothing */
static const struct sluice_plugin jobcomp_none = {
	.type = "jobcomp", .name = "none", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOBCOMP_OPS_VERSION, .ops = &none_ops,
};
static const struct sluice_plugin *const builtins[] = { &jobcomp_none, NULL };
const plugin_type_t jobcomp_plugin_type = {
	.type = "jobcomp", .key = "JobCompType",
	.ops_version = JOBCOMP_OPS_VERSION,
	.ops_version_min = JOBCOMP_OPS_OLDEST, .builtins = builtins,
};

int jobcomp_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	const char *type = conf->job_comp_type;
	plugin_ctx_t *c;
	const jobcomp_ops_t *o;

	if (!type || !*type)
		type = "jobcomp/none";
	/* Resolve the new one first: a name that does not resolve leaves the
	 * old plugin in place.  Plugins keep their settings in statics, so
	 * the old one is finished before the new one's init. */
	c = plugin_ctx_create(&jobcomp_plugin_type, type, conf->plugin_dir,
			      conf_key_where(conf, "JobCompType"), err, errlen);
	if (!c)
		return -1;
	jobcomp_fini();
	o = plugin_ctx_ops(c, 0);
	if ((o->init && o->init(conf, err, errlen) < 0) ||
	    plugin_ctx_init(c, err, errlen) < 0) {
		plugin_ctx_destroy(c);
		return -1;
	}
	ctx = c;
	ops = o;
	ops_ver = plugin_ctx_ops_version(c, 0);
	if (ops_ver != JOBCOMP_OPS_VERSION)
		info("jobcomp: using %s (built for jobcomp ops version %u, "
		     "this slurmctld's is %u: served as %u)",
		     plugin_ctx_names(c), ops_ver, JOBCOMP_OPS_VERSION,
		     ops_ver);
	else
		info("jobcomp: using %s", plugin_ctx_names(c));
	return 0;
}

void jobcomp_fini(void)
{
	if (ops && ops->fini)
		ops->fini();
	plugin_ctx_destroy(ctx);
	ctx = NULL;
	ops = NULL;
}

/* What the job ended as, kept until its end is on disk. */
typedef struct {
	uint32_t job_id;
	uint32_t state, reason, exit_code;
	time_t   end_time;
} jc_end_t;

static void _job_end_saved(void *arg)
{
	jc_end_t *e = arg;
	job_record_t *j = job_mgr_find(e->job_id);
	job_info_t tmp;
	job_view_t v;

	if (j && ops && ops->job_end) {
		log_flag(JOBCOMP, "%s: JobId=%u state %u exit %u recorded",
			 __func__, e->job_id, e->state, e->exit_code);
		tmp = j->info;          /* shallow: for this call only */
		tmp.job_state = e->state;
		tmp.state_reason = e->reason;
		tmp.exit_code = e->exit_code;
		tmp.end_time = e->end_time;
		if (ops_ver == 1) {
			((const jobcomp_ops_v1_t *) (const void *) ops)
				->job_end(&tmp);
		} else {
			job_view_fill(&v, &tmp, j);
			ops->job_end(&v);
		}
	}
	xfree(e);
}

/* Recorded once the end is on disk (commit_after): a job whose end the
 * journal refused has no completion record. */
void jobcomp_job_end(const job_info_t *job)
{
	jc_end_t *e;

	if (!ops || !ops->job_end)
		return;
	e = xmalloc(sizeof(*e));
	e->job_id = job->job_id;
	e->state = job->job_state;
	e->reason = job->state_reason;
	e->exit_code = job->exit_code;
	e->end_time = job->end_time;
	commit_after(_job_end_saved, e);
}
