/* rpc.h — the controller's request dispatch: message type -> handler and
 * who may call it, and the one place that decides who is who.
 *
 * Privileges, as Slurm's: root and SlurmUser are the cluster's own (node
 * messages, and everything below); an accounting AdminLevel of
 * Administrator may also reconfigure, shut down and update nodes; an
 * Operator (or Administrator) controls every job (cancel, hold, update,
 * requeue, suspend, signal) and sees through PrivateData; everyone else
 * controls their own jobs.  AdminLevel comes from the association cache
 * (assoc_mgr); without accounting only root and SlurmUser are more than
 * users. */
#ifndef SLUICE_CTLD_RPC_H
#define SLUICE_CTLD_RPC_H

#include <sys/types.h>

#include "common/net.h"

typedef enum {
	RPC_PRIV_USER,
	RPC_PRIV_OPERATOR,
	RPC_PRIV_ADMIN,
	RPC_PRIV_SLURM,          /* root, SlurmUser */
} rpc_priv_t;

rpc_priv_t rpc_privilege(uid_t uid);

/* net_server handler for the controller's port. */
void rpc_dispatch(net_conn_t *conn, slurm_msg_t *msg, void *arg);

#endif
