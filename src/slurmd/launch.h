/* launch.h — starting a batch job's slurmstepd.
 *
 * launch_batch() makes <spool>/jobNNNNN with the script (owned by the
 * job's user), spawns slurmstepd next to the slurmd binary in its own
 * session, hands it the launch message over a pipe and waits (briefly) for
 * its verdict: 0 once the batch script is running, else a slurm_err_t.
 *
 * The pipe protocol: slurmstepd's stdin carries u32 length (big-endian) +
 * the REQUEST_BATCH_JOB_LAUNCH body (msg_body_pack); its stdout returns
 * one native int32 return code, then closes.
 */
#ifndef SLUICE_SLURMD_LAUNCH_H
#define SLUICE_SLURMD_LAUNCH_H

#include "common/msg_types.h"
#include "slurmd/slurmd.h"

int  launch_batch(slurmd_t *sd, const batch_launch_msg_t *m);
/* Spawn slurmstepd (with -s for anything but a batch launch), hand it the
 * message body of type over the pipe and return its verdict. */
int  launch_run_stepd(slurmd_t *sd, uint16_t type, const void *m,
		      uint32_t job_id);
/* The controller ended the job here (REQUEST_TERMINATE_JOB): a launch
 * of the same run arriving late (a controller resending it after a
 * restart) is ignored, so a job never runs twice. */
void launch_ended(slurmd_t *sd, uint32_t job_id);

#endif
