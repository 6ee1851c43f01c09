/* stepd_spawn.h — starting a slurmstepd for a launch.
 *
 * The first launch starts slurmstepd -F, the fork server
 * (stepd/fork_server.h); it and every later launch get their slurmstepd
 * as a fork of that server: no exec, no dynamic linking, no plugin
 * loading per step.  If the server cannot be started or does not answer,
 * that launch execs slurmstepd as before (posix_spawn) and the server is
 * tried again a minute later.  SLUICE_STEPD_EXEC=1 in slurmd's
 * environment always execs (a diagnostic aid, and the benchmark's
 * "before").
 *
 * Either way the slurmstepd runs in a session of its own with in_fd as
 * its stdin and out_fd as its stdout; mode is NULL (batch job), "-s"
 * (srun step) or "-x" (Prolog and extern step).
 */
#ifndef SLUICE_SLURMD_STEPD_SPAWN_H
#define SLUICE_SLURMD_STEPD_SPAWN_H

#include <sys/types.h>

#include "slurmd/slurmd.h"

/* 0 with the pid, or -1 (logged). */
int  stepd_spawn(slurmd_t *sd, int in_fd, int out_fd, const char *mode,
		 pid_t *pid);
/* Close the fork server's socket (it exits; running steps are not
 * affected). */
void stepd_spawn_fini(void);

#endif
