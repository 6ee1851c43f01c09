/* priority_plugin.h — what a PriorityType plugin implements (priority.h
 * says how slurmctld uses it).  Installed for plugin authors.
 *
 * Ops version 2 hands the ops job views (common/job_view.h, view 1),
 * filled just before each call and valid only during it.  Ops version 1
 * took the controller's job records, which are not an interface: a
 * plugin built for it is refused at load ("built for priority ops
 * version 1, this is 2"), as is any version this slurmctld does not
 * know.  Every op runs on slurmctld's loop thread and must not block.
 */
#ifndef SLUICE_CTLD_PRIORITY_PLUGIN_H
#define SLUICE_CTLD_PRIORITY_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/job_view.h"
#include "common/plugin.h"

#define PRIORITY_OPS_VERSION 2

/* Cluster totals the job size and TRES factors divide by. */
typedef struct {
	uint32_t nodes;
	uint64_t cpus;
	uint64_t mem;              /* MB */
	uint16_t max_part_factor;  /* highest PriorityJobFactor */
} priority_totals_t;

/* One pending job in recalc: its priority may be rewritten (0 is not a
 * priority: it is taken as 1; holding is the user's or operator's). */
typedef struct {
	const job_view_t *job;
	uint32_t          priority;  /* in: as it is; out: the new one */
} priority_job_t;

/* A job's factors as sprio shows them: weighted, and in [0,1] (norm_).
 * tres and norm_tres ("cpu=10,mem=5") are xmalloc'd or NULL; slurmctld
 * frees them. */
typedef struct {
	double site, age, fairshare, job_size, part, qos, assoc;
	double norm_age, norm_fairshare, norm_job_size, norm_part,
	       norm_qos, norm_assoc;
	char  *tres, *norm_tres;
} priority_factors_view_t;

typedef struct {
	/* A new job's priority before nice (the view has nice 0, i.e.
	 * NICE_OFFSET, and an eligible time; the caller applies nice and
	 * keeps an operator's --priority instead).  NULL: as basic. */
	uint32_t (*new_job)(const job_view_t *j, time_t now);
	/* Every PriorityCalcPeriod and after a reconfigure, with the
	 * pending jobs whose priority an operator did not fix (in batches:
	 * one pass may call it several times).  NULL: priorities never
	 * change by time. */
	void     (*recalc)(priority_job_t *jobs, size_t cnt, time_t now);
	/* sprio: j's factors at now into out (zeroed), returns its
	 * priority.  j's partition is the one sprio shows.  NULL: the
	 * plugin has no factors (sprio says only multifactor has). */
	uint32_t (*factors)(const priority_totals_t *tot, const job_view_t *j,
			    time_t now, priority_factors_view_t *out);
} priority_ops_t;

#endif
