/* gang.c — gang scheduling on the controller's loop (gang.h). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/bitmap.h"
#include "common/conf.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/gang.h"
#include "ctld/gang_slice.h"
#include "ctld/node_mgr.h"

#define GANG_SLICE_DEFAULT 30

static struct {
	const slurm_conf_t *conf;   /* the config the values are from */
	bool      enabled;
	uint32_t  slice;            /* SchedulerTimeSlice, s */
	time_t    slice_start;      /* when the current slice began */
	uint32_t *order;            /* job ids in queue order */
	size_t    order_cnt;
} gs;

static void _gs_load(void)
{
	const slurm_conf_t *c = ctld_conf();
	const char *mode, *ts;
	char **w;

	if (gs.conf == c)
		return;
	gs.conf = c;
	gs.enabled = false;
	mode = conf_get(c, "PreemptMode");
	w = xstrsplit(mode ? mode : "", ",", NULL);
	for (size_t i = 0; w[i]; i++)
		if (!strcasecmp(w[i], "GANG"))
			gs.enabled = true;
	xstrarray_free(w);
	ts = conf_get(c, "SchedulerTimeSlice");
	gs.slice = ts ? (uint32_t) strtoul(ts, NULL, 10) : 0;
	if (!gs.slice)
		gs.slice = GANG_SLICE_DEFAULT;
}

bool gang_enabled(void)
{
	_gs_load();
	return gs.enabled;
}

static uint32_t _gs_base(const job_record_t *j)
{
	return j->info.job_state & JOB_STATE_BASE;
}

/* Under the gang scheduler: a sharing job running, or waiting its turn. */
static bool _gs_gang_job(const job_record_t *j)
{
	if (!j->share || !j->node_bitmap || !j->alloc_cnt ||
	    (j->info.job_state & JOB_COMPLETING))
		return false;
	return _gs_base(j) == JOB_RUNNING ||
	       (_gs_base(j) == JOB_SUSPENDED && j->gang_susp);
}

/* Its launch is on its way (or waits for a prolog), not confirmed: a
 * SIGSTOP could arrive before it.  A job recovered at a restart has none
 * on its way unless it is launched again. */
static bool _gs_pinned(const job_record_t *j)
{
	return _gs_base(j) == JOB_RUNNING && j->info.batch_flag &&
	       !j->launch_ok && (j->launch_tries || j->started_here);
}

static void _gs_describe(const job_record_t *j, gang_job_t *g, uint32_t *nodes)
{
	long i, k = 0;

	for (i = bitmap_first_set(j->node_bitmap);
	     i >= 0 && (uint32_t) k < j->alloc_cnt;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++)
		nodes[k] = (uint32_t) i;
	g->id = j->info.job_id;
	g->node_cnt = (uint32_t) k;
	g->node = nodes;
	g->cpus = j->node_cpus;
	g->ids = j->node_cpu_ids;
	g->active = _gs_base(j) == JOB_RUNNING;
	g->pinned = _gs_pinned(j);
}

static void _gs_suspend(job_record_t *j, time_t now)
{
	log_flag(GANG, "gang: suspending JobId=%u", j->info.job_id);
	j->gang_susp = true;   /* before: its CPUs stay held */
	job_mgr_suspend_job(j, true, now);
}

static void _gs_resume(job_record_t *j, time_t now)
{
	log_flag(GANG, "gang: resuming JobId=%u", j->info.job_id);
	job_mgr_suspend_job(j, false, now);   /* CPUs held: nothing taken */
	j->gang_susp = false;
	job_mgr_touch(j);
}

static int _gs_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

typedef struct {
	job_record_t *j;
	size_t        pos;     /* in the old order; SIZE_MAX = new */
} gang_ent_t;

static int _gs_cmp_ent(const void *a, const void *b)
{
	const gang_ent_t *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->j->info.start_time != y->j->info.start_time)
		return x->j->info.start_time < y->j->info.start_time ? -1 : 1;
	return x->j->info.job_id < y->j->info.job_id ? -1 : 1;
}

/* Where id was in the old order (sorted copy: ids, pos). */
static size_t _gs_old_pos(const uint32_t *sorted, const size_t *pos, size_t n,
		       uint32_t id)
{
	const uint32_t *f = bsearch(&id, sorted, n, sizeof(*sorted), _gs_cmp_u32);

	return f ? pos[f - sorted] : SIZE_MAX;
}

