/* rlimits.h — PropagateResourceLimits: the submitting user's resource
 * limits go with the job, as Slurm's do.
 *
 * sbatch and srun put their soft limits in the job's environment as
 * SLURM_RLIMIT_<NAME>=<value> ("U<value>" for the names --propagate
 * gave); slurmstepd sets those that its PropagateResourceLimits(Except)
 * or --propagate names on the tasks, as root before it becomes the user,
 * and no SLURM_RLIMIT_* reaches a task.  Names: AS CORE CPU DATA FSIZE
 * MEMLOCK NOFILE NPROC RSS STACK, or ALL, NONE.
 */
#ifndef SLUICE_RLIMITS_H
#define SLUICE_RLIMITS_H

#include <stddef.h>

enum { RLIMITS_CNT = 10 };

/* What a task is to get (rlimits_take), and how setting it went. */
typedef struct {
	unsigned           mask;              /* bit per limit to set */
	unsigned           user;              /* ... that --propagate named */
	unsigned long long val[RLIMITS_CNT];
	int                err[RLIMITS_CNT];  /* errno of a failed set */
} rlimits_req_t;

/* "NOFILE,CORE" / "ALL" / "NONE" (NULL: none) -> a bit per limit.  0, or
 * -1 with a message in err naming key and the unknown word. */
int  rlimits_parse(const char *key, const char *list, unsigned *mask,
		   char *err, size_t errlen);
/* A config's mask: PropagateResourceLimits (NULL: ALL) less
 * PropagateResourceLimitsExcept.  -1 + err on a bad name. */
int  rlimits_conf_mask(const char *prop, const char *except, unsigned *mask,
		       char *err, size_t errlen);
/* The same for a config conf_load checked (no error left): the mask. */
unsigned rlimits_conf_bits(const char *prop, const char *except);

/* Command side: each limit in mask as "SLURM_RLIMIT_<NAME>" = its soft
 * value (user: prefixed "U"), through setf into env. */
typedef char **(*rlimits_setenv_f)(char **env, const char *name,
				   const char *value);
char **rlimits_to_env(char **env, unsigned mask, int user,
		      rlimits_setenv_f setf);

/* Node side, before the fork: read and remove every SLURM_RLIMIT_* of
 * env (an xmalloc'd array), keeping in r those conf_mask or a "U" value
 * asks for. */
void rlimits_take(char **env, unsigned conf_mask, rlimits_req_t *r);
/* In the task's child, while root: set them (a hard limit below the
 * value is raised).  Allocates nothing; failures go to r->err. */
void rlimits_set(rlimits_req_t *r);
/* A user's request that failed, as Slurm tells it on the task's stderr
 * ("slurmstepd: error: Can't propagate RLIMIT_NOFILE of ..."). */
void rlimits_report(const rlimits_req_t *r, int fd);

#endif
