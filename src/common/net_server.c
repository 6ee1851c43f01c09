/* net_server.c — the libevent request server (see net.h).  Linked into the
 * daemons as a static library, not part of libslurmfull.
 *
 * Server: one request and one reply per connection, except in a session
 * (msg.h): after its reply the connection waits for the next request, up
 * to NET_SESSION_IDLE_MS idle; a message that fails the session's checks
 * is logged and the connection closed.  A connection reads
 * the header, then credential and body, within the server's timeout
 * (counted from accept, so a client that trickles bytes is cut off too);
 * the message is authenticated and unpacked (msg_decode) before the
 * handler sees it.  A bad or unauthenticated message is logged with the
 * peer and answered with an rc where that makes sense, then dropped.
 *
 * Credentials cost a round trip to munged each, so they are checked and
 * made by a few worker threads per server, never on the loop: the loop
 * hands a connection to the workers (VERIFYING: decode the request;
 * SIGNING: sign a reply body the loop packed) and gets it back through an
 * eventfd.  Workers touch only the connection's message bytes.
 *
 * Lifetime: while the handler or a worker holds a connection, it is never
 * freed behind their back: if the peer goes away it is only closed, and
 * freed when the holder is done (a late reply is discarded).  Otherwise a
 * connection is freed once its reply is flushed, on error, or on timeout.
 * Everything but the workers' decode/sign runs on the loop thread.
 *
 * net_server_create() takes ownership of the listening fd.
 */
#define _GNU_SOURCE     /* accept4 */
#include "common/net.h"
#include "common/net_int.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

#define ACCEPT_BATCH    64      /* connections accepted per wakeup */
#define ACCEPT_PAUSE_MS 200     /* after EMFILE/ENFILE */
#define NET_WORKERS     4       /* credential threads per server */
#define NET_SESSION_IDLE_MS 300000      /* a session between requests */

typedef enum {
	CONN_READ_HEADER,
	CONN_READ_REST,
	CONN_VERIFYING,         /* a worker decodes the request */
	CONN_HANDLING,          /* the handler holds it */
	CONN_SIGNING,           /* a worker signs the reply */
	CONN_HELD,              /* signed, waiting for net_reply_release */
	CONN_WRITING,
} conn_state_t;

/* Connections handed to the workers, and handed back. */
typedef struct {
	pthread_mutex_t lock;
	pthread_cond_t  cond;
	net_conn_t     *todo, *todo_tail;
	net_conn_t     *done;
	bool            stop;
	pthread_t       threads[NET_WORKERS];
	int             nthreads;
	int             max_threads;    /* NET_WORKERS unless set lower */
	int             efd;            /* workers -> loop wakeup */
	struct event   *done_ev;
} net_pool_t;

struct net_server {
	struct event_base *base;
	struct event      *accept_ev;
	struct event      *pause_ev;
	int                fd;
	net_handler_f      handler;
	void              *arg;
	int                timeout_ms;
	net_conn_t        *conns;      /* every live connection */
	net_pool_t         pool;
};

struct net_conn {
	net_server_t       *srv;       /* NULL once the server is gone */
	struct bufferevent *bev;       /* NULL once the peer is gone */
	struct event       *timer;
	conn_state_t        state;
	bool                in_handler;
	bool                drop_after_handler;
	uint8_t             raw[MSG_HEADER_LEN];
	msg_header_t        h;
	slurm_msg_t         msg;
	char                peer[64];
	bool                unix_peer; /* a unix socket: peer_uid/gid known */
	bool                peer_msg;  /* MSG_FLAG_PEER request: reply so */
	uid_t               peer_uid;
	gid_t               peer_gid;
	msg_session_t       sess;      /* msg.h; open: serve the next request */
	bool                sess_idle; /* waiting for a session's next request */
	char               *reply_jwt; /* MSG_FLAG_JWT request: its token, */
	size_t              reply_jwt_len; /* the reply's MAC key (msg.h) */
	uint8_t            *in;        /* credential + body, for the worker */
	uint16_t            reply_type;
	uint16_t            reject_version; /* refused for its version: the
					     * version its answer goes at */
	buf_t              *reply;     /* packed reply body, for the worker */
	buf_t              *out;       /* encoded reply, from the worker */
	bool                held;      /* prepared: send at release only */
	net_finish_f        finish;    /* ...and finished on the worker: */
	net_free_f          fdata_free;
	void               *fdata;     /* the reply's data until packed */
	int                 swap_rc;   /* released with this rc instead */
	int                 job_rc;
	net_conn_t         *job_next;  /* in the pool's todo/done list */
	net_conn_t         *prev, *next;
	net_capture_f       capture;   /* net_conn_capture: no socket */
	void               *capture_arg;
};

