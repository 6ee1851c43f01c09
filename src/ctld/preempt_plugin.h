/* preempt_plugin.h — what a PreemptType plugin implements (preempt.h
 * says how slurmctld uses it).  Installed for plugin authors.
 *
 * Ops version 2 hands the ops job views (common/job_view.h, view 1),
 * filled just before each call and valid only during it.  Ops version 1
 * took the controller's job records, which are not an interface: a
 * plugin built for it is refused at load ("built for preempt ops version
 * 1, this is 2"), as is any version this slurmctld does not know.
 */
#ifndef SLUICE_CTLD_PREEMPT_PLUGIN_H
#define SLUICE_CTLD_PREEMPT_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/job_view.h"
#include "common/plugin.h"

#define PREEMPT_OPS_VERSION 2

/* enum preempt_mode's values (preempt.h), for mode */
#define PREEMPT_VIEW_MODE_OFF      0
#define PREEMPT_VIEW_MODE_CANCEL   1
#define PREEMPT_VIEW_MODE_REQUEUE  2
#define PREEMPT_VIEW_MODE_SUSPEND  3

typedef struct {
	/* May pending j preempt running r (r is past PreemptExemptTime and
	 * its mode is not OFF)?  NULL: nothing is ever preempted. */
	bool     (*preempts)(const job_view_t *j, const job_view_t *r);
	/* r's rank as a victim: lower tiers go first. */
	uint32_t (*tier)(const job_view_t *r);
	/* What happens to victim r (PREEMPT_VIEW_MODE_*) and its GraceTime
	 * in seconds. */
	int      (*mode)(const job_view_t *r);
	uint32_t (*grace)(const job_view_t *r);
} preempt_ops_t;

#endif
