/* commit.c — group commit of the state snapshot (see commit.h).
 *
 * The loop packs (cheap, in memory); one writer thread writes and fsyncs
 * (slow) while the loop keeps serving.  Replies wait in two batches: those
 * covered by the write in flight, and those queued since.
 */
#include <pthread.h>
#include <stdbool.h>

#include <event2/event.h>
#include <utlist.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/state_save.h"

typedef struct reply {
	net_conn_t    *conn;
	uint16_t       type;
	void          *data;
	commit_free_f  free_fn;
	int            rc;
	char          *msg;
	commit_after_f after;
	void          *after_arg;
	struct reply  *next, *prev;
} reply_t;

static struct {
	struct event    *commit_ev;
	struct event    *done_ev;
	reply_t         *waiting;
	reply_t         *inflight;
	bool             dirty;
	bool             writing;
	pthread_t        thread;
	bool             thread_up;
	pthread_mutex_t  mutex;
	pthread_cond_t   cond;
	buf_t           *to_write;
	char            *dir;
	bool             stop;
	bool             finished;
	int              write_rc;
	unsigned long    writes;
} cm = { .mutex = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void _send(reply_t *r)
{
	if (r->after) {
		r->after(r->after_arg);
	} else if (r->type == RESPONSE_SLURM_RC) {
		return_code_msg_t m = { .rc = r->rc, .msg = r->msg };

		if (r->msg)
			net_reply(r->conn, RESPONSE_SLURM_RC, &m);
		else
			net_reply_rc(r->conn, r->rc);
	} else {
		net_reply(r->conn, r->type, r->data);
		if (r->free_fn)
			r->free_fn(r->data);
	}
	xfree(r->msg);
	xfree(r);
}

static void _send_all(reply_t **list)
{
	reply_t *r, *tmp;

	DL_FOREACH_SAFE(*list, r, tmp) {
		DL_DELETE(*list, r);
		_send(r);
	}
}

static void *_writer(void *unused)
{
	pthread_mutex_lock(&cm.mutex);
	for (;;) {
		while (!cm.to_write && !cm.stop)
			pthread_cond_wait(&cm.cond, &cm.mutex);
		if (!cm.to_write)
			break;
		buf_t *b = cm.to_write;
		char *dir = cm.dir;

		pthread_mutex_unlock(&cm.mutex);
		int rc = state_save_write(dir, b);
		buf_destroy(b);
		pthread_mutex_lock(&cm.mutex);
		cm.to_write = NULL;
		cm.write_rc = rc;
		cm.finished = true;
		pthread_cond_broadcast(&cm.cond);
		if (cm.done_ev)
			event_active(cm.done_ev, EV_READ, 0);
	}
	pthread_mutex_unlock(&cm.mutex);
	return NULL;
}

static void _start_write(void)
{
	buf_t *b = state_save_pack();

	cm.inflight = cm.waiting;
	cm.waiting = NULL;
	cm.dirty = false;
	cm.writing = true;
	pthread_mutex_lock(&cm.mutex);
	xfree(cm.dir);
	cm.dir = xstrdup(ctld_conf()->state_save_location);
	cm.to_write = b;
	cm.finished = false;
	pthread_cond_broadcast(&cm.cond);
	pthread_mutex_unlock(&cm.mutex);
}

static void _on_commit(evutil_socket_t fd, short what, void *arg)
{
	if (cm.writing || (!cm.dirty && !cm.waiting))
		return;
	_start_write();
}

static void _finish_write(void)
{
	if (cm.write_rc < 0)
		error("Unable to save state in %s: the replies below were "
		      "sent without it on disk", cm.dir);
	cm.writes++;
	cm.writing = false;
	_send_all(&cm.inflight);
}

static void _on_done(evutil_socket_t fd, short what, void *arg)
{
	pthread_mutex_lock(&cm.mutex);
	bool fin = cm.finished;
	pthread_mutex_unlock(&cm.mutex);
	if (!cm.writing || !fin)
		return;
	_finish_write();
	if (cm.dirty || cm.waiting)
		event_active(cm.commit_ev, EV_READ, 0);
}

int commit_init(struct event_base *base)
{
	cm.commit_ev = event_new(base, -1, 0, _on_commit, NULL);
	cm.done_ev = event_new(base, -1, 0, _on_done, NULL);
	if (!cm.commit_ev || !cm.done_ev)
		return -1;
	if (pthread_create(&cm.thread, NULL, _writer, NULL))
		return -1;
	cm.thread_up = true;
	return 0;
}

static void _wait_inflight(void)
{
	if (!cm.writing)
		return;
	pthread_mutex_lock(&cm.mutex);
	while (!cm.finished)
		pthread_cond_wait(&cm.cond, &cm.mutex);
	pthread_mutex_unlock(&cm.mutex);
	_finish_write();
}

int commit_sync(void)
{
	buf_t *b;
	int rc;

	_wait_inflight();
	b = state_save_pack();
	rc = state_save_write(ctld_conf()->state_save_location, b);
	buf_destroy(b);
	if (rc < 0)
		error("Unable to save state in %s",
		      ctld_conf()->state_save_location);
	cm.dirty = false;
	_send_all(&cm.waiting);
	return rc;
}

void commit_fini(void)
{
	if (cm.thread_up) {
		pthread_mutex_lock(&cm.mutex);
		cm.stop = true;
		pthread_cond_broadcast(&cm.cond);
		pthread_mutex_unlock(&cm.mutex);
		pthread_join(cm.thread, NULL);
		cm.thread_up = false;
	}
	if (cm.commit_ev)
		event_free(cm.commit_ev);
	if (cm.done_ev)
		event_free(cm.done_ev);
	cm.commit_ev = cm.done_ev = NULL;
	xfree(cm.dir);
}

void commit_dirty(void)
{
	cm.dirty = true;
	if (cm.commit_ev && !cm.writing)
		event_active(cm.commit_ev, EV_READ, 0);
}

static void _queue(reply_t *r)
{
	DL_APPEND(cm.waiting, r);
	if (!cm.commit_ev) {            /* not started: answer at once */
		_send_all(&cm.waiting);
		return;
	}
	if (!cm.writing)
		event_active(cm.commit_ev, EV_READ, 0);
}

void commit_reply_rc(net_conn_t *c, int rc, const char *msg)
{
	reply_t *r = xmalloc(sizeof(*r));

	r->conn = c;
	r->type = RESPONSE_SLURM_RC;
	r->rc = rc;
	r->msg = xstrdup(msg);
	_queue(r);
}

void commit_reply(net_conn_t *c, uint16_t type, void *data,
		  commit_free_f free_fn)
{
	reply_t *r = xmalloc(sizeof(*r));

	r->conn = c;
	r->type = type;
	r->data = data;
	r->free_fn = free_fn;
	_queue(r);
}

void commit_after(commit_after_f fn, void *arg)
{
	reply_t *r = xmalloc(sizeof(*r));

	r->after = fn;
	r->after_arg = arg;
	cm.dirty = true;
	_queue(r);
}
