/* sim_engine.c — the trace replayed through the controller's modules on
 * the virtual clock (sim_engine.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/ctld_plugins.h"
#include "ctld/sched_plugin.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/priority.h"
#include "ctld/resv_mgr.h"
#include "ctld/sched.h"
#include "ctld/state_save.h"
#include "ctld/topo_mgr.h"
#include "sim/sim_clock.h"
#include "slurm/slurm_errno.h"
#include "sim/sim_ctld.h"
#include "sim/sim_engine.h"

#define TICK_EVERY 60           /* s: time limits and purges between */

/* EV_WAKE: a requeued job's begin time passed; the controller's tick
 * triggers a pass every 5 s, which then starts it. */
typedef enum { EV_END, EV_LIMIT, EV_CANCEL, EV_WAKE } ev_kind_t;

typedef struct {
	time_t    t;
	time_t    gen;              /* the start it belongs to */
	uint32_t  idx;              /* trace job */
	ev_kind_t kind;
} ev_t;

static struct {
	const slurm_conf_t *conf;
	trace_t      *trace;
	sim_result_t *res;
	uint32_t     *order;        /* trace indexes by submit time */
	ev_t         *heap;
	size_t        heap_cnt, heap_cap;
	uint32_t     *tix;          /* job id -> trace index + 1 */
	size_t        tix_cap;
	uint32_t      calc_period;
	bool          up;
} se;

/* ---- events: a binary min-heap on time ---- */

static bool _ev_before(const ev_t *a, const ev_t *b)
{
	return a->t < b->t || (a->t == b->t && a->idx < b->idx);
}

static void _ev_push(time_t t, ev_kind_t kind, uint32_t idx, time_t gen)
{
	size_t i;

	if (se.heap_cnt == se.heap_cap) {
		se.heap_cap = se.heap_cap ? 2 * se.heap_cap : 1024;
		se.heap = xrealloc(se.heap, se.heap_cap * sizeof(*se.heap));
	}
	i = se.heap_cnt++;
	se.heap[i] = (ev_t){ .t = t, .gen = gen, .idx = idx, .kind = kind };
	while (i && _ev_before(&se.heap[i], &se.heap[(i - 1) / 2])) {
		ev_t tmp = se.heap[i];

		se.heap[i] = se.heap[(i - 1) / 2];
		se.heap[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static ev_t _ev_pop(void)
{
	ev_t top = se.heap[0];
	size_t i = 0;

	se.heap[0] = se.heap[--se.heap_cnt];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		ev_t tmp;

		if (l < se.heap_cnt && _ev_before(&se.heap[l], &se.heap[m]))
			m = l;
		if (r < se.heap_cnt && _ev_before(&se.heap[r], &se.heap[m]))
			m = r;
		if (m == i)
			break;
		tmp = se.heap[i];
		se.heap[i] = se.heap[m];
		se.heap[m] = tmp;
		i = m;
	}
	return top;
}

/* ---- setup ---- */

static int _init(const slurm_conf_t *c, char *err, size_t errlen)
{
	priority_conf_t pc = { 0 };

	se.conf = c;
	sim_ctld_set_conf(c);
	/* an unknown plugin name: Slurm's "cannot create ... context" */
	if (ctld_plugins_check(c, err, errlen) < 0)
		return -1;
	node_mgr_init(c);
	if (part_mgr_init(c, err, errlen) < 0)
		return -1;
	part_mgr_refresh_totals();
	if (topo_mgr_init(c, err, errlen) < 0 ||
	    lic_mgr_init(c, err, errlen) < 0)
		return -1;
	job_mgr_init();
	if (sched_init(NULL) < 0) {
		snprintf(err, errlen, "cannot start the scheduler plugins "
			 "(SchedulerType, SelectType, PriorityType, "
			 "PreemptType)");
		return -1;
	}
	if (priority_conf_load(c, &pc, err, errlen) < 0)
		return -1;
	se.calc_period = pc.calc_period ? pc.calc_period : 300;
	priority_conf_free(&pc);
	/* every node registers as slurm.conf describes it, idle */
	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);
		node_registration_msg_t r = {
			.cpus = n->cfg_cpus, .sockets = n->cfg_sockets,
			.cores = n->cfg_cores, .threads = n->cfg_threads,
			.real_memory = n->cfg_memory, .boards = 1 };
		slurm_msg_t m = { .data = &r };

		r.node_name = n->info.name;
		node_mgr_rpc_register(NULL, &m);
	}
	state_save_changes_reset();
	se.up = true;
	return 0;
}

