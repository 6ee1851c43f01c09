/* node_emu.c — many emulated nodes in one process, for benchmarks and
 * tests at a scale where one slurmd per node no longer fits (16,384 nodes
 * on a 2-core machine).
 *
 * Each emulated node listens on its own NodeAddr:Port from slurm.conf and
 * speaks the real protocol: the same message table, the same auth plugin
 * and the same retried sender to the controller (slurmd/common/ctld_send)
 * as slurmd.  What it does not do is run anything: a batch launch starts
 * a timer instead of a slurmstepd, for the `sleep N` the script names
 * (its first command line "sleep N"), else at once (exit 0), or with -t
 * not at all (the controller ends the job at its time limit).  Then it
 * reports the batch completion; a terminate is answered with an epilog
 * completion.  REQUEST_FORWARD (the TreeWidth fan-out) is handled for
 * every named node this process serves, and passed on along the tree
 * for the others (fwd_send), as slurmd does.
 *
 * Usage (as root or SlurmUser, SLURM_CONF or -f):
 *   node_emu [-f slurm.conf] [-N hostlist] [-S senders] [-t] [-L log] [-v]
 * -N: the NodeNames to serve (default all); several node_emu processes
 * may share a cluster, each with its part.  -S: sender threads (default
 * 64); a node's messages go through one of them, in order, and each
 * waits for the controller's answer, which waits for its journal write:
 * the senders are how many nodes talk to the controller at once (a
 * real cluster has one per node).  Stops on SIGTERM/SIGINT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <search.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/auth.h"
#include "common/conf.h"
#include "common/forward.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/ctld_send.h"

#define EMU_CONN_TIMEOUT_MS 30000
#define EMU_MAX_SENDERS     256

typedef struct emu_node emu_node_t;

/* A fake batch script "running" on its node. */
typedef struct fake_job {
	struct fake_job *next;
	emu_node_t      *node;
	uint32_t         job_id;
	struct event    *ev;     /* its end, or NULL (runs until killed) */
} fake_job_t;

struct emu_node {
	const conf_node_t *conf;
	net_server_t      *server;
	ctld_sender_t     *sender;
	size_t             sender_idx;
	fake_job_t        *jobs;
	bool               reg_queued;  /* a registration waits to be sent */
};

/* Registrations and batch completions queued on one sender, in order:
 * each one's notify byte (ctld_send.h) comes back in the same order on
 * the pipe. */
typedef struct pend {
	struct pend *next;
	emu_node_t  *node;
	uint32_t     job_id;
	bool         reg;
} pend_t;

typedef struct {
	ctld_sender_t *sender;
	int            pipe[2];
	struct event  *ev;
	pend_t        *head, *tail;
} sender_slot_t;

static struct {
	slurm_conf_t      *conf;
	struct event_base *base;
	emu_node_t        *nodes;
	size_t             node_cnt;
	void              *by_name;   /* NodeName -> emu_node_t (tsearch) */
	sender_slot_t      senders[EMU_MAX_SENDERS];
	size_t             sender_cnt;
	bool               run_to_limit;
	time_t             start_time;
	unsigned long      launches, ends;
} emu;

/* ---- names ---- */

static int by_name_cmp(const void *a, const void *b)
{
	return strcmp(((const emu_node_t *) a)->conf->name,
		      ((const emu_node_t *) b)->conf->name);
}

static emu_node_t *emu_find(const char *name)
{
	conf_node_t key_conf = { .name = (char *) name };
	emu_node_t key = { .conf = &key_conf };
	emu_node_t **hit = tfind(&key, &emu.by_name, by_name_cmp);

	return hit ? *hit : NULL;
}

/* ---- to the controller ---- */

static void pend_push(emu_node_t *n, uint32_t job_id, bool reg)
{
	sender_slot_t *s = &emu.senders[n->sender_idx];
	pend_t *p = xmalloc(sizeof(*p));

	p->node = n;
	p->job_id = job_id;
	p->reg = reg;
	if (s->tail)
		s->tail->next = p;
	else
		s->head = p;
	s->tail = p;
}

