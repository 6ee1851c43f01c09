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

#include <stdbool.h>
#include <sys/types.h>

#include "common/net.h"

struct job_record;

typedef enum {
	RPC_PRIV_USER,
	RPC_PRIV_OPERATOR,
	RPC_PRIV_ADMIN,
	RPC_PRIV_SLURM,          /* root, SlurmUser */
} rpc_priv_t;

rpc_priv_t rpc_privilege(uid_t uid);

/* PrivateData, decided by the dispatch table's PrivateData column: a row
 * whose bit is set either refuses the whole request (nodes, partitions)
 * or, for record lists, lets its handler filter each record through
 * rpc_hides_job (jobs: squeue, scontrol show job/step, squeue -s, sstat,
 * sprio, sattach).  The viewer of a request says who asks and whether
 * other users' jobs are hidden from them; it is computed once per
 * request. */
typedef struct {
	uid_t uid;
	bool  hide;     /* PrivateData=jobs applies to this request and uid */
	bool  coord;    /* uid coordinates an account (sees its jobs) */
} rpc_viewer_t;

rpc_viewer_t rpc_viewer(const slurm_msg_t *m);
/* Is job j (and all that derives from it: steps, layout, priority,
 * usage) hidden from v?  Its owner, a coordinator of its account and
 * operators see it. */
bool rpc_hides_job(const rpc_viewer_t *v, const struct job_record *j);

/* net_server handler for the controller's port. */
void rpc_dispatch(net_conn_t *conn, slurm_msg_t *msg, void *arg);

#endif
