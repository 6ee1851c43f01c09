/* task.c — fork and exec the batch script (see task.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/task.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/close_range.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/rlimits.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"
#include "slurmd/stepd/oci.h"
#include "slurmd/stepd/task_plugin.h"
#include "slurmd/common/job_container.h"
#include "slurmd/stepd/cgroup.h"
#include "slurmd/stepd/child.h"
#include "slurmd/stepd/env.h"
#include "slurmd/stepd/groups.h"
#include "slurmd/stepd/io.h"
#include "slurmd/stepd/spank_stepd.h"
#include "slurmd/stepd/task_prolog.h"

/* How far the child got, reported over the exec channel (a seqpacket
 * socket, closed on exec).  STAGE_IO_OK carries the task's stderr
 * descriptor, so stepd can add Slurm's notices to the job's stderr
 * through the same open file (and offset) without opening user paths. */
typedef enum {
	STAGE_IO_OK = 0,
	STAGE_SESSION,
	STAGE_USER,
	STAGE_IO,
	STAGE_EXEC,
	STAGE_CONTAINER,      /* job_container/tmpfs: setns */
} stage_t;

typedef struct {
	int32_t stage;
	int32_t err;
} task_report_t;

#define EXIT_IO_FAILED   1
#define EXIT_EXEC_FAILED 127

static void report(int fd, stage_t stage, int err)
{
	task_report_t r = { stage, err };

	if (write(fd, &r, sizeof(r)) < 0)
		_exit(EXIT_EXEC_FAILED);
}

static void send_stderr(int sock)
{
	task_report_t r = { STAGE_IO_OK, 0 };
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &r, sizeof(r) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm;
	int fd = STDERR_FILENO;

	memset(ctl, 0, sizeof(ctl));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
		_exit(EXIT_EXEC_FAILED);
}

static int become_user(const stepd_t *sd)
{
	const batch_launch_msg_t *j = sd->job;

	if (getuid() != 0) {
		/* unprivileged slurmd (development): only our own jobs */
		if (j->uid != getuid()) {
			errno = EPERM;
			return -1;
		}
		return 0;
	}
	if (stepd_set_groups(j->gids, sd->user_name, j->uid, j->gid) < 0)
		return -1;
	if (setgid(j->gid) < 0 || setuid(j->uid) < 0)
		return -1;
	return 0;
}

static void apply_umask(char *const *env)
{
	const char *m = env_get(env, "SLURM_UMASK");
	char *end;
	long v;

	if (!m)
		return;
	v = strtol(m, &end, 8);
	if (!*end && v >= 0 && v <= 0777)
		umask((mode_t) v);
}

/* Nothing but stdio crosses exec, whatever slurmd was started with. */
static void cloexec_from_3(void)
{
	long max;

	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return;
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = 3; fd < max; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static char **exec_argv(const stepd_t *sd, const char *script)
{
	char **argv = xcalloc(1, sizeof(char *));

	/* The launch argv is the submitted command line: argv[0] names the
	 * script as submitted, the script's own arguments follow. */
	argv = xstrarray_append(argv, script);
	for (size_t i = 1; sd->job->argv && sd->job->argv[0] && sd->job->argv[i]; i++)
		argv = xstrarray_append(argv, sd->job->argv[i]);
	return argv;
}

/* --checkpoint: the job's SLURM_CHECKPOINT_DIR, made (mode 0700, with
 * its parents) as the user.  Runs in the child: a stack buffer only.
 * Failing is told on the job's stderr; the job runs anyway. */
static void make_ckpt_dir(char *const *env, char *err, size_t len)
{
	const char *dir = env_get(env, "SLURM_CHECKPOINT_DIR");
	char path[4096];
	size_t n;

	if (!dir || dir[0] != '/' || (n = strlen(dir)) >= sizeof(path))
		return;
	memcpy(path, dir, n + 1);
	for (char *p = path + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			snprintf(err, len, "slurmstepd: error: cannot create "
				 "checkpoint directory `%s': %s\n", path,
				 strerror(errno));
			return;
		}
		*p = c;
		if (!c)
			return;
	}
}

/* Runs in the child; never returns.  When the parent used vfork (plain
 * case: no SPANK plugin, no TaskProlog, see task_start) this shares the
 * parent's memory until exec: it allocates nothing the parent keeps and
 * changes nothing the parent reads. */
