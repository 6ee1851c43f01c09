/* node_state.h — internal to the node manager: the state machine helpers
 * shared by node_mgr.c and node_state.c. */
#ifndef SLUICE_CTLD_NODE_STATE_H
#define SLUICE_CTLD_NODE_STATE_H

#include "ctld/node_mgr.h"

/* Recompute the base state (IDLE/MIXED/ALLOCATED) and COMPLETING flag
 * from the allocation counts. */
void node_state_refresh(node_record_t *n);
/* Carry state from an old record of the same name (reconfigure). */
void node_state_carry(node_record_t *n, const node_record_t *old);
bool node_state_worth_saving(const node_record_t *n);
void node_state_restore(node_record_t *n, uint32_t state, const char *reason,
			uint32_t uid, time_t when, bool no_resp);

/* For node_reboot.c: the DRAIN flag, the base state and the reason
 * (a new reason is an accounting event), each touching the saved node
 * states when it changes. */
void node_state_set_drain(node_record_t *n, bool on);
void node_state_set_base(node_record_t *n, uint32_t base);
void node_state_set_reason(node_record_t *n, const char *reason,
			   uint32_t uid);
/* DOWN with reason: its jobs fail, the scheduler is told. */
void node_state_set_down(node_record_t *n, const char *reason, uint32_t uid);

#endif
