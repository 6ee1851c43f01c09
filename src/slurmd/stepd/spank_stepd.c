/* spank_stepd.c — SPANK in slurmstepd: the remote context of a batch
 * job or of a node's share of an srun step, and the job_script context
 * (see spank_stepd.h).  One job or step per slurmstepd, so the remote
 * stack is module state.
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
#include "common/step_cred.h"
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
	char         **argv;       /* the step's command */
	uint32_t      *gtids;      /* an srun step's tasks on this node */
	char          *cores;      /* the step's CPU ids on this node */
} st;

static void fill_gids(const char *user_name, gid_t gid)
{
	spank_job_t *sj = &st.job;
	int n = 64;

	sj->gids = xcalloc((size_t)n, sizeof(gid_t));
	if (!user_name ||
	    getgrouplist(user_name, gid, sj->gids, &n) < 0) {
		sj->gids = xrealloc(sj->gids, (size_t)(n + 1) * sizeof(gid_t));
		if (!user_name ||
		    getgrouplist(user_name, gid, sj->gids, &n) < 0) {
			sj->gids[0] = gid;
			n = 1;
		}
	}
	sj->ngids = n;
}

static void fill_job(const stepd_t *sd, const char *script)
{
	const batch_launch_msg_t *j = sd->job;
	spank_job_t *sj = &st.job;

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
	fill_gids(sd->user_name, j->gid);
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

static int start_stack(void)
{
	int mode = 0;

	if (spank_stack_call(st.stack, SPANK_CB_INIT, NULL, &mode) < 0) {
		error("JobId=%u: Plugin stack initialization failed.",
		      st.job.job_id);
		return mode == ESPANK_NODE_FAILURE ? ESLURMD_PROLOG_FAILED
						   : SLURM_PLUGIN_NAME_INVALID;
	}
	if (spank_stack_options_from_env(st.stack, st.env, 1) < 0 ||
	    spank_stack_call(st.stack, SPANK_CB_INIT_POST_OPT, NULL,
			     NULL) < 0) {
		error("JobId=%u: Plugin stack post-option processing failed.",
		      st.job.job_id);
		return SLURM_PLUGIN_NAME_INVALID;
	}
	if (call_as_user(SPANK_CB_USER_INIT) < 0) {
		error("JobId=%u: spank_user_init failed", st.job.job_id);
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
	rc = start_stack();
	xstrarray_free(*env);
	*env = xstrarray_dup(st.env);
	return rc;
}

int stepd_spank_step_start(const slurm_conf_t *conf,
			   const launch_tasks_request_msg_t *m,
			   uint32_t nnodes, const uint32_t *gtids,
			   uint32_t ntasks, char ***env)
{
	spank_job_t *sj = &st.job;
	step_cred_t *cred;
	int rc;

	st.stack = spank_stack_create(S_CTX_REMOTE, conf->plugstack_config,
				      conf->plugin_dir, &st.job);
	if (!st.stack) {
		error("JobId=%u: Plugin stack initialization failed.",
		      m->job_id);
		return SLURM_PLUGIN_NAME_INVALID;
	}
	if (!spank_stack_plugin_count(st.stack))
		return SLURM_SUCCESS;
	st.env = xstrarray_dup(*env ? *env : (char *[]) { NULL });
	st.argv = xstrarray_dup(m->argv ? m->argv : (char *[]) { NULL });
	st.gtids = xcalloc(ntasks + 1, sizeof(uint32_t));
	memcpy(st.gtids, gtids, ntasks * sizeof(uint32_t));
	sj->uid = m->uid;
	sj->gid = m->gid;
	sj->job_id = m->job_id;
	sj->step_id = m->step_id;
	sj->nnodes = nnodes;
	sj->node_id = m->node_id;
	sj->local_task_count = ntasks;
	sj->total_task_count = m->num_tasks;
	sj->cpus_per_task = m->cpus_per_task && m->cpus_per_task != NO_VAL16 ?
			    m->cpus_per_task : 1;
	sj->ncpus = (uint16_t) (ntasks * sj->cpus_per_task);
	/* memory and CPU ids as the credential gives them for this node
	 * (the job's and the step's items alike: the step's share) */
	cred = m->cred_payload ? step_cred_decode(m->cred_payload) : NULL;
	if (cred) {
		sj->alloc_mem = cred->mem_per_node;
		st.cores = step_cred_node_cpus(cred, m->node_id);
		sj->alloc_cores = st.cores;
		step_cred_free(cred);
	}
	sj->gtids = st.gtids;
	sj->argv = st.argv;
	sj->env = &st.env;
	fill_gids(m->user_name, m->gid);
	rc = start_stack();
	xstrarray_free(*env);
	*env = xstrarray_dup(st.env);
	return rc;
}

int stepd_spank_task_of(spank_cb_t cb, int lid, uint32_t gtid, char ***env,
			char ***argv)
{
	spank_task_t t = {
		.local_id = lid, .global_id = gtid, .pid = getpid(),
		.env = env, .argv = argv,
	};

	if (!spank_stack_plugin_count(st.stack))
		return 0;
	return spank_stack_call(st.stack, cb, &t, NULL);
}

bool stepd_spank_active(void)
{
	return spank_stack_plugin_count(st.stack) > 0;
}

int stepd_spank_task(spank_cb_t cb, char ***env, char ***argv)
{
	return stepd_spank_task_of(cb, 0, 0, env, argv);
}

void stepd_spank_post_fork_of(int lid, uint32_t gtid, pid_t pid)
{
	if (!spank_stack_plugin_count(st.stack))
		return;
	st.task = (spank_task_t) {
		.local_id = lid, .global_id = gtid, .pid = pid,
		.env = &st.env,
	};
	spank_stack_call(st.stack, SPANK_CB_TASK_POST_FORK, &st.task, NULL);
}

void stepd_spank_post_fork(pid_t pid)
{
	stepd_spank_post_fork_of(0, 0, pid);
}

void stepd_spank_task_exit_of(int lid, uint32_t gtid, pid_t pid, int status)
{
	if (!spank_stack_plugin_count(st.stack))
		return;
	st.task = (spank_task_t) {
		.local_id = lid, .global_id = gtid, .pid = pid,
		.exit_status = status, .env = &st.env,
	};
	spank_stack_call(st.stack, SPANK_CB_TASK_EXIT, &st.task, NULL);
}

void stepd_spank_task_exit(pid_t pid, int status)
{
	stepd_spank_task_exit_of(0, 0, pid, status);
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
	xfree(st.gtids);
	xfree(st.cores);
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