static void send_registration(emu_node_t *n, bool startup)
{
	node_registration_msg_t *r = xmalloc(sizeof(*r));
	const conf_node_t *c = n->conf;
	uint32_t cnt = 0;

	/* one waiting is enough: the controller's sweeps ask every node
	 * that has not registered yet again, and thousands of answers
	 * queued behind the first ones would only repeat them */
	if (n->reg_queued) {
		xfree(r);
		return;
	}
	n->reg_queued = true;
	for (fake_job_t *j = n->jobs; j; j = j->next)
		cnt++;
	r->node_name = xstrdup(c->name);
	r->version = xstrdup(SLUICE_VERSION_STRING);
	r->arch = xstrdup("x86_64");
	r->os = xstrdup("Linux (node_emu)");
	r->hostname = xstrdup(c->hostname ? c->hostname : c->name);
	r->cpus = c->cpus;
	r->boards = c->boards ? c->boards : 1;
	r->sockets = c->sockets;
	r->cores = c->cores_per_socket;
	r->threads = c->threads_per_core;
	r->real_memory = c->real_memory;
	r->free_mem = c->real_memory;
	r->tmp_disk = (uint32_t) c->tmp_disk;
	r->boot_time = emu.start_time;
	r->slurmd_start_time = emu.start_time;
	r->job_ids = cnt ? xcalloc(cnt, sizeof(uint32_t)) : NULL;
	cnt = 0;
	for (fake_job_t *j = n->jobs; j; j = j->next)
		r->job_ids[cnt++] = j->job_id;
	r->job_cnt = cnt;
	r->startup = startup;
	pend_push(n, 0, true);
	ctld_sender_queue(n->sender, MESSAGE_NODE_REGISTRATION, r,
			  emu.senders[n->sender_idx].pipe[1]);
}

static void send_epilog_complete(emu_node_t *n, uint32_t job_id)
{
	epilog_complete_msg_t *e = xmalloc(sizeof(*e));

	e->job_id = job_id;
	e->rc = 0;
	e->node_name = xstrdup(n->conf->name);
	debug("JobId=%u: epilog complete on %s", job_id, n->conf->name);
	ctld_sender_queue(n->sender, MESSAGE_EPILOG_COMPLETE, e, -1);
}

/* The controller answered a batch completion: with the job's terminate
 * for this node (ENDED: "epilog" now), or it counted the node done
 * already (DONE), or with a return code (ACKED: its terminate follows). */
static void on_notify(evutil_socket_t fd, short what, void *arg)
{
	sender_slot_t *s = arg;
	char bytes[256];
	ssize_t got = read(fd, bytes, sizeof(bytes));

	for (ssize_t i = 0; i < got; i++) {
		pend_t *p = s->head;

		if (!p)
			break;
		s->head = p->next;
		if (!s->head)
			s->tail = NULL;
		if (p->reg)
			p->node->reg_queued = false;
		else if (bytes[i] == CTLD_SEND_ENDED)
			send_epilog_complete(p->node, p->job_id);
		xfree(p);
	}
}

static void send_batch_complete(emu_node_t *n, uint32_t job_id)
{
	batch_complete_msg_t *m = xmalloc(sizeof(*m));
	sender_slot_t *s = &emu.senders[n->sender_idx];

	m->job_id = job_id;
	m->node_name = xstrdup(n->conf->name);
	m->flags = BATCH_END_CLEAN;
	pend_push(n, job_id, false);
	debug("JobId=%u: batch script ended on %s", job_id, n->conf->name);
	ctld_sender_queue(n->sender, REQUEST_COMPLETE_BATCH_SCRIPT, m,
			  s->pipe[1]);
}

/* ---- fake jobs ---- */

static fake_job_t *job_unlink(emu_node_t *n, uint32_t job_id)
{
	for (fake_job_t **pp = &n->jobs; *pp; pp = &(*pp)->next) {
		fake_job_t *j = *pp;

		if (j->job_id == job_id) {
			*pp = j->next;
			return j;
		}
	}
	return NULL;
}

static void job_free(fake_job_t *j)
{
	if (j->ev)
		event_free(j->ev);
	xfree(j);
}

static void on_job_end(evutil_socket_t fd, short what, void *arg)
{
	fake_job_t *j = arg;
	emu_node_t *n = j->node;
	uint32_t id = j->job_id;

	job_free(job_unlink(n, id));
	emu.ends++;
	send_batch_complete(n, id);
}

/* Seconds of the script's first "sleep N" command line, or -1. */
static double script_sleep(const char *script)
{
	for (const char *l = script; l && *l; ) {
		const char *e = strchr(l, '\n');

		while (*l == ' ' || *l == '\t')
			l++;
		if (!strncmp(l, "sleep", 5) && (l[5] == ' ' || l[5] == '\t')) {
			char *end;
			double s = strtod(l + 6, &end);

			if (end != l + 6 && s >= 0)
				return s;
		}
		l = e ? e + 1 : NULL;
	}
	return -1;
}

