/* sched_plugin.h — SchedulerType: the scheduler that runs beside the
 * main one (sched.c, always on).
 *
 * Built in: sched/backfill (backfill.c: plans the queue every bf_interval
 * and starts jobs early where that delays nobody; the default) and
 * sched/builtin (no second scheduler: strict priority order).  Any other
 * name is PluginDir/sched_<name>.so exporting sched_ops_t; its ops use
 * the controller's structures, so it is built against this source tree.
 *
 * Every op runs on the controller's loop thread and must not block: a
 * plugin that works in long passes arms its own timer on the loop (init's
 * base) and yields between slices, as sched/backfill does; anything slow
 * goes to a worker the plugin owns.  Empty ops are allowed (builtin).
 */
#ifndef SLUICE_CTLD_SCHED_PLUGIN_H
#define SLUICE_CTLD_SCHED_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

#define SCHED_OPS_VERSION 1

struct event_base;

typedef struct {
	/* After SchedulerParameters are read, at start (base NULL: no loop,
	 * tests call run).  0, or -1. */
	int  (*init)(struct event_base *base);
	/* Before unload (shutdown, or another SchedulerType at
	 * reconfigure). */
	void (*fini)(void);
	/* scontrol reconfigure: SchedulerParameters or the nodes changed. */
	void (*reconfig)(void);
	/* One whole pass now (tests, benchmark): the jobs started. */
	int  (*run)(void);
	/* A pass is under way. */
	bool (*active)(void);
} sched_ops_t;

extern const plugin_type_t sched_plugin_type;

/* Load conf's SchedulerType (empty: sched/backfill) and init it on base;
 * at reconfigure the same plugin gets reconfig, another one replaces it.
 * 0, or -1 with err and the old plugin kept. */
int  sched_plugin_load(const slurm_conf_t *conf, struct event_base *base,
		       char *err, size_t errlen);
void sched_plugin_fini(void);
/* The plugin schedules on its own (sdiag's backfill statistics). */
bool sched_plugin_has_pass(void);
/* Its run op (0 without one) and active op (false without one). */
int  sched_plugin_run(void);
bool sched_plugin_active(void);

#endif
