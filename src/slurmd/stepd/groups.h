/* groups.h — a task's supplementary groups, set (as root, in the task's
 * process) before it becomes the job's user.
 *
 * The controller looks the user's groups up (ctld/user_groups.h) and
 * sends them: with the batch launch, and in an srun step's credential.
 * With them no task loads NSS modules or reads the group database.
 */
#ifndef SLUICE_STEPD_GROUPS_H
#define SLUICE_STEPD_GROUPS_H

#include <sys/types.h>

/* setgroups() from list ("27,100"); if list is NULL or malformed, the
 * groups NSS gives user_name (getpwuid(uid) if NULL) with gid; if the
 * user is unknown here, none.  0, or -1 with errno. */
int stepd_set_groups(const char *list, const char *user_name, uid_t uid,
		     gid_t gid);

#endif
