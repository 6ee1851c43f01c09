/* jobcomp.c — see jobcomp.h. */
#include "ctld/jobcomp.h"

#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/job_mgr.h"

static plugin_handle_t     *handle;
static const jobcomp_ops_t *ops;

int jobcomp_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	const char *type = conf->job_comp_type;
	plugin_handle_t *h;
	const jobcomp_ops_t *o;

	if (!type || !*type || !xstrcasecmp(type, "jobcomp/none")) {
		jobcomp_fini();
		return 0;
	}
	/* Plugins keep their settings in statics: the old one goes first. */
	jobcomp_fini();
	h = plugin_load(type, conf->plugin_dir, err, errlen);
	if (!h)
		return -1;
	o = plugin_ops(h);
	if (o->init && o->init(conf, err, errlen) < 0) {
		plugin_unload(h);
		return -1;
	}
	handle = h;
	ops = o;
	info("jobcomp: using %s", type);
	return 0;
}

void jobcomp_fini(void)
{
	if (ops && ops->fini)
		ops->fini();
	if (handle)
		plugin_unload(handle);
	handle = NULL;
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

	if (j && ops && ops->job_end) {
		tmp = j->info;          /* shallow: for this call only */
		tmp.job_state = e->state;
		tmp.state_reason = e->reason;
		tmp.exit_code = e->exit_code;
		tmp.end_time = e->end_time;
		ops->job_end(&tmp);
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
