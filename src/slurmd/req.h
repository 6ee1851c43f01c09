/* req.h — slurmd's request handlers (doc/dev/rpc.md, controller -> slurmd).
 *
 * req_handle() is the net_server handler: it checks that the sender is
 * root or SlurmUser, then dispatches on the message type.  arg is the
 * slurmd_t.
 */
#ifndef SLUICE_SLURMD_REQ_H
#define SLUICE_SLURMD_REQ_H

#include "common/net.h"

void req_handle(net_conn_t *conn, slurm_msg_t *msg, void *arg);

#endif
