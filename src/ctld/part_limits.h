/* part_limits.h — partition limits that depend on what else runs on a
 * node: ExclusiveUser (a node runs the jobs of one user at a time when
 * any of them is from such a partition) and MaxCPUsPerNode (the CPUs all
 * jobs of a partition may use on a node).
 *
 * Both walk the running jobs, and only when some partition sets them.
 */
#ifndef SLUICE_CTLD_PART_LIMITS_H
#define SLUICE_CTLD_PART_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctld/job_mgr.h"

/* Narrow avail (nodes the job may use in part) for ExclusiveUser, and
 * for MaxCPUsPerNode give the per-node CPU caps to put in the select
 * request (xmalloc'd, node_cnt entries; NULL = none).  With ignore_alloc
 * (could it ever run) the other jobs are not looked at. */
uint32_t *part_limits_apply(const job_record_t *j, const part_record_t *part,
			    size_t node_cnt, bitmap_t *avail,
			    bool ignore_alloc);

#endif
