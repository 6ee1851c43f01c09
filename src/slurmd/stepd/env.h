/* env.h — the batch script's environment.
 *
 * The job's environment as the launch message carries it (sbatch applied
 * --export), with the SLURM_* batch variables set over it.  Arrays are
 * NULL-terminated "NAME=value" strings; free with xstrarray_free().
 */
#ifndef SLUICE_STEPD_ENV_H
#define SLUICE_STEPD_ENV_H

#include "slurmd/stepd/stepd.h"

/* Set or replace NAME in *env. */
void   env_set(char ***env, const char *name, const char *value);
void   env_setf(char ***env, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Value of NAME in env, or NULL. */
const char *env_get(char *const *env, const char *name);
/* SLURM_TASK_PID set to room for a pid, which the task's child fills
 * in with env_put_pid (it cannot allocate: it may share our memory). */
char  *env_pid_room(char ***env);
void   env_put_pid(char *room);
/* The batch environment, without SLURM_TASK_PID (set by the task). */
char **env_build_batch(const stepd_t *sd);

#endif
