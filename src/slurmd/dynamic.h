/* dynamic.h — slurmd -Z: a node that slurm.conf does not list.
 *
 * The node registers with a NodeName line (node_registration_msg_t
 * dyn_conf) built from what slurmd -C reports, overridden by --conf: any
 * of CPUs, Boards, SocketsPerBoard, CoresPerSocket, ThreadsPerCore there
 * replaces the whole detected topology, RealMemory the detected memory.
 * The controller adds the node (up to MaxNodeCount) when it registers.
 */
#ifndef SLUICE_SLURMD_DYNAMIC_H
#define SLUICE_SLURMD_DYNAMIC_H

#include <stddef.h>

#include "common/conf.h"
#include "slurmd/hwinfo.h"

/* The line, or NULL with err (--conf malformed or naming NodeName).
 * xfree. */
char        *dynamic_node_line(const char *name, const hwinfo_t *hw,
			       const char *conf, char *err, size_t errlen);
/* The node the line describes, checked as slurm.conf's NodeName lines
 * are (its port defaults to c's SlurmdPort), or NULL with err.  Free with
 * conf_node_line_free(n, 1). */
conf_node_t *dynamic_node_parse(const slurm_conf_t *c, const char *line,
				char *err, size_t errlen);

#endif
