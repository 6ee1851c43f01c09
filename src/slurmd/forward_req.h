/* forward_req.h — slurmd's REQUEST_FORWARD (common/forward.h).
 *
 * The request names this node first: slurmd's own handler gets this
 * node's copy at once (through a capturing connection, net.h; as from
 * root) while a thread passes the rest on down the tree; the loop
 * answers RESPONSE_FORWARD when both are over.  Who may ask: root and SlurmUser
 * for any request slurmd serves; other users only for
 * REQUEST_LAUNCH_TASKS whose every copy names them as the step's user
 * (each node still checks the step credential).  Nodes are found by name
 * in slurm.conf; an unknown name is answered ESLURM_INVALID_NODE_NAME.
 */
#ifndef SLUICE_SLURMD_FORWARD_REQ_H
#define SLUICE_SLURMD_FORWARD_REQ_H

#include "common/net.h"
#include "slurmd/slurmd.h"

void forward_req(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);

#endif