/* The gang jobs in queue order (old order first, new ones by start). */
static gang_ent_t *_gs_collect(size_t *cnt)
{
	size_t n = 0, cap = 16, k;
	gang_ent_t *v = xcalloc(cap, sizeof(*v));
	uint32_t *sorted = xcalloc(gs.order_cnt + 1, sizeof(*sorted));
	size_t *pos = xcalloc(gs.order_cnt + 1, sizeof(*pos));

	/* sort (id, pos) pairs by id: pack pos into a parallel array */
	for (k = 0; k < gs.order_cnt; k++)
		sorted[k] = gs.order[k];
	qsort(sorted, gs.order_cnt, sizeof(*sorted), _gs_cmp_u32);
	for (k = 0; k < gs.order_cnt; k++) {
		uint32_t *f = bsearch(&gs.order[k], sorted, gs.order_cnt,
				      sizeof(*sorted), _gs_cmp_u32);
		pos[f - sorted] = k;
	}
	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next) {
		if (!_gs_gang_job(j))
			continue;
		if (n == cap) {
			v = xrealloc_sz(v, cap * sizeof(*v),
					2 * cap * sizeof(*v));
			cap *= 2;
		}
		v[n].j = j;
		v[n++].pos = _gs_old_pos(sorted, pos, gs.order_cnt,
				      j->info.job_id);
	}
	qsort(v, n, sizeof(*v), _gs_cmp_ent);
	xfree(sorted);
	xfree(pos);
	*cnt = n;
	return v;
}

static uint16_t *_gs_node_cpus(size_t *cnt)
{
	size_t n = node_mgr_count();
	uint16_t *c = xcalloc(n + 1, sizeof(*c));

	for (size_t i = 0; i < n; i++)
		c[i] = node_mgr_at(i)->info.cpus;
	*cnt = n;
	return c;
}

/* One pass: rotate (a slice is over) or fill. */
static void _gs_pass(bool rotate, time_t now)
{
	size_t n, node_cnt, k, changed = 0;
	gang_ent_t *e = _gs_collect(&n);
	gang_job_t *g = xcalloc(n + 1, sizeof(*g));
	uint32_t **nodes = xcalloc(n + 1, sizeof(*nodes));
	uint16_t *cpus;

	if (!n) {
		gs.order_cnt = 0;
		goto out;
	}
	cpus = _gs_node_cpus(&node_cnt);
	for (k = 0; k < n; k++) {
		nodes[k] = xcalloc(e[k].j->alloc_cnt + 1, sizeof(uint32_t));
		_gs_describe(e[k].j, &g[k], nodes[k]);
	}
	gang_slice(g, n, cpus, node_cnt, rotate);
	gs.order = xrealloc_sz(gs.order, gs.order_cnt * sizeof(*gs.order),
			       (n + 1) * sizeof(*gs.order));
	gs.order_cnt = n;
	for (k = 0; k < n; k++) {
		job_record_t *j = job_mgr_find(g[k].id);

		gs.order[k] = g[k].id;
		if (!j)
			continue;
		if (g[k].active && _gs_base(j) == JOB_SUSPENDED) {
			_gs_resume(j, now);
			changed++;
		} else if (!g[k].active && _gs_base(j) == JOB_RUNNING) {
			_gs_suspend(j, now);
			changed++;
		}
	}
	for (k = 0; k < n; k++)
		xfree(nodes[k]);
	xfree(cpus);
	if (changed)
		commit_dirty();
out:
	xfree(nodes);
	xfree(g);
	xfree(e);
}

/* GANG turned off: nothing may wait for a turn that will not come. */
static void _gs_resume_all(time_t now)
{
	bool any = false;

	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next)
		if (j->gang_susp && _gs_base(j) == JOB_SUSPENDED &&
		    !(j->info.job_state & JOB_COMPLETING)) {
			_gs_resume(j, now);
			any = true;
		}
	if (any)
		commit_dirty();
	gs.order_cnt = 0;
}

void gang_tick(time_t now)
{
	_gs_load();
	if (!gs.enabled) {
		_gs_resume_all(now);
		gs.slice_start = 0;
		return;
	}
	if (!gs.slice_start)
		gs.slice_start = now;
	if (now - gs.slice_start >= (time_t) gs.slice) {
		gs.slice_start = now;
		_gs_pass(true, now);
		return;
	}
	_gs_pass(false, now);
}
