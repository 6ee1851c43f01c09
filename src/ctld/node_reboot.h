/* node_reboot.h — scontrol reboot and cancel_reboot (slurm.conf
 * RebootProgram), as Slurm does them.
 *
 * A node asked to reboot is REBOOT_REQUESTED (sinfo "@"; ASAP also
 * drains it, reason "Reboot ASAP", NextState=RESUME); once it has no
 * jobs the controller sends its slurmd REQUEST_REBOOT_NODES, which runs
 * RebootProgram, and the node is DOWN+REBOOT_ISSUED (sinfo "reboot^")
 * until it registers with a boot time later than that request: then it
 * takes its next state (DOWN: stays DOWN, reason "... : reboot
 * complete"; RESUME or ASAP: undrained, reason cleared; none: back in
 * service, a drain an admin set stays).  Not back within ResumeTimeout:
 * DOWN, "... : reboot timed out".  The state is in the saved node states
 * (node_mgr_pack_state), so a controller restart keeps pending reboots.
 */
#ifndef SLUICE_CTLD_NODE_REBOOT_H
#define SLUICE_CTLD_NODE_REBOOT_H

#include <stdbool.h>
#include <time.h>

#include "common/net.h"
#include "ctld/node_mgr.h"

/* REQUEST_REBOOT_NODES from scontrol (operators, root, SlurmUser). */
void node_reboot_rpc(net_conn_t *c, slurm_msg_t *m);
/* scontrol cancel_reboot / update State=CANCEL_REBOOT: 0, or
 * ESLURM_INVALID_NODE_STATE when no reboot is pending. */
int  node_reboot_cancel(node_record_t *n);
/* Each second: reboot the requested nodes that are free, time out the
 * ones that did not come back. */
void node_reboot_tick(time_t now);
/* The node registered (boot_time from its slurmd; valid: its hardware
 * matches the config).  True if it was being rebooted: its state is
 * decided here and ReturnToService does not apply. */
bool node_reboot_registered(node_record_t *n, time_t boot_time, bool valid);

#endif
