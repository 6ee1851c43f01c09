/* daemon_notify.h — readiness for a service manager (systemd Type=notify).
 *
 * A daemon started with --systemd stays in the foreground (systemd
 * supervises it) and says when it is ready to serve and when it stops,
 * through $NOTIFY_SOCKET (libsystemd's sd_notify).  Without the variable
 * (not started by systemd, or a test that did not ask) these do nothing.
 * In the static library slurmserver: commands never load libsystemd.
 */
#ifndef SLUICE_DAEMON_NOTIFY_H
#define SLUICE_DAEMON_NOTIFY_H

/* READY=1, this process's pid as MAINPID and status as STATUS. */
void daemon_notify_ready(const char *status);
/* STOPPING=1: the daemon is shutting down. */
void daemon_notify_stopping(void);

#endif
