/* step_task.c — the tasks of a step on this node (step.h): fork them as
 * the user, forward their output line by line, reap them. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fname.h"
#include "common/io_frame.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/rlimits.h"
#include "common/multi_prog.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/job_container.h"
#include "slurmd/stepd/affinity.h"
#include "slurmd/stepd/oci.h"
#include "slurmd/stepd/task_plugin.h"
#include "slurmd/stepd/cgroup.h"
#include "slurmd/stepd/cgroup_stepd.h"
#include "slurmd/stepd/child.h"
#include "slurmd/stepd/env.h"
#include "slurmd/stepd/groups.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/step.h"
#include "slurmd/stepd/step_acct.h"
#include "slurmd/stepd/step_pmi.h"
#include "slurmd/stepd/io.h"
#include "slurmd/stepd/step_pmix.h"
#include "slurmd/stepd/step_pty.h"
#include "slurmd/stepd/spank_stepd.h"
#include "slurmd/stepd/task_gpus.h"
#include "slurmd/stepd/task_prolog.h"

#define EXIT_EXEC_FAILED 2
#define OUT_CHUNK (64u * 1024)    /* a longer line is cut here */

/* ---- in the child ---- */

static int _become_user(const step_t *st)
{
	const launch_tasks_request_msg_t *m = st->m;

	if (getuid() != 0)
		return m->uid == getuid() ? 0 : -1;
	if (stepd_set_groups(st->gids, NULL, m->uid, m->gid) < 0)
		return -1;
	if (setgid(m->gid) < 0 || setuid(m->uid) < 0)
		return -1;
	return 0;
}

/* Per-task file pattern (%t %n %N %j %s ...), opened as the user; what
 * failed is added to why (told on the task's stderr once it has one). */
static int _open_pattern(const step_t *st, const step_task_t *t,
			 const char *pat, int flags, char *why, size_t len)
{
	const launch_tasks_request_msg_t *m = st->m;
	const char *jname = env_get(m->env, "SLURM_JOB_NAME");
	fname_ctx_t fi = {
		.job_id = m->job_id, .step_id = m->step_id,
		.task_id = t->gtid, .node_id = m->node_id,
		.node_name = st->node_name, .user_name = m->user_name,
		.array_job_id = 0, .array_task_id = 0xfffffffeu,
		.job_name = jname,
	};
	char *path = fname_expand(pat, &fi);
	int fd;

	/* an input file is only read (O_TRUNC would empty it) */
	if ((flags & O_ACCMODE) != O_RDONLY)
		flags |= O_CREAT | (!strchr(pat, '%') || strstr(pat, "%t") ?
				    O_TRUNC : O_APPEND);
	fd = io_open_nowait(path, flags, 0644);
	if (fd < 0)
		snprintf(why + strlen(why), len - strlen(why),
			 "slurmstepd: error: Could not open %s: %s\n", path,
			 strerror(errno));
	xfree(path);
	return fd;
}

