/* debug_rpc.h — `scontrol setdebug` and `scontrol setdebugflags`: the
 * running controller's log level and DebugFlags, changed without a
 * restart until the next `scontrol reconfigure` restores the config's. */
#ifndef SLUICE_CTLD_DEBUG_RPC_H
#define SLUICE_CTLD_DEBUG_RPC_H

#include "common/msg.h"
#include "common/net.h"

void debug_rpc_set_level(net_conn_t *conn, slurm_msg_t *msg);
void debug_rpc_set_flags(net_conn_t *conn, slurm_msg_t *msg);

#endif