void sim_engine_fini(void)
{
	uint32_t *ids;
	size_t n;

	if (!se.up)
		return;
	sched_fini();
	assoc_mgr_fini();
	resv_mgr_fini();
	job_mgr_fini();
	lic_mgr_fini();
	topo_mgr_fini();
	part_mgr_fini();
	node_mgr_fini();
	ids = sim_ctld_take_launched(&n);
	xfree(ids);
	ids = sim_ctld_take_terminated(&n);
	xfree(ids);
	sim_ctld_forget_users();
	xfree(se.heap);
	xfree(se.tix);
	xfree(se.order);
	memset(&se, 0, sizeof(se));
}

void sim_result_free(sim_result_t *r)
{
	for (size_t i = 0; i < r->cnt; i++) {
		xfree(r->jobs[i].refused);
		xfree(r->jobs[i].partition);
	}
	xfree(r->jobs);
	memset(r, 0, sizeof(*r));
}

/* ---- job id <-> trace job ---- */

static void _tix_set(uint32_t id, uint32_t idx)
{
	if (id >= se.tix_cap) {
		size_t cap = se.tix_cap ? se.tix_cap : 4096;

		while (cap <= id)
			cap *= 2;
		se.tix = xrealloc(se.tix, cap * sizeof(*se.tix));
		memset(se.tix + se.tix_cap, 0,
		       (cap - se.tix_cap) * sizeof(*se.tix));
		se.tix_cap = cap;
	}
	se.tix[id] = idx + 1;
}

static sim_job_t *_sj(uint32_t id, uint32_t *idx)
{
	if (id >= se.tix_cap || !se.tix[id])
		return NULL;
	*idx = se.tix[id] - 1;
	return &se.res->jobs[*idx];
}

/* ---- what happens to jobs ---- */

static int _submit_cmp(const void *a, const void *b)
{
	const trace_job_t *x = &se.trace->jobs[*(const uint32_t *) a];
	const trace_job_t *y = &se.trace->jobs[*(const uint32_t *) b];

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return *(const uint32_t *) a < *(const uint32_t *) b ? -1 : 1;
}

static void _submit(uint32_t idx)
{
	const trace_job_t *t = &se.trace->jobs[idx];
	sim_job_t *s = &se.res->jobs[idx];
	slurm_msg_t m = { .auth_uid = t->uid, .auth_gid = t->gid };
	uint32_t id = job_mgr_next_id();
	job_desc_t d;

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\n# sluice-sim\n");
	d.name = xstrdup(t->id);
	d.partition = xstrdup(t->partition);
	d.account = xstrdup(t->account);
	d.qos = xstrdup(t->qos);
	d.user_id = t->uid;
	d.group_id = t->gid;
	d.work_dir = xstrdup("/tmp");
	if (t->ncpus)
		d.num_tasks = t->ncpus;
	if (t->nnodes) {
		d.min_nodes = t->nnodes;
		d.max_nodes = t->nnodes;
	}
	if (t->time_limit)
		d.time_limit = t->time_limit;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	if (job_mgr_find(id)) {
		job_record_t *j = job_mgr_find(id);

		s->job_id = id;
		s->state = "PENDING";
		s->partition = xstrdup(j->info.partition);
		_tix_set(id, idx);
		if (t->runtime < 0 && t->cancel_after >= 0)
			_ev_push(t->submit + t->cancel_after, EV_CANCEL, idx,
				 0);
	} else {
		int rc = 0;
		char *msg = NULL;
		job_record_t *trial = job_mgr_trial(&d, &m, &rc, &msg);

		if (trial)
			job_mgr_trial_free(trial);
		if (rc == EAGAIN && !se.res->full_refused++)
			se.res->full_first = t->submit;
		s->refused = xstrdup(msg && *msg ? msg : rc ?
				     slurm_strerror(rc) : "refused");
		s->state = "REFUSED";
		s->partition = xstrdup(t->partition);
		xfree(msg);
	}
	job_desc_free_members(&d);
}

