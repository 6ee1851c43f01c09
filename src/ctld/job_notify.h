/* job_notify.h — scontrol notify: a message to a running job's user.
 *
 * The controller sends it (REQUEST_JOB_NOTIFY) to the slurmd of the
 * batch host, or of a job without a batch script, its first node; that
 * slurmd hands it to the job's stepds there: the batch stepd writes
 * "slurmstepd: error: <message>" to the job's stderr, a step's stepd
 * sends "srun: <message>" to its srun's stderr, as Slurm's users see
 * them.  Nothing is saved: a message to a node that does not answer is
 * lost (logged).
 *
 * A salloc's allocation has a listener (job_info_t.alloc_resp_port):
 * notify messages go there (SRUN_USER_MSG), and so does the news that
 * the allocation ended under it (SRUN_JOB_COMPLETE), which salloc
 * prints as "Job allocation N has been revoked." */
#ifndef SLUICE_CTLD_JOB_NOTIFY_H
#define SLUICE_CTLD_JOB_NOTIFY_H

#include "common/net.h"
#include "ctld/job_rec.h"

/* REQUEST_JOB_NOTIFY from the job's user, an operator, root or
 * SlurmUser. */
void job_notify_rpc(net_conn_t *c, slurm_msg_t *m);

/* The job, which was in state `was`, has just ended: tell the salloc
 * that made its allocation, if it listens and the job had started.  A
 * salloc releasing its own allocation clears the port first. */
void job_notify_alloc_end(const job_record_t *j, uint32_t was);

#endif
