/* js_view.h — slurmctld's side of the job_submit plugin view
 * (common/job_submit_view.h): fill the view of the version a plugin was
 * built against from the controller's job_desc_t, and take back what
 * the plugin changed.  Every version slurmctld serves (the current and
 * the one before) has a field table here; members are matched with
 * job_desc_t's by name, so job_desc_t may change without a plugin
 * noticing.  Loop thread only.
 */
#ifndef SLUICE_CTLD_JS_VIEW_H
#define SLUICE_CTLD_JS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "common/job_info.h"
#include "common/job_submit_view.h"

/* The oldest view version served (the one before the current). */
#define JS_VIEW_OLDEST 1

/* The size of view version v; 0 if it is not served. */
size_t js_view_size(uint32_t v);
/* Fill view (js_view_size(v) bytes) from d.  Strings and lists are d's
 * own (not copied): the plugin may xfree one and store another. */
void   js_view_fill(uint32_t v, void *view, const job_desc_t *d,
		    uint16_t client_version);
/* Store the view's members back into d (its read-only ones excepted). */
void   js_view_take(uint32_t v, const void *view, job_desc_t *d);

#endif
