/* stats.h — what sdiag shows: RPC counts and times by message type and
 * by user, main and backfill scheduler cycles, job counters.  Owned by
 * the loop thread like the rest of the controller's state. */
#ifndef SLUICE_CTLD_STATS_H
#define SLUICE_CTLD_STATS_H

#include <stdint.h>
#include <time.h>

#include "common/net.h"

enum stats_job_event {
	STATS_JOB_SUBMITTED,
	STATS_JOB_STARTED,
	STATS_JOB_COMPLETED,
	STATS_JOB_CANCELED,
	STATS_JOB_FAILED,
};

void stats_init(time_t now);
void stats_fini(void);
/* One RPC handled: its type, the caller and the handler's time. */
void stats_rpc(uint16_t type, uint32_t uid, uint64_t usec);
void stats_job(enum stats_job_event ev);
/* A main scheduler pass: time, jobs tested, pending queue length. */
void stats_main_cycle(uint64_t usec, uint32_t depth, uint32_t queue_len);
/* A backfill pass: work time, jobs looked at, jobs tried, queue length,
 * map size (time slots), jobs it started. */
void stats_bf_cycle(uint64_t usec, uint32_t depth, uint32_t depth_try,
		    uint32_t queue_len, uint32_t table_size,
		    uint32_t started);
void stats_bf_active(int active);
/* Microseconds since some fixed point (for timing passes). */
uint64_t stats_now_usec(void);

/* REQUEST_STATS_INFO (get, or reset by an operator). */
void stats_rpc_info(net_conn_t *c, slurm_msg_t *m);

#endif
