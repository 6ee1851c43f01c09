/* agent.c — worker threads for blocking work; results return to the loop.
 *
 * One queue in (mutex + condition), one queue out (mutex + an event made
 * active from the worker; libevent runs with evthread_use_pthreads).
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include <event2/event.h>
#include <utlist.h>

#include "common/debug_flags.h"
#include "common/forward.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/topo_mgr.h"
#include "slurm/slurm_errno.h"

typedef struct work_item {
	agent_work_f      work;
	agent_done_f      done;
	void             *arg;
	struct work_item *next, *prev;
} work_item_t;

typedef struct {
	char             *host;
	uint16_t          port;
	uint16_t          type;
	void             *req;
	int               timeout_ms;
	int               rc;
	agent_rpc_done_f  done;
	void             *arg;
} rpc_item_t;

static struct {
	pthread_mutex_t  mutex;
	pthread_cond_t   cond;
	work_item_t     *in;        /* FIFO */
	work_item_t     *out;
	pthread_t       *threads;
	int              nthreads;
	bool             stop;
	unsigned         pending;
	struct event    *done_ev;
} ag = { .mutex = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void *_worker(void *unused)
{
	work_item_t *w;

	for (;;) {
		pthread_mutex_lock(&ag.mutex);
		while (!ag.in && !ag.stop)
			pthread_cond_wait(&ag.cond, &ag.mutex);
		if (!ag.in) {            /* stopping and drained */
			pthread_mutex_unlock(&ag.mutex);
			return NULL;
		}
		w = ag.in;
		DL_DELETE(ag.in, w);
		pthread_mutex_unlock(&ag.mutex);

		w->work(w->arg);

		pthread_mutex_lock(&ag.mutex);
		DL_APPEND(ag.out, w);
		pthread_mutex_unlock(&ag.mutex);
		event_active(ag.done_ev, EV_READ, 0);
	}
}

static void _on_done(evutil_socket_t fd, short what, void *unused)
{
	work_item_t *list, *w, *tmp;

	pthread_mutex_lock(&ag.mutex);
	list = ag.out;
	ag.out = NULL;
	pthread_mutex_unlock(&ag.mutex);
	DL_FOREACH_SAFE(list, w, tmp) {
		ag.pending--;
		if (w->done)
			w->done(w->arg);
		xfree(w);
	}
}

int agent_init(struct event_base *base, int threads)
{
	int i;

	ag.done_ev = event_new(base, -1, 0, _on_done, NULL);
	if (!ag.done_ev)
		return -1;
	ag.stop = false;
	ag.threads = xcalloc(threads, sizeof(pthread_t));
	for (i = 0; i < threads; i++) {
		if (pthread_create(&ag.threads[i], NULL, _worker, NULL))
			return -1;
		ag.nthreads++;
	}
	return 0;
}

void agent_fini(void)
{
	int i;

	pthread_mutex_lock(&ag.mutex);
	ag.stop = true;
	pthread_cond_broadcast(&ag.cond);
	pthread_mutex_unlock(&ag.mutex);
	for (i = 0; i < ag.nthreads; i++)
		pthread_join(ag.threads[i], NULL);
	xfree(ag.threads);
	ag.nthreads = 0;
	if (ag.done_ev) {
		event_free(ag.done_ev);
		ag.done_ev = NULL;
	}
}

void agent_queue_work(agent_work_f work, agent_done_f done, void *arg)
{
	work_item_t *w = xmalloc(sizeof(*w));

	w->work = work;
	w->done = done;
	w->arg = arg;
	ag.pending++;
	pthread_mutex_lock(&ag.mutex);
	DL_APPEND(ag.in, w);
	pthread_cond_signal(&ag.cond);
	pthread_mutex_unlock(&ag.mutex);
}

unsigned agent_pending(void)
{
	return ag.pending;
}

static void _rpc_work(void *arg)
{
	rpc_item_t *r = arg;
	int rc = 0;
	int trc = net_rpc_rc(r->host, r->port, r->type, r->req, &rc,
			     r->timeout_ms);

	r->rc = trc ? trc : rc;
}

static void _rpc_done(void *arg)
{
	rpc_item_t *r = arg;

	if (r->rc)
		debug("agent: %s to %s:%u: rc=%d", msg_type_name(r->type),
		      r->host, r->port, r->rc);
	if (r->done)
		r->done(r->rc, r->arg);
	msg_body_free(r->type, r->req);
	xfree(r->host);
	xfree(r);
}

void agent_send_rc(const char *host, uint16_t port, uint16_t type, void *req,
		   int timeout_ms, agent_rpc_done_f done, void *arg)
{
	rpc_item_t *r = xmalloc(sizeof(*r));

	r->host = xstrdup(host);
	r->port = port;
	r->type = type;
	r->req = req;
	r->timeout_ms = timeout_ms;
	r->done = done;
	r->arg = arg;
	log_flag(AGENT, "%s: %s to %s:%u queued, %u pending", __func__,
		 msg_type_name(type), host, (unsigned) port, ag.pending + 1);
	agent_queue_work(_rpc_work, _rpc_done, r);
}

/* ---- one request to many nodes ---- */

typedef struct {
	char     **names;
	char     **addrs;
	uint32_t   cnt;
	uint16_t   type;
	void      *req;
	uint16_t   tree_width;
	uint32_t  *groups;       /* RouteTree: first-hop group sizes */
	uint32_t   group_cnt;
	int        timeout_ms;
	int       *rc;
	agent_tree_done_f done;
	void      *done_arg;
} tree_item_t;

static void _tree_work(void *arg)
{
	tree_item_t *t = arg;
	fwd_req_t r = { .type = t->type, .cnt = t->cnt, .names = t->names,
			.addrs = t->addrs, .data = t->req,
			.tree_width = t->tree_width,
			.groups = t->groups, .group_cnt = t->group_cnt,
			.timeout_ms = t->timeout_ms };

	fwd_send(&r, t->rc);
}

static void _tree_done(void *arg)
{
	tree_item_t *t = arg;

	if (t->done)
		t->done(t->rc, t->cnt, t->done_arg);
	for (uint32_t i = 0; !t->done && i < t->cnt; i++)
		if (t->rc[i])
			info("agent: %s to node %s failed: %s",
			     msg_type_name(t->type), t->names[i],
			     slurm_strerror(t->rc[i]));
	msg_body_free(t->type, t->req);
	for (uint32_t i = 0; i < t->cnt; i++) {
		xfree(t->names[i]);
		xfree(t->addrs[i]);
	}
	xfree(t->names);
	xfree(t->addrs);
	xfree(t->groups);
	xfree(t->rc);
	xfree(t);
}

void agent_send_tree(char * const *names, char * const *addrs, uint32_t cnt,
		     uint16_t type, void *req, uint16_t tree_width,
		     int timeout_ms)
{
	agent_send_tree_cb(names, addrs, cnt, type, req, tree_width,
			   timeout_ms, NULL, NULL);
}

void agent_send_tree_cb(char * const *names, char * const *addrs,
			uint32_t cnt, uint16_t type, void *req,
			uint16_t tree_width, int timeout_ms,
			agent_tree_done_f done, void *arg)
{
	tree_item_t *t = xmalloc(sizeof(*t));

	t->names = xcalloc(cnt + 1, sizeof(char *));
	t->addrs = xcalloc(cnt + 1, sizeof(char *));
	for (uint32_t i = 0; i < cnt; i++) {
		t->names[i] = xstrdup(names[i]);
		t->addrs[i] = xstrdup(addrs[i]);
	}
	t->cnt = cnt;
	/* on the loop: the topology is the controller's */
	topo_mgr_route(t->names, t->addrs, cnt, &t->groups, &t->group_cnt);
	t->type = type;
	t->req = req;
	t->tree_width = tree_width;
	t->timeout_ms = timeout_ms;
	t->rc = xcalloc(cnt + 1, sizeof(int));
	t->done = done;
	t->done_arg = arg;
	log_flag(AGENT, "agent_send_tree: %s to %u nodes queued, %u pending",
		 msg_type_name(type), cnt, ag.pending + 1);
	agent_queue_work(_tree_work, _tree_done, t);
}
