/* spawn.h — run a site program and wait for it.
 *
 * The daemons run programs of the site (MailProg, JobCompLoc scripts,
 * PrologSlurmctld, ...) the same way: stdin, stdout and stderr on
 * /dev/null, a session of their own, no blocked signals, the environment
 * given and nothing else of the daemon's.  Call it from a thread that may
 * block.
 */
#ifndef SLUICE_SPAWN_H
#define SLUICE_SPAWN_H

#include <sys/types.h>

/* Run path with argv and env (argv NULL: just the path), in cwd if not
 * NULL, and wait.  The wait() status, or -1 with *err (errno value) set
 * when it could not be started. */
int spawn_wait(const char *path, char *const argv[], char *const env[],
	       const char *cwd, int *err);

/* The same as user uid (group gid and uid's groups) when running as
 * root and uid is not root (else as the caller), in "/", stdio on
 * /dev/null.  After timeout seconds (0: none) the program's session is
 * killed (SIGKILL).  The wait() status, or -1 with *err set. */
int spawn_wait_as(const char *path, char *const argv[], char *const env[],
		  uid_t uid, gid_t gid, unsigned timeout, int *err);

#endif