static int job_launch(emu_node_t *n, const batch_launch_msg_t *m)
{
	fake_job_t *j;
	double secs = script_sleep(m->script);

	for (j = n->jobs; j; j = j->next)
		if (j->job_id == m->job_id)
			break;
	if (j) {
		error("JobId=%u: already runs on %s", m->job_id, n->conf->name);
		return ESLURM_ALREADY_DONE;
	}
	j = xmalloc(sizeof(*j));
	j->node = n;
	j->job_id = m->job_id;
	if (secs < 0 && !emu.run_to_limit)
		secs = 0;
	if (secs >= 0) {
		struct timeval tv = { (time_t) secs,
				      (suseconds_t) ((secs - (time_t) secs) * 1e6) };

		j->ev = evtimer_new(emu.base, on_job_end, j);
		evtimer_add(j->ev, &tv);
	}
	j->next = n->jobs;
	n->jobs = j;
	emu.launches++;
	debug("JobId=%u: launched on %s (runs %s%.1f s)", m->job_id,
	      n->conf->name, secs < 0 ? "until killed, not " : "", secs);
	return SLURM_SUCCESS;
}

static void job_terminate(emu_node_t *n, const node_signal_msg_t *m)
{
	fake_job_t *j = job_unlink(n, m->job_id);

	if (j)
		job_free(j);
	send_epilog_complete(n, m->job_id);
}

/* ---- requests ---- */

static void handle(net_conn_t *conn, slurm_msg_t *msg, void *arg);

/* REQUEST_FORWARD: this process's nodes answer here; the others are
 * passed on down the tree on a thread, whose answers come back through
 * the capture of the combined reply. */
typedef struct {
	net_conn_t *conn;
	const forward_msg_t *m;
	uint32_t cnt;
	int *rc;
	char **addrs;       /* non-local: "host:port"; local: NULL */
	char **names;
	uint32_t far_cnt;
	int  *far_rc;
	uint32_t *far_idx;
} fwd_t;

static int fwd_pipe[2] = { -1, -1 };
static struct event *fwd_ev;

static void fwd_reply(fwd_t *f)
{
	forward_resp_msg_t resp;
	char *rcs = xstrdup("");

	for (uint32_t i = 0; i < f->far_cnt; i++)
		f->rc[f->far_idx[i]] = f->far_rc[i];
	for (uint32_t i = 0; i < f->cnt; i++)
		xstrfmtcat(&rcs, "%s%d", i ? "," : "", f->rc[i]);
	resp.names = f->m->names;
	resp.rcs = rcs;
	net_reply(f->conn, RESPONSE_FORWARD, &resp);
	xfree(rcs);
	for (uint32_t i = 0; i < f->far_cnt; i++)
		xfree(f->addrs[i]);
	xfree(f->addrs);
	xfree(f->names);
	xfree(f->far_rc);
	xfree(f->far_idx);
	xfree(f->rc);
	xfree(f);
}

static void on_fwd_done(evutil_socket_t fd, short what, void *arg)
{
	fwd_t *f;

	while (read(fd, &f, sizeof(f)) == sizeof(f))
		fwd_reply(f);
}

static void *fwd_thread(void *arg)
{
	fwd_t *f = arg;
	const forward_msg_t *m = f->m;
	char **bodies = NULL;
	fwd_req_t r = { .type = m->type, .cnt = f->far_cnt,
			.names = f->names, .addrs = f->addrs,
			.body = m->body, .tree_width = m->tree_width,
			.timeout_ms = (int) m->timeout_ms,
			.orig_uid = m->orig_uid,
			.body_version = m->body_version };

	if (m->bodies) {
		bodies = xcalloc(f->far_cnt + 1, sizeof(char *));
		for (uint32_t i = 0; i < f->far_cnt; i++)
			bodies[i] = m->bodies[f->far_idx[i]];
		r.bodies = bodies;
	}
	fwd_send(&r, f->far_rc);
	xfree(bodies);
	if (write(fwd_pipe[1], &f, sizeof(f)) != sizeof(f))
		error("forward: cannot hand the answers back: %m");
	return NULL;
}

