/* energy_rapl.h — AcctGatherEnergyType=acct_gather_energy/rapl on the
 * node: whether the machine has RAPL counters (powercap).
 *
 * At start slurmd logs one line naming what it found: no counters ("no
 * RAPL energy counters under /sys/class/powercap (...); ConsumedEnergy
 * stays 0") or the counters slurmstepd reads for each step
 * (stepd/step_energy.h).
 */
#ifndef SLUICE_SLURMD_ENERGY_RAPL_H
#define SLUICE_SLURMD_ENERGY_RAPL_H

#include "common/conf.h"

/* Log the line (nothing unless the type is acct_gather_energy/rapl). */
void energy_rapl_check(const slurm_conf_t *conf);

#endif