static void conn_unlink(net_conn_t *c)
{
	if (!c->srv)
		return;
	if (c->prev)
		c->prev->next = c->next;
	else
		c->srv->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->prev = c->next = NULL;
}

/* Close the socket but keep the struct (the handler may still hold it). */
static void conn_close(net_conn_t *c)
{
	if (c->timer)
		event_free(c->timer);
	c->timer = NULL;
	if (c->bev)
		bufferevent_free(c->bev);
	c->bev = NULL;
}

static void conn_free(net_conn_t *c)
{
	if (c->in_handler) {            /* freed when the handler returns */
		c->drop_after_handler = true;
		conn_close(c);
		return;
	}
	conn_close(c);
	conn_unlink(c);
	msg_free(&c->msg);
	xfree(c->in);
	xfree(c->reply_jwt);
	memset(&c->sess, 0, sizeof(c->sess));
	if (c->fdata && c->fdata_free)
		c->fdata_free(c->fdata);
	buf_destroy(c->reply);
	buf_destroy(c->out);
	xfree(c);
}

static bool conn_held(const net_conn_t *c)
{
	return c->state == CONN_VERIFYING || c->state == CONN_HANDLING ||
	       c->state == CONN_SIGNING || c->state == CONN_HELD;
}

/* The peer is gone or misbehaved: free now unless someone holds it. */
static void conn_lost(net_conn_t *c)
{
	if (conn_held(c))
		conn_close(c);
	else
		conn_free(c);
}

/* ---- the credential workers ---- */

static void *pool_worker(void *arg);

/* Workers start with the first job (a daemon that forks before serving
 * anything forks single-threaded) and with every signal blocked (signals
 * belong to the loop). */
static void pool_spawn(net_pool_t *p)
{
	sigset_t all, old;
	int rc = 0;

	if (!p->max_threads)            /* checked and signed inline */
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (; p->nthreads < p->max_threads && !rc; p->nthreads++) {
		rc = pthread_create(&p->threads[p->nthreads], NULL, pool_worker, p);
		if (rc)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!p->nthreads)
		error("cannot start credential threads: %s", strerror(rc));
}

static void conn_job_run(net_conn_t *c);

