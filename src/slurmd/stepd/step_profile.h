/* step_profile.h — job profiling on the node (--profile=task with
 * AcctGatherProfileType=acct_gather_profile/slurmdbd): a time series of
 * the step's usage here.
 *
 * For an srun step (step.c) and for the batch script (stepd.c, through
 * step_profile_batch: the script as a one-task step_t).
 * At each JobAcctGather sample (every --acctg-freq task=N seconds, else
 * JobAcctGatherFrequency) of a profiled step, one row: the step's living
 * tasks' RSS, VM size, read and write bytes summed, their CPU time so far
 * (exited tasks' included) and its rate since the last row, and the
 * node's energy since the step began.  Rows are sent to the controller
 * (REQUEST_JOB_PROFILE, through the step's controller sender, so they
 * arrive, and before the step's completion) every PROFILE_SEND_SECS or
 * PROFILE_SEND_ROWS rows, and at the step's end.  The controller passes
 * them on to slurmdbd (sacct --profile).
 */
#ifndef SLUICE_STEPD_STEP_PROFILE_H
#define SLUICE_STEPD_STEP_PROFILE_H

#include <sys/resource.h>

#include "slurmd/stepd/step.h"

#define PROFILE_SEND_SECS 30
#define PROFILE_SEND_ROWS 100

/* From the step's credential: profile the step?  Sets st->prof (NULL:
 * not profiled) and st->acctg_freq. */
void step_profile_init(step_t *st);
/* The same from the job's --profile and --acctg-freq. */
void step_profile_set(step_t *st, uint32_t profile, const char *acctg_freq);

/* The batch script as a one-task step (job_id.batch) for JobAcctGather
 * and profiling in the batch stepd: NULL unless the job is profiled
 * here.  The script's exit: step_profile_batch_end (a last sample, the
 * rows sent before the batch completion); then _free. */
step_t *step_profile_batch(slurm_conf_t *conf, const char *node,
			   const batch_launch_msg_t *job, pid_t pid,
			   struct event_base *base, ctld_sender_t *sender,
			   struct step_energy *energy);
void    step_profile_batch_end(step_t *st, const struct rusage *ru);
void    step_profile_batch_free(step_t *st);
/* After a sample: take a row; send the rows when due. */
void step_profile_tick(step_t *st);
/* The step ends: a last row and everything not sent. */
void step_profile_flush(step_t *st);
void step_profile_free(step_t *st);

#endif
