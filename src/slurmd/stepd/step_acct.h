/* step_acct.h — usage of a step's tasks on this node, as Slurm's
 * jobacct_gather/linux gathers it.
 *
 * Every JobAcctGatherFrequency seconds (task=N or N; 0 = only at the
 * end and on request) /proc is read: a process belongs to the task whose
 * pid is its nearest ancestor (tasks' children, grandchildren, ...).  Per
 * task the RSS and VM size are summed over its processes (the largest
 * sum seen is kept) and the CPU time is user+sys of the living processes
 * plus what their waited-for children used.  A task's exit adds its
 * rusage (CPU, ru_maxrss) as the final word.
 */
#ifndef SLUICE_STEPD_STEP_ACCT_H
#define SLUICE_STEPD_STEP_ACCT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "common/msg_types.h"
#include "slurmd/stepd/step.h"

/* Start sampling (no-op with JobAcctGatherType=jobacct_gather/none
 * except at task exit). */
void step_acct_start(step_t *st);
void step_acct_stop(step_t *st);
/* Read /proc now. */
void step_acct_sample(step_t *st);
/* A task ended with this rusage. */
void step_acct_task_exit(step_t *st, step_task_t *t, const struct rusage *ru);
/* The node's totals into the step-complete message (fields after
 * step_rc): tot_* sum the tasks' peaks, or (now) their current sizes
 * (sstat's Ave*). */
void step_acct_fill(const step_t *st, step_complete_msg_t *c, bool now);

/* Seconds from a JobAcctGatherFrequency value ("30", "task=5,energy=0");
 * def if absent or bad. */
int  step_acct_freq(const char *spec, int def);

#endif
