/* cgroup_devices.h — ConstrainDevices: which device files of the node's
 * gres.conf a step may not open.
 *
 * Every gres.conf File= of the node's GPUs is a device; the job's GPUs on
 * the node (their gres indexes, in gres.conf order) stay open, the others
 * are denied to the step's processes: the cgroup v1 devices controller
 * gets one "c MAJOR:MINOR rwm" (or "b ...") line per denied file in the
 * step's devices.deny, and open(2) of those files then fails with EPERM.
 */
#ifndef SLUICE_STEPD_CGROUP_DEVICES_H
#define SLUICE_STEPD_CGROUP_DEVICES_H

#include "common/conf.h"

/* The devices.deny lines for a step that holds the GPUs gpu_idx ("0",
 * "0-1"; NULL or "" = none) on node: NULL-terminated, xmalloc'd (free
 * with xstrarray_free), NULL if nothing is to be denied.  A File= that
 * cannot be stat'ed or is no device is skipped and logged. */
char **cgroup_devices_deny(const slurm_conf_t *conf, const char *node,
			   const char *gpu_idx);

#endif
