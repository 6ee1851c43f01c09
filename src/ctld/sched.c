/* sched.c — the main scheduler (sched.h).
 *
 * One pass walks the pending list in priority order (partition
 * PriorityTier first).  Per partition the order is strict: once a job
 * cannot start for lack of resources, the partition is blocked and every
 * later job there waits with reason Priority; sched/backfill may start
 * those later if that delays nobody.  Triggers are coalesced: any number
 * of sched_trigger() calls between passes cost one pass, at most one per
 * sched_min_interval, each testing default_queue_depth jobs; a timer runs
 * a full pass every sched_interval.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_depend.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/job_res.h"
#include "ctld/lic_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/preempt.h"
#include "ctld/priority.h"
#include "ctld/resv_mgr.h"
#include "ctld/sched.h"
#include "ctld/sched_plugin.h"
#include "ctld/select_plugin.h"
#include "ctld/stats.h"

typedef struct {
	select_node_t  *view;
	size_t          node_cnt;
	bitmap_t       *usable;
	part_record_t **blocked;
	job_record_t  **blocker;    /* the job that blocked blocked[i] */
	size_t          blocked_cnt;
	size_t          blocked_max;
	time_t          now;
	uint32_t        time_dep;   /* jobs left waiting on time (BeginTime,
				     * Dependency): their reason may change
				     * with the clock alone */
	uint32_t        tried;      /* placement attempts (whole pass) */
	uint32_t        queue;      /* pending jobs seen */
} pass_t;

static struct {
	struct event_base *evbase;
	struct event  *ev;        /* event pass (depth-limited) */
	struct event  *full_ev;   /* sched_interval timer */
	bool           queued;
	unsigned long  passes;
	uint64_t       gen;       /* sched_trigger() calls */
	uint64_t       last_usec; /* end of the last pass */
	sched_params_t params;
	/* incremental passes (see the top of this file) */
	bool           need_full;   /* a sched_trigger() since the last pass */
	uint32_t      *new_ids;     /* sched_trigger_new() since the last pass */
	size_t         new_cnt, new_max;
	bool           base_ok;     /* base holds a complete pass's outcome */
	pass_t         base;
	uint64_t       base_pend_gen;
	uint32_t       base_node_gen;
	unsigned long  inc_passes;  /* of sc.passes, how many incremental */
} sc;

/* ---- SchedulerParameters ---- */

const sched_params_t *sched_params(void)
{
	return &sc.params;
}

static void _load_params(void)
{
	const slurm_conf_t *c = ctld_conf();
	char err[256];

	if (sched_params_parse(c->scheduler_parameters, c->message_timeout,
			       &sc.params, err, sizeof(err)) < 0) {
		error("%s: using the defaults", err);
		sched_params_defaults(&sc.params, c->message_timeout);
	}
	sc.params.backfill = sched_plugin_has_pass();
}

/* SelectType and SchedulerType (checked by ctld_plugins_check before a
 * reconfigure, so only a plugin's own init can fail here). */
static int _load_plugins(void)
{
	const slurm_conf_t *c = ctld_conf();
	char err[512] = "";

	if (select_plugin_load(c, err, sizeof(err)) < 0 ||
	    sched_plugin_load(c, sc.evbase, err, sizeof(err)) < 0) {
		error("%s", err);
		return -1;
	}
	sc.params.backfill = sched_plugin_has_pass();
	return 0;
}

/* ---- triggers and timers ---- */

static int _pass(bool full);
static void _base_drop(void);

static void _on_trigger(evutil_socket_t fd, short what, void *arg)
{
	sc.queued = false;
	_pass(false);
}

static void _on_full(evutil_socket_t fd, short what, void *arg)
{
	_pass(true);
}

static void _arm_full(void)
{
	struct timeval tv = { sc.params.sched_interval, 0 };

	if (!sc.full_ev)
		return;
	event_del(sc.full_ev);
	if (sc.params.sched_interval)
		event_add(sc.full_ev, &tv);
}

