/* job_container.h — JobContainerType=job_container/tmpfs on a node: a
 * private mount namespace per job with its own /tmp and /dev/shm (the
 * job_container.conf Dirs), as Slurm 25.05's plugin.
 *
 * BasePath (job_container_conf.h) is bind-mounted on itself and made
 * private when slurmd starts.  The first of the job's stepds on the node
 * (the extern step with PrologFlags=Contain, else the first step or the
 * batch script) makes BasePath/<job>: one directory per Dirs entry and
 * ".ns", on which the new namespace (/proc/<pid>/ns/mnt) is bind-mounted.
 * Inside it each Dirs entry is a bind mount of its directory (/dev/shm a
 * fresh tmpfs) and BasePath itself is unmounted, so a job never sees
 * another's files.  Every task (batch script, srun tasks) enters it with
 * setns() before it becomes the user.  At the job's end on the node the
 * ".ns" mount goes and BasePath/<job> is removed.  Creation and removal
 * hold an flock on BasePath, so concurrent stepds make one namespace.
 *
 * All of it runs as root in slurmd/slurmstepd and touches only BasePath
 * and the new namespace; nothing here follows a user's symlink.
 */
#ifndef SLUICE_SLURMD_JOB_CONTAINER_H
#define SLUICE_SLURMD_JOB_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"

/* slurmd start and `slurmd -C`-like checks: with job_container/tmpfs,
 * job_container.conf beside slurm.conf must parse (file:line errors).
 * 0, or -1 with err. */
int  job_container_check(const slurm_conf_t *c, const char *node, char *err,
			 size_t errlen);
/* slurmd start: make BasePath (AutoBasePath) and mount it private on
 * itself.  0 (also when the plugin is off), or -1 with err. */
int  job_container_node_init(const slurm_conf_t *c, const char *node,
			     char *err, size_t errlen);
/* slurmd shutdown: unmount BasePath unless a job's namespace is still
 * pinned in it (a restarted slurmd finds those again). */
void job_container_node_fini(const slurm_conf_t *c, const char *node);
/* The job's namespace, made first if needed: an O_CLOEXEC descriptor for
 * job_container_enter(), or -1: errno 0 when the plugin is off here,
 * else the failure (logged). */
int  job_container_open(const slurm_conf_t *c, const char *node,
			uint32_t job_id, uint32_t uid, uint32_t gid);
/* In a task's child, as root: setns(fd); 0 or -1 with errno.  fd < 0 is
 * a no-op. */
int  job_container_enter(int fd);
/* The job ended on this node: CloneNSEpilog, unmount, remove
 * BasePath/<job>.  Idempotent; a no-op when the plugin is off. */
void job_container_delete(const slurm_conf_t *c, const char *node,
			  uint32_t job_id);

#endif
