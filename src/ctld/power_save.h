/* power_save.h — power saving and cloud nodes, as Slurm 25.05 does them
 * (slurm.conf SuspendProgram, ResumeProgram, ResumeFailProgram,
 * SuspendTime, SuspendTimeout, ResumeTimeout, SuspendRate, ResumeRate,
 * SuspendExcNodes/Parts/States; scontrol power).
 *
 * A node idle (or DOWN) for its SuspendTime (the global one, or the
 * largest of its partitions') is handed to SuspendProgram <hostlist>
 * (at most SuspendRate nodes a minute) and is POWERING_DOWN (sinfo "%")
 * for SuspendTimeout, then POWERED_DOWN ("~").  A job given powered-down
 * nodes is RUNNING+CONFIGURING (squeue "CF"): ResumeProgram <hostlist>
 * runs (ResumeRate a minute), the nodes are POWERING_UP ("#") and the
 * job is launched, its clock started anew, once all its nodes have
 * registered.  A node not back within ResumeTimeout is DOWN ("ResumeTimeout
 * reached") and powered down, ResumeFailProgram runs with those nodes,
 * and its jobs are requeued (or fail).  State=CLOUD nodes start powered
 * down and learn their address when they register (cloud_reg_addrs) or
 * from scontrol update NodeAddr=.
 *
 * The programs run on threads of their own as the controller's user
 * (spawn_wait_as), each killed when it outlives its timeout, and only
 * once the state change that asked for them is on disk.  Power states
 * are saved with the node states (node_mgr_pack_state).
 */
#ifndef SLUICE_CTLD_POWER_SAVE_H
#define SLUICE_CTLD_POWER_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "common/conf.h"
#include "common/net.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"

/* Power state flags of a node (node_info.h). */
#define POWER_STATE_FLAGS (NODE_STATE_POWERED_DOWN | NODE_STATE_POWERING_UP | \
			   NODE_STATE_POWERING_DOWN | NODE_STATE_POWER_DOWN | \
			   NODE_STATE_POWER_UP | NODE_STATE_POWER_DRAIN)

/* Read the power saving keys of conf (after part_mgr_init).  -1 + err
 * when one is malformed (a reconfigure keeps the old settings). */
int  power_save_configure(const slurm_conf_t *conf, char *err,
			  size_t errlen);
/* The same check, changing nothing (a reconfigure, before it applies). */
int  power_save_check(const slurm_conf_t *conf, char *err, size_t errlen);
void power_save_fini(void);
/* SuspendProgram and ResumeProgram are configured (powered-down nodes
 * can be used: a job's ResumeProgram boots them). */
bool power_save_enabled(void);
/* Each second: timeouts, resumes, suspends (power_save_interval). */
void power_save_tick(time_t now);

/* REQUEST_POWER_NODES (scontrol power, update State=POWER_*). */
void power_save_rpc(net_conn_t *c, slurm_msg_t *m);

/* A job was just given its nodes: true if some are powered down or
 * powering up; it is then CONFIGURING and launch(j) is called once they
 * all registered. */
bool power_save_job_wait(job_record_t *j, void (*launch)(job_record_t *j));
/* Is j waiting for its nodes to power up (steps wait)? */
bool power_save_job_waiting(const job_record_t *j);
/* After a restart: CONFIGURING jobs whose nodes are powering up wait
 * for them again (true: j is one). */
bool power_save_job_recover(job_record_t *j, void (*launch)(job_record_t *j));

/* Node n registered from peer ("addr:port"). */
void power_save_registered(node_record_t *n, const char *peer);
/* Nodes that are off (or going off, or booting) are not pinged. */
bool power_save_no_ping(const node_record_t *n);

#endif
