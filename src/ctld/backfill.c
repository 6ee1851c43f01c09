/* backfill.c — sched/backfill (backfill.h).
 *
 * A pass: build the availability map from the running jobs (each
 * releases its CPUs and memory at its end time), snapshot the pending
 * job ids in queue order, then for each job that may run (no hold,
 * begin time, dependency or partition reason) find its earliest start.
 * A start now goes through select_job_test on a view where every node
 * offers only what stays free for the job's whole time limit, so no
 * reservation is touched; a later start is reserved in the map and shown
 * as the job's StartTime.  Jobs of one shape (partition, size, time
 * limit) that found no start cannot find one later in the pass (the map
 * only fills up), so they are skipped after the first.
 *
 * Licenses (-L): with SchedulerParameters=bf_licenses the pass also keeps
 * their availability over time (bf_lic.h): a job starts at the earliest
 * time both its nodes and its licenses stay free for its time limit, and
 * a later start reserves its licenses as it does its nodes.  Without it,
 * as Slurm, a job whose licenses are not free now is left to the main
 * scheduler, and planned on nodes only.  A job's shape bounds the start
 * of its nodes only: a job with licenses may be skipped by it (it starts
 * no earlier) but a start its licenses delayed is not recorded in it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <uthash.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/backfill.h"
#include "ctld/bf_lic.h"
#include "ctld/bf_map.h"
#include "ctld/controller.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/job_res.h"
#include "ctld/lic_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/resv_mgr.h"
#include "ctld/sched.h"
#include "ctld/select.h"
#include "ctld/stats.h"
#include "ctld/topo_mgr.h"

#define NEVER ((time_t) -1)

typedef struct {
	const part_record_t *part;
	uint32_t nodes;
	uint32_t duration;
	uint64_t mem;
	uint16_t cpus;
	uint16_t gpus;
	uint16_t gpu_type;
	uint16_t exclusive;
} shape_key_t;

typedef struct {
	shape_key_t    key;
	time_t         not_before;   /* NEVER: no start in the window */
	UT_hash_handle hh;
} shape_t;

typedef struct {
	uint32_t       uid;
	uint32_t       cnt;
	UT_hash_handle hh;
} user_cnt_t;

#define MAX_FAILS 64

typedef struct {
	const part_record_t *part;
	bitmap_t            *avail;   /* usable nodes of the partition */
	uint32_t             max_cpus;  /* CPUs of its largest usable node */
	bf_req_t             fails[MAX_FAILS];  /* requests that found no start */
	size_t               fail_cnt;
} part_avail_t;

static struct {
	struct event  *ev;
	bool           active;       /* a pass is under way */
	bf_map_t      *map;
	bf_lic_t      *lic;          /* licenses over time (bf_licenses) */
	uint32_t      *ids;
	size_t         cnt, pos;
	time_t         now;
	uint64_t       gen;
	uint64_t       work_usec;
	uint32_t       depth, depth_try, started;
	size_t         node_cnt;
	bitmap_t      *usable;
	bitmap_t      *nodes;        /* scratch: planned nodes */
	select_node_t *live;         /* allocations now, as we know them */
	select_node_t *view;         /* scratch: what a start may take */
	bitmap_t     **tmp_used;     /* scratch: CPU ids kept for the plan */
	part_avail_t  *parts;
	size_t         part_cnt;
	shape_t       *shapes;
	user_cnt_t    *users;
} bf;

/* ---- timers ---- */

static void _bf_on_event(evutil_socket_t fd, short what, void *arg);

static void _bf_arm(uint64_t usec)
{
	struct timeval tv = { usec / 1000000, usec % 1000000 };

	if (!bf.ev)
		return;
	event_del(bf.ev);
	event_add(bf.ev, &tv);
}

/* The next pass: BF_PHASE after the first point after now of the wall
 * clock's grid of bf_interval seconds since the epoch (not one closer
 * than 50 ms: a timer fired a hair early).  A known phase: sluice-sim
 * runs its passes at the same instants, before what happens during that
 * second.  BF_PHASE: time() lags the clock by up to a kernel tick, and
 * the jobs a pass starts must be stamped with the pass's second. */
