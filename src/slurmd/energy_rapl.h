/* energy_rapl.h — AcctGatherEnergyType=acct_gather_energy/rapl on the
 * node: whether the machine has RAPL counters (powercap).
 *
 * Energy is not accounted yet: ConsumedEnergy stays 0 everywhere.  At
 * start slurmd logs one line saying so, naming what it found: either no
 * counters ("no RAPL energy counters under /sys/class/powercap (...)")
 * or the counters it would read.
 */
#ifndef SLUICE_SLURMD_ENERGY_RAPL_H
#define SLUICE_SLURMD_ENERGY_RAPL_H

#include "common/conf.h"

/* Log the line (nothing unless the type is acct_gather_energy/rapl). */
void energy_rapl_check(const slurm_conf_t *conf);

#endif