/* On the loop thread. */
static void pool_push(net_server_t *s, net_conn_t *c)
{
	net_pool_t *p = &s->pool;

	if (!p->nthreads)
		pool_spawn(p);
	if (!p->nthreads) {             /* no threads: do it here */
		conn_job_run(c);
		pthread_mutex_lock(&p->lock);
		c->job_next = p->done;
		p->done = c;
		pthread_mutex_unlock(&p->lock);
		eventfd_write(p->efd, 1);
		return;
	}
	pthread_mutex_lock(&p->lock);
	c->job_next = NULL;
	if (p->todo_tail)
		p->todo_tail->job_next = c;
	else
		p->todo = c;
	p->todo_tail = c;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* A reply body is packed at its request's version (msg.h); a refused
 * version's at msg_version_reply_to's. */
static buf_t *reply_buf(const net_conn_t *c)
{
	buf_t *b = buf_create(256);

	buf_set_proto(b, c->reject_version ? c->reject_version :
		      c->h.version);
	return b;
}

/* On a worker: the reply's last part, then its body (or the error that
 * replaces it). */
static void conn_finish(net_conn_t *c)
{
	int rc = c->finish(c->fdata);
	return_code_msg_t r = { .rc = rc };

	c->reply = reply_buf(c);
	if (rc)
		c->reply_type = RESPONSE_SLURM_RC;
	if (msg_body_pack(c->reply_type, rc ? &r : c->fdata, c->reply) < 0)
		c->job_rc = SLURM_ERROR;
	if (c->fdata_free)
		c->fdata_free(c->fdata);
	c->fdata = NULL;
	c->finish = NULL;
}

/* On a worker: only the message fields, never the socket or the lists. */
static void conn_job_run(net_conn_t *c)
{
	c->job_rc = SLURM_SUCCESS;
	if (c->state == CONN_SIGNING && c->finish) {
		conn_finish(c);
		if (c->job_rc)
			return;
	}
	if (c->state == CONN_VERIFYING && c->peer_msg)
		c->job_rc = msg_decode_peer(c->raw, &c->h, c->in, c->peer_uid,
					    c->peer_gid, &c->msg);
	else if (c->state == CONN_VERIFYING)
		c->job_rc = msg_decode_session(c->raw, &c->h, c->in,
					       c->in + c->h.cred_len, &c->sess,
					       &c->msg);
	else if (c->peer_msg)
		c->job_rc = msg_encode_prefix_peer(c->reply_type, c->reply,
						   &c->out);
	else if (c->sess.open)
		c->job_rc = msg_encode_prefix_session(c->reply_type, c->reply,
						      &c->sess, &c->out);
	else if (c->reply_jwt)
		c->job_rc = msg_encode_prefix_jwt_reply(c->reply_type, c->reply,
							c->reply_jwt,
							c->reply_jwt_len,
							&c->out);
	else
		c->job_rc = msg_encode_prefix(c->reply_type, c->reply, &c->out);
}

static void *pool_worker(void *arg)
{
	net_pool_t *p = arg;
	net_conn_t *c;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (!p->stop && !p->todo)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		c = p->todo;
		p->todo = c->job_next;
		if (!p->todo)
			p->todo_tail = NULL;
		pthread_mutex_unlock(&p->lock);

		conn_job_run(c);

		pthread_mutex_lock(&p->lock);
		c->job_next = p->done;
		p->done = c;
		pthread_mutex_unlock(&p->lock);
		eventfd_write(p->efd, 1);
	}
}

static void pool_stop(net_pool_t *p)
{
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	p->nthreads = 0;
	if (p->done_ev)
		event_free(p->done_ev);
	if (p->efd >= 0)
		close(p->efd);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
}

static void conn_arm_timer(net_conn_t *c)
{
	struct timeval tv;
	int ms = !c->srv ? 0 : c->sess_idle ? NET_SESSION_IDLE_MS :
		c->srv->timeout_ms;

	if (!c->timer || ms <= 0)
		return;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(c->timer, &tv);
}

static void conn_signed(net_conn_t *c);
static void conn_verified(net_conn_t *c);

/* In an open session a MAC costs microseconds: check or make it here on
 * the loop rather than pay two thread hand-offs, unless the message is
 * big (hashing it would hold the loop) or the reply is finished on the
 * worker. */
#define SESSION_INLINE_MAX (64 * 1024)

static bool conn_inline(const net_conn_t *c, size_t len)
{
	return c->sess.open && !c->peer_msg && !c->finish &&
	       len <= SESSION_INLINE_MAX;
}

/* The reply (state CONN_SIGNING) to be signed, here or on a worker. */
static void conn_sign(net_conn_t *c)
{
	if (conn_inline(c, c->reply ? buf_len(c->reply) : 0)) {
		conn_job_run(c);
		conn_signed(c);
		return;
	}
	pool_push(c->srv, c);
}

/* Pack the reply here (the data is the loop's), sign it on a worker. */
static void conn_send(net_conn_t *c, uint16_t type, const void *data)
{
	if (!c->bev || !c->srv) {       /* peer or server gone: discard */
		conn_free(c);
		return;
	}
	c->reply = reply_buf(c);
	if (msg_body_pack(type, data, c->reply) < 0) {
		error("cannot pack %s for %s", msg_type_name(type), c->peer);
		conn_free(c);
		return;
	}
	c->reply_type = type;
	c->state = CONN_SIGNING;
	conn_sign(c);
}

