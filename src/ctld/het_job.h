/* het_job.h — heterogeneous jobs: one job of several components (sbatch
 * "A : B", "#SBATCH hetjob"), each a job record of its own with its own
 * id.  The first component is the leader: HetJobId is its id, each
 * component has its HetJobOffset (0, 1, ...) and every one the
 * HetJobIdSet ("1234-1235").  Only the leader has a batch script; it runs
 * on the leader's first node with the _HET_GROUP_<n> variables of every
 * component.
 *
 * All or nothing: a submit creates every component or none; the
 * schedulers start every component together or none (het_job_place); the
 * leader's end ends every component; a pending component is cancelled
 * only as the whole job (ESLURM_NOT_WHOLE_HET_JOB), a running one but the
 * leader by itself, as Slurm does.  A requeue is of the whole job: asked
 * of the leader (or by a node failure of any component when the leader
 * has --requeue), every component runs again.
 */
#ifndef SLUICE_CTLD_HET_JOB_H
#define SLUICE_CTLD_HET_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/bitmap.h"
#include "common/net.h"
#include "common/msg.h"
#include "ctld/select.h"

struct job_record;

/* REQUEST_SUBMIT_BATCH_HET_JOB. */
void het_job_rpc_submit(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_HET_JOB_ALLOCATION (salloc "A : B"): the same without a
 * script; the leader is the allocation salloc waits on and releases. */
void het_job_rpc_allocate(net_conn_t *c, slurm_msg_t *m);

/* Is j a component of a heterogeneous job (the leader too)? */
bool het_job_is_comp(const struct job_record *j);
/* Every component of j's het job in offset order (xfree the array),
 * *cnt of them; NULL when j is not a component or one is missing. */
struct job_record **het_job_comps(const struct job_record *j, size_t *cnt);

/* "1234+1": that component of het job 1234; NULL if there is none. */
struct job_record *het_job_find_str(const char *id);

/* Place every component of comps[0..n) on view (node_cnt nodes), each
 * seeing the ones placed before it, on usable (each through its own
 * reservation, if any).  WAIT_NO_REASON with res[i] filled for comps[i];
 * otherwise the reason of the first component that cannot start now
 * (WAIT_RESOURCES, WAIT_LICENSES, ...) and nothing filled.  Changes
 * nothing outside res. */
uint32_t het_job_place(struct job_record *const *comps, size_t n,
		       const select_node_t *view, size_t node_cnt,
		       const bitmap_t *usable, time_t now,
		       select_result_t *res);

/* j just ended (job_mgr_end): the leader's end ends every other
 * component that is still live, with the same state; the leader's
 * requeue (JOB_REQUEUE) requeues every running one with it, held when
 * the leader is held. */
void het_job_ended(struct job_record *j);

/* The leader of j's het job (j itself for the leader); NULL when j is
 * not a component or its leader is gone. */
struct job_record *het_job_leader(struct job_record *j);

/* Node `node` of component j (not the leader) failed while j ran: the
 * whole het job is requeued when the leader has --requeue, else it ends
 * NODE_FAIL through its leader.  false when j is not such a component
 * (the caller does as for any job). */
bool het_job_node_fail(struct job_record *j, const char *node);

/* Requeue asked of component j: ESLURM_NOT_HET_JOB_LEADER for one other
 * than the leader (the leader's requeue takes them all), else 0. */
int  het_job_requeue_check(const struct job_record *j);

/* Cancel of component j: ESLURM_NOT_WHOLE_HET_JOB for a pending
 * component other than the leader, else 0. */
int  het_job_cancel_check(const struct job_record *j);

/* The leader's batch environment plus SLURM_HET_SIZE and the
 * _HET_GROUP_<n> copies of each component's SLURM_JOB_* variables. */
char **het_job_env(const struct job_record *j, char **env);

#endif
