/* job_inactive.h — InactiveLimit: an interactive allocation whose srun
 * or salloc has gone quiet is ended.
 *
 * The srun or salloc that made an allocation (job_desc bitflags
 * JOB_ALLOC_HEARTBEAT) sends REQUEST_ALLOC_HEARTBEAT every
 * InactiveLimit/3 seconds (every HEARTBEAT_SLOW_SEC while the limit is 0,
 * so that a reconfigure that sets one reaches it); the answer carries the
 * controller's InactiveLimit.  The loop's tick ends, as Slurm does
 * (TIMEOUT, Reason=InactiveLimit, "inactivity time limit reached"), a
 * running allocation not heard from for InactiveLimit seconds.  Batch
 * jobs, allocations made without a heartbeating client (REST), and jobs
 * of RootOnly partitions are exempt.  The times are in memory only:
 * after a restart every allocation starts a fresh grace period, and
 * after a reconfigure that changes the limit a grace period of the new
 * limit plus HEARTBEAT_SLOW_SEC. */
#ifndef SLUICE_CTLD_JOB_INACTIVE_H
#define SLUICE_CTLD_JOB_INACTIVE_H

#include <stdint.h>
#include <time.h>

#include "common/net.h"

#define HEARTBEAT_SLOW_SEC 60

struct job_record;

/* Once per second from the loop: end the allocations gone quiet. */
void job_inactive_tick(time_t now);
/* The config changed from old_limit (seconds) to the current one. */
void job_inactive_reconfig(uint16_t old_limit);
/* REQUEST_ALLOC_HEARTBEAT from the job's user (or root, SlurmUser). */
void job_inactive_rpc_heartbeat(net_conn_t *c, slurm_msg_t *m);

#endif
