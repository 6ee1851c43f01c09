/* privs.h — a daemon started as root gives root up for SlurmUser.
 *
 * slurmctld and slurmdbd need nothing root has: once their log is open,
 * they switch (groups, gid, uid) to SlurmUser for good.  Whatever they
 * write afterwards (StateSaveLocation, pid file) must be writable by that
 * user.
 */
#ifndef SLUICE_PRIVS_H
#define SLUICE_PRIVS_H

#include <stddef.h>
#include <sys/types.h>

/* Become user `name` (uid) if running as root and uid != 0; nothing to
 * do otherwise.  0, or -1 with the reason in err. */
int privs_become_user(const char *name, uid_t uid, char *err, size_t errlen);

#endif
