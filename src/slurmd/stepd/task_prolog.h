/* task_prolog.h — TaskProlog / TaskEpilog (slurm.conf) and srun's
 * --task-prolog / --task-epilog, run as the job's user.
 *
 * Prologs run in the task's child after it became the user and opened
 * its output, before exec: slurm.conf's first, then srun's.  Each line
 * the prolog prints is read as Slurm reads it:
 *     export NAME=value   set NAME in the task's environment
 *     unset NAME          remove it
 *     print text          write "text\n" to the task's stdout
 * anything else is ignored.  A prolog that exits non-zero (or cannot be
 * run) fails the task: "slurmstepd: error: TaskProlog failed status=N".
 * Epilogs run in slurmstepd (forked, as the user) after each task ended,
 * with the task's environment as launched; their output is dropped.
 */
#ifndef SLUICE_STEPD_TASK_PROLOG_H
#define SLUICE_STEPD_TASK_PROLOG_H

#include <sys/types.h>

#define TASK_EPILOG_WAIT 60      /* seconds an epilog may take */

/* Child side: run path (NULL/"" = nothing) with *env, apply what it
 * prints.  0, or the wait status that should end the task. */
int  task_prolog_run(const char *path, char ***env);
/* One stdout line of a prolog applied to *env (print lines go to fd). */
void task_prolog_line(const char *line, char ***env, int fd);
/* stepd side: run path as uid/gid in cwd with env and wait (at most
 * timeout_s seconds, then it is killed). */
void task_epilog_run(const char *path, char *const *env, uid_t uid,
		     gid_t gid, const char *cwd, int timeout_s);

#endif