int sched_init(struct event_base *base)
{
	sc.evbase = base;
	_load_params();
	priority_init(base);
	if (base) {
		sc.ev = event_new(base, -1, 0, _on_trigger, NULL);
		sc.full_ev = event_new(base, -1, EV_PERSIST, _on_full, NULL);
		if (!sc.ev || !sc.full_ev)
			return -1;
		_arm_full();
	}
	/* base NULL (tests): passes are called */
	return _load_plugins();
}

void sched_fini(void)
{
	sched_plugin_fini();
	select_plugin_fini();
	priority_fini();
	if (sc.ev)
		event_free(sc.ev);
	if (sc.full_ev)
		event_free(sc.full_ev);
	sc.ev = sc.full_ev = NULL;
	_base_drop();
	xfree(sc.new_ids);
	sc.new_cnt = sc.new_max = 0;
}

void sched_reconfig(void)
{
	_load_params();
	_arm_full();
	priority_reconfig();
	_load_plugins();        /* sched/backfill: its reconfig */
	sched_trigger();
}

static void _arm(void)
{
	uint64_t now, min = sc.params.sched_min_interval;
	struct timeval tv = { 0, 0 };

	sc.gen++;
	if (!sc.ev || sc.queued)
		return;
	sc.queued = true;
	now = stats_now_usec();
	if (sc.last_usec && now < sc.last_usec + min) {
		uint64_t wait = sc.last_usec + min - now;

		tv.tv_sec = wait / 1000000;
		tv.tv_usec = wait % 1000000;
		event_add(sc.ev, &tv);
		return;
	}
	event_active(sc.ev, EV_READ, 0);
}

void sched_trigger(void)
{
	sc.need_full = true;
	_arm();
}

void sched_trigger_new(job_record_t *j)
{
	if (j->array || sc.new_cnt >= 4096) {
		sc.need_full = true;          /* arrays: many tasks at once */
	} else {
		if (sc.new_cnt == sc.new_max) {
			sc.new_max = sc.new_max ? 2 * sc.new_max : 64;
			sc.new_ids = xrealloc(sc.new_ids, sc.new_max *
					      sizeof(*sc.new_ids));
		}
		sc.new_ids[sc.new_cnt++] = j->info.job_id;
	}
	_arm();
}

uint64_t sched_change_gen(void)
{
	return sc.gen;
}

/* ---- the reason engine ---- */

static uint32_t _r_held(job_record_t *j, time_t now)
{
	job_info_t *i = &j->info;

	if (i->priority)
		return WAIT_NO_REASON;
	if (i->state_reason == WAIT_MAX_REQUEUE)     /* MaxBatchRequeue */
		return WAIT_MAX_REQUEUE;
	return i->state_reason == WAIT_HELD_USER || i->held_by_user ?
		WAIT_HELD_USER : WAIT_HELD;
}

static uint32_t _r_begin(job_record_t *j, time_t now)
{
	return j->begin_time > now ? WAIT_TIME : WAIT_NO_REASON;
}

static uint32_t _r_array(job_record_t *j, time_t now)
{
	return job_array_throttled(j) ? WAIT_ARRAY_TASK_LIMIT : WAIT_NO_REASON;
}

/* In order: the first reason found is the one shown.  Add a check here
 * to give pending jobs a new reason (both schedulers use this table). */
static const sched_reason_f reason_checks[] = {
	_r_held,
	_r_begin,
	job_depend_reason,
	_r_array,
	job_mgr_part_reason,
	assoc_mgr_job_reason,
};

uint32_t sched_job_reason(job_record_t *j, time_t now)
{
	for (size_t i = 0; i < sizeof(reason_checks) / sizeof(reason_checks[0]);
	     i++) {
		uint32_t r = reason_checks[i](j, now);

		if (r != WAIT_NO_REASON)
			return r;
	}
	return WAIT_NO_REASON;
}

