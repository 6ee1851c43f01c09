/* job_nprolog.h — PrologFlags=Alloc: the nodes' Prolog when a job is
 * allocated (not at its first step), and with Contain the job's extern
 * step (N.extern) on every node.
 *
 * At allocation the controller sends REQUEST_LAUNCH_PROLOG to every node
 * of the job and waits for REQUEST_COMPLETE_PROLOG from each.  Meanwhile
 * the job is RUNNING with Reason=Prolog (unless NoHold: Reason stays
 * None and salloc does not wait), steps are refused with
 * ESLURM_PROLOG_RUNNING (srun retries quietly) and a batch job is not
 * launched.  Once all nodes reported success the job goes on as without
 * the flag (PrologSlurmctld, batch launch).  A node whose Prolog failed,
 * or that cannot be reached, is drained ("Prolog error") and the job
 * requeued held or cancelled (job_prolog.h).
 *
 * What is pending lives only in memory: after a controller restart a job
 * whose prologs were running is treated as if they had all succeeded.
 */
#ifndef SLUICE_CTLD_JOB_NPROLOG_H
#define SLUICE_CTLD_JOB_NPROLOG_H

#include <stdbool.h>

#include "common/net.h"
#include "ctld/job_mgr.h"

/* PrologFlags bits the controller runs with (PROLOG_FLAG_*). */
uint32_t job_nprolog_flags(void);
/* The job was just allocated.  true: the nodes' prologs were started and
 * cont(j) is called once all succeeded; false: nothing to wait for. */
bool job_nprolog_start(job_record_t *j, void (*cont)(job_record_t *j));
/* Are the nodes' prologs of j still running? */
bool job_nprolog_running(const job_record_t *j);
/* After a restart: nothing is pending any more; jobs recovered with
 * Reason=Prolog go on as if their prologs had succeeded. */
void job_nprolog_recover(void);
/* REQUEST_COMPLETE_PROLOG from a node's slurmd. */
void job_nprolog_rpc_complete(net_conn_t *c, slurm_msg_t *m);

#endif
