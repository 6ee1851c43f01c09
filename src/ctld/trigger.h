/* trigger.h — event triggers (strigger): programs the controller runs
 * when nodes or jobs change state, when it is reconfigured or a daemon
 * fails or comes back.
 *
 * The loop owns the table.  The places where nodes and jobs change state
 * call the hooks below; they only note the event and ask for a pass a
 * moment later, so events that come together (nodes going down at once)
 * run a trigger's program once with all of them.  The once-a-second
 * tick handles offsets (a job's time limit, a node idle that long, a
 * positive --offset after an event).  A program runs off the loop, on a
 * thread of its own, as the trigger's owner, with the node list or job
 * id as its last argument, and is killed after 5 minutes.  A trigger
 * without --flags=PERM is removed when it fires; a PERM one is armed
 * again when its program ends.  The table is journaled (JREC_TRIGGERS)
 * and in the snapshot.
 */
#ifndef SLUICE_CTLD_TRIGGER_H
#define SLUICE_CTLD_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/net.h"
#include "common/pack.h"

#define TRIGGER_STATE_VERSION 1

struct node_record;
struct job_record;

void trigger_fini(void);

/* REQUEST_TRIGGER_SET / _GET / _CLEAR. */
void trigger_rpc_set(net_conn_t *c, slurm_msg_t *m);
void trigger_rpc_get(net_conn_t *c, slurm_msg_t *m);
void trigger_rpc_clear(net_conn_t *c, slurm_msg_t *m);

/* Hooks: a node's state was recomputed (node_state_refresh), a job
 * ended, the configuration was read again, this controller took
 * control (ha index: 0 primary). */
void trigger_node_state(const struct node_record *n);
void trigger_job_end(const struct job_record *j);
void trigger_reconfig(void);
void trigger_ctld_start(int ha_index);
/* Once a second. */
void trigger_tick(time_t now);

/* The table for the snapshot and the journal; the unpack replaces it. */
void trigger_pack_state(buf_t *b);
int  trigger_unpack_state(buf_t *b, uint16_t version);
/* Whether the table changed since the last call. */
bool trigger_take_dirty(void);

#endif