/* The signed reply is back; the connection is freed once it is flushed. */
static void reply_body_done(const void *data, size_t len, void *arg)
{
	buf_destroy(arg);
}

/* The signed prefix (copied: it is small), then the packed body by
 * reference: libevent frees it once sent. */
static void conn_write(net_conn_t *c)
{
	buf_t *b = c->out, *body = c->reply;
	struct evbuffer *out = bufferevent_get_output(c->bev);

	c->out = NULL;
	c->reply = NULL;
	c->state = CONN_WRITING;
	bufferevent_disable(c->bev, EV_READ);
	if (!c->sess.open)      /* a session's next request may be in */
		evbuffer_drain(bufferevent_get_input(c->bev),
			       evbuffer_get_length(bufferevent_get_input(c->bev)));
	if (evbuffer_add(out, buf_data(b), buf_len(b)) < 0 ||
	    (buf_len(body) &&
	     evbuffer_add_reference(out, buf_data(body), buf_len(body),
				    reply_body_done, body) < 0)) {
		buf_destroy(b);
		buf_destroy(body);
		conn_free(c);
		return;
	}
	if (!buf_len(body))
		buf_destroy(body);
	buf_destroy(b);
	bufferevent_enable(c->bev, EV_WRITE);
	conn_arm_timer(c);
}

static void conn_reject(net_conn_t *c, int rc, char *why)
{
	return_code_msg_t r = { .rc = rc, .msg = why };

	c->state = CONN_HANDLING;
	conn_send(c, RESPONSE_SLURM_RC, &r);
}

static void conn_dispatch(net_conn_t *c)
{
	net_server_t *s = c->srv;

	evtimer_del(c->timer);
	c->state = CONN_HANDLING;
	debug3("%s from %s uid %u", msg_type_name(c->msg.type), c->peer,
	       (unsigned)c->msg.auth_uid);
	c->in_handler = true;
	s->handler(c, &c->msg, s->arg);
	c->in_handler = false;
	if (c->drop_after_handler)
		conn_free(c);
}

/* Header complete: check it before reading further. */
static int conn_got_header(net_conn_t *c, struct evbuffer *in)
{
	int rc;

	evbuffer_remove(in, c->raw, MSG_HEADER_LEN);
	rc = msg_header_parse(c->raw, &c->h);
	if (rc == SLURM_PROTOCOL_VERSION_ERROR && c->h.magic == MSG_MAGIC &&
	    !c->sess.open) {
		char why[256];

		/* the answer tells a newer peer what to retry at and an
		 * older one what to upgrade (msg.h) */
		msg_version_refused(&c->h, c->peer, why, sizeof(why));
		c->reject_version = msg_version_reply_to(c->h.version);
		conn_reject(c, rc, why);
		return -1;
	}
	if (rc != SLURM_SUCCESS) {
		error("Invalid message header from %s: %s", c->peer,
		      slurm_strerror(rc));
		if ((rc == SLURM_PROTOCOL_VERSION_ERROR &&
		     c->h.magic != MSG_MAGIC) || c->sess.open)
			conn_free(c);          /* not our protocol at all */
		else
			conn_reject(c, rc, NULL);
		return -1;
	}
	c->state = CONN_READ_REST;
	return 0;
}

/* The whole message is in: a worker authenticates and unpacks it. */
static void conn_got_rest(net_conn_t *c, struct evbuffer *in)
{
	size_t need = (size_t)c->h.cred_len + c->h.body_len;

	c->in = xmalloc(need ? need : 1);
	evbuffer_remove(in, c->in, need);
	memset(&c->msg, 0, sizeof(c->msg));
	snprintf(c->msg.peer, sizeof(c->msg.peer), "%s", c->peer);
	/* no credential: only where the kernel names the peer (msg_decode
	 * refuses the flag otherwise) */
	c->peer_msg = (c->h.flags & MSG_FLAG_PEER) && c->unix_peer;
	c->state = CONN_VERIFYING;
	if (conn_inline(c, need)) {
		conn_job_run(c);
		conn_verified(c);
		return;
	}
	pool_push(c->srv, c);
}

