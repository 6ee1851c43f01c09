/* step_energy.h — a step's ConsumedEnergy (AcctGatherEnergyType's ops,
 * common/acct_gather_energy.h).
 *
 * The node's RAPL counters (common/rapl.h) are read when the step starts,
 * every JobAcctGatherFrequency energy=N seconds (else AcctGatherNodeFreq,
 * else the task sampling period, 30 s by default: often enough that a
 * counter cannot wrap twice unseen) and when it ends.  A step's energy is
 * the node's energy between its start and its end, as in Slurm: several
 * steps on one node each count the whole node.  Without the plugin or
 * without counters a step's energy is 0 (slurmd has logged why).
 */
#ifndef SLUICE_STEPD_STEP_ENERGY_H
#define SLUICE_STEPD_STEP_ENERGY_H

#include <stdint.h>

#include "common/conf.h"

struct event_base;
typedef struct step_energy step_energy_t;

/* NULL when AcctGatherEnergyType gathers nothing (none) or its counters
 * are not readable. */
step_energy_t *step_energy_start(const slurm_conf_t *conf,
				 struct event_base *base);
/* Joules since the start (the counters read now, unless stopped). */
uint64_t       step_energy_joules(step_energy_t *e);
/* The last read: the total is final (NULL is fine). */
void           step_energy_stop(step_energy_t *e);
void           step_energy_destroy(step_energy_t *e);

/* Seconds between reads from JobAcctGatherFrequency, AcctGatherNodeFreq
 * and the task period: "energy=N" wins, then a non-zero node frequency,
 * then def. */
int            step_energy_freq(const char *spec, uint16_t node_freq,
				int def);

#endif
