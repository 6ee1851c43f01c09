/* step.c — slurmstepd for an srun step: start-up, srun stream, requests
 * from slurmd, the end (step.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/daemon.h"
#include "common/auth.h"
#include "common/io_frame.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/step_pids.h"
#include "slurmd/stepd/oci.h"
#include "slurmd/stepd/cgroup_stepd.h"
#include "slurmd/stepd/fork_server.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/stepd_plugins.h"
#include "slurmd/stepd/step.h"
#include "slurmd/stepd/stepd_start.h"
#include "slurmd/stepd/spank_stepd.h"
#include "slurmd/stepd/step_acct.h"
#include "slurmd/stepd/step_attach.h"
#include "slurmd/stepd/step_energy.h"
#include "slurmd/stepd/step_profile.h"
#include "slurmd/stepd/step_pmi.h"
#include "slurmd/stepd/step_pmix.h"
#include "slurmd/stepd/step_pty.h"
#include "slurmd/stepd/step_x11.h"
#include "slurmd/stepd/task_gpus.h"

#define STEP_CONN_TIMEOUT_MS 10000

static void _on_srun_write(struct bufferevent *bev, void *arg);

/* ---- to srun ---- */

void step_send(step_t *st, uint16_t type, uint32_t task, const void *p,
	       size_t len)
{
	io_frame_t f = { .type = type, .task = task, .len = (uint32_t) len };
	uint8_t hdr[IO_FRAME_HDR];

	io_frame_put(hdr, &f);
	if (type == IO_STDOUT || type == IO_STDERR || type == IO_EXIT ||
	    type == IO_DONE)
		step_attach_send(st, hdr, sizeof(hdr), p, len);
	if (!st->srun)
		return;
	bufferevent_write(st->srun, hdr, sizeof(hdr));
	if (len)
		bufferevent_write(st->srun, p, len);
}

void step_maybe_leave(step_t *st)
{
	if (!st->leaving || !step_attach_drained(st))
		return;
	if (st->srun && evbuffer_get_length(bufferevent_get_output(st->srun)))
		return;
	event_base_loopbreak(st->base);
}

static void _srun_gone(step_t *st, const char *why)
{
	if (!st->srun)
		return;
	bufferevent_free(st->srun);
	st->srun = NULL;
	step_maybe_leave(st);
	if (!st->completing) {
		info("StepId=%u.%u: %s, killing the step", st->m->job_id,
		     st->m->step_id, why);
		step_tasks_signal(st, SIGKILL);
	}
}

static void _on_srun_read(struct bufferevent *bev, void *arg)
{
	step_t *st = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	for (;;) {
		uint8_t hdr[IO_FRAME_HDR];
		io_frame_t f;
		uint8_t *p;

		if (evbuffer_copyout(in, hdr, sizeof(hdr)) < (ssize_t) sizeof(hdr))
			return;
		if (io_frame_get(hdr, &f) < 0) {
			_srun_gone(st, "bad frame from srun");
			return;
		}
		if (evbuffer_get_length(in) < sizeof(hdr) + f.len)
			return;
		evbuffer_drain(in, sizeof(hdr));
		p = f.len ? evbuffer_pullup(in, f.len) : NULL;
		if (f.type == IO_STDIN) {
			step_tasks_stdin(st, f.task, p, f.len);
		} else if (f.type == IO_SIGNAL && f.len == 4) {
			int sig = (int) ((uint32_t) p[0] << 24 | p[1] << 16 |
					 p[2] << 8 | p[3]);

			debug("StepId=%u.%u: signal %d from srun",
			      st->m->job_id, st->m->step_id, sig);
			if (sig > 0 && sig < NSIG)
				step_tasks_signal(st, sig);
		} else if (f.type == IO_PMI_FENCE_OUT && st->pmi) {
			step_pmi_fence_out(st->pmi, (const char *) p, f.len);
		} else if (f.type == IO_WINSIZE) {
			step_pty_winsize(st, f.task, p, f.len);
		} else if (f.type == IO_PMI_FENCE_OUT && st->pmix) {
			step_pmix_fence_out(st->pmix, (const char *) p, f.len);
		}
		evbuffer_drain(in, f.len);
		if (!st->srun)
			return;
	}
}

static void _on_srun_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		_srun_gone(arg, "srun went away");
}