static void conn_verified(net_conn_t *c)
{
	int rc = c->job_rc;

	/* a token's sender checks the reply with the token (msg.h) */
	if ((c->h.flags & MSG_FLAG_JWT) && c->h.cred_len && !c->peer_msg) {
		c->reply_jwt = xmalloc(c->h.cred_len + 1);
		memcpy(c->reply_jwt, c->in, c->h.cred_len);
		c->reply_jwt_len = c->h.cred_len;
	}
	xfree(c->in);
	if (!c->bev) {
		conn_free(c);
		return;
	}
	if (rc != SLURM_SUCCESS && c->sess.open) {
		/* a session's message failed its checks (logged): whoever
		 * sent it gets nothing, and the session ends */
		if (rc != SLURM_PROTOCOL_AUTHENTICATION_ERROR)
			error("closing session of uid %u from %s: %s",
			      (unsigned)c->sess.uid, c->peer,
			      slurm_strerror(rc));
		conn_free(c);
		return;
	}
	if (rc != SLURM_SUCCESS) {
		/* msg_decode logged the reason with the peer */
		conn_reject(c, rc == SLURM_PROTOCOL_AUTHENTICATION_ERROR ? rc :
			    SLURM_COMMUNICATIONS_RECEIVE_ERROR, NULL);
		return;
	}
	conn_dispatch(c);
}

static void conn_signed(net_conn_t *c)
{
	if (c->held) {                  /* prepared: wait for the release */
		c->state = CONN_HELD;
		return;
	}
	if (c->swap_rc) {               /* released with an error instead */
		return_code_msg_t r = { .rc = c->swap_rc };

		c->swap_rc = 0;
		buf_destroy(c->out);
		buf_destroy(c->reply);
		c->out = c->reply = NULL;
		c->state = CONN_HANDLING;
		conn_send(c, RESPONSE_SLURM_RC, &r);
		return;
	}
	if (c->job_rc != SLURM_SUCCESS)
		error("cannot encode %s for %s: %s", msg_type_name(c->reply_type),
		      c->peer, slurm_strerror(c->job_rc));
	if (c->job_rc != SLURM_SUCCESS || !c->bev)
		conn_free(c);
	else
		conn_write(c);
}

/* Loop side of the eventfd: take back what the workers finished. */
static void pool_done_cb(evutil_socket_t fd, short what, void *arg)
{
	net_pool_t *p = arg;
	net_conn_t *c, *next;
	eventfd_t n;

	eventfd_read(fd, &n);
	pthread_mutex_lock(&p->lock);
	c = p->done;
	p->done = NULL;
	pthread_mutex_unlock(&p->lock);
	for (; c; c = next) {
		next = c->job_next;
		c->job_next = NULL;
		if (c->state == CONN_VERIFYING)
			conn_verified(c);
		else
			conn_signed(c);
	}
}

static void conn_read_cb(struct bufferevent *bev, void *arg)
{
	net_conn_t *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	if (c->state != CONN_READ_HEADER && c->state != CONN_READ_REST) {
		evbuffer_drain(in, evbuffer_get_length(in));   /* one request */
		return;
	}
	if (c->state == CONN_READ_HEADER) {
		if (c->sess_idle && evbuffer_get_length(in)) {
			c->sess_idle = false;   /* a message's time from now */
			conn_arm_timer(c);
		}
		if (evbuffer_get_length(in) < MSG_HEADER_LEN)
			return;
		if (conn_got_header(c, in) < 0)
			return;
	}
	if (evbuffer_get_length(in) < (size_t)c->h.cred_len + c->h.body_len)
		return;
	conn_got_rest(c, in);
}