static void capture_rc(uint16_t type, const void *data, void *arg)
{
	int *rc = arg;

	*rc = type == RESPONSE_SLURM_RC && data ?
	      ((const return_code_msg_t *) data)->rc :
	      type ? SLURM_SUCCESS : SLURM_UNEXPECTED_MSG_ERROR;
}

static void req_forward(emu_node_t *self, net_conn_t *conn, slurm_msg_t *msg)
{
	const forward_msg_t *m = msg->data;
	uint32_t cnt = 0, nb = 0;
	fwd_t *f;

	while (m && m->names && m->names[cnt] && cnt < 65536)
		cnt++;
	while (m && m->bodies && m->bodies[nb])
		nb++;
	if (!m || !cnt || (nb && nb != cnt) || (!nb && !m->body) ||
	    m->type == REQUEST_FORWARD || strcmp(m->names[0], self->conf->name)) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	f = xmalloc(sizeof(*f));
	f->conn = conn;
	f->m = m;
	f->cnt = cnt;
	f->rc = xcalloc(cnt, sizeof(int));
	f->addrs = xcalloc(cnt + 1, sizeof(char *));
	f->names = xcalloc(cnt + 1, sizeof(char *));
	f->far_rc = xcalloc(cnt, sizeof(int));
	f->far_idx = xcalloc(cnt, sizeof(uint32_t));
	for (uint32_t i = 0; i < cnt; i++) {
		emu_node_t *n = emu_find(m->names[i]);
		const conf_node_t *c;
		slurm_msg_t lm = { .type = m->type };

		if (!n) {       /* another process's node: down the tree */
			c = conf_find_node(emu.conf, m->names[i]);
			f->names[f->far_cnt] = m->names[i];
			f->addrs[f->far_cnt] = c ? xstrdup_printf("%s:%u",
				c->addr ? c->addr : c->name,
				c->port ? c->port : emu.conf->slurmd_port) :
				xstrdup("");
			f->far_idx[f->far_cnt++] = i;
			continue;
		}
		if (fwd_unpack_hex(m->type, nb ? m->bodies[i] : m->body,
				   m->body_version, &lm.data) < 0) {
			f->rc[i] = SLURM_UNEXPECTED_MSG_ERROR;
			continue;
		}
		lm.auth_uid = msg->auth_uid;
		lm.auth_gid = msg->auth_gid;
		snprintf(lm.peer, sizeof(lm.peer), "forward");
		/* every handler here answers before it returns */
		handle(net_conn_capture(capture_rc, &f->rc[i]), &lm, n);
		msg_body_free(lm.type, lm.data);
	}
	if (f->far_cnt) {
		pthread_t th;
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&th, &attr, fwd_thread, f)) {
			for (uint32_t i = 0; i < f->far_cnt; i++)
				f->far_rc[i] = SLURM_ERROR;
			fwd_reply(f);
		}
		pthread_attr_destroy(&attr);
		return;
	}
	fwd_reply(f);
}

static void handle(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	emu_node_t *n = arg;

	if (msg->auth_uid != 0 && msg->auth_uid != emu.conf->slurm_user_id) {
		error("security violation: %s from uid %u at %s to %s",
		      msg_type_name(msg->type), (unsigned) msg->auth_uid,
		      msg->peer, n->conf->name);
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	debug2("%s from %s to %s", msg_type_name(msg->type), msg->peer,
	       n->conf->name);
	switch (msg->type) {
	case REQUEST_PING:
	case REQUEST_HEALTH_CHECK:
	case REQUEST_RECONFIGURE:
	case REQUEST_RECONFIGURE_WITH_CONFIG:
		net_reply_rc(conn, SLURM_SUCCESS);
		return;
	case REQUEST_NODE_REGISTRATION_STATUS:
		net_reply_rc(conn, SLURM_SUCCESS);
		send_registration(n, false);
		return;
	case REQUEST_BATCH_JOB_LAUNCH:
		net_reply_rc(conn, msg->data ? job_launch(n, msg->data) :
				   SLURM_UNEXPECTED_MSG_ERROR);
		return;
	case REQUEST_SIGNAL_JOB:
		/* nothing runs to signal; a batch-only signal finds no
		 * script once it "ended" */
		net_reply_rc(conn, SLURM_SUCCESS);
		return;
	case REQUEST_TERMINATE_JOB:
		if (!msg->data) {
			net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
			return;
		}
		net_reply_rc(conn, SLURM_SUCCESS);
		job_terminate(n, msg->data);
		return;
	case REQUEST_FORWARD:
		req_forward(n, conn, msg);
		return;
	default:
		/* steps (srun), sbcast, prolog launches, ...: not emulated */
		error("%s to %s: not emulated by node_emu",
		      msg_type_name(msg->type), n->conf->name);
		net_reply_rcf(conn, SLURM_UNEXPECTED_MSG_ERROR,
			      "%s is not emulated by node_emu",
			      msg_type_name(msg->type));
	}
}

/* ---- start-up ---- */

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	info("caught signal %d, shutting down", (int) sig);
	event_base_loopexit(emu.base, NULL);
}