void sched_set_reason(job_record_t *j, uint32_t why, const char *desc)
{
	job_info_t *i = &j->info;

	/* a hold's own text ("job requeued in held state") stays until the
	 * job is released */
	if (!desc && (why == WAIT_HELD || why == WAIT_HELD_USER) &&
	    i->state_reason == why)
		return;
	if (i->state_reason == why && !xstrcmp(i->state_desc, desc))
		return;
	i->state_reason = why;
	xfree(i->state_desc);
	i->state_desc = desc ? xstrdup(desc) : NULL;
	job_mgr_touch(j);
}

/* ---- one pass ---- */

static bool _is_blocked(const pass_t *p, const part_record_t *part)
{
	for (size_t i = 0; i < p->blocked_cnt; i++)
		if (p->blocked[i] == part)
			return true;
	return false;
}

static void _block(pass_t *p, part_record_t *part, job_record_t *j)
{
	if (_is_blocked(p, part))
		return;
	p->blocked[p->blocked_cnt] = part;
	p->blocker[p->blocked_cnt++] = j;
}

static void _take(pass_t *p, const select_result_t *res)
{
	long i, k = 0;

	for (i = bitmap_first_set(res->nodes); i >= 0;
	     i = bitmap_next_set(res->nodes, i + 1), k++) {
		p->view[i].alloc_cpus += res->cpus[k];
		p->view[i].alloc_memory += res->mem[k];
		p->view[i].gpu_used |= res->gpus[k];   /* a copy, unlike cpu_used */
	}
}

/* "ReqNodeNotAvail, UnavailableNodes:n[1-2]" when -w names nodes that
 * cannot be used now; NULL otherwise. */
static char *_req_nodes_down(job_record_t *j, const pass_t *p)
{
	const bitmap_t *r = job_mgr_req_nodes(j);
	bitmap_t *down;
	char *names, *out;

	if (!r || bitmap_is_subset(r, p->usable))
		return NULL;
	down = bitmap_copy(r);
	bitmap_and_not(down, p->usable);
	names = node_mgr_names(down);
	out = xstrdup_printf("ReqNodeNotAvail, UnavailableNodes:%s", names);
	xfree(names);
	bitmap_destroy(down);
	return out;
}

static bool _try(job_record_t *j, pass_t *p, const bitmap_t *usable)
{
	select_result_t res = { 0 };
	int rc;

	/* every partition of -p a,b; -x, -C, GPUs (job_res.c) */
	rc = job_res_select(j, p->view, p->node_cnt, usable, false, &res);
	if (rc != SELECT_OK)
		return false;
	_take(p, &res);
	job_mgr_start(j, &res);
	stats_job(STATS_JOB_STARTED);
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
	p->blocked_max = part_mgr_count() + 1;
	p->blocked = xcalloc(p->blocked_max, sizeof(*p->blocked));
	p->blocker = xcalloc(p->blocked_max, sizeof(*p->blocker));
}

static void _pass_fini(pass_t *p)
{
	xfree(p->view);
	if (p->usable)
		bitmap_destroy(p->usable);
	xfree(p->blocked);
	xfree(p->blocker);
	memset(p, 0, sizeof(*p));
}

/* A heterogeneous job, tried at its leader: every component starts now
 * or none does (het_job.h); the others wait with the leader's reason
 * and, waiting for resources, block their partitions too. */
