/* extern_step.c — slurmstepd -x: the Prolog at allocation and the job's
 * extern step (extern_step.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/extern_step.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/daemon.h"
#include "common/auth.h"
#include "common/conf_params.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/prep.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/ctld_send.h"
#include "slurmd/common/job_container.h"
#include "slurmd/common/script.h"
#include "slurmd/stepd/cgroup.h"
#include "slurmd/stepd/extern_adopt.h"
#include "slurmd/stepd/fork_server.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/stepd_plugins.h"
#include "slurmd/stepd/stepd_start.h"

#define EXT_CONN_TIMEOUT_MS 10000
#define EXT_POLL_MS         200
#define EXT_MAX_ADOPTED     1024

typedef struct {
	slurm_conf_t        *conf;
	char                *conf_path;
	char                *node_name;
	char                *spool_dir;
	char                *sock_path;
	prolog_launch_msg_t *m;
	struct event_base   *base;
	net_server_t        *server;
	ctld_sender_t       *sender;
	cgroup_step_t       *cg;
	pid_t                adopted[EXT_MAX_ADOPTED];
	uint32_t             adopted_cnt;
	bool                 terminating;
	time_t               give_up;      /* after SIGKILL: leave anyway */
	struct event        *kill_ev;
	struct event        *poll_ev;
	struct event        *chld_ev;
} ext_t;

/* Real uid of pid from /proc, NO_VAL32 if it is gone. */
static uint32_t _pid_uid(pid_t pid)
{
	char path[64], line[256];
	uint32_t uid = NO_VAL32;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int) pid);
	if (!(f = fopen(path, "re")))
		return NO_VAL32;
	while (fgets(line, sizeof(line), f)) {
		unsigned u;

		if (sscanf(line, "Uid: %u", &u) == 1) {
			uid = u;
			break;
		}
	}
	fclose(f);
	return uid;
}

/* ---- the step's processes ---- */

static bool _alive(pid_t pid)
{
	char path[64], buf[512], *rp;
	bool alive = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	if (!(f = fopen(path, "re")))
		return false;
	if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')))
		alive = rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
	fclose(f);
	return alive;
}

/* Signal (sig 0: count) the adopted processes, their descendants, the
 * step's cgroup and our own leftovers. */
static int _signal_all(ext_t *x, int sig)
{
	int n = proctrack_signal(0, getpid(), sig);

	for (uint32_t i = 0; i < x->adopted_cnt; i++) {
		pid_t p = x->adopted[i];

		n += proctrack_signal(0, p, sig);
		if (_alive(p)) {
			if (sig)
				kill(p, sig);
			n++;
		}
	}
	return n;
}

static void _poll(evutil_socket_t fd, short what, void *arg)
{
	ext_t *x = arg;
	struct timeval tv = { 0, EXT_POLL_MS * 1000 };

	if (!_signal_all(x, 0) ||
	    (x->give_up && time(NULL) >= x->give_up)) {
		event_base_loopbreak(x->base);
		return;
	}
	evtimer_add(x->poll_ev, &tv);
}

static void _kill(evutil_socket_t fd, short what, void *arg)
{
	ext_t *x = arg;

	_signal_all(x, SIGKILL);
	x->give_up = time(NULL) + 10;
}

static void _terminate(ext_t *x, uint16_t kill_wait)
{
	struct timeval kt = { kill_wait, 0 };

	if (x->terminating)
		return;
	x->terminating = true;
	debug("StepId=%u.extern: terminating", x->m->job_id);
	_signal_all(x, SIGCONT);
	_signal_all(x, SIGTERM);
	x->kill_ev = evtimer_new(x->base, _kill, x);
	x->poll_ev = evtimer_new(x->base, _poll, x);
	evtimer_add(x->kill_ev, &kt);
	_poll(-1, 0, x);
}

