/* epilog.h — ending a job on a node where no slurmstepd of it runs (other
 * nodes of an allocation, or after the stepd is gone): run the Epilog, if
 * configured, without blocking the loop, then MESSAGE_EPILOG_COMPLETE. */
#ifndef SLUICE_SLURMD_EPILOG_H
#define SLUICE_SLURMD_EPILOG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "slurmd/slurmd.h"

/* uid/gid NO_VAL32 and user_name NULL when not known (the job's user is
 * known where a step of it ran). */
void epilog_start(slurmd_t *sd, uint32_t job_id, const char *nodes,
		  uint32_t uid, uint32_t gid, const char *user_name);
/* A child exited: true if it was one of our Epilogs (and was handled). */
bool epilog_reaped(slurmd_t *sd, pid_t pid, int status);

#endif
