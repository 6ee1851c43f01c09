/* script.c — Prolog/Epilog processes (see script.h). */
#define _GNU_SOURCE
#include "slurmd/common/script.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static char **add(char **env, const char *name, const char *value)
{
	char *e;

	if (!value)
		return env;
	e = xstrdup_printf("%s=%s", name, value);
	env = xstrarray_append(env, e);
	xfree(e);
	return env;
}

static char **add_u32(char **env, const char *name, uint32_t v)
{
	char buf[16];

	if (v == NO_VAL32)
		return env;
	snprintf(buf, sizeof(buf), "%u", v);
	return add(env, name, buf);
}

static char **build_env(const script_info_t *i)
{
	char **env = xcalloc(1, sizeof(char *));

	env = add(env, "PATH", "/bin:/usr/bin:/sbin:/usr/sbin");
	if (i->job_id != NO_VAL32)     /* not for the HealthCheckProgram */
		env = add(env, "SLURM_SCRIPT_CONTEXT", i->context);
	env = add_u32(env, "SLURM_JOB_ID", i->job_id);
	env = add_u32(env, "SLURM_JOBID", i->job_id);
	env = add_u32(env, "SLURM_JOB_UID", i->uid);
	env = add_u32(env, "SLURM_JOB_GID", i->gid);
	env = add(env, "SLURM_JOB_USER", i->user_name);
	env = add(env, "SLURM_JOB_PARTITION", i->partition);
	env = add(env, "SLURM_JOB_ACCOUNT", i->account);
	env = add(env, "SLURM_JOB_NODELIST", i->nodes);
	env = add(env, "SLURMD_NODENAME", i->node_name);
	env = add(env, "SLURM_CLUSTER_NAME", i->cluster_name);
	env = add(env, "SLURM_CONF", i->conf_path);
	return env;
}

/* DebugFlags=Script (out of script_spawn, whose "info" is its argument) */
static void log_started(const char *context, const char *path,
			uint32_t job_id, pid_t pid)
{
	log_flag(SCRIPT, "script_spawn: %s %s started for JobId=%u, pid %d",
		 context, path, job_id, (int) pid);
}

pid_t script_spawn(const char *path, const script_info_t *info)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	char *argv[] = { (char *) path, NULL };
	char **env = build_env(info);
	pid_t pid = -1;
	int rc;

	sigemptyset(&none);
	sigfillset(&dfl);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
					 O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID |
			POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, path, &fa, &attr, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	xstrarray_free(env);
	if (rc) {
		errno = rc;
		if (info->job_id == NO_VAL32)
			error("cannot run %s %s: %m", info->context, path);
		else
			error("JobId=%u: cannot run %s %s: %m", info->job_id,
			      info->context, path);
		return -1;
	}
	log_started(info->context, path, info->job_id, pid);
	if (info->job_id == NO_VAL32)
		debug("%s %s started, pid %d", info->context, path, (int) pid);
	else
		debug("JobId=%u: %s %s started, pid %d", info->job_id,
		      info->context, path, (int) pid);
	return pid;
}

int script_exit_rc(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}
