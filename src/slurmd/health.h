/* health.h — slurm.conf HealthCheckProgram on this node.
 *
 * As Slurm's slurmd does: the program runs as root (SlurmdUser) with a
 * small clean environment (PATH, SLURMD_NODENAME, SLURM_CLUSTER_NAME,
 * SLURM_CONF), its output discarded, once at start before the node
 * registers (waited for) and then whenever the controller asks
 * (REQUEST_HEALTH_CHECK, every HealthCheckInterval for the nodes
 * HealthCheckNodeState selects).  It is killed after 60 seconds.  What
 * it finds is its own business: a failing check drains the node by
 * running `scontrol update NodeName=$SLURMD_NODENAME State=DRAIN
 * Reason=...` itself; slurmd only logs a non-zero exit.
 */
#ifndef SLUICE_SLURMD_HEALTH_H
#define SLUICE_SLURMD_HEALTH_H

#include <stdbool.h>
#include <sys/types.h>

#include "slurmd/slurmd.h"

#define HEALTH_TIMEOUT_SEC 60

/* Run the program and wait for it (start-up).  Nothing if none is set. */
void health_run_sync(slurmd_t *sd);
/* Start it unless it is running already (REQUEST_HEALTH_CHECK). */
void health_start(slurmd_t *sd);
/* A child ended: true if it was the health check (logged). */
bool health_reaped(slurmd_t *sd, pid_t pid, int status);
void health_fini(slurmd_t *sd);

#endif
