/* jobcomp.c — see jobcomp.h. */
#include "ctld/jobcomp.h"

#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/plugin.h"
#include "common/xstring.h"

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

void jobcomp_job_end(const job_info_t *job)
{
	if (ops && ops->job_end)
		ops->job_end(job);
}
