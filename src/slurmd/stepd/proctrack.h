/* proctrack.h — ProctrackType: which processes belong to a job.
 *
 * slurmstepd is a child subreaper (proctrack_init), so a process the job
 * started that is orphaned (double fork, setsid and exit) is re-parented
 * to slurmstepd, not to init, and stays the job's.  Zombies never count.
 * Built in:
 *   proctrack/linuxproc  the descendants of slurmstepd, found by their
 *                        parent process ids in /proc (Slurm's linuxproc)
 *   proctrack/pgid       those, plus every process of the job's session
 *                        (the batch script's setsid), and killpg() of it
 *                        when signalling: Slurm's pgid made escape-proof
 *                        by the subreaper
 *   proctrack/cgroup     the step's cgroup (cgroup.h: whoever the parent
 *                        is now), plus pgid's set while the cgroup cannot
 *                        be made (no writable hierarchy, logged)
 * Others are proctrack_<name>.so in PluginDir.
 *
 * Every op is called on slurmstepd's main thread (its event loop): count
 * when the job's end is checked (after a task exits, while KillWait runs),
 * signal for scancel, time limits and the end.  They read /proc or a
 * cgroup file; they must not wait for processes to go.
 */
#ifndef SLUICE_STEPD_PROCTRACK_H
#define SLUICE_STEPD_PROCTRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/conf.h"

#define PROCTRACK_OPS_VERSION 1

struct cgroup_step;

typedef struct {
	/* The step's processes are to be put in a cgroup (cgroup.h); its
	 * processes are then passed to count/signal as cg. */
	bool uses_cgroup;
	/* Living processes of the job: sid its session (0: none), ancestor
	 * slurmstepd's pid, cg the step's cgroup or NULL.  With sig != 0
	 * they are sent sig.  Returns how many. */
	int (*signal)(struct cgroup_step *cg, pid_t sid, pid_t ancestor,
		      int sig);
} proctrack_ops_t;

/* Resolve ProctrackType and make the calling process a subreaper for its
 * descendants: 0, or -1 (logged). */
int  proctrack_init(const slurm_conf_t *conf);
/* Does the configured plugin track through a cgroup? */
bool proctrack_uses_cgroup(void);
/* The step's cgroup (cgroup.h) once made, NULL when gone. */
void proctrack_use_cgroup(struct cgroup_step *cg);
/* Living processes of the job (session sid, descendants of ancestor). */
int  proctrack_count(pid_t sid, pid_t ancestor);
/* Does sig reach a task's children too?  Not under proctrack/cgroup
 * without SignalChildrenProcesses (but SIGKILL, SIGSTOP, SIGCONT do). */
bool proctrack_signals_children(int sig);
/* Send sig to all of them (or to the tasks only, as above); returns how
 * many were signalled. */
int  proctrack_signal(pid_t sid, pid_t ancestor, int sig);

#endif
