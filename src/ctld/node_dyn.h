/* node_dyn.h — dynamic nodes: nodes slurm.conf does not list.
 *
 * A slurmd -Z registers with its NodeName line (dyn_conf), or an admin
 * runs scontrol create NodeName=... (State=CLOUD or FUTURE; a node made
 * so waits for its slurmd).  Each takes a vacant slot of the node table
 * (MaxNodeCount, node_mgr.h), joins the partitions of Nodes=ALL and of
 * NodeSets by one of its features, and is journaled (JREC_DYN_NODES: the
 * whole list) and in the snapshot, so a restarted controller has it
 * before it reads the jobs that ran there.  scontrol delete NodeName=
 * frees the slot of an idle dynamic node.
 */
#ifndef SLUICE_CTLD_NODE_DYN_H
#define SLUICE_CTLD_NODE_DYN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/msg_types.h"
#include "common/net.h"
#include "common/pack.h"
#include "ctld/node_mgr.h"

#define DYN_NODE_STATE_VERSION 1

/* A registration of a node the table lacks, with dyn_conf: the node is
 * created (*n); else the error to answer (logged). */
int  node_dyn_register(const node_registration_msg_t *r, const char *peer,
		       node_record_t **n);
void node_dyn_rpc_create(net_conn_t *c, slurm_msg_t *m);
void node_dyn_rpc_delete(net_conn_t *c, slurm_msg_t *m);

/* Every dynamic node (name, line, address, hostname). */
void node_dyn_pack_state(buf_t *b);
/* Make the dynamic nodes those of the record: the missing added, those
 * it lacks freed.  0, or -1 if malformed. */
int  node_dyn_unpack_state(buf_t *b, uint16_t version);
/* The list changed since the last call (journal it). */
bool node_dyn_take_dirty(void);

#endif
