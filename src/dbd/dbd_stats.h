/* dbd_stats.h — what sacctmgr show stats prints: slurmdbd's RPCs counted
 * per message type and per user with the time each took, and the
 * roll-up cycles, since start or the last sacctmgr clear stats.
 *
 * Called from the loop (RPCs it answers itself) and the worker thread
 * (the others, the roll-ups): a mutex inside keeps them apart.
 */
#ifndef SLUICE_DBD_STATS_H
#define SLUICE_DBD_STATS_H

#include <stdint.h>

#include "common/msg_types.h"

/* One RPC of type from uid that took usec microseconds. */
void dbd_stats_rpc(uint16_t type, uint32_t uid, uint64_t usec);
/* One roll-up cycle that took usec microseconds. */
void dbd_stats_rollup(uint64_t usec);
/* Start counting again from now. */
void dbd_stats_clear(void);
/* The figures in resp (zeroed): DBD_STATS_COLS rows (msg_types.h). */
void dbd_stats_table(table_resp_msg_t *resp);
/* Microseconds on the monotonic clock (to time an RPC). */
uint64_t dbd_stats_now_usec(void);
/* Free everything (shutdown). */
void dbd_stats_fini(void);

#endif
