/* stepd_plugins.h — the plugin contexts of one slurmstepd.
 *
 * Every slurmstepd (batch, extern, srun step) resolves ProctrackType,
 * TaskPlugin and JobAcctGatherType from its slurm.conf before it sets up
 * anything: slurmd checked the same file at start and reconfigure, so a
 * failure here means the file changed under it; the step fails to launch
 * with the context's message in the log.
 */
#ifndef SLUICE_STEPD_STEPD_PLUGINS_H
#define SLUICE_STEPD_STEPD_PLUGINS_H

#include "common/conf.h"

/* 0, or -1 (logged).  Also makes the process a child subreaper. */
int stepd_plugins_init(const slurm_conf_t *conf);

#endif
