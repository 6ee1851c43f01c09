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

/* Run path with argv and env (argv NULL: just the path), in cwd if not
 * NULL, and wait.  The wait() status, or -1 with *err (errno value) set
 * when it could not be started. */
int spawn_wait(const char *path, char *const argv[], char *const env[],
	       const char *cwd, int *err);

#endif
