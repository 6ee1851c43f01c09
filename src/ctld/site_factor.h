/* site_factor.h — PrioritySiteFactorPlugin: a site's own term in a job's
 * priority.
 *
 * With PriorityType=priority/multifactor a job's priority is the sum of
 * the weighted factors, plus its site factor as it is (no weight; it may
 * be negative), minus its nice.  A site_factor plugin sets that term:
 * once when a job is submitted or updated (set), and every
 * PriorityCalcPeriod for all pending jobs at once (update), just before
 * their priorities are computed again.  sprio shows it in the SITE
 * column.  With priority/basic the plugin is loaded and called, but the
 * factor changes nothing (logged once).
 *
 * slurm.conf names one plugin (PrioritySiteFactorPlugin=site_factor/x);
 * none (the default) sets every factor to 0.  Other names load
 * PluginDir/site_factor_<name>.so exporting a struct sluice_plugin of
 * type "site_factor" with ops of this type.  PrioritySiteFactorParameters
 * is the plugin's own: it reads it from the conf its init gets.
 *
 * Threads: every op runs on slurmctld's loop thread and must not block
 * (no network, no waiting on a file system that may hang): slow work
 * belongs on a thread the plugin owns, whose results set/update pick up.
 * The job views are valid only during the call.
 *
 * Ops version 2 (this header) hands the plugin job views
 * (common/job_view.h, view 1); slurmctld also serves ops version 1,
 * whose ops took the wire's job_info_t (tests/fixtures/plugin_ops_v1/
 * ctld/site_factor.h), and refuses any other at load naming both.
 */
#ifndef SLUICE_CTLD_SITE_FACTOR_H
#define SLUICE_CTLD_SITE_FACTOR_H

#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/job_info.h"
#include "common/job_view.h"
#include "common/plugin_ctx.h"

#define SITE_FACTOR_OPS_VERSION 2
/* the oldest ops version slurmctld still serves */
#define SITE_FACTOR_OPS_OLDEST 1

/* One pending job in update(): its factor may be rewritten. */
typedef struct {
	const job_view_t *job;
	int32_t           factor;   /* in: as it is; out: the new one */
} site_factor_job_t;

typedef struct {
	/* At load and at each reconfigure (after the old instance's fini):
	 * 0, or -1 with err (at start slurmctld stops; at reconfigure
	 * pending jobs keep their factors, new ones get 0, and no op is
	 * called until it loads). */
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	/* A job was submitted (before its first priority) or updated;
	 * *factor holds its current one (0 for a new job). */
	void (*set)(const job_view_t *job, int32_t *factor);
	/* Every PriorityCalcPeriod, with all pending jobs. */
	void (*update)(site_factor_job_t *jobs, size_t cnt);
} site_factor_ops_t;

/* ---- slurmctld's side ---- */

struct job_record;

/* The type (site_factor/none built in), for reconfigure checks. */
extern const plugin_type_t site_factor_plugin_type;

/* Load conf->site_factor_plugin; a reconfigure replaces the old one and
 * has every pending job's factor set again by the new one.  0, or -1
 * with err (the old plugin stays). */
int  site_factor_init(const slurm_conf_t *conf, char *err, size_t errlen);
void site_factor_fini(void);
/* A job was submitted or updated: its site factor, from the plugin. */
void site_factor_set(struct job_record *j);
/* Before pending priorities are computed again (priority.c). */
void site_factor_update(void);

#endif