/* A session's reply is out: wait for its next request. */
static void conn_next(net_conn_t *c)
{
	msg_free(&c->msg);
	xfree(c->reply_jwt);
	c->reply_jwt_len = 0;
	c->held = false;
	c->swap_rc = 0;
	c->sess.seq++;
	c->state = CONN_READ_HEADER;
	c->sess_idle = true;
	evtimer_del(c->timer);
	conn_arm_timer(c);
	bufferevent_enable(c->bev, EV_READ);
	if (evbuffer_get_length(bufferevent_get_input(c->bev)))
		conn_read_cb(c->bev, c);
}

static void conn_write_cb(struct bufferevent *bev, void *arg)
{
	net_conn_t *c = arg;

	if (c->state != CONN_WRITING ||
	    evbuffer_get_length(bufferevent_get_output(bev)) != 0)
		return;
	if (c->sess.open && c->srv)
		conn_next(c);
	else
		conn_free(c);
}

static void conn_event_cb(struct bufferevent *bev, short what, void *arg)
{
	net_conn_t *c = arg;

	if (what & BEV_EVENT_ERROR)
		debug("connection from %s: %s", c->peer,
		      evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	else if ((what & BEV_EVENT_EOF) && c->state == CONN_READ_REST)
		error("connection from %s closed in the middle of a message",
		      c->peer);
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		conn_lost(c);
}

static void conn_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	net_conn_t *c = arg;

	if (c->state == CONN_WRITING)
		error("timed out sending reply to %s", c->peer);
	else if (c->sess_idle)
		debug("closing idle session of uid %u from %s",
		      (unsigned)c->sess.uid, c->peer);
	else
		error("timed out reading message from %s", c->peer);
	conn_lost(c);
}

static void conn_create(net_server_t *s, int fd, const struct sockaddr *sa)
{
	net_conn_t *c = xmalloc(sizeof(*c));

	net_sockaddr_str(sa, c->peer, sizeof(c->peer));
	if (sa->sa_family != AF_UNIX)
		net_set_nodelay(fd);
	else
		c->unix_peer = msg_peer_cred(fd, &c->peer_uid,
					     &c->peer_gid) == 0;
	c->srv = s;
	c->bev = bufferevent_socket_new(s->base, fd, BEV_OPT_CLOSE_ON_FREE);
	c->timer = evtimer_new(s->base, conn_timeout_cb, c);
	if (!c->bev || !c->timer) {
		error("cannot set up connection from %s", c->peer);
		if (!c->bev)
			close(fd);
		conn_close(c);
		xfree(c);
		return;
	}
	c->next = s->conns;
	if (s->conns)
		s->conns->prev = c;
	s->conns = c;
	bufferevent_setcb(c->bev, conn_read_cb, conn_write_cb, conn_event_cb, c);
	bufferevent_enable(c->bev, EV_READ);
	conn_arm_timer(c);
}

static void accept_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	net_server_t *s = arg;

	if (s->fd >= 0)
		event_add(s->accept_ev, NULL);
}

/* Out of descriptors: close the connection that has waited longest for
 * its request (reading, nobody holds it), so that idle or slow clients
 * cannot lock everyone else out.  false if there is none. */
static bool evict_oldest_idle(net_server_t *s)
{
	net_conn_t *victim = NULL;

	for (net_conn_t *c = s->conns; c; c = c->next)  /* newest first */
		if (c->bev && (c->state == CONN_READ_HEADER ||
			       c->state == CONN_READ_REST))
			victim = c;
	if (!victim)
		return false;
	error("out of file descriptors: closing idle connection from %s",
	      victim->peer);
	conn_free(victim);
	return true;
}

static void accept_cb(evutil_socket_t lfd, short what, void *arg)
{
	net_server_t *s = arg;
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd;

	for (int i = 0; i < ACCEPT_BATCH; i++) {
		sl = sizeof(ss);
		fd = accept4(lfd, (struct sockaddr *)&ss, &sl,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0) {
			if (ss.ss_family != AF_UNIX)
				net_keepalive(fd);
			conn_create(s, fd, (struct sockaddr *)&ss);
			continue;
		}
		if (errno == EMFILE && evict_oldest_idle(s))
			continue;
		if (errno == EMFILE || errno == ENFILE) {
			struct timeval tv = { 0, ACCEPT_PAUSE_MS * 1000 };

			error("accept: %s; pausing new connections",
			      strerror(errno));
			event_del(s->accept_ev);
			evtimer_add(s->pause_ev, &tv);
		} else if (errno != EAGAIN && errno != EWOULDBLOCK &&
			   errno != EINTR && errno != ECONNABORTED) {
			error("accept: %s", strerror(errno));
		}
		break;
	}
}

