/* cgroup_stepd.h — cgroup.h for the two kinds of slurmstepd: the batch
 * step (stepd.h) and an srun step (step.h).
 *
 * create: the step's cgroup from the launch message (job CPUs, memory on
 * the node), registered with proctrack.  oom: after a task ended, Slurm's
 * "Detected N oom-kill event(s) in StepId=..." line and SIG_OOM as the
 * status to report when the OOM handler killed anything in the step.
 */
#ifndef SLUICE_STEPD_CGROUP_STEPD_H
#define SLUICE_STEPD_CGROUP_STEPD_H

#include "slurmd/stepd/step.h"
#include "slurmd/stepd/stepd.h"

void stepd_cgroup_create(stepd_t *sd);
/* The batch script ended with status: the status to report (SIG_OOM
 * after OOM kills, with the line on the job's stderr). */
int  stepd_cgroup_exit_status(stepd_t *sd, int status);

void step_cgroup_create(step_t *st);
/* A task of an srun step ended: its status to report; the first OOM
 * seen is told to srun once (on the task's stderr). */
int  step_cgroup_exit_status(step_t *st, uint32_t gtid, int status);
void step_cgroup_destroy(step_t *st);

#endif
