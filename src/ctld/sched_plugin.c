/* sched_plugin.c — SchedulerType's context and built-ins
 * (sched_plugin.h). */
#include "ctld/sched_plugin.h"

#include <stdio.h>

#include "common/log.h"
#include "ctld/backfill.h"

static const sched_ops_t sched_backfill_ops = {
	.init = backfill_init, .fini = backfill_fini,
	.reconfig = backfill_reconfig, .run = backfill_run,
	.active = backfill_active,
};
static const sched_ops_t sched_builtin_ops;   /* the main scheduler alone */

static const struct sluice_plugin sched_backfill = {
	.type = "sched", .name = "backfill", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = SCHED_OPS_VERSION, .ops = &sched_backfill_ops,
};
static const struct sluice_plugin sched_builtin = {
	.type = "sched", .name = "builtin", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = SCHED_OPS_VERSION, .ops = &sched_builtin_ops,
};
static const struct sluice_plugin *const sched_builtins[] = {
	&sched_backfill, &sched_builtin, NULL,
};
const plugin_type_t sched_plugin_type = {
	.type = "sched", .key = "SchedulerType",
	.ops_version = SCHED_OPS_VERSION, .builtins = sched_builtins,
};

static plugin_ctx_t      *sched_ctx;
static const sched_ops_t *sched_ops;

int sched_plugin_load(const slurm_conf_t *conf, struct event_base *base,
		      char *err, size_t errlen)
{
	const char *type = conf->scheduler_type && *conf->scheduler_type ?
		conf->scheduler_type : "sched/backfill";
	plugin_ctx_t *c = plugin_ctx_create(&sched_plugin_type, type,
					    conf->plugin_dir, NULL, err,
					    errlen);
	const sched_ops_t *o;

	if (!c)
		return -1;
	o = plugin_ctx_ops(c, 0);
	if (o == sched_ops) {     /* the same one: new parameters */
		plugin_ctx_destroy(c);
		if (sched_ops->reconfig)
			sched_ops->reconfig();
		return 0;
	}
	if (plugin_ctx_init(c, err, errlen) < 0) {
		plugin_ctx_destroy(c);
		return -1;
	}
	/* the old one stops before the new one starts: a plugin keeps its
	 * timers in statics */
	sched_plugin_fini();
	if (o->init && o->init(base) < 0) {
		snprintf(err, errlen, "SchedulerType: %s failed to start",
			 plugin_ctx_names(c));
		plugin_ctx_destroy(c);
		return -1;
	}
	sched_ctx = c;
	sched_ops = o;
	info("sched: using %s", plugin_ctx_names(c));
	return 0;
}

void sched_plugin_fini(void)
{
	if (sched_ops && sched_ops->fini)
		sched_ops->fini();
	plugin_ctx_destroy(sched_ctx);
	sched_ctx = NULL;
	sched_ops = NULL;
}

bool sched_plugin_has_pass(void)
{
	return sched_ops && sched_ops->run;
}

int sched_plugin_run(void)
{
	return sched_ops && sched_ops->run ? sched_ops->run() : 0;
}

bool sched_plugin_active(void)
{
	return sched_ops && sched_ops->active && sched_ops->active();
}
