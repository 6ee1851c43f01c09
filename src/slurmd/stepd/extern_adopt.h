/* extern_adopt.h — who may put a process into a job's extern step
 * (REQUEST_ADD_EXTERN_PID, extern_step.h). */
#ifndef SLUICE_STEPD_EXTERN_ADOPT_H
#define SLUICE_STEPD_EXTERN_ADOPT_H

#include <stdint.h>
#include <sys/types.h>

/* sender: the request's authenticated uid; for_uid: the user the caller
 * acts for (pam_slurm_adopt: the user logging in); pid_uid: the owner of
 * pid.  root and SlurmUser may add any process for the job's user; the
 * job's user may add their own processes; nobody else anything.
 * 0, ESLURM_ACCESS_DENIED, or SLURM_ERROR for a pid that cannot be one
 * (<= 1). */
int extern_adopt_allowed(uint32_t sender, uint32_t slurm_user,
			 uint32_t job_uid, uint32_t for_uid, pid_t pid,
			 uint32_t pid_uid);

#endif
