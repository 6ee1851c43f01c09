/* launch_step.h — srun's REQUEST_LAUNCH_TASKS on a node: check the step
 * credential, then start the step's slurmstepd (slurmstepd -s) and answer
 * with its verdict.  Also finds the step stepds of a job, whose Unix
 * sockets are <SlurmdSpoolDir>/<node>_<jobid>.<stepid>.
 */
#ifndef SLUICE_SLURMD_LAUNCH_STEP_H
#define SLUICE_SLURMD_LAUNCH_STEP_H

#include <sys/types.h>

#include "common/msg_types.h"
#include "slurmd/slurmd.h"

/* 0 once the tasks run, else a slurm_err_t (ESLURMD_INVALID_JOB_CREDENTIAL,
 * ESLURMD_CREDENTIAL_REPLAYED, ...); sender_uid is the request's. */
int   launch_step(slurmd_t *sd, uid_t sender_uid,
		  const launch_tasks_request_msg_t *m);
/* Socket paths of job_id's live step stepds here (NULL-terminated,
 * xstrarray_free), stale ones removed. */
char **launch_step_sockets(slurmd_t *sd, uint32_t job_id);
char  *launch_step_socket(const char *spool, const char *node,
			  uint32_t job_id, uint32_t step_id);

#endif
