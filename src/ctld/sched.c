/* sched.c — the main scheduler (sched.h).
 *
 * One pass walks the pending list in priority order.  Per partition the
 * order is strict: once a job cannot start for lack of resources, the
 * partition is blocked and every later job there waits with reason
 * Priority.  Triggers are coalesced: any number of sched_trigger() calls
 * in one loop iteration cost one pass.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_depend.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/sched.h"
#include "ctld/select.h"

typedef struct {
	select_node_t  *view;
	size_t          node_cnt;
	bitmap_t       *usable;
	part_record_t **blocked;
	size_t          blocked_cnt;
	time_t          now;
} pass_t;

static struct {
	struct event *ev;
	bool          queued;
	unsigned long passes;
} sc;

static void _on_trigger(evutil_socket_t fd, short what, void *arg)
{
	sc.queued = false;
	sched_run();
}

int sched_init(struct event_base *base)
{
	sc.ev = event_new(base, -1, 0, _on_trigger, NULL);
	return sc.ev ? 0 : -1;
}

void sched_fini(void)
{
	if (sc.ev)
		event_free(sc.ev);
	sc.ev = NULL;
}

void sched_trigger(void)
{
	if (!sc.ev || sc.queued)
		return;
	sc.queued = true;
	event_active(sc.ev, EV_READ, 0);
}

/* ---- one pass ---- */

static bool _is_blocked(const pass_t *p, const part_record_t *part)
{
	for (size_t i = 0; i < p->blocked_cnt; i++)
		if (p->blocked[i] == part)
			return true;
	return false;
}

static void _block(pass_t *p, part_record_t *part)
{
	if (!_is_blocked(p, part))
		p->blocked[p->blocked_cnt++] = part;
}

/* Why a job cannot even be tried now, or WAIT_NO_REASON. */
static uint32_t _wait_reason(job_record_t *j, pass_t *p)
{
	job_info_t *i = &j->info;
	uint32_t r;

	if (!i->priority)
		return i->state_reason == WAIT_HELD_USER ? WAIT_HELD_USER : WAIT_HELD;
	if (j->begin_time > p->now)
		return WAIT_TIME;
	if ((r = job_depend_reason(j, p->now)) != WAIT_NO_REASON)
		return r;
	r = job_mgr_part_reason(j, p->now);
	if (r != WAIT_NO_REASON)
		return r;
	if (_is_blocked(p, j->part))
		return WAIT_PRIORITY;
	return WAIT_NO_REASON;
}

static void _take(pass_t *p, const select_result_t *res)
{
	long i, k = 0;

	for (i = bitmap_first_set(res->nodes); i >= 0;
	     i = bitmap_next_set(res->nodes, i + 1), k++) {
		p->view[i].alloc_cpus += res->cpus[k];
		p->view[i].alloc_memory += res->mem[k];
	}
}

static bool _req_nodes_down(job_record_t *j, const pass_t *p)
{
	const bitmap_t *r = job_mgr_req_nodes(j);

	return r && !bitmap_is_subset(r, p->usable);
}

static bool _try(job_record_t *j, pass_t *p)
{
	const bitmap_t *exc = job_mgr_exc_nodes(j);
	bitmap_t *avail = bitmap_copy(p->usable);
	select_result_t res;
	select_req_t req;
	int rc;

	bitmap_and(avail, j->part->node_bitmap);
	if (exc)
		bitmap_and_not(avail, exc);
	job_mgr_select_req(j, &req);
	rc = select_job_test(p->view, p->node_cnt, avail, &req, false, &res);
	bitmap_destroy(avail);
	if (rc != SELECT_OK)
		return false;
	_take(p, &res);
	job_mgr_start(j, &res);
	select_result_free(&res);
	return true;
}

static void _pass_init(pass_t *p)
{
	size_t i;

	p->now = time(NULL);
	p->node_cnt = node_mgr_count();
	p->view = xcalloc(p->node_cnt + 1, sizeof(*p->view));
	node_mgr_select_view(p->view);
	p->usable = bitmap_create(p->node_cnt ? p->node_cnt : 1);
	for (i = 0; i < p->node_cnt; i++)
		if (node_mgr_usable(node_mgr_at(i)))
			bitmap_set(p->usable, i);
	p->blocked = xcalloc(part_mgr_count() + 1, sizeof(*p->blocked));
}

static void _pass_fini(pass_t *p)
{
	xfree(p->view);
	bitmap_destroy(p->usable);
	xfree(p->blocked);
}

int sched_run(void)
{
	job_record_t *j, *next;
	pass_t p = { 0 };
	int started = 0;

	_pass_init(&p);
	for (j = job_mgr_pending_first(); j; j = next) {
		uint32_t why = _wait_reason(j, &p);

		next = j->pend_next;
		j->info.last_sched_eval = p.now;
		if (why == WAIT_NO_REASON && !bitmap_count(p.usable))
			why = WAIT_RESOURCES;
		if (why != WAIT_NO_REASON) {
			if (j->info.state_reason != why)
				job_mgr_touch(j);
			j->info.state_reason = why;
			if (why == WAIT_RESOURCES)
				_block(&p, j->part);
			continue;
		}
		if (!j->info.eligible_time) {
			j->info.eligible_time = p.now;
			job_mgr_touch(j);
		}
		if (_try(j, &p)) {
			started++;
			continue;
		}
		j->info.state_reason = _req_nodes_down(j, &p) ?
			WAIT_NODE_NOT_AVAIL : WAIT_RESOURCES;
		job_mgr_touch(j);
		_block(&p, j->part);
	}
	_pass_fini(&p);
	sc.passes++;
	if (started)
		debug("sched: pass %lu started %d jobs", sc.passes, started);
	return started;
}
