/* rpc.h — the controller's request dispatch: message type -> handler and
 * who may call it (anyone, or operators: root and SlurmUser). */
#ifndef SLUICE_CTLD_RPC_H
#define SLUICE_CTLD_RPC_H

#include "common/net.h"

/* net_server handler for the controller's port. */
void rpc_dispatch(net_conn_t *conn, slurm_msg_t *msg, void *arg);

#endif
