/* step_attach.c — sattach clients of a step stepd (step_attach.h). */
#include "slurmd/stepd/step_attach.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

#include "common/io_frame.h"
#include "common/log.h"
#include "slurm/slurm_errno.h"

#define ATTACH_CONN_TIMEOUT_MS 5000

static int _slot(const step_t *st, const struct bufferevent *bev)
{
	for (int i = 0; i < STEP_MAX_ATTACH; i++)
		if (st->attach[i] && st->attach[i] == bev)
			return i;
	return -1;
}

static void _drop(step_t *st, int i)
{
	if (i < 0 || !st->attach[i])
		return;
	bufferevent_free(st->attach[i]);
	st->attach[i] = NULL;
	debug("StepId=%u.%u: sattach client %d gone", st->m->job_id,
	      st->m->step_id, i);
	step_maybe_leave(st);
}

/* Frames from sattach: only stdin is taken. */
static void _on_read(struct bufferevent *bev, void *arg)
{
	step_t *st = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	for (;;) {
		uint8_t hdr[IO_FRAME_HDR];
		io_frame_t f;

		if (evbuffer_copyout(in, hdr, sizeof(hdr)) < (ssize_t) sizeof(hdr))
			return;
		if (io_frame_get(hdr, &f) < 0) {
			_drop(st, _slot(st, bev));
			return;
		}
		if (evbuffer_get_length(in) < sizeof(hdr) + f.len)
			return;
		evbuffer_drain(in, sizeof(hdr));
		if (f.type == IO_STDIN)
			step_tasks_stdin(st, f.task,
					 f.len ? evbuffer_pullup(in, f.len) :
					 NULL, f.len);
		evbuffer_drain(in, f.len);
	}
}

static void _on_write(struct bufferevent *bev, void *arg)
{
	step_maybe_leave(arg);
}

static void _on_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		_drop(arg, _slot(arg, bev));
}

void step_attach_request(step_t *st, net_conn_t *conn,
			 const reattach_tasks_msg_t *r)
{
	const launch_tasks_request_msg_t *m = st->m;
	io_frame_t f = { .type = IO_INIT, .task = m->node_id };
	uint8_t hdr[IO_FRAME_HDR];
	int i, fd, one = 1;

	if (r->user_id != m->uid && r->user_id != 0 &&
	    r->user_id != st->conf->slurm_user_id) {
		error("uid %u attempt to attach to StepId=%u.%u owned by %u",
		      r->user_id, m->job_id, m->step_id, m->uid);
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	if (st->leaving || !r->host || !r->port || !r->io_key) {
		net_reply_rc(conn, ESLURM_ALREADY_DONE);
		return;
	}
	for (i = 0; i < STEP_MAX_ATTACH && st->attach[i]; i++)
		;
	if (i == STEP_MAX_ATTACH) {
		net_reply_rc(conn, ESLURM_INTERCONNECT_BUSY);
		return;
	}
	fd = net_connect_tcp(r->host, r->port, ATTACH_CONN_TIMEOUT_MS);
	if (fd < 0) {
		error("StepId=%u.%u: connect to sattach at %s:%u: %m",
		      m->job_id, m->step_id, r->host, r->port);
		net_reply_rc(conn, SLURM_COMMUNICATIONS_CONNECTION_ERROR);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	evutil_make_socket_nonblocking(fd);
	st->attach[i] = bufferevent_socket_new(st->base, fd,
					       BEV_OPT_CLOSE_ON_FREE);
	bufferevent_setcb(st->attach[i], _on_read, _on_write, _on_event, st);
	bufferevent_enable(st->attach[i], EV_READ | EV_WRITE);
	f.len = (uint32_t) strlen(r->io_key);
	io_frame_put(hdr, &f);
	bufferevent_write(st->attach[i], hdr, sizeof(hdr));
	bufferevent_write(st->attach[i], r->io_key, f.len);
	info("StepId=%u.%u: uid %u attached from %s:%u", m->job_id,
	     m->step_id, r->user_id, r->host, r->port);
	net_reply_rc(conn, SLURM_SUCCESS);
}

void step_attach_send(step_t *st, const uint8_t *hdr, size_t hlen,
		      const void *p, size_t len)
{
	for (int i = 0; i < STEP_MAX_ATTACH; i++) {
		if (!st->attach[i])
			continue;
		bufferevent_write(st->attach[i], hdr, hlen);
		if (len)
			bufferevent_write(st->attach[i], p, len);
	}
}

bool step_attach_drained(const step_t *st)
{
	for (int i = 0; i < STEP_MAX_ATTACH; i++)
		if (st->attach[i] &&
		    evbuffer_get_length(bufferevent_get_output(st->attach[i])))
			return false;
	return true;
}

void step_attach_free(step_t *st)
{
	for (int i = 0; i < STEP_MAX_ATTACH; i++) {
		if (st->attach[i])
			bufferevent_free(st->attach[i]);
		st->attach[i] = NULL;
	}
}