static bool _one_het(job_record_t *j, pass_t *p)
{
	job_record_t **comps;
	select_result_t *res;
	uint32_t why = WAIT_NO_REASON;
	size_t n, i;

	if (j->info.het_job_offset != 0)
		return false;          /* tried with its leader */
	if (job_mgr_deadline_end(j, p->now))
		return false;
	if (!(comps = het_job_comps(j, &n)))
		return false;
	for (i = 0; i < n && why == WAIT_NO_REASON; i++) {
		comps[i]->info.last_sched_eval = p->now;
		why = sched_job_reason(comps[i], p->now);
		if (why == WAIT_NO_REASON && _is_blocked(p, comps[i]->part))
			why = WAIT_PRIORITY;
	}
	if (why == WAIT_NO_REASON && !bitmap_count(p->usable))
		why = WAIT_RESOURCES;
	if (why == WAIT_TIME || why == WAIT_DEPENDENCY)
		p->time_dep++;
	res = xcalloc(n, sizeof(*res));
	if (why == WAIT_NO_REASON) {
		p->tried++;
		for (i = 0; i < n; i++)
			if (!comps[i]->info.eligible_time) {
				comps[i]->info.eligible_time = p->now;
				job_mgr_touch(comps[i]);
			}
		why = het_job_place(comps, n, p->view, p->node_cnt, p->usable,
				    p->now, res);
	}
	if (why != WAIT_NO_REASON) {
		for (i = 0; i < n; i++) {
			sched_set_reason(comps[i], why, NULL);
			if (why == WAIT_RESOURCES)
				_block(p, comps[i]->part, j);
		}
		xfree(res);
		xfree(comps);
		return false;
	}
	for (i = 0; i < n; i++) {
		_take(p, &res[i]);
		job_mgr_start(comps[i], &res[i]);
		stats_job(STATS_JOB_STARTED);
		select_result_free(&res[i]);
	}
	debug("sched: started HetJobId=%u (%zu components)", j->info.job_id,
	      n);
	xfree(res);
	xfree(comps);
	return true;
}

/* Try one job; true if it started.  p->tried counts jobs that got as far
 * as a placement attempt (what default_queue_depth limits). */
static bool _one(job_record_t *j, pass_t *p)
{
	uint32_t why;
	bitmap_t *mine = NULL;
	const bitmap_t *use;
	uint32_t removed;
	char *desc;

	if (het_job_is_comp(j))
		return _one_het(j, p);
	if (job_mgr_deadline_end(j, p->now))
		return false;
	why = sched_job_reason(j, p->now);
	j->info.last_sched_eval = p->now;
	if (why == WAIT_NO_REASON && (desc = _req_nodes_down(j, p))) {
		sched_set_reason(j, WAIT_NODE_NOT_AVAIL, desc);
		xfree(desc);
		return false;
	}
	if (why == WAIT_NO_REASON && _is_blocked(p, j->part))
		why = WAIT_PRIORITY;
	if (why == WAIT_NO_REASON && !bitmap_count(p->usable))
		why = WAIT_RESOURCES;
	if (why == WAIT_TIME && j->info.start_time != j->begin_time) {
		j->info.start_time = j->begin_time;   /* squeue --start */
		job_mgr_changed();
	}
	if (why == WAIT_TIME || why == WAIT_DEPENDENCY)
		p->time_dep++;
	if (why != WAIT_NO_REASON) {
		sched_set_reason(j, why, NULL);
		if (why == WAIT_RESOURCES)
			_block(p, j->part, j);
		return false;
	}
	if (!j->info.eligible_time) {
		j->info.eligible_time = p->now;
		job_mgr_touch(j);
	}
	p->tried++;
	/* licenses: not free now, wait; the partition stays open to the
	 * jobs after it (they may not need these licenses) */
	if (!lic_mgr_job_test(j)) {
		sched_set_reason(j, WAIT_LICENSES, NULL);
		return false;
	}
	why = resv_mgr_job_nodes(j, p->usable, p->now, &mine, &removed);
	if (why != WAIT_NO_REASON) {
		sched_set_reason(j, why, NULL);   /* its reservation waits */
		return false;
	}
	use = mine ? mine : p->usable;
	if (_try(j, p, use))
		goto started;
	/* suspended victims free their CPUs at once: try again now (before
	 * the next pass would resume them) */
	if (preempt_for(j, p->view, p->node_cnt, use)) {
		node_mgr_select_view(p->view);
		if (_try(j, p, use))
			goto started;
	}
	if (removed) {
		/* reserved nodes kept it off: 22.05's words (one
		 * reservation took every node: "maintenance"), and the
		 * partition stays open to jobs that end before */
		sched_set_reason(j, WAIT_NODE_NOT_AVAIL,
				 removed > 1 ||
				 bitmap_overlaps(use, j->part->node_bitmap) ?
				 "ReqNodeNotAvail, May be reserved for other job" :
				 "ReqNodeNotAvail, Reserved for maintenance");
	} else {
		sched_set_reason(j, WAIT_RESOURCES, NULL);
		_block(p, j->part, j);
	}
	if (mine)
		bitmap_destroy(mine);
	return false;
started:
	if (mine)
		bitmap_destroy(mine);
	return true;
}