static void child(const stepd_t *sd, int rfd, char **env, char **argv,
		  char *pid_room, const io_paths_t *io, rlimits_req_t *rl,
		  int jc_fd, const oci_task_t *oci)
{
	const char *work = sd->job->work_dir ? sd->job->work_dir : "/tmp";
	char cd_err[512] = "", ck_err[512] = "";
	const char *what_failed;
	int e;

	if (setsid() < 0) {
		report(rfd, STAGE_SESSION, errno);
		_exit(EXIT_EXEC_FAILED);
	}
	cgroup_step_attach_self(sd->cg);
	if (job_container_enter(jc_fd) < 0) {
		report(rfd, STAGE_CONTAINER, errno);
		_exit(EXIT_EXEC_FAILED);
	}
	task_plugin_batch(sd->job->cpu_bind, sd->job->cpus_on_node);
	if (stepd_spank_task(SPANK_CB_TASK_INIT_PRIVILEGED, &env, &argv) < 0)
		_exit(EXIT_IO_FAILED);
	rlimits_set(rl);
	if (become_user(sd) < 0) {
		report(rfd, STAGE_USER, errno);
		_exit(EXIT_EXEC_FAILED);
	}
	apply_umask(env);
	if (chdir(work) < 0) {
		snprintf(cd_err, sizeof(cd_err), "slurmstepd: error: couldn't "
			 "chdir to `%s': %s: going to /tmp instead\n", work,
			 strerror(errno));
		if (chdir("/tmp") < 0)
			cd_err[0] = '\0';
	}
	make_ckpt_dir(env, ck_err, sizeof(ck_err));
	if (io_open_task(io, &what_failed) < 0) {
		report(rfd, STAGE_IO, errno);
		_exit(EXIT_IO_FAILED);
	}
	send_stderr(rfd);
	rlimits_report(rl, STDERR_FILENO);
	if (cd_err[0] && write(STDERR_FILENO, cd_err, strlen(cd_err)) < 0)
		cd_err[0] = '\0';
	if (ck_err[0] && write(STDERR_FILENO, ck_err, strlen(ck_err)) < 0)
		ck_err[0] = '\0';
	env_put_pid(pid_room);
	if ((e = task_prolog_run(sd->conf->task_prolog, &env)))
		_exit(WIFEXITED(e) ? WEXITSTATUS(e) : EXIT_EXEC_FAILED);
	if (stepd_spank_task(SPANK_CB_TASK_INIT, &env, &argv) < 0) {
		dprintf(STDERR_FILENO, "slurmstepd: error: Failed to invoke spank plugin stack\n");
		_exit(EXIT_IO_FAILED);
	}
	child_default_signals();
	cloexec_from_3();
	if (oci) {                  /* --container: the OCI runtime runs it */
		/* no exec closes the report socket here: the parent takes
		 * its EOF as "started" and would wait for the job's end */
		close(rfd);
		oci_task_exec(oci, env);
	}
	/* a wrapper a plugin prepended is found in the job's PATH */
	if (strchr(argv[0], '/'))
		execve(argv[0], argv, env);
	else
		execvpe(argv[0], argv, env);
	e = errno;
	dprintf(STDERR_FILENO, "slurmstepd: error: execve(): %s: %s\n",
		argv[0], strerror(e));
	report(rfd, STAGE_EXEC, e);
	_exit(EXIT_EXEC_FAILED);
}

/* One report; 1 if read (with *fd if one came along), 0 at EOF. */
static int recv_report(int sock, task_report_t *r, int *fd)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { r, sizeof(*r) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl, .msg_controllen = sizeof(ctl),
	};
	struct cmsghdr *cm;
	ssize_t n;

	do {
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n != sizeof(*r))
		return 0;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
	}
	return 1;
}

/* Follow the child to exec; 0 if it got there, else -1 with r filled.
 * Keeps the task's stderr descriptor in sd->err_fd. */
static int read_report(stepd_t *sd, int sock, task_report_t *r)
{
	while (recv_report(sock, r, &sd->err_fd)) {
		if (r->stage != STAGE_IO_OK)
			return -1;
	}
	return 0;
}