#define BF_PHASE 20000
static void _bf_arm_interval(void)
{
	uint64_t every = (uint64_t) sched_params()->bf_interval * 1000000;
	struct timespec ts;
	uint64_t now, wait;

	clock_gettime(CLOCK_REALTIME, &ts);
	now = (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
	if (!every)
		every = 1000000;
	wait = every - (now + every - BF_PHASE) % every;
	_bf_arm(wait < 50000 ? wait + every : wait);
}

int backfill_init(struct event_base *base)
{
	if (!base)
		return 0;
	bf.ev = event_new(base, -1, 0, _bf_on_event, NULL);
	if (!bf.ev)
		return -1;
	_bf_arm_interval();
	return 0;
}

bool backfill_active(void)
{
	return bf.active;
}

/* ---- a pass ---- */

static void _bf_free_pass(void)
{
	shape_t *s, *ts;
	user_cnt_t *u, *tu;

	bf_map_destroy(bf.map);
	bf.map = NULL;
	bf_lic_destroy(bf.lic);
	bf.lic = NULL;
	xfree(bf.ids);
	xfree(bf.live);
	xfree(bf.view);
	for (size_t i = 0; bf.tmp_used && i < bf.node_cnt; i++)
		if (bf.tmp_used[i])
			bitmap_destroy(bf.tmp_used[i]);
	xfree(bf.tmp_used);
	if (bf.usable)
		bitmap_destroy(bf.usable);
	if (bf.nodes)
		bitmap_destroy(bf.nodes);
	bf.usable = bf.nodes = NULL;
	for (size_t i = 0; i < bf.part_cnt; i++)
		bitmap_destroy(bf.parts[i].avail);
	xfree(bf.parts);
	bf.part_cnt = 0;
	HASH_ITER(hh, bf.shapes, s, ts) {
		HASH_DEL(bf.shapes, s);
		xfree(s);
	}
	HASH_ITER(hh, bf.users, u, tu) {
		HASH_DEL(bf.users, u);
		xfree(u);
	}
	bf.active = false;
	stats_bf_active(0);
}

/* Running jobs give back what they hold at their end time. */
static void _bf_add_running(void)
{
	job_record_t *j;

	for (j = job_mgr_running_first(); j; j = j->run_next) {
		time_t end = j->info.end_time;
		bool completing = j->info.job_state & JOB_COMPLETING;
		bool suspended = (j->info.job_state & JOB_STATE_BASE) ==
			JOB_SUSPENDED;
		long i, k = 0;

		if (!j->node_bitmap)
			continue;
		if (completing || (end && end < bf.now))
			end = bf.now;
		else if (!end)
			continue;          /* no time limit: holds on forever */
		for (i = bitmap_first_set(j->node_bitmap); i >= 0;
		     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
			if (completing && j->comp_bitmap &&
			    !bitmap_test(j->comp_bitmap, i))
				continue;  /* already given back */
			/* a suspended job's CPUs are free already */
			bf_map_release(bf.map, i, end, suspended ? 0 :
				       j->node_cpus[k], j->node_mem[k]);
			if (j->node_gpus && j->node_gpus[k])
				bf_map_release_gpus(bf.map, i, end,
						    j->node_gpus[k]);
		}
	}
}

static void _bf_live_view(void)
{
	node_mgr_select_view(bf.live);
	bitmap_clear_all(bf.usable);
	for (size_t i = 0; i < bf.node_cnt; i++)
		if (node_mgr_usable(node_mgr_at(i)))
			bitmap_set(bf.usable, i);
}

static void _bf_begin(void)
{
	const sched_params_t *p = sched_params();
	job_record_t *j;
	size_t n = 0;

	bf.now = time(NULL);
	bf.node_cnt = node_mgr_count();
	bf.live = xcalloc(bf.node_cnt + 1, sizeof(*bf.live));
	bf.view = xcalloc(bf.node_cnt + 1, sizeof(*bf.view));
	bf.tmp_used = xcalloc(bf.node_cnt + 1, sizeof(*bf.tmp_used));
	bf.usable = bitmap_create(bf.node_cnt ? bf.node_cnt : 1);
	bf.nodes = bitmap_create(bf.node_cnt ? bf.node_cnt : 1);
	_bf_live_view();
	bf.map = bf_map_create(bf.live, bf.node_cnt, bf.now, p->bf_resolution,
			       p->bf_window * 60);
	_bf_add_running();
	bf_map_finalize(bf.map);
	/* reserved nodes are nobody's in the plan while reserved */
	resv_mgr_bf_plan(bf.map, bf.now, p->bf_resolution, p->bf_window * 60);
	if (p->bf_licenses && lic_mgr_count())
		bf.lic = lic_mgr_bf_create(bf.now, p->bf_resolution,
					   p->bf_window * 60);
	for (j = job_mgr_pending_first(); j; j = j->pend_next)
		n++;
	bf.ids = xcalloc(n + 1, sizeof(uint32_t));
	bf.cnt = 0;
	for (j = job_mgr_pending_first(); j; j = j->pend_next)
		bf.ids[bf.cnt++] = j->info.job_id;
	bf.pos = 0;
	log_flag(BACKFILL, "%s: beginning with %zu pending jobs", __func__, n);
	if (!n)
		log_flag(BACKFILL, "%s: no jobs to backfill", __func__);
	bf.depth = bf.depth_try = bf.started = 0;
	bf.work_usec = 0;
	bf.gen = sched_change_gen();
	bf.active = true;
	stats_bf_active(1);
}

static part_avail_t *_bf_part(const part_record_t *part)
{
	part_avail_t *pa;

	for (size_t i = 0; i < bf.part_cnt; i++)
		if (bf.parts[i].part == part)
			return &bf.parts[i];
	bf.parts = xrealloc(bf.parts, (bf.part_cnt + 1) * sizeof(*bf.parts));
	pa = &bf.parts[bf.part_cnt++];
	memset(pa, 0, sizeof(*pa));
	pa->part = part;
	pa->avail = bitmap_copy(bf.usable);
	bitmap_and(pa->avail, part->node_bitmap);
	for (long i = bitmap_first_set(pa->avail); i >= 0;
	     i = bitmap_next_set(pa->avail, i + 1))
		if (bf.live[i].cpus > pa->max_cpus)
			pa->max_cpus = bf.live[i].cpus;
	return pa;
}

static const bitmap_t *_bf_part_avail(const part_record_t *part)
{
	return _bf_part(part)->avail;
}

/* a asks for no more than b in every respect */
static bool _bf_le(const bf_req_t *a, const bf_req_t *b)
{
	return a->exclusive == b->exclusive && a->node_cnt <= b->node_cnt &&
	       a->cpus <= b->cpus && a->mem <= b->mem && a->gpus <= b->gpus &&
	       (!a->gpus || !a->gpu_type || a->gpu_type == b->gpu_type) &&
	       a->duration <= b->duration;
}

/* The map only fills up during a pass: a request at least as large as
 * one that found no start finds none either. */
static bool _bf_dominated(const part_avail_t *pa, const bf_req_t *r)
{
	for (size_t i = 0; i < pa->fail_cnt; i++)
		if (_bf_le(&pa->fails[i], r))
			return true;
	return false;
}

static void _bf_add_fail(part_avail_t *pa, const bf_req_t *r)
{
	size_t k = 0;

	for (size_t i = 0; i < pa->fail_cnt; i++)
		if (!_bf_le(r, &pa->fails[i]))
			pa->fails[k++] = pa->fails[i];
	pa->fail_cnt = k;
	if (k == MAX_FAILS)
		pa->fail_cnt--;
	pa->fails[pa->fail_cnt++] = *r;
}

static void _bf_to_bf_req(const job_record_t *j, const select_req_t *s,
		       bf_req_t *r)
{
	uint32_t limit = j->info.time_limit, per;

	memset(r, 0, sizeof(*r));
	r->node_cnt = s->min_nodes;
	/* more tasks than min_nodes of the partition's nodes hold (-n 8 on
	 * 4-CPU nodes): as many nodes as the tasks need, up to max_nodes,
	 * as the selection itself would spread them */
	if (!s->ntasks_per_node && j->part) {
		uint32_t cap = _bf_part(j->part)->max_cpus / s->cpus_per_task;
		uint32_t need = cap ? (s->num_tasks + cap - 1) / cap : 0;

		if (need > r->node_cnt)
			r->node_cnt = need < s->max_nodes ? need : s->max_nodes;
	}
	if (s->ntasks_per_node)
		per = s->ntasks_per_node;
	else
		per = (s->num_tasks + r->node_cnt - 1) / r->node_cnt;
	per *= s->cpus_per_task;
	r->cpus = per > UINT16_MAX ? UINT16_MAX : (uint16_t) per;
	r->mem = s->mem_per_node ? s->mem_per_node : s->mem_per_cpu * r->cpus;
	/* GPUs per node: --gres/--gpus-per-node, --gpus-per-task for its
	 * tasks there, and an even share of --gpus */
	per = s->gpus_per_node + s->gpus_per_task * (per / s->cpus_per_task) +
	      (s->gpus_per_job + r->node_cnt - 1) / r->node_cnt;
	r->gpus = per > SELECT_MAX_GPUS ? SELECT_MAX_GPUS : (uint16_t) per;
	/* a typed request waits for GPUs of its type */
	r->gpu_type = r->gpus ? bf_map_gpu_type(bf.map, s->gpu_type) : 0;
	r->exclusive = s->exclusive;
	if (r->exclusive)
		r->cpus = r->mem = 0;   /* whole nodes: one shape per size */
	if (limit == INFINITE32 || limit == NO_VAL32 || limit > 0x3ffffff)
		r->duration = UINT32_MAX;
	else
		r->duration = limit * 60;
}

static shape_t *_bf_shape(const job_record_t *j, const bf_req_t *r)
{
	shape_key_t k;
	shape_t *s;

	memset(&k, 0, sizeof(k));
	k.part = j->part;
	k.nodes = r->node_cnt;
	k.duration = r->duration;
	k.mem = r->mem;
	k.cpus = r->cpus;
	k.gpus = r->gpus;
	k.gpu_type = r->gpu_type;
	k.exclusive = r->exclusive;
	HASH_FIND(hh, bf.shapes, &k, sizeof(k), s);
	if (!s) {
		s = xmalloc(sizeof(*s));
		s->key = k;
		HASH_ADD(hh, bf.shapes, key, sizeof(k), s);
	}
	return s;
}

static bool _bf_user_full(uint32_t uid)
{
	uint32_t max = sched_params()->bf_max_job_user;
	user_cnt_t *u;

	if (!max)
		return false;
	HASH_FIND(hh, bf.users, &uid, sizeof(uid), u);
	if (!u) {
		u = xmalloc(sizeof(*u));
		u->uid = uid;
		HASH_ADD(hh, bf.users, uid, sizeof(uid), u);
	}
	return u->cnt++ >= max;
}

/* Mark CPUs of a node with CPU ids used until only free_cpus remain
 * free; returns the bitmap to show select (the live one if no change). */
static const bitmap_t *_bf_limit_ids(size_t n, const bitmap_t *used,
				     uint16_t cpus, uint16_t free_cpus)
{
	size_t live_free = cpus - bitmap_count(used);
	long c;

	if (live_free <= free_cpus)
		return used;
	if (!bf.tmp_used[n])
		bf.tmp_used[n] = bitmap_copy(used);
	else {
		bitmap_clear_all(bf.tmp_used[n]);
		bitmap_or(bf.tmp_used[n], used);
	}
	for (c = cpus - 1; c >= 0 && live_free > free_cpus; c--) {
		if (bitmap_test(bf.tmp_used[n], c))
			continue;
		bitmap_set(bf.tmp_used[n], c);
		live_free--;
	}
	return bf.tmp_used[n];
}

/* The live view, less whatever the plan keeps for reservations over the
 * next duration seconds. */
static void _bf_start_view(uint32_t duration)
{
	bf_map_view(bf.map, duration, bf.view);
	for (size_t n = 0; n < bf.node_cnt; n++) {
		select_node_t plan = bf.view[n];

		bf.view[n] = bf.live[n];
		if (plan.alloc_cpus > bf.view[n].alloc_cpus)
			bf.view[n].alloc_cpus = plan.alloc_cpus;
		if (plan.alloc_memory > bf.view[n].alloc_memory)
			bf.view[n].alloc_memory = plan.alloc_memory;
		if (bf.live[n].cpu_used)
			bf.view[n].cpu_used = _bf_limit_ids(n,
				bf.live[n].cpu_used, plan.cpus,
				plan.cpus - plan.alloc_cpus);
		/* the very GPUs the plan keeps (a typed reservation holds
		 * GPUs of its type) */
		bf.view[n].gpu_used = bf.live[n].gpu_used | plan.gpu_used;
	}
}

/* Take j's licenses in the plan (lr NULL: none planned): every item, or
 * the chosen one of an '|' request. */
static void _bf_lic_take(const bf_lic_req_t *lr, size_t choice, time_t start,
			 uint32_t duration)
{
	if (!lr)
		return;
	for (size_t i = 0; i < lr->cnt; i++)
		if (!lr->any || i == choice)
			bf_lic_take(bf.lic, lr->lic[i], lr->count[i], start,
				    duration);
}

/* Start j now on what stays free for its whole time limit (its licenses
 * too: lr is its request in the plan, choice the item of an '|'). */
static bool _bf_start_now(job_record_t *j, const bf_req_t *r,
			  const bf_lic_req_t *lr, size_t choice)
{
	select_result_t res = { 0 };
	long i, k = 0;

	/* the main scheduler may have taken them since the plan was made */
	if (lr)
		lic_mgr_job_prefer(j, choice);
	if (!lic_mgr_job_test(j))
		return false;
	_bf_start_view(r->duration);
	/* its partitions, -w, -x, -C and GPUs as the main scheduler does */
	if (job_res_select(j, bf.view, bf.node_cnt, bf.usable, false, &res) !=
	    SELECT_OK)
		return false;
	for (i = bitmap_first_set(res.nodes); i >= 0;
	     i = bitmap_next_set(res.nodes, i + 1), k++) {
		bf.live[i].alloc_cpus += res.cpus[k];
		bf.live[i].alloc_memory += res.mem[k];
		bf.live[i].gpu_used |= res.gpus[k];
	}
	bf_map_take(bf.map, res.nodes, res.cpus, res.mem, res.gpus, bf.now,
		    r->duration);
	_bf_lic_take(lr, choice, bf.now, r->duration);
	job_mgr_start(j, &res);
	xfree(j->info.sched_name);
	j->info.sched_name = xstrdup("Backfill");
	info("backfill: Started JobId=%u in %s on %s", j->info.job_id,
	     j->info.partition, j->info.nodes);
	log_flag(BACKFILL, "%s: started JobId=%u on %s", __func__,
		 j->info.job_id, j->info.nodes);
	stats_job(STATS_JOB_STARTED);
	select_result_free(&res);
	bf.started++;
	return true;
}

/* Earliest start >= not_before at which j's nodes (bf_map) and, with lr,
 * its licenses (bf_lic) are free together for r's duration: each answer
 * moves the other's search on until they agree (both only move later).
 * 0 with *start, the nodes in bf.nodes, the item in *choice and in
 * *node_start the earliest start of the nodes alone; -1 if the nodes
 * never fit within the window, -2 if they do but never with the
 * licenses. */
static int _bf_earliest(const bitmap_t *avail, const bf_req_t *r,
			const bf_lic_req_t *lr, time_t not_before,
			time_t *start, size_t *choice, time_t *node_start)
{
	time_t t = not_before, ls;

	*choice = 0;
	for (int round = 0; round < 64; round++) {
		if (bf_map_earliest(bf.map, avail, r, t, start, bf.nodes) < 0)
			return round ? -2 : -1;
		if (!round)
			*node_start = *start;
		if (!lr)
			return 0;
		if (bf_lic_earliest(bf.lic, lr, r->duration, *start, &ls,
				    choice) < 0)
			return -2;
		if (ls <= *start)
			return 0;
		t = ls;
	}
	return -2;
}

/* With a topology, the plan of a job over several leaf switches (or
 * blocks) moves into the lowest switch/block that holds it at the same
 * start, as the main scheduler would place it then; if none does (the
 * nodes crossed fabrics that no switch joins), to the earliest start in
 * any one.  0 with *start and bf.nodes, or -1: none in the window. */
static int _bf_topo(const topo_t *t, const bitmap_t *avail, const bf_req_t *r,
		    time_t *start)
{
	size_t n = topo_domain_cnt(t);
	bitmap_t *sub = bitmap_create(bf.node_cnt ? bf.node_cnt : 1);
	bitmap_t *got = bitmap_create(bf.node_cnt ? bf.node_cnt : 1);
	time_t best = NEVER, s;
	int rc = -1;

	if (bitmap_is_subset(bf.nodes, topo_nodes(t)) &&
	    topo_leaf_count(t, bf.nodes) <= 1)
		rc = 0;
	for (size_t k = 0; k < n && rc < 0; k++) {
		bitmap_clear_all(sub);
		bitmap_or(sub, topo_domain_nodes(t, k));
		bitmap_and(sub, avail);
		if (bitmap_count(sub) < r->node_cnt)
			continue;
		if (bf_map_fits_at(bf.map, sub, r, *start, got)) {
			bitmap_clear_all(bf.nodes);
			bitmap_or(bf.nodes, got);
			rc = 0;
		}
	}
	for (size_t k = 0; k < n && rc < 0; k++) {
		bitmap_clear_all(sub);
		bitmap_or(sub, topo_domain_nodes(t, k));
		bitmap_and(sub, avail);
		if (bitmap_count(sub) < r->node_cnt ||
		    bf_map_earliest(bf.map, sub, r, *start, &s, got) < 0 ||
		    (best != NEVER && s >= best))
			continue;
		best = s;
		bitmap_clear_all(bf.nodes);
		bitmap_or(bf.nodes, got);
	}
	if (rc < 0 && best != NEVER) {
		*start = best;
		rc = 0;
	}
	bitmap_destroy(sub);
	bitmap_destroy(got);
	return rc;
}

/* The planned start and nodes (squeue --start START_TIME, SCHEDNODES);
 * nodes NULL: no plan. */
static void _bf_set_start(job_record_t *j, time_t t, const bitmap_t *nodes)
{
	char *was = j->info.sched_nodes;

	j->info.sched_nodes = nodes ? node_mgr_names(nodes) : NULL;
	if (j->info.start_time != t || xstrcmp(was, j->info.sched_nodes))
		job_mgr_changed();
	j->info.start_time = t;
	xfree(was);
}

/* --time-min: the longest limit, in whole minutes, from the job's
 * --time-min up to its --time, with which it can start now on avail
 * without delaying any reservation; 0 if none.  Fitting now is monotone
 * in the duration, so a binary search over the minutes finds it. */
static uint32_t _bf_shortened(const job_record_t *j, const bitmap_t *avail,
			      const bf_req_t *full, const bf_lic_req_t *lr,
			      size_t *choice)
{
	uint32_t lo = j->info.time_min, hi = j->info.time_limit, best = 0;
	bf_req_t r = *full;
	bitmap_t *nodes;
	time_t start;

	if (!lo || lo == NO_VAL32 || lo == INFINITE32 || full->duration ==
	    UINT32_MAX || lo >= hi)
		return 0;
	nodes = bitmap_create(bf.node_cnt ? bf.node_cnt : 1);
	hi--;                       /* the whole limit did not fit */
	while (lo <= hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		r.duration = mid * 60;
		if (bf_map_earliest(bf.map, avail, &r, bf.now, &start,
				    nodes) == 0 && start <= bf.now &&
		    (!lr || (bf_lic_earliest(bf.lic, lr, r.duration, bf.now,
					     &start, choice) == 0 &&
			     start <= bf.now))) {
			best = mid;
			lo = mid + 1;
		} else {
			if (!mid)
				break;
			hi = mid - 1;
		}
	}
	bitmap_destroy(nodes);
	if (best && lr)             /* the item that fits the limit chosen */
		bf_lic_earliest(bf.lic, lr, best * 60, bf.now, &start, choice);
	return best;
}

/* Start j now with its limit lowered to minutes (--time-min); the limit
 * stays as it was if the start fails. */
static bool _bf_start_shortened(job_record_t *j, const bf_req_t *full,
				uint32_t minutes, const bf_lic_req_t *lr,
				size_t choice)
{
	uint32_t was = j->info.time_limit;
	bf_req_t r = *full;

	r.duration = minutes * 60;
	j->info.time_limit = minutes;
	if (_bf_start_now(j, &r, lr, choice)) {
		info("backfill: JobId=%u time limit lowered from %u to %u "
		     "minutes (--time-min)", j->info.job_id, was, minutes);
		return true;
	}
	j->info.time_limit = was;
	return false;
}

/* A component's plan request and the nodes it may use (*avail, the
 * caller destroys it); false if its -w nodes are not all there. */
static bool _bf_het_req(job_record_t *c, bf_req_t *r, bitmap_t **avail)
{
	const bitmap_t *exc = job_mgr_exc_nodes(c), *reqd = job_mgr_req_nodes(c);
	select_req_t sreq;

	job_mgr_select_req(c, &sreq);
	_bf_to_bf_req(c, &sreq, r);
	if (!r->exclusive && (c->info.shared == JOB_SHARED_NONE ||
			      !xstrcasecmp(c->part->info.oversubscribe,
					   "EXCLUSIVE"))) {
		r->exclusive = true;
		r->cpus = 0;
		r->mem = 0;
	}
	*avail = bitmap_copy(_bf_part_avail(c->part));
	if (exc)
		bitmap_and_not(*avail, exc);
	if (sreq.feature_nodes)
		bitmap_and(*avail, sreq.feature_nodes);
	if (reqd) {
		if (!bitmap_is_subset(reqd, *avail))
			return false;
		bitmap_and(*avail, reqd);
		if (bitmap_count(*avail) > r->node_cnt)
			r->node_cnt = bitmap_count(*avail);
	}
	return true;
}

/* Start every component of a hetjob now, on what stays free for the
 * longest of their limits, or none. */
static bool _bf_het_start(job_record_t **comps, size_t n, uint32_t dur)
{
	select_result_t *res = xcalloc(n, sizeof(*res));

	_bf_start_view(dur);
	if (het_job_place(comps, n, bf.view, bf.node_cnt, bf.usable, bf.now,
			  res) != WAIT_NO_REASON) {
		xfree(res);
		return false;
	}
	for (size_t c = 0; c < n; c++) {
		long i, k = 0;

		for (i = bitmap_first_set(res[c].nodes); i >= 0;
		     i = bitmap_next_set(res[c].nodes, i + 1), k++) {
			bf.live[i].alloc_cpus += res[c].cpus[k];
			bf.live[i].alloc_memory += res[c].mem[k];
			bf.live[i].gpu_used |= res[c].gpus[k];
		}
		bf_map_take(bf.map, res[c].nodes, res[c].cpus, res[c].mem,
			    res[c].gpus, bf.now, dur);
		job_mgr_start(comps[c], &res[c]);
		xfree(comps[c]->info.sched_name);
		comps[c]->info.sched_name = xstrdup("Backfill");
		info("backfill: Started JobId=%u (HetJobId=%u+%zu) in %s on %s",
		     comps[c]->info.job_id, comps[0]->info.job_id, c,
		     comps[c]->info.partition, comps[c]->info.nodes);
		stats_job(STATS_JOB_STARTED);
		select_result_free(&res[c]);
		bf.started++;
	}
	xfree(res);
	return true;
}

/* A heterogeneous job, planned at its leader as one (het_job.h): it
 * starts now only whole (het_job_place), otherwise every component is
 * reserved from the one time they all fit (bf_map_earliest_all), and
 * all show
 * that start. */
static bool _bf_het(job_record_t *j)
{
	job_record_t **comps;
	bitmap_t **avail, **got;
	bf_req_t *r;
	uint32_t dur = 0;
	time_t t = 0;
	bool ok = true;
	size_t n, i;

	if (j->info.het_job_offset != 0 || job_mgr_deadline_end(j, time(NULL)))
		return true;
	if (!(comps = het_job_comps(j, &n)))
		return true;
	for (i = 0; i < n; i++)
		if (!comps[i]->part || (comps[i]->info.reservation &&
					*comps[i]->info.reservation) ||
		    sched_job_reason(comps[i], bf.now) != WAIT_NO_REASON) {
			xfree(comps);
			return true;
		}
	if (bf.depth_try >= sched_params()->bf_max_job_test) {
		xfree(comps);
		return false;
	}
	bf.depth_try++;
	r = xcalloc(n, sizeof(*r));
	avail = xcalloc(n, sizeof(*avail));
	got = xcalloc(n, sizeof(*got));
	for (i = 0; i < n; i++) {
		got[i] = bitmap_create(bf.node_cnt ? bf.node_cnt : 1);
		if (ok)
			ok = _bf_het_req(comps[i], &r[i], &avail[i]);
		if (r[i].duration > dur)
			dur = r[i].duration;
	}
	if (!ok || bf_map_earliest_all(bf.map, avail, r, n, bf.now,
				       sched_params()->bf_resolution, &t,
				       got) < 0) {
		log_flag(BACKFILL, "%s: HetJobId=%u cannot start within "
			 "bf_window", __func__, j->info.job_id);
		for (i = 0; i < n; i++)
			_bf_set_start(comps[i], 0, NULL);
		goto out;
	}
	if (t <= bf.now && _bf_het_start(comps, n, dur))
		goto out;
	for (i = 0; i < n; i++) {
		bf_map_reserve(bf.map, got[i], &r[i], t);
		_bf_set_start(comps[i], t > bf.now ? t : bf.now + 1, got[i]);
	}
	log_flag(BACKFILL, "%s: reserved HetJobId=%u to start at %ld",
		 __func__, j->info.job_id, (long) comps[0]->info.start_time);
out:
	for (i = 0; i < n; i++) {
		if (avail[i])
			bitmap_destroy(avail[i]);
		bitmap_destroy(got[i]);
	}
	xfree(avail);
	xfree(got);
	xfree(r);
	xfree(comps);
	return true;
}

/* One pending job; false when the pass must stop (bf_max_job_test). */
static bool _bf_one(job_record_t *j)
{
	const bitmap_t *exc, *reqd;
	bitmap_t *avail = NULL;
	select_req_t sreq;
	bf_req_t r;
	bf_lic_req_t lreq, *lr = NULL;
	const topo_t *topo;
	size_t choice = 0;
	bool has_lic;
	shape_t *shape = NULL;
	time_t start, node_start;
	int rc;

	bf.depth++;
	if (het_job_is_comp(j))
		return _bf_het(j);
	if (job_mgr_deadline_end(j, time(NULL)))
		return true;
	if (!j->part || sched_job_reason(j, bf.now) != WAIT_NO_REASON)
		return true;
	if (j->info.reservation && *j->info.reservation)
		return true;      /* runs on its reservation: main scheduler */
	if (bf.depth_try >= sched_params()->bf_max_job_test)
		return false;
	if (_bf_user_full(j->info.user_id))
		return true;
	has_lic = lic_mgr_bf_req(j, &lreq);
	if (has_lic && bf.lic)
		lr = &lreq;
	else if (has_lic && !lic_mgr_job_test(j))
		return true;      /* not planned without bf_licenses */
	bf.depth_try++;
	log_flag(BACKFILL, "%s: test for JobId=%u Prio=%u Partition=%s",
		 __func__, j->info.job_id, j->info.priority, j->part->info.name);
	job_mgr_select_req(j, &sreq);
	_bf_to_bf_req(j, &sreq, &r);
	if (!r.exclusive && (j->info.shared == JOB_SHARED_NONE ||
			     !xstrcasecmp(j->part->info.oversubscribe,
					  "EXCLUSIVE"))) {
		r.exclusive = true;
		r.cpus = 0;
		r.mem = 0;
	}
	exc = job_mgr_exc_nodes(j);
	reqd = job_mgr_req_nodes(j);
	if (exc || reqd || sreq.feature_nodes) {
		avail = bitmap_copy(_bf_part_avail(j->part));
		if (exc)
			bitmap_and_not(avail, exc);
		if (sreq.feature_nodes)
			bitmap_and(avail, sreq.feature_nodes);
		if (reqd) {
			if (!bitmap_is_subset(reqd, avail))
				goto out;
			/* plan on the named nodes only */
			bitmap_and(avail, reqd);
			if (bitmap_count(avail) > r.node_cnt)
				r.node_cnt = bitmap_count(avail);
		}
	} else {
		/* by its nodes alone (a job with licenses starts no earlier) */
		if (_bf_dominated(_bf_part(j->part), &r))
			goto out;
		shape = _bf_shape(j, &r);
		if (shape->not_before == NEVER)
			goto out;
	}
	rc = _bf_earliest(avail ? avail : _bf_part_avail(j->part), &r, lr,
			  shape && shape->not_before > bf.now ?
			  shape->not_before : bf.now, &start, &choice,
			  &node_start);
	if (rc < 0) {
		if (shape && rc == -1) {
			shape->not_before = NEVER;
			_bf_add_fail(_bf_part(j->part), &r);
		}
		log_flag(BACKFILL, "%s: JobId=%u cannot start within "
			 "bf_window", __func__, j->info.job_id);
		_bf_set_start(j, 0, NULL);
		goto out;
	}
	if (shape)
		shape->not_before = node_start;
	if ((topo = topo_mgr_for_job(j)) &&
	    _bf_topo(topo, avail ? avail : _bf_part_avail(j->part), &r,
		     &start) < 0) {
		log_flag(BACKFILL, "%s: JobId=%u fits in no switch or block "
			 "within bf_window", __func__, j->info.job_id);
		_bf_set_start(j, 0, NULL);
		goto out;
	}
	if (start <= bf.now && _bf_start_now(j, &r, lr, choice))
		goto out;
	if (start > bf.now) {
		const bitmap_t *where = avail ? avail : _bf_part_avail(j->part);
		size_t now_choice = 0;
		uint32_t minutes = _bf_shortened(j, where, &r, lr, &now_choice);

		if (minutes && _bf_start_shortened(j, &r, minutes, lr,
						   now_choice))
			goto out;
	}
	bf_map_reserve(bf.map, bf.nodes, &r, start);
	_bf_lic_take(lr, choice, start > bf.now ? start : bf.now, r.duration);
	_bf_set_start(j, start > bf.now ? start : bf.now + 1, bf.nodes);
	log_flag(BACKFILL, "%s: reserved JobId=%u to start at %ld on %s",
		 __func__, j->info.job_id, (long) j->info.start_time,
		 j->info.sched_nodes ? j->info.sched_nodes : "");
out:
	if (avail)
		bitmap_destroy(avail);
	return true;
}

static void _bf_end(void)
{
	const sched_params_t *p = sched_params();

	stats_bf_cycle(bf.work_usec, bf.depth, bf.depth_try, bf.cnt,
		       p->bf_window * 60 / (p->bf_resolution ?
					    p->bf_resolution : 1),
		       bf.started);
	debug("backfill: completed testing %u(%u) jobs, started %u, usec=%lu",
	      bf.depth, bf.depth_try, bf.started,
	      (unsigned long) bf.work_usec);
	log_flag(BACKFILL, "%s: completed testing %u(%u) jobs, usec=%lu",
		 __func__, bf.depth, bf.depth_try,
		 (unsigned long) bf.work_usec);
	_bf_free_pass();
}

/* Work until done or the yield budget is spent (budget 0: no yield).
 * true when the pass is over. */
static bool _bf_step(uint64_t budget)
{
	uint64_t t0 = stats_now_usec(), t = t0;
	unsigned n = 0;
	bool over = false;

	while (bf.pos < bf.cnt) {
		job_record_t *j = job_mgr_find(bf.ids[bf.pos++]);

		if (j && j->on_pend && !_bf_one(j)) {
			over = true;
			break;
		}
		if (budget && (++n & 7) == 0 &&
		    (t = stats_now_usec()) - t0 >= budget)
			break;
	}
	t = stats_now_usec();
	bf.work_usec += t - t0;
	return over || bf.pos >= bf.cnt;
}

static void _bf_on_event(evutil_socket_t fd, short what, void *arg)
{
	const sched_params_t *p = sched_params();

	if (!bf.active && job_mgr_complete_wait(time(NULL))) {
		_bf_arm(1000000);            /* CompleteWait */
		return;
	}
	if (!bf.active) {
		_bf_begin();
	} else if (sched_change_gen() != bf.gen) {
		if (!p->bf_continue) {
			debug("backfill: system state changed, breaking out "
			      "after testing %u(%u) jobs", bf.depth,
			      bf.depth_try);
			_bf_end();
			_bf_arm_interval();
			return;
		}
		bf.gen = sched_change_gen();
		_bf_live_view();
	}
	if (_bf_step(p->bf_yield_interval)) {
		_bf_end();
		_bf_arm_interval();
		return;
	}
	_bf_arm(p->bf_yield_sleep);
}

int backfill_run(void)
{
	uint32_t started;

	if (bf.active)
		_bf_free_pass();
	_bf_begin();
	_bf_step(0);
	started = bf.started;
	_bf_end();
	return (int) started;
}

void backfill_reconfig(void)
{
	if (bf.active)
		_bf_free_pass();
	if (bf.ev) {
		event_del(bf.ev);
		_bf_arm_interval();
	}
}

void backfill_fini(void)
{
	if (bf.active)
		_bf_free_pass();
	if (bf.ev)
		event_free(bf.ev);
	bf.ev = NULL;
}
