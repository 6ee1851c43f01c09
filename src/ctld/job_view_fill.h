/* job_view_fill.h — slurmctld's side of the plugin job view
 * (common/job_view.h): the one place that fills a view from the
 * controller's job_info_t.  Also the ops versions each slot serves and
 * the view version each one hands out.  Pure; loop thread by use.
 */
#ifndef SLUICE_CTLD_JOB_VIEW_FILL_H
#define SLUICE_CTLD_JOB_VIEW_FILL_H

#include "common/job_info.h"
#include "common/job_view.h"

/* Fill v (view JOB_VIEW_VERSION) from i; ctld is the record the built-in
 * plugins read (may be NULL).  Strings are i's own, not copied. */
void job_view_fill(job_view_t *v, const job_info_t *i, const void *ctld);
/* The view a built-in plugin gets: version, size, ctld and job_id are
 * set, the rest is left as it is (give it zeroed storage).  The
 * built-ins read the record: filling, or even clearing, every member
 * of every pending job's view on each recalc costs them time for
 * nothing.  Full views for every plugin loaded from PluginDir. */
void job_view_fill_builtin(job_view_t *v, const job_info_t *i,
			   const void *ctld);

#endif
