/* spank_stepd.h — SPANK plugins in slurmstepd (the remote context): a
 * batch job's, or a node's share of an srun step (the *_step_start and
 * *_of variants, with each task's local and global id), called at the
 * points where Slurm calls them:
 *
 *   stepd_spank_start     before the fork: init, options from the job's
 *                         environment, init_post_opt, then user_init as
 *                         the user (effective ids only);
 *   stepd_spank_task      in the child: task_init_privileged as root,
 *                         task_init as the user before exec (both may
 *                         change the task's env and argv);
 *   stepd_spank_post_fork in stepd after the fork;
 *   stepd_spank_task_exit in stepd when the script ended;
 *   stepd_spank_fini      exit, then unload;
 *   stepd_spank_job_script  job_prolog (before the Prolog) or job_epilog
 *                         (before the Epilog, after fini) in a child of
 *                         its own: the S_CTX_JOB_SCRIPT context.
 * With no plugstack.conf every call does nothing.
 */
#ifndef SLUICE_STEPD_SPANK_STEPD_H
#define SLUICE_STEPD_SPANK_STEPD_H

#include "common/conf.h"
#include "common/msg_types.h"
#include "common/spank.h"
#include "slurmd/stepd/stepd.h"

/* env: the batch environment, changed by the plugins.  0, or the
 * slurm_err_t that fails the launch (a required plugin failed). */
int  stepd_spank_start(stepd_t *sd, char ***env);
/* An srun step: m is the launch, gtids the global ids of this node's
 * ntasks tasks, env the step environment (changed by the plugins). */
int  stepd_spank_step_start(const slurm_conf_t *conf,
			    const launch_tasks_request_msg_t *m,
			    uint32_t nnodes, const uint32_t *gtids,
			    uint32_t ntasks, char ***env);
/* cb: SPANK_CB_TASK_INIT_PRIVILEGED or SPANK_CB_TASK_INIT.  -1 when a
 * required plugin failed: the task must not run. */
int  stepd_spank_task(spank_cb_t cb, char ***env, char ***argv);
/* Whether any SPANK plugin is loaded (plugstack.conf). */
bool stepd_spank_active(void);
int  stepd_spank_task_of(spank_cb_t cb, int lid, uint32_t gtid, char ***env,
			 char ***argv);
void stepd_spank_post_fork(pid_t pid);
void stepd_spank_post_fork_of(int lid, uint32_t gtid, pid_t pid);
void stepd_spank_task_exit(pid_t pid, int status);
void stepd_spank_task_exit_of(int lid, uint32_t gtid, pid_t pid, int status);
void stepd_spank_fini(void);
/* cb: SPANK_CB_JOB_PROLOG or SPANK_CB_JOB_EPILOG.  -1 when a required
 * plugin failed (as a failing Prolog/Epilog). */
int  stepd_spank_job_script(stepd_t *sd, spank_cb_t cb);

#endif