static void _child_io(const step_t *st, const step_task_t *t, int in, int out,
		      int err)
{
	const launch_tasks_request_msg_t *m = st->m;
	char why[1536] = "";
	int fd;

	if (m->ifname &&
	    (fd = _open_pattern(st, t, m->ifname, O_RDONLY, why, sizeof(why))) >= 0)
		in = fd;
	if (m->ofname &&
	    (fd = _open_pattern(st, t, m->ofname, O_WRONLY, why, sizeof(why))) >= 0) {
		out = fd;
		if (!m->efname)
			err = fd;
	}
	if (m->efname &&
	    (fd = _open_pattern(st, t, m->efname, O_WRONLY, why, sizeof(why))) >= 0)
		err = fd;
	if (in < 0)
		in = open("/dev/null", O_RDONLY);
	dup2(in, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	if (why[0] && write(STDERR_FILENO, why, strlen(why)) < 0)
		why[0] = '\0';
}

/* The task's environment; SLURM_TASK_PID is room its child fills in. */
static char **_task_env(const step_t *st, const step_task_t *t, int pmi_fd,
			char **pid_room)
{
	const launch_tasks_request_msg_t *m = st->m;
	char **env = xstrarray_dup(m->env ? m->env : (char *[]) { NULL });

	env_setf(&env, "SLURM_PROCID", "%u", t->gtid);
	env_setf(&env, "SLURM_LOCALID", "%u", t->lid);
	env_setf(&env, "SLURM_NODEID", "%u", m->node_id + m->node_offset);
	if (st->node_cpus)        /* the step's CPUs here, as srun(1) says */
		env_setf(&env, "SLURM_CPUS_ON_NODE", "%u", st->node_cpus);
	env_set(&env, "SLURMD_NODENAME", st->node_name);
	env_set(&env, "SLURM_GTIDS", m->gtids);
	if (m->container && *m->container)
		env_set(&env, "SLURM_CONTAINER", m->container);
	env_set(&env, "SLURM_TOPOLOGY_ADDR", st->node_name);
	env_set(&env, "SLURM_TOPOLOGY_ADDR_PATTERN", "node");
	for (char **e = t->pmix_env; e && *e; e++) {
		char *eq = strchr(*e, '=');

		if (eq) {
			*eq = '\0';
			env_set(&env, *e, eq + 1);
			*eq = '=';
		}
	}
	if (t->pmix_env)
		env_set(&env, "SLURM_MPI_TYPE", "pmix");
	if (pmi_fd >= 0) {
		env_setf(&env, "PMI_FD", "%d", pmi_fd);
		env_setf(&env, "PMI_RANK", "%u", t->gtid);
		env_setf(&env, "PMI_SIZE", "%u", m->num_tasks);
		if (m->pmi_jobid && *m->pmi_jobid)
			env_set(&env, "PMI_JOBID", m->pmi_jobid);
		else
			env_setf(&env, "PMI_JOBID", "%u.%u", m->job_id,
				 m->step_id);
		env_set(&env, "SLURM_MPI_TYPE", "pmi2");
	}
	task_plugin_env(&env);
	task_gpus_env(st->gpus, t->lid, &env);
	*pid_room = env_pid_room(&env);
	return env;
}

/* Runs in the child; never returns.  When the parent used vfork (no
 * SPANK plugin, no task prolog: _may_share_memory) this shares the
 * parent's memory until exec: it allocates nothing the parent keeps and
 * changes nothing the parent reads.  argv NULL: --multi-prog has no
 * line for this task. */
static void _child(const step_t *st, const step_task_t *t, char **env,
		   char **argv, char *pid_room, const int fds[3], int pmi_fd,
		   rlimits_req_t *rl, const oci_task_t *oci)
{
	const launch_tasks_request_msg_t *m = st->m;
	int rc;

	if (!t->pty)
		setpgid(0, 0);   /* a pty task leads a session of its own */
	child_default_signals();
	cgroup_step_attach_self(st->cg);
	if (job_container_enter(st->jc_fd) < 0) {
		dprintf(fds[2], "slurmstepd: error: cannot enter the job's "
			"namespace: %s\n", strerror(errno));
		_exit(EXIT_EXEC_FAILED);
	}
	env_put_pid(pid_room);
	if (!argv) {
		dprintf(fds[2], "slurmstepd: error: no program for task %u in "
			"the --multi-prog configuration\n", t->gtid);
		_exit(EXIT_EXEC_FAILED);
	}
	if (stepd_spank_task_of(SPANK_CB_TASK_INIT_PRIVILEGED, (int) t->lid,
				t->gtid, &env, &argv) < 0) {
		dprintf(fds[2], "slurmstepd: error: spank_task_init_privileged "
			"failed\n");
		_exit(EXIT_EXEC_FAILED);
	}
	rlimits_set(rl);
	if (_become_user(st) < 0) {
		dprintf(fds[2], "slurmstepd: error: cannot become uid %u: %s\n",
			m->uid, strerror(errno));
		_exit(EXIT_EXEC_FAILED);
	}
	if (!m->cwd || chdir(m->cwd) < 0) {
		dprintf(fds[2], "slurmstepd: error: couldn't chdir to `%s': %s: "
			"going to /tmp instead\n", m->cwd ? m->cwd : "",
			strerror(errno));
		if (chdir("/tmp") < 0)
			_exit(EXIT_EXEC_FAILED);
	}
	_child_io(st, t, fds[0], fds[1], fds[2]);
	step_pty_child((step_task_t *) t);
	task_gpus_verbose(st->gpus, t->lid);
	rlimits_report(rl, STDERR_FILENO);
	if (pmi_fd >= 0)
		fcntl(pmi_fd, F_SETFD, 0);     /* crosses exec */
	task_plugin_apply(t->gtid, t->lid);
	if ((rc = task_prolog_run(st->conf->task_prolog, &env)) ||
	    (rc = task_prolog_run(m->task_prolog, &env)))
		_exit(WIFEXITED(rc) ? WEXITSTATUS(rc) : EXIT_EXEC_FAILED);
	if (stepd_spank_task_of(SPANK_CB_TASK_INIT, (int) t->lid, t->gtid,
				&env, &argv) < 0) {
		fprintf(stderr, "slurmstepd: error: Failed to invoke spank "
			"plugin stack\n");
		_exit(EXIT_EXEC_FAILED);
	}
	{
		const char *um = env_get(env, "SLURM_UMASK");

		if (um)
			umask((mode_t) strtol(um, NULL, 8));
	}
	/* --debugger-test: stop at the exec (SIGTRAP to us, the tracer),
	 * to be left stopped for a debugger (step_tasks_reap) */
	if ((m->flags & LAUNCH_DEBUG_STOP) &&
	    ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
		fprintf(stderr, "slurmstepd: error: ptrace(TRACEME): %s\n",
			strerror(errno));
		_exit(EXIT_EXEC_FAILED);
	}
	if (oci)                    /* --container: the OCI runtime runs it */
		oci_task_exec(oci, env);
	execvpe(argv[0], argv, env);
	fprintf(stderr, "slurmstepd: error: execve(): %s: %s\n", argv[0],
		strerror(errno));
	_exit(EXIT_EXEC_FAILED);
}

/* ---- output ---- */

/* Send what is complete in buf (all of it if flush or unbuffered). */
static void _send_lines(step_task_t *t, struct evbuffer *buf, uint16_t type,
			bool flush)
{
	step_t *st = t->st;
	bool raw = flush || (st->m->flags & LAUNCH_UNBUFFERED);

	for (;;) {
		size_t len = evbuffer_get_length(buf), n = 0;
		uint8_t *p;

		if (!len)
			return;
		p = evbuffer_pullup(buf, len > OUT_CHUNK ? OUT_CHUNK : len);
		if (raw || len >= OUT_CHUNK) {
			n = len > OUT_CHUNK ? OUT_CHUNK : len;
		} else {
			for (size_t i = len; i > 0; i--)
				if (p[i - 1] == '\n') {
					n = i;
					break;
				}
		}
		if (!n)
			return;
		step_send(st, type, t->gtid, p, n);
		evbuffer_drain(buf, n);
	}
}

static void _close_out(step_task_t *t, bool err)
{
	int *fd = err ? &t->err_fd : &t->out_fd;
	struct event **ev = err ? &t->err_ev : &t->out_ev;

	if (*fd < 0)
		return;
	_send_lines(t, err ? t->err_buf : t->out_buf,
		    err ? IO_STDERR : IO_STDOUT, true);
	event_free(*ev);
	*ev = NULL;
	close(*fd);
	*fd = -1;
	t->st->open_fds--;
}

/* Read what is there; false at EOF. */
static bool _read_out(step_task_t *t, bool err)
{
	int fd = err ? t->err_fd : t->out_fd;
	struct evbuffer *buf = err ? t->err_buf : t->out_buf;
	char chunk[16384];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n > 0) {
			evbuffer_add(buf, chunk, (size_t) n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	_send_lines(t, buf, err ? IO_STDERR : IO_STDOUT, false);
	return !(n == 0 || (n < 0 && errno != EAGAIN));
}

static void _on_output(evutil_socket_t fd, short what, void *arg)
{
	step_task_t *t = arg;
	bool err = fd == t->err_fd;

	if (!_read_out(t, err)) {
		_close_out(t, err);
		step_check_done(t->st);
	}
}

/* ---- start ---- */

static int _gtids(step_t *st)
{
	char *s = xstrdup(st->m->gtids), *save = NULL, *tok;
	uint32_t n = 0;

	for (char *c = s; *c; c++)
		if (*c == ',')
			n++;
	st->tasks = xcalloc(n + 2, sizeof(step_task_t));
	n = 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long v = strtoul(tok, &end, 10);

		if (*end || v >= st->m->num_tasks) {
			xfree(s);
			return -1;
		}
		st->tasks[n].gtid = (uint32_t) v;
		st->tasks[n].lid = n;
		n++;
	}
	xfree(s);
	st->ntasks = n;
	return n ? 0 : -1;
}

static bool _gets_stdin(const step_t *st, const step_task_t *t)
{
	uint32_t want = st->m->input_task;

	if (st->m->ifname || (st->m->flags & LAUNCH_STDIN_NONE))
		return false;
	return want == IO_ALL_TASKS || want == t->gtid;
}

/* The child may share our memory (vfork) unless a SPANK plugin or a
 * task prolog runs in it: those change the environment and argv the
 * child holds, and run code we do not control. */
static bool _may_share_memory(const step_t *st)
{
	return !stepd_spank_active() && !st->conf->task_prolog &&
	       !st->m->task_prolog && !(st->m->flags & LAUNCH_DEBUG_STOP);
}

static int _start_one(step_t *st, step_task_t *t)
{
	const launch_tasks_request_msg_t *m = st->m;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int pmi_fd = -1, ptm = -1;
	char **env, **argv, *pid_room;
	oci_task_t *volatile oci = NULL;
	rlimits_req_t rl;
	sigset_t all, old;
	pid_t pid;

	if ((_gets_stdin(st, t) && pipe2(in, O_CLOEXEC) < 0) ||
	    pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		return ESLURMD_EXECVE_FAILED;
	if (st->pmi && step_pmi_task_fd(st->pmi, t, &pmi_fd) < 0)
		return ESLURMD_EXECVE_FAILED;
	if (st->pmix && !(t->pmix_env = step_pmix_task_env(st->pmix, t)))
		return ESLURMD_EXECVE_FAILED;
	if (step_pty_open(st, t, &ptm) < 0)
		return ESLURMD_EXECVE_FAILED;
	env = _task_env(st, t, pmi_fd, &pid_room);
	rlimits_take(env, rlimits_conf_bits(st->conf->propagate_rlimits,
					     st->conf->propagate_rlimits_except), &rl);
	argv = m->multi_prog ? multi_prog_argv(m->multi_prog, m->num_tasks,
					       t->gtid) : m->argv;
	if (m->container && *m->container) {
		oci_req_t req = {
			.conf = st->conf, .node_name = st->node_name,
			.spool_dir = st->spool_dir, .bundle = m->container,
			.job_id = m->job_id, .step_id = m->step_id,
			.task_id = t->gtid, .uid = m->uid, .gid = m->gid,
			.user_name = m->user_name, .argv = argv, .env = env,
		};
		int rc;

		if (!(oci = oci_task_prepare(&req, &rc))) {
			dprintf(err[1], "slurmstepd: error: --container=%s: "
				"%s\n", m->container, slurm_strerror(rc));
		}
	}
	/* no handler of ours may run in the child: it resets them all */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = _may_share_memory(st) && !(m->container && *m->container) ?
	      vfork() : fork();
	if (pid == 0) {
		if (m->container && *m->container && !oci)
			_exit(EXIT_EXEC_FAILED);    /* said on its stderr */
		_child(st, t, env, argv, pid_room,
		       (int[3]) { in[0], out[1], err[1] }, pmi_fd, &rl, oci);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	oci_task_free(oci);
	xstrarray_free(env);
	if (m->multi_prog)
		xstrarray_free(argv);
	if (pid < 0) {
		error("StepId=%u.%u: fork: %m", m->job_id, m->step_id);
		return ESLURMD_EXECVE_FAILED;
	}
	if (!t->pty)
		setpgid(pid, pid);
	if (st->pmi)
		step_pmi_task_started(st->pmi, t, pmi_fd);
	t->pid = pid;
	stepd_spank_post_fork_of((int) t->lid, t->gtid, pid);
	t->st = st;
	if (in[0] >= 0)
		close(in[0]);
	close(out[1]);
	close(err[1]);
	t->in_fd = in[1];
	t->out_fd = out[0];
	t->err_fd = err[0];
	if (ptm >= 0) {            /* the terminal is its stdin and stdout */
		close(t->pty_slave);
		close(out[0]);
		t->out_fd = ptm;
		if (t->in_fd >= 0)
			close(t->in_fd);
		t->in_fd = fcntl(ptm, F_DUPFD_CLOEXEC, 3);
	}
	fcntl(t->out_fd, F_SETFL, O_NONBLOCK);
	fcntl(t->err_fd, F_SETFL, O_NONBLOCK);
	t->out_buf = evbuffer_new();
	t->err_buf = evbuffer_new();
	t->out_ev = event_new(st->base, t->out_fd, EV_READ | EV_PERSIST,
			      _on_output, t);
	t->err_ev = event_new(st->base, t->err_fd, EV_READ | EV_PERSIST,
			      _on_output, t);
	event_add(t->out_ev, NULL);
	event_add(t->err_ev, NULL);
	st->open_fds += 2;
	return 0;
}

/* The remote context of the node's share of the step, before any task. */
static int _spank_start(step_t *st)
{
	uint32_t *gtids = xcalloc(st->ntasks + 1, sizeof(uint32_t));
	hostlist_t *hl = hostlist_parse(st->m->node_list, NULL, 0);
	uint32_t nnodes = hl ? (uint32_t) hostlist_count(hl) : 1;
	int rc;

	hostlist_destroy(hl);
	for (uint32_t i = 0; i < st->ntasks; i++)
		gtids[i] = st->tasks[i].gtid;
	rc = stepd_spank_step_start(st->conf, st->m, nnodes, gtids,
				    st->ntasks, &st->m->env);
	xfree(gtids);
	return rc;
}

/* task/affinity's plan over the step's own CPUs (credential), else its
 * cgroup's, else as many as it has from the first. */
static void _plan_binding(const step_t *st)
{
	char *mine = NULL;
	affinity_req_t ar = {
		.task_plugin_param = st->conf->task_plugin_param,
		.cpu_bind = st->m->cpu_bind,
		.ntasks = st->ntasks,
		.cpus_per_task = st->m->cpus_per_task,
		.node_name = st->node_name,
	};

	if (st->cpu_ids || !cgroup_step_cpus(st->cg))
		ar.allowed = mine = affinity_map_cpus(st->cpu_ids,
						      st->node_cpus);
	else
		ar.allowed = cgroup_step_cpus(st->cg);
	task_plugin_plan(&ar);
	xfree(mine);
}

int step_tasks_start(step_t *st)
{
	int rc;

	if (_gtids(st) < 0)
		return SLURM_UNEXPECTED_MSG_ERROR;
	if (st->m->flags & LAUNCH_PMI)
		st->pmi = step_pmi_create(st);
	if ((st->m->flags & LAUNCH_PMIX) &&
	    !(st->pmix = step_pmix_create(st)))
		return ESLURMD_EXECVE_FAILED;
	_plan_binding(st);
	task_gpus_destroy(st->gpus);
	st->gpus = task_gpus_create(st->conf, st->node_name, st->m->job_id,
				    st->gpu_idx, st->m->env,
				    cgroup_step_devices(st->cg));
	if ((rc = _spank_start(st)))
		return rc;
	/* job_container/tmpfs: the job's namespace (made if no extern
	 * step made it), entered by each task */
	st->jc_fd = job_container_open(st->conf, st->node_name,
				       st->m->job_id, st->m->uid, st->m->gid);
	if (st->jc_fd < 0 && errno)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	for (uint32_t i = 0; i < st->ntasks; i++) {
		st->tasks[i].in_fd = st->tasks[i].out_fd = st->tasks[i].err_fd = -1;
		if (_start_one(st, &st->tasks[i])) {
			step_tasks_signal(st, SIGKILL);
			rc = ESLURMD_EXECVE_FAILED;
			break;
		}
	}
	if (st->jc_fd >= 0)
		close(st->jc_fd);
	st->jc_fd = -1;
	return rc;
}

/* ---- exits, signals, stdin ---- */

static void _task_exited(step_t *st, step_task_t *t, int status,
			 const struct rusage *ru)
{
	uint32_t st_code;
	uint8_t be[4];

	if (st->acct_on)
		step_acct_sample(st);     /* the last look at its processes */
	step_acct_task_exit(st, t, ru);
	status = step_cgroup_exit_status(st, t->gtid, status);  /* OOM */
	if (st->mem_killed)
		status = SIG_OOM;       /* OverMemoryKill, as Slurm */
	st_code = (uint32_t) status;
	be[0] = (uint8_t) (st_code >> 24);
	be[1] = (uint8_t) (st_code >> 16);
	be[2] = (uint8_t) (st_code >> 8);
	be[3] = (uint8_t) st_code;
	t->exited = true;
	t->status = status;
	/* what it wrote before it ended goes first */
	if (t->out_fd >= 0 && !_read_out(t, false))
		_close_out(t, false);
	if (t->err_fd >= 0 && !_read_out(t, true))
		_close_out(t, true);
	if (t->in_fd >= 0) {
		close(t->in_fd);
		t->in_fd = -1;
	}
	stepd_spank_task_exit_of((int) t->lid, t->gtid, t->pid, status);
	task_epilog_run(st->conf->task_epilog, st->m->env, st->m->uid,
			st->m->gid, st->m->cwd, TASK_EPILOG_WAIT);
	task_epilog_run(st->m->task_epilog, st->m->env, st->m->uid,
			st->m->gid, st->m->cwd, TASK_EPILOG_WAIT);
	step_send(st, IO_EXIT, t->gtid, be, sizeof(be));
	t->exit_sent = true;
	{
		uint32_t a = st->worst, b = st_code;
		uint32_t ca = WIFSIGNALED(a) ? 128 + WTERMSIG(a) : WEXITSTATUS(a);
		uint32_t cb = WIFSIGNALED(b) ? 128 + WTERMSIG(b) : WEXITSTATUS(b);

		if (cb > ca)
			st->worst = b;
	}
	debug("StepId=%u.%u task %u (pid %d) exited, status 0x%x",
	      st->m->job_id, st->m->step_id, t->gtid, (int) t->pid, status);
}

/* A --debugger-test task stopped.  At its exec (SIGTRAP, traced): let
 * it go untraced with SIGSTOP, so that it stays stopped for a debugger.
 * Once it is (SIGSTOP): tell srun where it is, once. */
static void _task_stopped(step_t *st, pid_t pid, int sig)
{
	uint8_t be[4] = { (uint8_t)(pid >> 24), (uint8_t)(pid >> 16),
			  (uint8_t)(pid >> 8), (uint8_t)pid };

	if (sig == SIGTRAP) {
		if (ptrace(PTRACE_DETACH, pid, NULL,
			   (void *)(intptr_t)SIGSTOP) < 0)
			error("StepId=%u.%u: ptrace(DETACH) of pid %d: %m",
			      st->m->job_id, st->m->step_id, (int)pid);
		return;
	}
	for (uint32_t i = 0; i < st->ntasks; i++) {
		step_task_t *t = &st->tasks[i];

		if (t->pid == pid && !t->pid_sent) {
			t->pid_sent = true;
			step_send(st, IO_TASK_PID, t->gtid, be, sizeof(be));
		}
	}
}

void step_tasks_reap(step_t *st)
{
	/* --debugger-test: its tasks' stops too (WUNTRACED) */
	int flags = WNOHANG |
		((st->m->flags & LAUNCH_DEBUG_STOP) ? WUNTRACED : 0);
	struct rusage ru;
	int status;
	pid_t pid;

	while ((pid = wait4(-1, &status, flags, &ru)) > 0) {
		if (WIFSTOPPED(status)) {
			if (st->m->flags & LAUNCH_DEBUG_STOP)
				_task_stopped(st, pid, WSTOPSIG(status));
			continue;
		}
		for (uint32_t i = 0; i < st->ntasks; i++)
			if (st->tasks[i].pid == pid && !st->tasks[i].exited)
				_task_exited(st, &st->tasks[i], status, &ru);
	}
}

void step_tasks_signal(step_t *st, int sig)
{
	bool all = proctrack_signals_children(sig);

	for (uint32_t i = 0; i < st->ntasks; i++) {
		step_task_t *t = &st->tasks[i];

		if (t->pid <= 0 || t->exited)
			continue;
		if (all)
			killpg(t->pid, sig);
		else
			kill(t->pid, sig);
	}
	if (all && (sig == SIGKILL || sig == SIGTERM))
		proctrack_signal(0, getpid(), sig);
}

void step_tasks_stdin(step_t *st, uint32_t task, const void *p, size_t len)
{
	for (uint32_t i = 0; i < st->ntasks; i++) {
		step_task_t *t = &st->tasks[i];
		const char *c = p;
		size_t left = len;

		if (t->in_fd < 0 || (task != IO_ALL_TASKS && task != t->gtid))
			continue;
		if (!len && t->pty) {
			/* srun's input ended: end of file for the terminal */
			if (write(t->in_fd, "\004", 1) < 0)
				debug("pty EOF: %m");
			continue;
		}
		if (!len) {
			close(t->in_fd);
			t->in_fd = -1;
			continue;
		}
		while (left) {
			ssize_t n = write(t->in_fd, c, left);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(t->in_fd);
				t->in_fd = -1;
				break;
			}
			c += n;
			left -= (size_t) n;
		}
	}
}

void step_tasks_free(step_t *st)
{
	task_plugin_plan_free();
	step_pmi_destroy(st->pmi);
	st->pmi = NULL;
	step_pmix_destroy(st->pmix);
	st->pmix = NULL;
	for (uint32_t i = 0; i < st->ntasks; i++) {
		step_task_t *t = &st->tasks[i];

		if (t->out_ev)
			event_free(t->out_ev);
		if (t->err_ev)
			event_free(t->err_ev);
		if (t->out_fd >= 0)
			close(t->out_fd);
		if (t->err_fd >= 0)
			close(t->err_fd);
		if (t->in_fd >= 0)
			close(t->in_fd);
		if (t->out_buf)
			evbuffer_free(t->out_buf);
		if (t->err_buf)
			evbuffer_free(t->err_buf);
		xstrarray_free(t->pmix_env);
	}
	xfree(st->tasks);
}