static void _adopt(ext_t *x, net_conn_t *conn, uint32_t sender,
		   const extern_pid_msg_t *r)
{
	pid_t pid = (pid_t) r->pid;
	uint32_t owner = r->pid > 1 ? _pid_uid(pid) : NO_VAL32;
	int rc;

	if (r->job_id != NO_VAL32 && r->job_id != x->m->job_id) {
		net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (x->terminating) {
		net_reply_rc(conn, ESLURM_ALREADY_DONE);
		return;
	}
	if (owner == NO_VAL32) {
		net_reply_rc(conn, ESRCH);
		return;
	}
	rc = extern_adopt_allowed(sender, x->conf->slurm_user_id, x->m->uid,
				  r->uid, pid, owner);
	if (!rc && x->adopted_cnt >= EXT_MAX_ADOPTED)
		rc = SLURM_ERROR;
	if (!rc && x->cg && cgroup_step_attach_pid(x->cg, pid) < 0)
		error("StepId=%u.extern: cannot move pid %d into its cgroup: %m",
		      x->m->job_id, (int) pid);
	if (rc) {
		info("StepId=%u.extern: uid %u may not add pid %d of uid %u for uid %u: %s",
		     x->m->job_id, sender, (int) pid, owner, r->uid,
		     slurm_strerror(rc));
		net_reply_rc(conn, rc);
		return;
	}
	x->adopted[x->adopted_cnt++] = pid;
	info("StepId=%u.extern: process %d adopted (uid %u)", x->m->job_id,
	     (int) pid, sender);
	net_reply_rc(conn, SLURM_SUCCESS);
}

static void _handle(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	ext_t *x = arg;
	bool admin = msg->auth_uid == 0 ||
		     msg->auth_uid == x->conf->slurm_user_id;
	const node_signal_msg_t *s = msg->data;

	if (msg->type == REQUEST_ADD_EXTERN_PID && msg->data) {
		_adopt(x, conn, msg->auth_uid, msg->data);
		return;
	}
	if (!admin) {
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	if (!s || (msg->type != REQUEST_SIGNAL_JOB &&
		   msg->type != REQUEST_TERMINATE_JOB)) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	net_reply_rc(conn, SLURM_SUCCESS);
	if (msg->type == REQUEST_SIGNAL_JOB)
		_signal_all(x, s->signal);
	else
		_terminate(x, s->kill_wait);
}

static void _on_chld(evutil_socket_t fd, short what, void *arg)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* ---- start ---- */



static void _cgroup(ext_t *x)
{
	const prolog_launch_msg_t *m = x->m;
	cgroup_req_t r = {
		.conf = x->conf, .node_name = x->node_name, .uid = m->uid,
		.job_id = m->job_id, .step = "extern", .job_cpus = m->job_cpus,
		.ncpus = m->ncpus ? m->ncpus : 1, .mem_mb = m->mem_mb,
	};

	x->cg = cgroup_step_create(&r);
	proctrack_use_cgroup(x->cg);
}

/* The extern step's socket: users reach it too (their own adoption
 * requests; the sender is checked per request). */
static int _listen(ext_t *x)
{
	int fd;

	x->sock_path = xstrdup_printf("%s/%s_%u.%u", x->spool_dir,
				      x->node_name, x->m->job_id,
				      SLURM_EXTERN_CONT);
	unlink(x->sock_path);
	fd = net_listen_unix(x->sock_path, 0666);
	if (fd < 0) {
		error("StepId=%u.extern: cannot listen on %s: %m",
		      x->m->job_id, x->sock_path);
		return -1;
	}
	x->server = net_server_create(x->base, fd, _handle, x,
				      EXT_CONN_TIMEOUT_MS);
	net_server_set_workers(x->server, 1);
	return x->server ? 0 : -1;
}

static int _setup(ext_t *x, const char *conf_file, const char *node,
		  int verbose)
{
	char err[1024] = "";

	x->conf = fork_server_conf(conf_file, err, sizeof(err));
	if (!x->conf)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	x->conf_path = xstrdup(conf_file);
	x->node_name = xstrdup(node);
	stepd_log_setup(x->conf, x->node_name, verbose);
	x->spool_dir = conf_expand_node_path(x->conf->slurmd_spool_dir ?
					     x->conf->slurmd_spool_dir :
					     "/var/spool/slurmd", node);
	if (auth_init(x->conf->auth_type, x->conf->auth_info,
		      x->conf->plugin_dir) != 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	if (stepd_plugins_init(x->conf) < 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	x->base = event_base_new();
	if (!x->base)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	daemon_ignore_signals();
	x->chld_ev = evsignal_new(x->base, SIGCHLD, _on_chld, x);
	event_add(x->chld_ev, NULL);
	if (x->m->prolog_flags & PROLOG_FLAG_CONTAIN) {
		int jfd;

		_cgroup(x);
		if (_listen(x) < 0)
			return ESLURMD_SETUP_ENVIRONMENT_ERROR;
		/* job_container/tmpfs: the job's namespace is made here */
		jfd = job_container_open(x->conf, x->node_name, x->m->job_id,
					 x->m->uid, x->m->gid);
		if (jfd < 0 && errno)
			return ESLURMD_SETUP_ENVIRONMENT_ERROR;
		if (jfd >= 0)
			close(jfd);
	}
	x->sender = ctld_sender_create_direct(x->conf);
	return x->sender ? 0 : ESLURMD_SETUP_ENVIRONMENT_ERROR;
}

/* The site's Prolog, as root: 0 or ESLURMD_PROLOG_FAILED. */
static int _prolog(ext_t *x)
{
	const prolog_launch_msg_t *m = x->m;
	const char *path = prep_program(x->conf, PREP_PROLOG);
	script_info_t si = {
		.context = "prolog_slurmd", .job_id = m->job_id,
		.uid = m->uid, .gid = m->gid, .user_name = m->user_name,
		.partition = m->partition, .account = m->account,
		.nodes = m->nodes, .node_name = x->node_name,
		.cluster_name = m->cluster_name ? m->cluster_name
						: x->conf->cluster_name,
		.conf_path = x->conf_path,
	};
	int status = 0;
	pid_t pid;

	if (!path || !*path)
		return SLURM_SUCCESS;
	pid = script_spawn(path, &si);
	if (pid < 0)
		return ESLURMD_PROLOG_FAILED;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return ESLURMD_PROLOG_FAILED;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return SLURM_SUCCESS;
	error("JobId=%u: prolog %s failed, status 0x%x", m->job_id, path,
	      status);
	return ESLURMD_PROLOG_FAILED;
}

static void _report(ext_t *x, int rc)
{
	epilog_complete_msg_t *c = xmalloc(sizeof(*c));

	c->job_id = x->m->job_id;
	c->rc = rc;
	c->node_name = xstrdup(x->node_name);
	ctld_sender_queue(x->sender, REQUEST_COMPLETE_PROLOG, c, -1);
}

static void _cleanup(ext_t *x)
{
	if (x->server) {
		net_server_destroy(x->server);
		unlink(x->sock_path);
	}
	if (x->sender) {
		ctld_sender_flush(x->sender, -1);
		ctld_sender_destroy(x->sender);
	}
	proctrack_use_cgroup(NULL);
	cgroup_step_destroy(x->cg);
	if (!stepd_frees_at_exit())
		return;           /* the process ends next */
	if (x->kill_ev)
		event_free(x->kill_ev);
	if (x->poll_ev)
		event_free(x->poll_ev);
	if (x->chld_ev)
		event_free(x->chld_ev);
	if (x->base)
		event_base_free(x->base);
	auth_fini();
	msg_body_free(REQUEST_LAUNCH_PROLOG, x->m);
	xfree(x->conf_path);
	xfree(x->node_name);
	xfree(x->spool_dir);
	xfree(x->sock_path);
	if (x->conf)
		conf_destroy(x->conf);
}


int extern_main(const char *conf_file, const char *node_name, int verbose)
{
	ext_t x = { 0 };
	int vfd, rc;

	x.m = stepd_read_launch(STDIN_FILENO, REQUEST_LAUNCH_PROLOG);
	vfd = stepd_take_verdict_fd();
	if (!x.m) {
		stepd_send_verdict(&vfd, SLURM_UNEXPECTED_MSG_ERROR);
		return 1;
	}
	stepd_set_title("%u.extern", x.m->job_id);
	rc = _setup(&x, conf_file, node_name, verbose);
	stepd_send_verdict(&vfd, rc);
	if (rc) {
		error("JobId=%u: extern stepd setup failed: %s", x.m->job_id,
		      slurm_strerror(rc));
		_cleanup(&x);
		return 1;
	}
	rc = _prolog(&x);
	_report(&x, rc);
	if (!rc && x.server) {
		debug("StepId=%u.extern: started", x.m->job_id);
		event_base_dispatch(x.base);
		_signal_all(&x, SIGKILL);
		debug("StepId=%u.extern: done", x.m->job_id);
	}
	_cleanup(&x);
	log_fini();
	return rc ? 1 : 0;
}