static void usage(FILE *out)
{
	fprintf(out,
"Usage: node_emu [-f slurm.conf] [-N hostlist] [-S senders] [-t] [-L log] [-v]\n"
"  -f config     slurm.conf (default $SLURM_CONF)\n"
"  -N hostlist   the NodeNames to emulate (default: every node)\n"
"  -S senders    threads sending to the controller (default 64)\n"
"  -t            a script without 'sleep N' runs until its time limit\n"
"                (default: it ends at once, exit 0)\n"
"  -L logfile    log here (default stderr)\n"
"  -v            more verbose (repeat)\n");
}

static void raise_nofile(rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (rl.rlim_max < want) {
		struct rlimit up = { want, want };

		/* root may raise the hard limit, where it is allowed to */
		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			return;
	}
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		error("setrlimit(RLIMIT_NOFILE, %llu): %m",
		      (unsigned long long) rl.rlim_max);
	if (rl.rlim_cur < want)
		info("RLIMIT_NOFILE is %llu: fewer nodes per node_emu "
		     "process than %llu may be needed (-N)",
		     (unsigned long long) rl.rlim_cur,
		     (unsigned long long) want);
}

static hostlist_t *pick_nodes(const char *expr)
{
	hostlist_t *hl;
	char err[256];

	if (expr) {
		hl = hostlist_parse(expr, err, sizeof(err));
		if (!hl) {
			fprintf(stderr, "node_emu: error: -N %s: %s\n", expr, err);
			exit(1);
		}
		return hl;
	}
	hl = hostlist_create();
	for (size_t i = 0; i < emu.conf->node_cnt; i++)
		hostlist_push_host(hl, emu.conf->nodes[i].name);
	return hl;
}

static void start_nodes(hostlist_t *hl)
{
	size_t cnt = hostlist_count(hl);

	emu.nodes = xcalloc(cnt ? cnt : 1, sizeof(*emu.nodes));
	for (size_t i = 0; i < cnt; i++) {
		const char *name = hostlist_nth(hl, i);
		const conf_node_t *c = conf_find_node(emu.conf, name);
		emu_node_t *n = &emu.nodes[emu.node_cnt];
		int fd;

		if (!c)
			fatal("node %s is not in %s", name, emu.conf->path);
		if (emu_find(name))
			continue;
		fd = net_listen_tcp(c->addr, c->port ? c->port
						     : emu.conf->slurmd_port);
		if (fd < 0) {
			/* as a slurmd that cannot bind: that node only is
			 * missing (the controller sets it DOWN) */
			error("node %s: unable to bind %s:%u: %m", name,
			      c->addr ? c->addr : "*", c->port);
			continue;
		}
		n->conf = c;
		n->server = net_server_create(emu.base, fd, handle, n,
					      EMU_CONN_TIMEOUT_MS);
		if (!n->server)
			fatal("node %s: unable to serve", name);
		/* a credential pool per node would be thousands of
		 * threads: the loop checks and signs */
		net_server_set_workers(n->server, 0);
		n->sender_idx = emu.node_cnt % emu.sender_cnt;
		n->sender = emu.senders[n->sender_idx].sender;
		tsearch(n, &emu.by_name, by_name_cmp);
		emu.node_cnt++;
	}
}

static void start_senders(void)
{
	for (size_t i = 0; i < emu.sender_cnt; i++) {
		sender_slot_t *s = &emu.senders[i];

		if (pipe2(s->pipe, O_CLOEXEC | O_NONBLOCK) < 0)
			fatal("pipe: %m");
		s->sender = ctld_sender_create(emu.conf);
		if (!s->sender)
			fatal("unable to start the controller sender");
		s->ev = event_new(emu.base, s->pipe[0], EV_READ | EV_PERSIST,
				  on_notify, s);
		event_add(s->ev, NULL);
	}
	/* the loop drains it: non-blocking (the threads' writes block,
	 * which is fine) */
	if (pipe2(fwd_pipe, O_CLOEXEC) < 0 ||
	    fcntl(fwd_pipe[0], F_SETFL, O_NONBLOCK) < 0)
		fatal("pipe: %m");
	fwd_ev = event_new(emu.base, fwd_pipe[0], EV_READ | EV_PERSIST,
			   on_fwd_done, NULL);
	event_add(fwd_ev, NULL);
}