static int _connect_srun(step_t *st)
{
	const launch_tasks_request_msg_t *m = st->m;
	int fd = net_connect_tcp(m->srun_host, m->srun_port,
				 STEP_CONN_TIMEOUT_MS);
	int one = 1;

	if (fd < 0) {
		error("StepId=%u.%u: connect to srun at %s:%u: %m", m->job_id,
		      m->step_id, m->srun_host, m->srun_port);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	evutil_make_socket_nonblocking(fd);
	st->srun = bufferevent_socket_new(st->base, fd, BEV_OPT_CLOSE_ON_FREE);
	bufferevent_setcb(st->srun, _on_srun_read, _on_srun_write,
			  _on_srun_event, st);
	bufferevent_enable(st->srun, EV_READ | EV_WRITE);
	step_send(st, IO_INIT, m->node_id, m->io_key,
		  m->io_key ? strlen(m->io_key) : 0);
	return 0;
}

/* ---- the end ---- */

static bool _all_over(const step_t *st)
{
	if (st->open_fds > 0)
		return false;
	for (uint32_t i = 0; i < st->ntasks; i++)
		if (!st->tasks[i].exited)
			return false;
	return true;
}

static void _leave(evutil_socket_t fd, short what, void *arg)
{
	event_base_loopbreak(((step_t *) arg)->base);
}

/* IO_DONE has left (or srun is gone): the step is over here. */
static void _on_srun_write(struct bufferevent *bev, void *arg)
{
	step_maybe_leave(arg);
}

/* The controller has the step's end: tell srun, then leave (at most a
 * few seconds later if srun does not read). */
static void _on_ack(evutil_socket_t fd, short what, void *arg)
{
	step_t *st = arg;
	struct timeval tv = { 5, 0 };
	char c;

	if (read(fd, &c, 1) != 1)
		return;
	st->leaving = true;
	step_send(st, IO_DONE, st->m->node_id, NULL, 0);
	event_base_once(st->base, -1, EV_TIMEOUT, _leave, st, &tv);
	step_maybe_leave(st);
}

void step_check_done(step_t *st)
{
	step_complete_msg_t *c;

	if (st->completing || !_all_over(st))
		return;
	st->completing = true;
	if (st->kill_ev)
		event_del(st->kill_ev);
	/* what the tasks left behind */
	proctrack_signal(0, getpid(), SIGKILL);
	c = xmalloc(sizeof(*c));
	c->job_id = st->m->job_id;
	c->step_id = st->m->step_id;
	c->node_name = xstrdup(st->node_name);
	c->step_rc = st->worst;
	step_profile_flush(st);   /* queued before the completion */
	step_acct_stop(st);
	step_acct_fill(st, c, false);
	step_energy_stop(st->energy);
	c->consumed_energy = step_energy_joules(st->energy);
	ctld_sender_queue(st->sender, REQUEST_STEP_COMPLETE, c, st->ack_pipe[1]);
}

/* ---- requests from slurmd ---- */

static void _on_kill(evutil_socket_t fd, short what, void *arg)
{
	step_tasks_signal(arg, SIGKILL);
}

/* sstat (through slurmd, which names the asking user in user_id). */
static void _stat(step_t *st, net_conn_t *conn,
		  const job_step_info_request_msg_t *r)
{
	step_complete_msg_t c = { .job_id = st->m->job_id,
				  .step_id = st->m->step_id,
				  .node_name = st->node_name };

	if (r->user_id != st->m->uid && r->user_id != 0 &&
	    r->user_id != st->conf->slurm_user_id) {
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	if (!st->completing)
		step_acct_sample(st);
	step_acct_fill(st, &c, true);
	c.consumed_energy = step_energy_joules(st->energy);
	net_reply(conn, RESPONSE_JOB_STEP_STAT, &c);
}

/* scancel JOB.STEP: "*** STEP 12.0 ON n1 CANCELLED AT <time> ***" on
 * the step's stderr before its tasks die. */
static void _note_step_cancel(step_t *st)
{
	char when[32], *line;
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	line = xstrdup_printf("slurmstepd: error: *** STEP %u.%u ON %s "
			      "CANCELLED AT %s ***\n", st->m->job_id,
			      st->m->step_id, st->node_name, when);
	step_send(st, IO_STDERR, 0, line, strlen(line));
	xfree(line);
}

/* scontrol listpids & co. (step_pids.h): the tasks still running,
 * then whatever else of the step lives below us. */
static void _pids(step_t *st, net_conn_t *conn)
{
	step_pids_msg_t m = { 0 };
	uint32_t job = st->m->job_id, step = st->m->step_id, uid = st->m->uid;

	step_pids_add_step(&m, job, step, uid);
	for (uint32_t i = 0; i < st->ntasks; i++)
		if (st->tasks[i].pid > 0 && !st->tasks[i].exited)
			step_pids_add(&m, job, step,
				      (uint32_t) st->tasks[i].pid,
				      st->tasks[i].lid, st->tasks[i].gtid,
				      uid);
	step_pids_add_descendants(&m, job, step, uid);
	net_reply(conn, RESPONSE_STEP_PIDS, &m);
	xfree(m.job_ids); xfree(m.step_ids); xfree(m.pids);
	xfree(m.lids); xfree(m.gtids); xfree(m.uids);
}

static void _handle(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	step_t *st = arg;
	const node_signal_msg_t *m = msg->data;

	if (msg->auth_uid != 0 && msg->auth_uid != st->conf->slurm_user_id) {
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	if (msg->type == REQUEST_STEP_PIDS) {
		_pids(st, conn);
		return;
	}
	if (msg->type == REQUEST_JOB_NOTIFY) {
		const job_notify_msg_t *n = msg->data;
		char *line;

		if (!n || !n->message || n->job_id != st->m->job_id) {
			net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
			return;
		}
		/* scontrol notify: on srun's stderr, as Slurm's srun logs it */
		line = xstrdup_printf("srun: %s\n", n->message);
		step_send(st, IO_STDERR, 0, line, strlen(line));
		xfree(line);
		net_reply_rc(conn, SLURM_SUCCESS);
		return;
	}
	if (msg->type == REQUEST_JOB_STEP_STAT && msg->data) {
		_stat(st, conn, msg->data);
		return;
	}
	if (msg->type == REQUEST_REATTACH_TASKS && msg->data) {
		step_attach_request(st, conn, msg->data);
		return;
	}
	if (!m || (msg->type != REQUEST_SIGNAL_JOB &&
		   msg->type != REQUEST_TERMINATE_JOB)) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	/* a signal for one step (scancel JOB.STEP) is for this one only */
	if (msg->type == REQUEST_SIGNAL_JOB && m->step_id != NO_VAL32 &&
	    m->step_id != st->m->step_id) {
		net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
		return;
	}
	net_reply_rc(conn, SLURM_SUCCESS);
	if (msg->type == REQUEST_SIGNAL_JOB) {
		if (m->step_id != NO_VAL32 && m->signal == SIGKILL)
			_note_step_cancel(st);
		step_tasks_signal(st, m->signal);
		return;
	}
	step_tasks_signal(st, SIGCONT);
	step_tasks_signal(st, SIGTERM);
	if (!st->kill_ev) {
		struct timeval tv = { m->kill_wait, 0 };

		st->kill_ev = evtimer_new(st->base, _on_kill, st);
		evtimer_add(st->kill_ev, &tv);
	}
}

static void _on_sigchld(evutil_socket_t fd, short what, void *arg)
{
	step_t *st = arg;

	step_tasks_reap(st);
	step_check_done(st);
}

/* ---- start ---- */



static int _listen(step_t *st)
{
	int fd;

	st->sock_path = xstrdup_printf("%s/%s_%u.%u", st->spool_dir,
				       st->node_name, st->m->job_id,
				       st->m->step_id);
	unlink(st->sock_path);
	fd = net_listen_unix(st->sock_path, 0600);
	if (fd < 0)
		return -1;
	st->server = net_server_create(st->base, fd, _handle, st,
				       STEP_CONN_TIMEOUT_MS);
	net_server_set_workers(st->server, 1);
	return st->server ? 0 : -1;
}

static int _setup(step_t *st, const char *conf_file, const char *node,
		  int verbose)
{
	char err[1024] = "";
	int rc;

	st->conf = fork_server_conf(conf_file, err, sizeof(err));
	if (!st->conf)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	st->node_name = xstrdup(node);
	stepd_log_setup(st->conf, st->node_name, verbose);
	st->spool_dir = conf_expand_node_path(st->conf->slurmd_spool_dir ?
					      st->conf->slurmd_spool_dir :
					      "/var/spool/slurmd", node);
	auth_set_context(st->conf->path, st->conf->slurm_user_id, 1);
	if (auth_init(st->conf->auth_type, st->conf->auth_info,
		      st->conf->plugin_dir) != 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	if (stepd_plugins_init(st->conf) < 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	step_cgroup_create(st);
	st->base = event_base_new();
	if (!st->base || pipe2(st->ack_pipe, O_CLOEXEC) < 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	st->chld_ev = evsignal_new(st->base, SIGCHLD, _on_sigchld, st);
	st->ack_ev = event_new(st->base, st->ack_pipe[0], EV_READ | EV_PERSIST,
			       _on_ack, st);
	event_add(st->chld_ev, NULL);
	event_add(st->ack_ev, NULL);
	daemon_ignore_signals();
	if (_listen(st) < 0 || _connect_srun(st) < 0)
		return ESLURMD_SETUP_ENVIRONMENT_ERROR;
	if ((rc = step_x11_start(st)))
		return rc;
	st->sender = ctld_sender_create_direct(st->conf);
	return st->sender ? 0 : ESLURMD_SETUP_ENVIRONMENT_ERROR;
}

static void _cleanup(step_t *st)
{
	step_x11_fini(st);
	if (st->server) {
		net_server_destroy(st->server);
		unlink(st->sock_path);
	}
	if (st->sender) {
		ctld_sender_flush(st->sender, -1);
		ctld_sender_destroy(st->sender);
	}
	step_acct_stop(st);
	step_profile_free(st);
	stepd_spank_fini();
	step_energy_destroy(st->energy);
	step_tasks_free(st);
	step_cgroup_destroy(st);
	if (!stepd_frees_at_exit())
		return;           /* the process ends next */
	if (st->srun)
		bufferevent_free(st->srun);
	step_attach_free(st);
	if (st->chld_ev)
		event_free(st->chld_ev);
	if (st->ack_ev)
		event_free(st->ack_ev);
	if (st->kill_ev)
		event_free(st->kill_ev);
	if (st->base)
		event_base_free(st->base);
	auth_fini();
	msg_body_free(REQUEST_LAUNCH_TASKS, st->m);
	xfree(st->node_name);
	xfree(st->spool_dir);
	xfree(st->sock_path);
	xfree(st->cpu_ids);
	xfree(st->gpu_idx);
	task_gpus_destroy(st->gpus);
	xfree(st->gids);
	if (st->conf)
		conf_destroy(st->conf);
}

/* No task runs here: this node's part of the step is over (failed), so
 * the controller does not keep its CPUs for a step that never ran. */
static void _launch_failed(step_t *st)
{
	step_complete_msg_t *c;

	if (!st->sender)
		return;
	step_tasks_signal(st, SIGKILL);
	c = xmalloc(sizeof(*c));
	c->job_id = st->m->job_id;
	c->step_id = st->m->step_id;
	c->node_name = xstrdup(st->node_name);
	c->step_rc = 1 << 8;
	ctld_sender_queue(st->sender, REQUEST_STEP_COMPLETE, c, -1);
}


int step_main(const char *conf_file, const char *node_name, int verbose)
{
	step_t st = { .ack_pipe = { -1, -1 } };
	int vfd, rc;

	st.m = stepd_read_launch(STDIN_FILENO, REQUEST_LAUNCH_TASKS);
	vfd = stepd_take_verdict_fd();
	if (!st.m) {
		stepd_send_verdict(&vfd, SLURM_UNEXPECTED_MSG_ERROR);
		return 1;
	}
	stepd_set_title("%u.%u", st.m->job_id, st.m->step_id);
	rc = _setup(&st, conf_file, node_name, verbose);
	if (!rc) {
		st.energy = step_energy_start(st.conf, st.base);
		step_profile_init(&st);
	}
	if (!rc)
		rc = step_tasks_start(&st);
	if (!rc)
		step_acct_start(&st);
	stepd_send_verdict(&vfd, rc);
	if (rc) {
		error("StepId=%u.%u: launch failed: %s", st.m->job_id,
		      st.m->step_id, slurm_strerror(rc));
		_launch_failed(&st);
		_cleanup(&st);
		return 1;
	}
	debug("StepId=%u.%u: %u tasks started", st.m->job_id, st.m->step_id,
	      st.ntasks);
	event_base_dispatch(st.base);
	oci_cleanup();                  /* --container's task directories */
	_cleanup(&st);
	log_fini();
	return 0;
}