static int handle_failure(stepd_t *sd, pid_t pid, const task_report_t *r,
			  const io_paths_t *io)
{
	const batch_launch_msg_t *j = sd->job;

	switch (r->stage) {
	case STAGE_SESSION:
	case STAGE_USER:
		error("JobId=%u: cannot become uid %u gid %u: %s", j->job_id,
		      j->uid, j->gid, strerror(r->err));
		waitpid(pid, NULL, 0);
		return ESLURMD_SET_UID_OR_GID_ERROR;
	case STAGE_CONTAINER:
		error("JobId=%u: cannot enter the job's namespace: %s",
		      j->job_id, strerror(r->err));
		waitpid(pid, NULL, 0);
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	case STAGE_IO:
		error("JobId=%u: could not open output file %s: %s", j->job_id,
		      io->err ? io->err : io->out, strerror(r->err));
		break;
	default:
		error("JobId=%u: execve of the batch script failed: %s",
		      j->job_id, strerror(r->err));
		break;
	}
	/* it ran as the user and failed; its exit status tells the rest */
	sd->task_pid = pid;
	return SLURM_SUCCESS;
}

/* The child may share our memory (vfork) unless a SPANK plugin or a
 * TaskProlog runs in it: those change the environment and argv the
 * child holds, and run code we do not control. */
static bool may_share_memory(const stepd_t *sd)
{
	return !stepd_spank_active() && !sd->conf->task_prolog;
}

int task_start(stepd_t *sd)
{
	int p[2];
	int volatile jc_fd = -1;       /* volatile: live across vfork */
	oci_task_t *volatile oci = NULL;
	io_paths_t io;
	char **env = env_build_batch(sd);
	char *script = spool_script_path(sd->spool_dir, sd->job->job_id);
	char **argv = exec_argv(sd, script);
	char *pid_room;
	sigset_t all, old;
	task_report_t r;
	rlimits_req_t rl;
	pid_t pid;
	int rc = SLURM_SUCCESS;

	io_paths_build(sd, &io);
	if ((rc = stepd_spank_start(sd, &env)))
		goto out;
	/* job_container/tmpfs: the job's namespace (made if no extern
	 * step made it) */
	jc_fd = job_container_open(sd->conf, sd->node_name, sd->job->job_id,
				   sd->job->uid, sd->job->gid);
	if (jc_fd < 0 && errno) {
		rc = ESLURMD_SETUP_ENVIRONMENT_ERROR;
		goto out;
	}
	if (sd->job->container && *sd->job->container) {
		oci_req_t req = {
			.conf = sd->conf, .node_name = sd->node_name,
			.spool_dir = sd->spool_dir,
			.bundle = sd->job->container, .job_id = sd->job->job_id,
			.step_id = SLURM_BATCH_SCRIPT, .task_id = 0,
			.uid = sd->job->uid, .gid = sd->job->gid,
			.user_name = sd->user_name, .argv = argv, .env = env,
			.script = script,
		};

		if (!(oci = oci_task_prepare(&req, &rc)))
			goto out;
	}
	pid_room = env_pid_room(&env);
	rlimits_take(env, rlimits_conf_bits(sd->conf->propagate_rlimits,
					     sd->conf->propagate_rlimits_except), &rl);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p) < 0) {
		error("JobId=%u: socketpair: %m", sd->job->job_id);
		rc = ESLURMD_EXECVE_FAILED;
		goto out;
	}
	/* no handler of ours may run in the child: it resets them all */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = may_share_memory(sd) && !oci ? vfork() : fork();
	if (pid == 0) {
		close(p[0]);
		child(sd, p[1], env, argv, pid_room, &io, &rl, jc_fd, oci);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		error("JobId=%u: fork: %m", sd->job->job_id);
		close(p[0]);
		close(p[1]);
		rc = ESLURMD_EXECVE_FAILED;
		goto out;
	}
	close(p[1]);
	stepd_spank_post_fork(pid);
	if (read_report(sd, p[0], &r) < 0)
		rc = handle_failure(sd, pid, &r, &io);
	else
		sd->task_pid = pid;
	close(p[0]);
	if (!rc)
		info("JobId=%u: batch script started, pid %d", sd->job->job_id,
		     (int) sd->task_pid);
out:
	oci_task_free(oci);
	if (jc_fd >= 0)
		close(jc_fd);
	io_paths_free(&io);
	xstrarray_free(env);
	xstrarray_free(argv);
	xfree(script);
	return rc;
}

void task_note(const stepd_t *sd, const char *text)
{
	if (sd->err_fd < 0)
		return;
	if (write(sd->err_fd, text, strlen(text)) < 0)
		debug("JobId=%u: note on stderr: %m", sd->job->job_id);
}