static int pool_start(net_server_t *s)
{
	net_pool_t *p = &s->pool;

	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->efd < 0)
		return -1;
	p->done_ev = event_new(s->base, p->efd, EV_READ | EV_PERSIST,
			       pool_done_cb, p);
	if (!p->done_ev || event_add(p->done_ev, NULL) < 0)
		return -1;
	return 0;
}

/* A server may hold many connections: use every descriptor the hard
 * limit allows. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		debug("setrlimit(RLIMIT_NOFILE, %llu): %s",
		      (unsigned long long)rl.rlim_max, strerror(errno));
}

void net_server_set_workers(net_server_t *s, int n)
{
	if (s && n >= 0 && n <= NET_WORKERS && !s->pool.nthreads)
		s->pool.max_threads = n;
}

net_server_t *net_server_create(struct event_base *base, int listen_fd,
				net_handler_f handler, void *arg, int timeout_ms)
{
	net_server_t *s = xmalloc(sizeof(*s));

	raise_nofile();

	s->base = base;
	s->fd = listen_fd;
	s->handler = handler;
	s->arg = arg;
	s->timeout_ms = timeout_ms;
	s->pool.efd = -1;
	s->pool.max_threads = NET_WORKERS;
	net_set_blocking(listen_fd, false);
	s->accept_ev = event_new(base, listen_fd, EV_READ | EV_PERSIST,
				 accept_cb, s);
	s->pause_ev = evtimer_new(base, accept_resume_cb, s);
	if (pool_start(s) < 0 || !s->accept_ev || !s->pause_ev ||
	    event_add(s->accept_ev, NULL) < 0) {
		error("cannot serve listening socket %d", listen_fd);
		pool_stop(&s->pool);
		if (s->accept_ev)
			event_free(s->accept_ev);
		if (s->pause_ev)
			event_free(s->pause_ev);
		xfree(s);
		return NULL;
	}
	return s;
}

void net_server_stop_accepting(net_server_t *s)
{
	if (!s || s->fd < 0)
		return;
	/* those the kernel accepted already sent their request: serve them */
	accept_cb(s->fd, EV_READ, s);
	event_del(s->accept_ev);
	event_del(s->pause_ev);
	close(s->fd);
	s->fd = -1;
}

void net_server_destroy(net_server_t *s)
{
	net_conn_t *c, *next;

	if (!s)
		return;
	event_free(s->accept_ev);
	event_free(s->pause_ev);
	if (s->fd >= 0)
		close(s->fd);
	pool_stop(&s->pool);            /* no worker holds a connection now */
	for (c = s->conns; c; c = next) {
		next = c->next;
		if (c->state == CONN_HANDLING || c->held) {
			/* the handler still holds it: orphan, free on reply */
			conn_close(c);
			c->srv = NULL;
			c->prev = c->next = NULL;
		} else {
			conn_free(c);
		}
	}
	xfree(s);
}

void net_server_pause(net_server_t *s)
{
	if (!s)
		return;
	event_del(s->accept_ev);
	event_del(s->pause_ev);
}

unsigned net_server_owing(const net_server_t *s)
{
	unsigned n = 0;

	for (const net_conn_t *c = s ? s->conns : NULL; c; c = c->next)
		if (c->bev && c->state != CONN_READ_HEADER &&
		    c->state != CONN_READ_REST)
			n++;
	return n;
}

int net_server_fd(const net_server_t *s)
{
	return s ? s->fd : -1;
}

net_conn_t *net_conn_capture(net_capture_f f, void *arg)
{
	net_conn_t *c = xmalloc(sizeof(*c));

	c->state = CONN_HANDLING;
	c->capture = f;
	c->capture_arg = arg;
	snprintf(c->peer, sizeof(c->peer), "local");
	return c;
}

