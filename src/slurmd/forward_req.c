/* forward_req.c — slurmd's REQUEST_FORWARD (forward_req.h). */
#define _GNU_SOURCE
#include "slurmd/forward_req.h"

#include <stdio.h>

#include <event2/event.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "common/forward.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/req.h"

#define FWD_MAX_NODES 65536

typedef struct {
	slurmd_t            *sd;
	net_conn_t          *conn;
	const forward_msg_t *m;        /* owned by conn until the reply */
	uint32_t             cnt;
	char               **addrs;    /* "host:port" per name, or NULL */
	int                 *rc;
	bool                 local_done;
	bool                 rest_done;
} fwd_job_t;

static int pipe_fd[2] = { -1, -1 };
static struct event *pipe_ev;

static void _job_free(fwd_job_t *j)
{
	for (uint32_t i = 0; i < j->cnt; i++)
		xfree(j->addrs[i]);
	xfree(j->addrs);
	xfree(j->rc);
	xfree(j);
}

/* Both this node's copy and the rest are answered: reply. */
static void _maybe_reply(fwd_job_t *j)
{
	forward_resp_msg_t resp;
	char *rcs = xstrdup("");

	if (!j->local_done || !j->rest_done)
		return;
	for (uint32_t i = 0; i < j->cnt; i++)
		xstrfmtcat(&rcs, "%s%d", i ? "," : "", j->rc[i]);
	resp.names = j->m->names;
	resp.rcs = rcs;
	net_reply(j->conn, RESPONSE_FORWARD, &resp);
	xfree(rcs);
	_job_free(j);
}

static void _rest_done(evutil_socket_t fd, short what, void *arg)
{
	fwd_job_t *j;

	if (read(fd, &j, sizeof(j)) != sizeof(j))
		return;
	j->rest_done = true;
	_maybe_reply(j);
}

/* The handler's answer to this node's copy (slurmd's handlers all answer
 * before they return). */
static void _local_done(uint16_t type, const void *data, void *arg)
{
	fwd_job_t *j = arg;

	j->rc[0] = type == RESPONSE_SLURM_RC && data ?
		((const return_code_msg_t *) data)->rc :
		type ? SLURM_SUCCESS : SLURM_UNEXPECTED_MSG_ERROR;
	j->local_done = true;
	_maybe_reply(j);
}

/* This node's copy, to slurmd's own handlers (as from root: the sender
 * was checked in _check). */
static void _local(fwd_job_t *j)
{
	const forward_msg_t *m = j->m;
	slurm_msg_t lm = { .type = m->type, .auth_uid = 0, .auth_gid = 0 };

	snprintf(lm.peer, sizeof(lm.peer), "forward");
	if (fwd_unpack_hex(m->type, m->bodies ? m->bodies[0] : m->body,
			   m->body_version, &lm.data) < 0) {
		_local_done(0, NULL, j);
		return;
	}
	/* j (and m) may be gone once the handler answered: only lm now */
	req_handle(net_conn_capture(_local_done, j), &lm, j->sd);
	msg_body_free(lm.type, lm.data);
}

/* names[1..] down the tree, on a thread. */
static void *_run(void *arg)
{
	fwd_job_t *j = arg;
	const forward_msg_t *m = j->m;
	fwd_req_t r = { .type = m->type, .cnt = j->cnt - 1,
			.names = m->names + 1, .addrs = j->addrs + 1,
			.body = m->body, .bodies = m->bodies ? m->bodies + 1 :
			NULL, .tree_width = m->tree_width,
			.timeout_ms = (int) m->timeout_ms,
			.orig_uid = m->orig_uid,
			.body_version = m->body_version };

	fwd_send(&r, j->rc + 1);
	if (write(pipe_fd[1], &j, sizeof(j)) != sizeof(j))
		error("forward: cannot hand the answers back: %m");
	return NULL;
}

static bool _privileged(const slurmd_t *sd, uid_t uid)
{
	return uid == 0 || uid == sd->conf->slurm_user_id;
}