static const char *_state_name(uint32_t st)
{
	switch (st & JOB_STATE_BASE) {
	case JOB_COMPLETE:  return "COMPLETED";
	case JOB_TIMEOUT:   return "TIMEOUT";
	case JOB_CANCELLED: return "CANCELLED";
	case JOB_FAILED:    return "FAILED";
	default:            return job_state_string(st);
	}
}

/* The job ended for good (or pends again after a requeue): note it. */
static void _settle(job_record_t *j)
{
	uint32_t idx, st = j->info.job_state;
	sim_job_t *s = _sj(j->info.job_id, &idx);

	if (!s)
		return;
	if ((st & JOB_STATE_BASE) == JOB_PENDING) {
		/* requeued (preempted): it starts again later; the CPU time
		 * of the run it lost was held all the same */
		if (s->start)
			se.res->cpu_seconds += (uint64_t) s->ncpus *
				(uint64_t) (sim_clock_now() - s->start);
		s->start = s->end = 0;
		s->backfilled = false;
		s->state = "PENDING";
		if (j->begin_time > sim_clock_now())
			_ev_push((j->begin_time + 4) / 5 * 5, EV_WAKE, idx, 0);
	} else if (job_state_is_finished(st) && !(st & JOB_REQUEUE)) {
		s->state = _state_name(st);
		s->end = s->start ? j->info.end_time : 0;
		if (s->start) {
			se.res->cpu_seconds += (uint64_t) s->ncpus *
				(uint64_t) (s->end - s->start);
			if (s->end > se.res->last_end)
				se.res->last_end = s->end;
		}
	}
}

/* Every job told to terminate: its nodes confirm at once. */
static bool _drain_ends(void)
{
	bool any = false;

	for (;;) {
		size_t cnt;
		uint32_t *ids = sim_ctld_take_terminated(&cnt);

		if (!cnt) {
			xfree(ids);
			return any;
		}
		any = true;
		for (size_t i = 0; i < cnt; i++) {
			job_record_t *j = job_mgr_find(ids[i]);
			bitmap_t *nodes;

			if (!j || !j->comp_bitmap)
				continue;
			/* the last confirmation may free the job's bitmaps
			 * (a requeue): walk a copy */
			nodes = bitmap_copy(j->comp_bitmap);
			for (long n = bitmap_first_set(nodes); n >= 0;
			     n = bitmap_next_set(nodes, n + 1))
				job_mgr_node_done(j, node_mgr_at((size_t) n));
			bitmap_destroy(nodes);
			_settle(j);
		}
		xfree(ids);
	}
}

/* Jobs launched: they run for the trace's run time, or to the limit. */
static void _drain_starts(time_t now)
{
	size_t cnt;
	uint32_t *ids = sim_ctld_take_launched(&cnt);

	for (size_t i = 0; i < cnt; i++) {
		job_record_t *j = job_mgr_find(ids[i]);
		const trace_job_t *t;
		uint32_t idx;
		sim_job_t *s;
		time_t end, limit_end = 0;
		uint16_t over = se.conf->over_time_limit;

		if (!j || !(s = _sj(ids[i], &idx)) ||
		    j->info.job_state != JOB_RUNNING)
			continue;
		t = &se.trace->jobs[idx];
		s->start = now;
		s->backfilled = j->info.sched_name &&
			!strcmp(j->info.sched_name, "Backfill");
		s->nnodes = j->info.num_nodes;
		s->ncpus = j->info.num_cpus;
		s->time_limit = j->info.time_limit;
		xfree(s->partition);
		s->partition = xstrdup(j->info.partition);
		if (j->info.end_time && over != INFINITE16)
			limit_end = j->info.end_time +
				(over == NO_VAL16 ? 0 : (time_t) over * 60);
		if (t->runtime >= 0)
			end = now + t->runtime;
		else                    /* cancelled in the trace unstarted */
			end = t->submit + t->cancel_after > now ?
				t->submit + t->cancel_after : now;
		if (limit_end && end >= limit_end)
			_ev_push(limit_end, EV_LIMIT, idx, now);
		else
			_ev_push(end, EV_END, idx, now);
	}
	xfree(ids);
}