/* ---- the incremental pass ---- */

static void _base_drop(void)
{
	if (sc.base_ok)
		_pass_fini(&sc.base);
	sc.base_ok = false;
}

/* Keep a complete pass's outcome as the base of the next incremental
 * ones (takes p's memory). */
static void _base_keep(pass_t *p)
{
	_base_drop();
	sc.base = *p;
	memset(p, 0, sizeof(*p));
	sc.base_pend_gen = job_mgr_pending_gen();
	sc.base_node_gen = node_mgr_generation();
	sc.base_ok = true;
}

/* Is the base still what a full pass would start from, apart from the
 * new jobs?  p is a fresh pass_init of now. */
static bool _base_valid(const pass_t *p, uint32_t limit)
{
	const pass_t *b = &sc.base;

	if (!sc.base_ok || sc.need_full || !sc.new_cnt)
		return false;
	if (preempt_enabled() || resv_mgr_count())
		return false;         /* a new job may free others' resources;
				       * reservations depend on the time */
	if (job_mgr_pending_gen() != sc.base_pend_gen + sc.new_cnt ||
	    node_mgr_generation() != sc.base_node_gen)
		return false;         /* jobs left, moved or came otherwise */
	if (b->time_dep && p->now != b->now)
		return false;         /* a BeginTime or dependency may be due */
	if ((uint64_t) b->tried + sc.new_cnt >= limit)
		return false;         /* a full pass would stop short */
	if (p->node_cnt != b->node_cnt || p->blocked_max != b->blocked_max ||
	    !bitmap_equal(p->usable, b->usable))
		return false;
	for (size_t i = 0; i < p->node_cnt; i++) {
		const select_node_t *x = &p->view[i], *y = &b->view[i];

		if (x->alloc_cpus < y->alloc_cpus ||
		    x->alloc_memory < y->alloc_memory ||
		    (y->gpu_used & ~x->gpu_used))
			return false;     /* something was freed */
	}
	return true;
}

static int _new_cmp(const void *a, const void *b)
{
	return job_mgr_pending_cmp(*(job_record_t * const *) a,
				   *(job_record_t * const *) b);
}

/* Evaluate only the new jobs, in queue order, each against the partitions
 * blocked ahead of it.  Returns the jobs started. */
static int _pass_new(pass_t *p)
{
	pass_t *b = &sc.base;
	job_record_t **v = xcalloc(sc.new_cnt, sizeof(*v));
	size_t n = 0, i, k;
	int started = 0;

	for (i = 0; i < sc.new_cnt; i++) {
		job_record_t *j = job_mgr_find(sc.new_ids[i]);

		if (j && j->on_pend)
			v[n++] = j;
	}
	qsort(v, n, sizeof(*v), _new_cmp);
	p->time_dep = b->time_dep;
	p->tried = b->tried;
	p->queue = b->queue;
	for (i = 0; i < n; i++) {
		job_record_t *j = v[i], *old = NULL;
		part_record_t *part = j->part;

		/* the partitions blocked by a job ahead of this one */
		p->blocked_cnt = 0;
		for (k = 0; k < b->blocked_cnt; k++) {
			if (job_mgr_pending_cmp(b->blocker[k], j) < 0) {
				p->blocked[p->blocked_cnt] = b->blocked[k];
				p->blocker[p->blocked_cnt++] = b->blocker[k];
			} else if (b->blocked[k] == part) {
				old = b->blocker[k];
			}
		}
		p->queue++;
		if (_one(j, p)) {
			started++;
			p->queue--;
			continue;
		}
		if (_is_blocked(p, part) &&
		    p->blocker[p->blocked_cnt - 1] == j) {
			/* j blocks its partition, ahead of the old blocker */
			for (k = 0; k < b->blocked_cnt; k++)
				if (b->blocked[k] == part)
					break;
			if (k == b->blocked_cnt)
				b->blocked_cnt++;
			b->blocked[k] = part;
			b->blocker[k] = j;
			if (old)
				sched_set_reason(old, WAIT_PRIORITY, NULL);
		}
	}
	/* the base's blocked list is the result; the view is now's */
	p->blocked_cnt = b->blocked_cnt;
	memcpy(p->blocked, b->blocked, b->blocked_cnt * sizeof(*p->blocked));
	memcpy(p->blocker, b->blocker, b->blocked_cnt * sizeof(*p->blocker));
	xfree(v);
	return started;
}