/* The user a request users may forward is for: launches and sbcast
 * blocks (their credentials are checked by their handlers too). */
static uint32_t _body_uid(uint16_t type, const void *data)
{
	if (type == REQUEST_LAUNCH_TASKS)
		return ((const launch_tasks_request_msg_t *) data)->uid;
	return ((const file_bcast_msg_t *) data)->uid;
}

/* 0, or why the request is refused. */
static int _check(slurmd_t *sd, const slurm_msg_t *msg,
		  const forward_msg_t *m, uint32_t cnt)
{
	uint32_t nb = 0;

	while (m->bodies && m->bodies[nb])
		nb++;
	if (m->body_version && !proto_supported(m->body_version))
		return SLURM_PROTOCOL_VERSION_ERROR;
	if (!cnt || cnt > FWD_MAX_NODES || (nb && nb != cnt) ||
	    (!nb && !m->body) || !m->timeout_ms ||
	    m->type == REQUEST_FORWARD || !msg_desc_find(m->type) ||
	    strcmp(m->names[0], sd->node->name))
		return SLURM_UNEXPECTED_MSG_ERROR;
	if (_privileged(sd, msg->auth_uid))
		return 0;
	if (m->type != REQUEST_LAUNCH_TASKS && m->type != REQUEST_FILE_BCAST)
		return ESLURM_ACCESS_DENIED;
	for (uint32_t i = 0; i < (nb ? nb : 1); i++) {
		void *l = NULL;
		int rc = 0;

		if (fwd_unpack_hex(m->type, nb ? m->bodies[i] : m->body,
				   m->body_version, &l) < 0)
			return SLURM_UNEXPECTED_MSG_ERROR;
		if (_body_uid(m->type, l) != msg->auth_uid)
			rc = ESLURM_ACCESS_DENIED;
		msg_body_free(m->type, l);
		if (rc)
			return rc;
	}
	return 0;
}

void forward_req(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const forward_msg_t *m = msg->data;
	uint32_t cnt = 0;
	fwd_job_t *j;
	pthread_t th;
	pthread_attr_t attr;
	int rc;

	while (m && m->names && m->names[cnt] && cnt <= FWD_MAX_NODES)
		cnt++;
	if (!m || (rc = _check(sd, msg, m, cnt))) {
		error("forward: %s from uid %u at %s refused",
		      m ? msg_type_name(m->type) : "request",
		      (unsigned) msg->auth_uid, msg->peer);
		net_reply_rc(conn, m ? rc : SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (pipe_fd[0] < 0) {
		if (pipe2(pipe_fd, O_CLOEXEC) < 0) {
			net_reply_rc(conn, SLURM_ERROR);
			return;
		}
		pipe_ev = event_new(sd->base, pipe_fd[0], EV_READ | EV_PERSIST,
				    _rest_done, NULL);
		event_add(pipe_ev, NULL);
	}
	debug("forward: %s for %u node(s) from uid %u (first uid %u)",
	       msg_type_name(m->type), cnt, (unsigned) msg->auth_uid,
	       m->orig_uid);
	j = xmalloc(sizeof(*j));
	j->sd = sd;
	j->conn = conn;
	j->m = m;
	j->cnt = cnt;
	j->rc = xcalloc(cnt, sizeof(int));
	j->addrs = xcalloc(cnt + 1, sizeof(char *));
	for (uint32_t i = 0; i < cnt; i++) {
		const conf_node_t *n = conf_find_node(sd->conf, m->names[i]);

		/* unknown: refused by fwd_send's address check */
		j->addrs[i] = n ? xstrdup_printf("%s:%u",
			n->addr ? n->addr : n->name,
			n->port ? n->port : sd->conf->slurmd_port) :
			xstrdup("");
	}
	j->rest_done = cnt == 1;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (cnt > 1 && pthread_create(&th, &attr, _run, j)) {
		error("forward: no thread: %m");
		pthread_attr_destroy(&attr);
		_job_free(j);
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	_local(j);         /* may reply (and free j) if the rest is done */
	pthread_attr_destroy(&attr);
}