static void _event(const ev_t *e, time_t now)
{
	const trace_job_t *t = &se.trace->jobs[e->idx];
	sim_job_t *s = &se.res->jobs[e->idx];
	job_record_t *j = s->job_id ? job_mgr_find(s->job_id) : NULL;

	if (!j)
		return;
	switch (e->kind) {
	case EV_WAKE:
		return;                 /* the pass after it tries the job */
	case EV_CANCEL:
		if ((j->info.job_state & JOB_STATE_BASE) == JOB_PENDING) {
			job_mgr_end(j, JOB_CANCELLED, j->info.state_reason, 0);
			_settle(j);
		}
		return;
	case EV_LIMIT:
		job_mgr_tick(now);      /* the controller's own limit check */
		return;
	case EV_END:
		if (j->info.job_state != JOB_RUNNING || s->start != e->gen)
			return;         /* requeued, or ended otherwise */
		if (t->runtime < 0 || t->end == TRACE_CANCELLED)
			job_mgr_end(j, JOB_CANCELLED, WAIT_NO_REASON, 0);
		else if (t->end == TRACE_FAILED)
			job_mgr_end(j, JOB_FAILED, WAIT_NO_REASON, 1 << 8);
		else
			job_mgr_end(j, JOB_COMPLETE, WAIT_NO_REASON, 0);
		return;
	}
}

/* The earliest begin time of a pending job after now (a requeued job
 * waits for its old credentials to expire, --begin), or 0. */
static time_t _next_begin(time_t now)
{
	time_t best = 0;

	for (job_record_t *j = job_mgr_pending_first(); j; j = j->pend_next)
		if (j->begin_time > now && (!best || j->begin_time < best))
			best = j->begin_time;
	return best;
}

/* The next moment of a periodic timer at or after now, on its grid. */
static time_t _align(time_t next, time_t now, uint32_t every)
{
	if (next >= now || !every)
		return next;
	return now + (every - (now - next) % every) % every;
}

static void _forget_changes(void)
{
	uint32_t *d = NULL, *p = NULL;
	size_t dc = 0, pc = 0;

	job_mgr_take_changes(&d, &dc, &p, &pc);
	xfree(d);
	xfree(p);
}

