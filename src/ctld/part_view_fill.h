/* part_view_fill.h — slurmctld's side of the plugin partition view
 * (common/part_view.h): the one place that fills a view from the
 * controller's part_info_t.  Pure; loop thread by use.
 */
#ifndef SLUICE_CTLD_PART_VIEW_FILL_H
#define SLUICE_CTLD_PART_VIEW_FILL_H

#include "common/node_info.h"
#include "common/part_view.h"

/* Fill v (view PART_VIEW_VERSION) from p; ctld is set to p.  Strings are
 * p's own, not copied. */
void part_view_fill(part_view_t *v, const part_info_t *p);

#endif
