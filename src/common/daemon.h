/* daemon.h — what every Sluice daemon does to become one.
 *
 * daemon_detach(): fork, parent exits, setsid, chdir /, stdio to
 * /dev/null (so nothing a daemon prints reaches a terminal).  The pid file
 * holds the daemon's pid followed by a newline.
 * daemon_ignore_signals(): what every daemon ignores, as Slurm's do:
 * SIGPIPE (a peer gone mid-write is an error return, not a death) and
 * SIGPROF (sent by profilers and monitoring tools).  A child about to
 * exec something else sets every signal back to its default.
 */
#ifndef SLUICE_DAEMON_H
#define SLUICE_DAEMON_H

void daemon_detach(void);
void daemon_ignore_signals(void);
/* Write getpid() to path (NULL: nothing).  0, or -1 logged with the path. */
int  daemon_write_pidfile(const char *path);
/* Remove the pid file if it still names this process. */
void daemon_remove_pidfile(const char *path);

#endif
