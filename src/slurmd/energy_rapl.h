/* energy_rapl.h — AcctGatherEnergyType in slurmd (its ops:
 * common/acct_gather_energy.h; acct_gather_energy/rapl built in):
 * the node's energy for the controller (scontrol show node CurrentWatts,
 * AveWatts; energy in --json).
 *
 * At start slurmd logs one line naming what it found: no counters ("no
 * RAPL energy counters under /sys/class/powercap (...); ConsumedEnergy
 * stays 0") or the counters it reads (common/rapl.h; slurmstepd reads
 * them for each step, stepd/step_energy.h).  The counters are read at
 * every REQUEST_ACCT_GATHER_UPDATE (the controller's node pings) and every
 * AcctGatherNodeFreq seconds if that is set.
 */
#ifndef SLUICE_SLURMD_ENERGY_RAPL_H
#define SLUICE_SLURMD_ENERGY_RAPL_H

#include "common/conf.h"
#include "common/msg_types.h"

struct event_base;
typedef struct energy_node energy_node_t;

/* Log the line; NULL when the plugin gathers nothing (none) or found no
 * counters. */
energy_node_t *energy_node_start(const slurm_conf_t *conf,
				 struct event_base *base);
/* Read the counters now and fill out (all 0 for NULL). */
void           energy_node_sample(energy_node_t *e,
				  acct_gather_energy_msg_t *out);
void           energy_node_stop(energy_node_t *e);

#endif
