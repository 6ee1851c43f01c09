/* spank_stepd.c — SPANK in a batch job's slurmstepd: the remote context
 * and the job_script one (see spank_stepd.h).  One job per slurmstepd, so
 * the remote stack is module state.
 */
#define _GNU_SOURCE
#include "slurmd/stepd/spank_stepd.h"

#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"

#define BATCH_STEP_ID 0xfffffffbu   /* SLURM_BATCH_SCRIPT */

static struct {
	spank_stack_t *stack;
	spank_job_t    job;
	char         **env;        /* the job's environment */
	spank_task_t   task;
	char         **argv;       /* the batch step's command */
} st;

static void fill_job(const stepd_t *sd, const char *script)
{
	const batch_launch_msg_t *j = sd->job;
	spank_job_t *sj = &st.job;
	int n = 64;

	sj->uid = j->uid;
	sj->gid = j->gid;
	sj->job_id = j->job_id;
	sj->step_id = BATCH_STEP_ID;
	sj->nnodes = j->num_nodes;
	sj->node_id = 0;
	sj->local_task_count = 1;
	sj->total_task_count = 1;
	sj->ncpus = j->cpus_on_node;
	sj->cpus_per_task = (j->cpus_per_task && j->cpus_per_task != NO_VAL16) ?
			    j->cpus_per_task : 1;
	if (j->mem_per_node && j->mem_per_node != NO_VAL64)
		sj->alloc_mem = j->mem_per_node;
	else if (j->mem_per_cpu && j->mem_per_cpu != NO_VAL64)
		sj->alloc_mem = j->mem_per_cpu * j->cpus_on_node;
	sj->alloc_cores = j->cpu_bind;
	sj->restart_count = j->restart_cnt;
	sj->array_job_id = j->array_job_id;
	sj->array_task_id = j->array_job_id ? j->array_task_id : 0;
	/* as the task runs it: the spooled script, then its arguments */
	st.argv = xcalloc(1, sizeof(char *));
	st.argv = xstrarray_append(st.argv, script);
	for (size_t i = 1; j->argv && j->argv[0] && j->argv[i]; i++)
		st.argv = xstrarray_append(st.argv, j->argv[i]);
	sj->argv = st.argv;
	sj->env = &st.env;
	sj->gids = xcalloc((size_t)n, sizeof(gid_t));
	if (getgrouplist(sd->user_name, j->gid, sj->gids, &n) < 0) {
		sj->gids = xrealloc(sj->gids, (size_t)n * sizeof(gid_t));
		if (getgrouplist(sd->user_name, j->gid, sj->gids, &n) < 0)
			n = 0;
	}
	sj->ngids = n;
}

/* Run cb with the job's user as effective ids (root only). */
static int call_as_user(spank_cb_t cb)
{
	gid_t saved[256];
	int ns = -1, rc;

	if (geteuid() != 0)
		return spank_stack_call(st.stack, cb, NULL, NULL);
	ns = getgroups(256, saved);
	if (setgroups((size_t)st.job.ngids, st.job.gids) < 0 ||
	    setegid(st.job.gid) < 0 || seteuid(st.job.uid) < 0) {
		error("JobId=%u: spank: cannot become uid %u: %m",
		      st.job.job_id, st.job.uid);
		rc = -1;
		goto restore;
	}
	rc = spank_stack_call(st.stack, cb, NULL, NULL);
restore:
	if (seteuid(0) < 0 || setegid(0) < 0)
		fatal("JobId=%u: cannot regain privileges: %m", st.job.job_id);
	if (ns >= 0 && setgroups((size_t)ns, saved) < 0)
		error("JobId=%u: cannot restore groups: %m", st.job.job_id);
	return rc;
}

static int start_stack(stepd_t *sd)
{
	int mode = 0;

	if (spank_stack_call(st.stack, SPANK_CB_INIT, NULL, &mode) < 0) {
		error("JobId=%u: Plugin stack initialization failed.",
		      sd->job->job_id);
		return mode == ESPANK_NODE_FAILURE ? ESLURMD_PROLOG_FAILED
						   : SLURM_PLUGIN_NAME_INVALID;
	}
	if (spank_stack_options_from_env(st.stack, st.env, 1) < 0 ||
	    spank_stack_call(st.stack, SPANK_CB_INIT_POST_OPT, NULL,
			     NULL) < 0) {
		error("JobId=%u: Plugin stack post-option processing failed.",
		      sd->job->job_id);
		return SLURM_PLUGIN_NAME_INVALID;
	}
	if (call_as_user(SPANK_CB_USER_INIT) < 0) {
		error("JobId=%u: spank_user_init failed", sd->job->job_id);
		return SLURM_PLUGIN_NAME_INVALID;
	}
	return SLURM_SUCCESS;
}

