/* job_notify.h — scontrol notify: a message to a running job's user.
 *
 * The controller sends it (REQUEST_JOB_NOTIFY) to the slurmd of the
 * batch host, or of a job without a batch script, its first node; that
 * slurmd hands it to the job's stepds there: the batch stepd writes
 * "slurmstepd: error: <message>" to the job's stderr, a step's stepd
 * sends "srun: <message>" to its srun's stderr, as Slurm's users see
 * them.  Nothing is saved: a message to a node that does not answer is
 * lost (logged). */
#ifndef SLUICE_CTLD_JOB_NOTIFY_H
#define SLUICE_CTLD_JOB_NOTIFY_H

#include "common/net.h"

/* REQUEST_JOB_NOTIFY from the job's user, an operator, root or
 * SlurmUser. */
void job_notify_rpc(net_conn_t *c, slurm_msg_t *m);

#endif
