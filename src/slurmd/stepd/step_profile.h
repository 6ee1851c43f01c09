/* step_profile.h — job profiling on the node (--profile=task with
 * AcctGatherProfileType=acct_gather_profile/slurmdbd): a time series of
 * the step's usage here.
 *
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

#include "slurmd/stepd/step.h"

#define PROFILE_SEND_SECS 30
#define PROFILE_SEND_ROWS 100

/* From the step's credential: profile the step?  Sets st->prof (NULL:
 * not profiled) and st->acctg_freq. */
void step_profile_init(step_t *st);
/* After a sample: take a row; send the rows when due. */
void step_profile_tick(step_t *st);
/* The step ends: a last row and everything not sent. */
void step_profile_flush(step_t *st);
void step_profile_free(step_t *st);

#endif