static void stop_all(void)
{
	for (size_t i = 0; i < emu.node_cnt; i++) {
		emu_node_t *n = &emu.nodes[i];

		while (n->jobs) {
			fake_job_t *j = n->jobs;

			n->jobs = j->next;
			job_free(j);
		}
		net_server_destroy(n->server);
		tdelete(n, &emu.by_name, by_name_cmp);
	}
	for (size_t i = 0; i < emu.sender_cnt; i++) {
		sender_slot_t *s = &emu.senders[i];

		ctld_sender_flush(s->sender, 1000);
		ctld_sender_destroy(s->sender);
		event_free(s->ev);
		close(s->pipe[0]);
		close(s->pipe[1]);
		while (s->head) {
			pend_t *p = s->head;

			s->head = p->next;
			xfree(p);
		}
	}
	event_free(fwd_ev);
	xfree(emu.nodes);
}

int main(int argc, char **argv)
{
	static const int sigs[] = { SIGTERM, SIGINT };
	log_options_t lo = { LOG_LEVEL_INFO, LOG_LEVEL_INFO, true, false };
	const char *conf_file = NULL, *node_expr = NULL, *log_file = NULL;
	struct event *sev[2];
	hostlist_t *hl;
	char err[1024] = "";
	int c, verbose = 0;

	emu.sender_cnt = 64;
	while ((c = getopt(argc, argv, "f:hN:S:tL:v")) != -1) {
		switch (c) {
		case 'f': conf_file = optarg; break;
		case 'N': node_expr = optarg; break;
		case 'S': emu.sender_cnt = strtoul(optarg, NULL, 10); break;
		case 't': emu.run_to_limit = true; break;
		case 'L': log_file = optarg; break;
		case 'v': verbose++; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind < argc || !emu.sender_cnt ||
	    emu.sender_cnt > EMU_MAX_SENDERS) {
		usage(stderr);
		return 1;
	}
	lo.stderr_level = lo.file_level = LOG_LEVEL_INFO + verbose;
	if (lo.stderr_level > LOG_LEVEL_DEBUG5)
		lo.stderr_level = lo.file_level = LOG_LEVEL_DEBUG5;
	if (log_file)
		lo.stderr_level = LOG_LEVEL_QUIET;
	log_init("node_emu", lo, log_file);
	emu.conf = conf_load(conf_file, err, sizeof(err));
	if (!emu.conf) {
		fprintf(stderr, "node_emu: error: %s\n", err);
		return 1;
	}
	hl = pick_nodes(node_expr);
	raise_nofile(hostlist_count(hl) + 1024);
	signal(SIGPIPE, SIG_IGN);
	auth_set_context(emu.conf->path, emu.conf->slurm_user_id, 1);
	if (auth_init(emu.conf->auth_type, emu.conf->auth_info,
		      emu.conf->plugin_dir) != 0)
		fatal("unable to initialize %s", emu.conf->auth_type);
	emu.start_time = time(NULL);
	emu.base = event_base_new();
	if (!emu.base)
		fatal("event_base_new failed");
	for (int i = 0; i < 2; i++) {
		sev[i] = evsignal_new(emu.base, sigs[i], on_signal, NULL);
		evsignal_add(sev[i], NULL);
	}
	start_senders();
	start_nodes(hl);
	hostlist_destroy(hl);
	for (size_t i = 0; i < emu.node_cnt; i++)
		send_registration(&emu.nodes[i], true);
	info("emulating %zu node(s), %zu sender(s), pid %d", emu.node_cnt,
	     emu.sender_cnt, (int) getpid());
	event_base_dispatch(emu.base);
	info("stopping: %lu launch(es), %lu batch end(s)", emu.launches,
	     emu.ends);
	stop_all();
	for (int i = 0; i < 2; i++)
		event_free(sev[i]);
	event_base_free(emu.base);
	auth_fini();
	conf_destroy(emu.conf);
	log_fini();
	return 0;
}
