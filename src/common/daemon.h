/* daemon.h — what every Sluice daemon does to become one.
 *
 * daemon_detach(): fork, parent exits, setsid, chdir /, stdio to
 * /dev/null (so nothing a daemon prints reaches a terminal).  The pid file
 * holds the daemon's pid followed by a newline.
 */
#ifndef SLUICE_DAEMON_H
#define SLUICE_DAEMON_H

void daemon_detach(void);
/* Write getpid() to path (NULL: nothing).  0, or -1 logged with the path. */
int  daemon_write_pidfile(const char *path);
/* Remove the pid file if it still names this process. */
void daemon_remove_pidfile(const char *path);

#endif
