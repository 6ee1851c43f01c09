/* user_groups.h — a user's supplementary groups for job launches.
 *
 * The controller looks them up (cached for GroupUpdateTime seconds; 0:
 * until a reconfigure, as Slurm's "no periodic update") and sends them
 * with REQUEST_BATCH_JOB_LAUNCH, so that the job's slurmstepd sets them
 * without loading NSS modules and reading the group database per job (on
 * the machines we measure on that is ~2.5 ms of each job's CPU). */
#ifndef SLUICE_USER_GROUPS_H
#define SLUICE_USER_GROUPS_H

#include <sys/types.h>

/* "gid,gid,..." including gid itself, xmalloc'd; NULL if the user is
 * unknown here (the node then looks the groups up itself). */
char *user_groups_str(const char *user_name, uid_t uid, gid_t gid);
void  user_groups_flush(void);

#endif
