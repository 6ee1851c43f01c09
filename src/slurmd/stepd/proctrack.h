/* proctrack.h — the processes of a job (proctrack/pgid, made escape-proof).
 *
 * A job's processes are those in the batch script's session plus every
 * descendant of slurmstepd.  slurmstepd is a child subreaper, so a process
 * that calls setsid() and is orphaned is re-parented to slurmstepd and
 * still counts.  Zombies do not count.
 */
#ifndef SLUICE_STEPD_PROCTRACK_H
#define SLUICE_STEPD_PROCTRACK_H

#include <sys/types.h>

struct cgroup_step;

/* Make the calling process a subreaper for its descendants.  0 or -1. */
int proctrack_init(void);
/* proctrack/cgroup: the step's cgroup (cgroup.h) counts too; its
 * processes are signalled through it, whoever their parent is now. */
void proctrack_use_cgroup(struct cgroup_step *cg);
/* Living processes of the job (session sid, descendants of ancestor). */
int proctrack_count(pid_t sid, pid_t ancestor);
/* Send sig to all of them; returns how many were signalled. */
int proctrack_signal(pid_t sid, pid_t ancestor, int sig);

#endif
