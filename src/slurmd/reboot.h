/* reboot.h — slurm.conf RebootProgram on this node.
 *
 * The controller sends REQUEST_REBOOT_NODES when a node it was asked to
 * reboot (scontrol reboot) has no jobs left.  As Slurm's slurmd does,
 * the program runs as root with the small environment of
 * HealthCheckProgram (SLURMD_NODENAME, SLURM_CLUSTER_NAME, SLURM_CONF,
 * PATH), without arguments; slurmd answers at once and does not wait for
 * it (the program is expected to reboot the machine).  Its end is logged.
 * The controller sees the reboot when the node registers with a later
 * boot time.
 */
#ifndef SLUICE_SLURMD_REBOOT_H
#define SLUICE_SLURMD_REBOOT_H

#include <stdbool.h>
#include <sys/types.h>

#include "common/net.h"
#include "slurmd/slurmd.h"

/* REQUEST_REBOOT_NODES from the controller. */
void reboot_req(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);
/* A child ended: true if it was RebootProgram (logged). */
bool reboot_reaped(slurmd_t *sd, pid_t pid, int status);

#endif
