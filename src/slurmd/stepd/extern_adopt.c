/* extern_adopt.c — see extern_adopt.h. */
#include "slurmd/stepd/extern_adopt.h"

#include <stdbool.h>

#include "slurm/slurm_errno.h"

int extern_adopt_allowed(uint32_t sender, uint32_t slurm_user,
			 uint32_t job_uid, uint32_t for_uid, pid_t pid,
			 uint32_t pid_uid)
{
	bool admin = sender == 0 || sender == slurm_user;

	if (pid <= 1)
		return SLURM_ERROR;
	if (for_uid != job_uid)
		return ESLURM_ACCESS_DENIED;     /* not this user's job */
	if (admin)
		return SLURM_SUCCESS;
	if (sender != job_uid || pid_uid != sender)
		return ESLURM_ACCESS_DENIED;
	return SLURM_SUCCESS;
}