void net_reply(net_conn_t *c, uint16_t type, const void *data)
{
	if (!c)
		return;
	if (c->capture) {
		c->capture(type, data, c->capture_arg);
		xfree(c);
		return;
	}
	if (c->state != CONN_HANDLING) {
		error("reply %s to %s: no request waiting for it",
		      msg_type_name(type), c->peer);
		return;
	}
	conn_send(c, type, data);
}

/* A handler's connection that can take a prepared reply. */
static bool conn_can_hold(const net_conn_t *c)
{
	return c && !c->capture && c->state == CONN_HANDLING && c->bev &&
	       c->srv;
}

/* To a worker to sign (and finish); sent at the release. */
static void conn_hold(net_conn_t *c, uint16_t type)
{
	c->reply_type = type;
	c->held = true;
	c->state = CONN_SIGNING;
	conn_sign(c);
}

bool net_reply_prepare(net_conn_t *c, uint16_t type, const void *data)
{
	if (!conn_can_hold(c))
		return false;
	c->reply = reply_buf(c);
	if (msg_body_pack(type, data, c->reply) < 0) {
		buf_destroy(c->reply);
		c->reply = NULL;
		return false;
	}
	conn_hold(c, type);
	return true;
}

bool net_reply_prepare_finish(net_conn_t *c, uint16_t type, void *data,
			      net_finish_f finish, net_free_f free_fn)
{
	if (!conn_can_hold(c))
		return false;
	c->finish = finish;
	c->fdata = data;
	c->fdata_free = free_fn;
	conn_hold(c, type);
	return true;
}

/* A worker still signs (and the server is there to hand it back): the
 * flags say what conn_signed does then.  Otherwise it is signed, or its
 * server is gone: do it now. */
static bool release_later(net_conn_t *c)
{
	c->held = false;
	return c->state == CONN_SIGNING && c->srv;
}

void net_reply_release(net_conn_t *c)
{
	if (!c || release_later(c))
		return;
	if (c->state == CONN_HELD)
		conn_signed(c);
	else
		conn_free(c);           /* orphaned before it was signed */
}

void net_reply_release_rc(net_conn_t *c, int rc)
{
	if (!c)
		return;
	c->swap_rc = rc;                /* what conn_signed sends instead */
	if (!release_later(c))
		conn_signed(c);
}

void net_reply_body(net_conn_t *c, uint16_t type, buf_t *body)
{
	if (!c) {
		buf_destroy(body);
		return;
	}
	if (c->state != CONN_HANDLING || !c->bev || !c->srv) {
		if (c->state != CONN_HANDLING)
			error("reply %s to %s: no request waiting for it",
			      msg_type_name(type), c->peer);
		else
			conn_free(c);
		buf_destroy(body);
		return;
	}
	c->reply = body;
	c->reply_type = type;
	c->state = CONN_SIGNING;
	conn_sign(c);
}

void net_reply_rc(net_conn_t *c, int rc)
{
	return_code_msg_t r = { .rc = rc };

	net_reply(c, RESPONSE_SLURM_RC, &r);
}

void net_reply_rcf(net_conn_t *c, int rc, const char *fmt, ...)
{
	return_code_msg_t r = { .rc = rc };
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	r.msg = text;
	net_reply(c, RESPONSE_SLURM_RC, &r);
}

void net_conn_drop(net_conn_t *c)
{
	if (!c)
		return;
	if (c->capture) {
		c->capture(0, NULL, c->capture_arg);
		xfree(c);
		return;
	}
	if (c->state != CONN_HANDLING) {
		error("drop of connection from %s: no request waiting", c->peer);
		return;
	}
	debug("dropping connection from %s", c->peer);
	conn_free(c);
}

uint16_t net_conn_version(const net_conn_t *c)
{
	return c ? c->h.version : 0;
}

const char *net_conn_peer(const net_conn_t *c)
{
	return c ? c->peer : "unknown";
}