/* CompleteWait: no pass while a job that ended recently is COMPLETING;
 * a pass is tried again in a second (its end also triggers one). */
static bool _complete_wait(void)
{
	struct timeval one = { 1, 0 };

	if (!job_mgr_complete_wait(time(NULL)))
		return false;
	debug("sched: some job is still completing, skipping (CompleteWait)");
	if (sc.ev && !sc.queued) {
		sc.queued = true;
		event_add(sc.ev, &one);
	}
	return true;
}

static int _pass(bool full)
{
	uint64_t t0 = stats_now_usec(), stop;
	uint32_t limit, seen = 0;
	job_record_t *j, *next;
	pass_t p = { 0 };
	bool complete = true;
	int started = 0;

	if (_complete_wait())
		return 0;
	limit = full || !sc.params.default_queue_depth ? UINT32_MAX :
		sc.params.default_queue_depth;
	stop = sc.params.max_sched_time ?
		t0 + (uint64_t) sc.params.max_sched_time * 1000000 : UINT64_MAX;
	preempt_resume_suspended();
	if (!job_mgr_pending_first() && sc.base_ok &&
	    sc.base_node_gen == node_mgr_generation()) {
		/* nothing to place, and a base to check new jobs against
		 * (_base_valid() sees what changed since): no view of every
		 * node to build again (16,384 nodes registering ask for a
		 * pass each) */
		return 0;
	}
	_pass_init(&p);
	if (!full && _base_valid(&p, limit)) {
		started = _pass_new(&p);
		sc.inc_passes++;
		goto done;
	}
	for (j = job_mgr_pending_first(); j; j = next) {
		next = j->pend_next;
		/* default_queue_depth counts placement attempts: held,
		 * dependent or blocked jobs cost little and keep their
		 * reasons current */
		if (p.tried >= limit ||
		    (++seen % 64 == 0 && stats_now_usec() > stop)) {
			for (; j; j = j->pend_next)
				p.queue++;
			complete = false;
			break;
		}
		p.queue++;
		if (_one(j, &p)) {
			started++;
			p.queue--;
			if (j->on_pend)
				next = j;    /* an array: its next task */
		}
		/* a hetjob's components start (or end) with its leader:
		 * the next may have left the list */
		if (next && !next->on_pend)
			next = j->on_pend ? j->pend_next :
				job_mgr_pending_first();
	}
	if (p.tried >= sc.params.default_queue_depth &&
	    sc.params.default_queue_depth)
		complete = false;
done:
	sc.need_full = false;
	sc.new_cnt = 0;
	sc.passes++;
	sc.last_usec = stats_now_usec();
	stats_main_cycle(sc.last_usec - t0, p.tried, p.queue + started);
	if (complete) {
		/* what the base must match: the nodes as the starts left them */
		node_mgr_select_view(p.view);
		_base_keep(&p);
	} else {
		_base_drop();
		_pass_fini(&p);
	}
	if (started)
		debug("sched: pass %lu started %d jobs", sc.passes, started);
	return started;
}

int sched_run(void)
{
	return _pass(true);
}

int sched_run_triggered(void)
{
	sc.queued = false;
	return _pass(false);      /* as _on_trigger */
}
