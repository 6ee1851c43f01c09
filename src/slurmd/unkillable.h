/* unkillable.h — a job that does not end when the controller ends it.
 *
 * After REQUEST_TERMINATE_JOB a job's step daemons have KillWait (their
 * SIGTERM to SIGKILL grace) plus UnkillableStepTimeout to be gone (a
 * slurmstepd removes its socket from the spool directory once nothing of
 * its step is left).  If one is still there, as Slurm: the job's steps are
 * declared unkillable, UnkillableStepProgram runs (as root, with the
 * job's SLURM_* variables), and the job's end on this node is reported
 * with ESLURMD_KILL_TASK_FAILED, on which the controller drains the node
 * (Reason "Kill task failed") and frees the job's resources.  Whatever
 * holds the step (processes in uninterruptible sleep, a stuck stepd)
 * stays on a node that takes no new job until an admin resumes it.
 */
#ifndef SLUICE_SLURMD_UNKILLABLE_H
#define SLUICE_SLURMD_UNKILLABLE_H

#include <stdint.h>

#include "slurmd/slurmd.h"

/* Watch job_id, just terminated with kill_wait (0: KillWait). */
void unkillable_watch(slurmd_t *sd, uint32_t job_id, uint16_t kill_wait);

#endif