int sim_engine_run(const slurm_conf_t *c, trace_t *t, sim_result_t *r,
		   char *err, size_t errlen)
{
	const sched_params_t *p;
	uint64_t wall0 = sim_clock_wall_usec();
	time_t now, next_sched, next_bf, next_prio, last_tick;
	size_t next_sub = 0;
	uint64_t iter = 0;
	bool multi;

	memset(r, 0, sizeof(*r));
	se.trace = t;
	se.res = r;
	r->cnt = t->cnt;
	r->jobs = xcalloc(t->cnt + 1, sizeof(*r->jobs));
	if (se.up) {
		snprintf(err, errlen, "one simulation per process");
		return -1;
	}
	if (!t->cnt) {
		snprintf(err, errlen, "the trace has no jobs");
		return -1;
	}
	se.order = xcalloc(t->cnt, sizeof(*se.order));
	for (size_t i = 0; i < t->cnt; i++)
		se.order[i] = (uint32_t) i;
	qsort(se.order, t->cnt, sizeof(*se.order), _submit_cmp);
	for (size_t i = 0; i < t->cnt; i++) {
		sim_ctld_add_user(t->jobs[i].uid, t->jobs[i].user);
		sim_ctld_add_group(t->jobs[i].gid);
	}
	now = t->jobs[se.order[0]].submit;
	r->first_submit = now;
	sim_clock_start(now);
	if (_init(c, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < node_mgr_count(); i++)
		r->total_cpus += node_mgr_at(i)->info.cpus;
	p = sched_params();
	multi = priority_is_multifactor();
	next_sched = now + p->sched_interval;
	/* the controller's backfill timer is on the wall clock's grid of
	 * bf_interval seconds (ctld/backfill.c) */
	next_bf = p->bf_interval ?
		(now / p->bf_interval + 1) * p->bf_interval : now;
	next_prio = now + se.calc_period;
	last_tick = now;

	for (;;) {
		bool pending = job_mgr_pending_first() != NULL;
		bool running = job_mgr_running_first() != NULL;
		bool changed = false;
		time_t next = (time_t) 1 << 62, wake = 0;

		if (next_sub < t->cnt)
			next = t->jobs[se.order[next_sub]].submit;
		if (se.heap_cnt && se.heap[0].t < next)
			next = se.heap[0].t;
		if (next_sub >= t->cnt && !se.heap_cnt && !running) {
			wake = pending ? _next_begin(sim_clock_now()) : 0;
			/* nothing more will happen: one last try, or on to
			 * the next begin time of a pending job */
			if (!wake) {
				if (!pending ||
				    (!sched_run() && !sched_plugin_run()))
					break;
				_drain_starts(sim_clock_now());
				continue;
			}
			next = wake;
		}
		if (pending) {
			if (p->sched_interval && next_sched < next)
				next = next_sched;
			if (p->bf_interval && sched_plugin_has_pass() &&
			    next_bf < next)
				next = next_bf;
			if (multi && next_prio < next)
				next = next_prio;
		}
		if (next > sim_clock_now())
			sim_clock_set(next);
		now = sim_clock_now();
		next_sched = _align(next_sched, now, p->sched_interval);
		next_bf = _align(next_bf, now, p->bf_interval);
		next_prio = _align(next_prio, now, se.calc_period);

		/* the backfill timer fires at the whole second, before what
		 * happens during that second (ends and submissions recorded
		 * with this second came a fraction of a second later) */
		if (p->bf_interval && now >= next_bf) {
			if (sched_plugin_has_pass() && job_mgr_pending_first()) {
				sched_plugin_run();
				r->bf_passes++;
			}
			next_bf = now + p->bf_interval;
			_drain_starts(now);
		}
		changed = wake && now >= wake;  /* a job became eligible */
		while (se.heap_cnt && se.heap[0].t <= now) {
			ev_t e = _ev_pop();

			if (e.kind == EV_LIMIT)
				last_tick = now;
			_event(&e, now);
			changed = true;
		}
		/* the controller's periodic work (purges of old records:
		 * MaxJobCount) is due before what arrives now sees it */
		if (now - last_tick >= TICK_EVERY) {
			job_mgr_tick(now);
			last_tick = now;
		}
		while (next_sub < t->cnt &&
		       t->jobs[se.order[next_sub]].submit <= now) {
			_submit(se.order[next_sub++]);
			changed = true;
		}
		changed |= _drain_ends();
		if (multi && now >= next_prio) {
			priority_recalc(now);
			next_prio = now + se.calc_period;
		}
		if (changed && job_mgr_pending_first()) {
			sched_run_triggered();
			r->passes++;
		}
		if (p->sched_interval && now >= next_sched) {
			sched_run();
			r->passes++;
			next_sched = now + p->sched_interval;
		}
		_drain_starts(now);
		/* jobs preempted in these passes are gone from their nodes
		 * now: the pass their ends trigger starts their preemptors */
		for (int k = 0; k < 4 && _drain_ends() &&
		     job_mgr_pending_first(); k++) {
			sched_run_triggered();
			r->passes++;
			_drain_starts(now);
		}
		if (++iter % 256 == 0)
			state_save_changes_reset();
		else
			_forget_changes();
	}
	r->wall_seconds = (double) (sim_clock_wall_usec() - wall0) / 1e6;
	return 0;
}