int stepd_spank_start(stepd_t *sd, char ***env)
{
	char *script;
	int rc;

	st.stack = spank_stack_create(S_CTX_REMOTE, sd->conf->plugstack_config,
				      sd->conf->plugin_dir, &st.job);
	if (!st.stack) {
		error("JobId=%u: Plugin stack initialization failed.",
		      sd->job->job_id);
		return SLURM_PLUGIN_NAME_INVALID;
	}
	if (!spank_stack_plugin_count(st.stack))
		return SLURM_SUCCESS;
	st.env = xstrarray_dup(*env);
	script = spool_script_path(sd->spool_dir, sd->job->job_id);
	fill_job(sd, script);
	xfree(script);
	rc = start_stack(sd);
	xstrarray_free(*env);
	*env = xstrarray_dup(st.env);
	return rc;
}

int stepd_spank_task(spank_cb_t cb, char ***env, char ***argv)
{
	spank_task_t t = {
		.local_id = 0, .global_id = 0, .pid = getpid(),
		.env = env, .argv = argv,
	};

	if (!spank_stack_plugin_count(st.stack))
		return 0;
	return spank_stack_call(st.stack, cb, &t, NULL);
}

void stepd_spank_post_fork(pid_t pid)
{
	if (!spank_stack_plugin_count(st.stack))
		return;
	st.task = (spank_task_t) { .pid = pid, .env = &st.env };
	spank_stack_call(st.stack, SPANK_CB_TASK_POST_FORK, &st.task, NULL);
}

void stepd_spank_task_exit(pid_t pid, int status)
{
	if (!spank_stack_plugin_count(st.stack))
		return;
	st.task = (spank_task_t) {
		.pid = pid, .exit_status = status, .env = &st.env,
	};
	spank_stack_call(st.stack, SPANK_CB_TASK_EXIT, &st.task, NULL);
}

void stepd_spank_fini(void)
{
	if (!st.stack)
		return;
	spank_stack_call(st.stack, SPANK_CB_EXIT, NULL, NULL);
	spank_stack_destroy(st.stack);
	xstrarray_free(st.env);
	xstrarray_free(st.argv);
	xfree(st.job.gids);
	memset(&st, 0, sizeof(st));
}

/* ---- job_script: job_prolog / job_epilog ------------------------------ */

/* The Prolog/Epilog environment: the job control variables a plugin set
 * in sbatch (SLURM_SPANK_<X> in the job's environment) as SPANK_<X>. */
static char **job_script_env(const stepd_t *sd)
{
	char **env = xcalloc(1, sizeof(char *));
	const char *pre = "SLURM_SPANK_";
	size_t n = strlen(pre);

	for (size_t i = 0; sd->job->environment && sd->job->environment[i];
	     i++) {
		const char *e = sd->job->environment[i];

		if (!strncmp(e, pre, n) && strncmp(e + n, "_SLURM_SPANK_", 13))
			env = xstrarray_append(env, e + 6);  /* "SPANK_..." */
	}
	return env;
}

/* The child's environment: what the Prolog gets from Slurm that plugins
 * read with getenv() in the job_script context. */
static void job_script_setenv(const stepd_t *sd, char **env)
{
	char num[16];

	clearenv();
	for (size_t i = 0; env[i]; i++)
		putenv(env[i]);
	snprintf(num, sizeof(num), "%u", sd->job->job_id);
	setenv("SLURM_JOB_ID", num, 1);
	snprintf(num, sizeof(num), "%u", sd->job->uid);
	setenv("SLURM_JOB_UID", num, 1);
	snprintf(num, sizeof(num), "%u", sd->job->gid);
	setenv("SLURM_JOB_GID", num, 1);
	setenv("SLURM_JOB_USER", sd->user_name, 1);
}

/* In a fresh child (a new process each run, as Slurm runs them): load the
 * stack for S_CTX_JOB_SCRIPT and run one callback.  env stays allocated:
 * environ points into it until _exit. */
static void job_script_child(stepd_t *sd, spank_cb_t cb)
{
	char **env = job_script_env(sd);
	spank_job_t job = {
		.uid = sd->job->uid, .gid = sd->job->gid,
		.job_id = sd->job->job_id, .env = &env,
	};
	spank_stack_t *s;
	int rc;

	job_script_setenv(sd, env);
	s = spank_stack_create(S_CTX_JOB_SCRIPT, sd->conf->plugstack_config,
			       sd->conf->plugin_dir, &job);
	rc = s ? spank_stack_call(s, cb, NULL, NULL) : -1;
	spank_stack_destroy(s);
	_exit(rc < 0 ? 1 : 0);
}

static bool have_plugins(const stepd_t *sd)
{
	spank_conf_t c;
	bool any;

	if (spank_conf_parse_file(sd->conf->plugstack_config,
				  sd->conf->plugin_dir, &c, NULL, 0) < 0)
		return true;   /* the child reports the error */
	any = c.cnt > 0;
	spank_conf_free(&c);
	return any;
}

int stepd_spank_job_script(stepd_t *sd, spank_cb_t cb)
{
	int status = 0;
	pid_t pid;

	if (!have_plugins(sd))
		return 0;
	pid = fork();
	if (pid < 0) {
		error("JobId=%u: spank: fork: %m", sd->job->job_id);
		return -1;
	}
	if (pid == 0)
		job_script_child(sd, cb);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	error("JobId=%u: spank: %s failed", sd->job->job_id,
	      cb == SPANK_CB_JOB_PROLOG ? "job_prolog" : "job_epilog");
	return -1;
}
