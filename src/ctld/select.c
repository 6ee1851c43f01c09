/* select.c — node and CPU selection (see select.h).
 *
 * Candidates are the required nodes first, then the other usable nodes by
 * lowest Weight, then lowest index.  The first min_nodes candidates that
 * can hold a task are taken, each gets one task, then tasks fill the chosen
 * nodes in order (block distribution) and more nodes are added up to
 * max_nodes while tasks remain.  --spread-job takes as many nodes as it
 * may and deals tasks round-robin; --contiguous tries each run of
 * consecutive usable nodes in turn.  Then each chosen node names its CPU
 * ids (lowest free, whole cores under SELECT_CR_CORE) and GPU indexes.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/gres_bind.h"
#include "ctld/select.h"

typedef struct {
	const select_node_t *nodes;
	const select_req_t  *req;
	bool                 ignore_alloc;
	uint32_t            *order;     /* candidate indices */
	size_t               order_cnt;
	size_t               nreq;      /* required nodes at the head */
	uint32_t            *tasks;     /* per node index */
	uint32_t            *cap;       /* per node index, tasks it can take */
	uint32_t            *gpus;      /* per node index, --gpus share */
} sel_ctx_t;

static int _cmp_weight(const void *a, const void *b, void *arg)
{
	const select_node_t *nodes = arg;
	uint32_t ia = *(const uint32_t *) a, ib = *(const uint32_t *) b;
	uint32_t wa = nodes[ia].weight, wb = nodes[ib].weight;

	if (wa != wb)
		return wa < wb ? -1 : 1;
	return ia < ib ? -1 : (ia > ib);
}

/* LLN: by weight, then the most idle CPUs first. */
static int _cmp_lln(const void *a, const void *b, void *arg)
{
	const sel_ctx_t *s = arg;
	uint32_t ia = *(const uint32_t *) a, ib = *(const uint32_t *) b;
	const select_node_t *na = &s->nodes[ia], *nb = &s->nodes[ib];
	uint32_t fa = na->cpus, fb = nb->cpus;

	if (na->weight != nb->weight)
		return na->weight < nb->weight ? -1 : 1;
	if (!s->ignore_alloc) {
		fa = na->alloc_cpus < na->cpus ? na->cpus - na->alloc_cpus : 0;
		fb = nb->alloc_cpus < nb->cpus ? nb->cpus - nb->alloc_cpus : 0;
	}
	if (fa != fb)
		return fa > fb ? -1 : 1;
	return ia < ib ? -1 : (ia > ib);
}

static uint16_t _thr(const select_node_t *n, uint8_t cr)
{
	return (cr & SELECT_CR_CORE) && n->threads > 1 ? n->threads : 1;
}

uint32_t select_cpus_for(const select_node_t *n, uint8_t cr, uint32_t cpus)
{
	uint32_t t = _thr(n, cr);

	return (cpus + t - 1) / t * t;
}

/* The node's GPUs of the requested type (all of them if type is NULL). */
static uint64_t _gpu_mask(const select_node_t *n, const char *type)
{
	uint16_t g = n->gpus > SELECT_MAX_GPUS ? SELECT_MAX_GPUS : n->gpus;

	if (n->gres && n->gres->gpus)
		return gres_gpu_mask(n->gres, type);
	return g >= 64 ? UINT64_MAX : ((uint64_t) 1 << g) - 1;
}

/* GPUs not free to be taken whole: held, or holding shards/MPS. */
static uint64_t _gpu_busy(const select_node_t *n)
{
	return n->gpu_used | gres_shared_busy(n->gres, n->gres_use);
}

static bool _wants_gpus(const select_req_t *r)
{
	return r->gpus_per_node || r->gpus_per_task || r->gpus_per_job;
}

static bool _exclusive(const select_req_t *r)
{
	return r->exclusive || (r->cr & SELECT_LINEAR);
}

/* Free CPU ids of a node: whole free cores (all thr threads clear). */
static uint32_t _free_ids(const bitmap_t *used, uint32_t cpus, uint16_t thr)
{
	const uint64_t *w = bitmap_words(used);
	size_t nw = bitmap_nwords(used), k;
	uint32_t free = 0, c, t;

	if (thr == 1 || (thr == 2 && !(cpus & 1))) {
		for (k = 0; k < nw; k++) {
			uint64_t valid = (k + 1) * 64 <= cpus ? UINT64_MAX :
				(((uint64_t) 1 << (cpus - k * 64)) - 1);
			uint64_t busy = w[k] & valid, even = 0x5555555555555555ull;

			if (thr == 2)   /* core c = bits 2c, 2c+1: busy if either */
				free += 2 * (uint32_t) __builtin_popcountll(
					~((busy | (busy >> 1)) & even) & even &
					valid);
			else
				free += (uint32_t) __builtin_popcountll(~busy &
									valid);
		}
		return free;
	}
	for (c = 0; c + thr <= cpus; c += thr) {
		for (t = 0; t < thr; t++)
			if (bitmap_test(used, c + t))
				break;
		if (t == thr)
			free += thr;
	}
	return free;
}

/* CPUs free for this request: whole free cores under SELECT_CR_CORE. */
static uint32_t _free_cpus(const sel_ctx_t *s, const select_node_t *n)
{
	uint16_t thr = _thr(n, s->req->cr);
	uint32_t free;

	if (s->ignore_alloc)
		return n->cpus / thr * thr;
	if (!n->cpu_used) {
		free = n->alloc_cpus >= n->cpus ? 0 : n->cpus - n->alloc_cpus;
		return free / thr * thr;
	}
	return _free_ids(n->cpu_used, n->cpus, thr);
}

static uint32_t _free_gpus(const sel_ctx_t *s, const select_node_t *n)
{
	uint64_t used = s->ignore_alloc ? 0 : _gpu_busy(n);

	return (uint32_t) __builtin_popcountll(_gpu_mask(n, s->req->gpu_type) &
					       ~used);
}

static bool _idle(const select_node_t *n)
{
	if (n->gres && n->gres_use) {
		for (size_t i = 0; i < n->gres->cnt; i++)
			if (n->gres_use->used[i])
				return false;
		if (gres_shared_busy(n->gres, n->gres_use))
			return false;
	}
	return !n->alloc_cpus && !n->alloc_memory && !n->gpu_used &&
	       (!n->cpu_used || !bitmap_count(n->cpu_used));
}

/* GPU limits on the tasks a node can take; UINT32_MAX = none. */
static uint32_t _gpu_cap(const sel_ctx_t *s, const select_node_t *n)
{
	const select_req_t *r = s->req;
	uint32_t free;

	if (!_wants_gpus(r))
		return UINT32_MAX;
	if (r->gpu_type && !(n->gres && n->gres->gpus) &&
	    (!n->gpu_type || strcmp(r->gpu_type, n->gpu_type)))
		return 0;
	free = _free_gpus(s, n);
	if (free < r->gpus_per_node || (r->gpus_per_job && !free))
		return 0;
	/* --gpus=N on one node (one task, or -N 1): all N there */
	if (r->gpus_per_job && (r->max_nodes == 1 || r->num_tasks == 1) &&
	    free < r->gpus_per_node + r->gpus_per_job)
		return 0;
	if (r->gpus_per_task)
		return (free - r->gpus_per_node) / r->gpus_per_task;
	return UINT32_MAX;
}

/* --gres-flags=enforce-binding on a node whose GPUs have Cores=. */
static bool _binds(const select_req_t *r, const select_node_t *n)
{
	return r->gres_bind && n->gres && n->gres->gpu_cpus &&
	       _wants_gpus(r) && !_exclusive(r);
}

/* The GPUs a bound request may take on n, best first (gres_bind_order). */
static size_t _bind_order(const sel_ctx_t *s, const select_node_t *n,
			  uint8_t *ord)
{
	uint64_t free = _gpu_mask(n, s->req->gpu_type) &
		~(s->ignore_alloc ? 0 : _gpu_busy(n));

	return gres_bind_order(n->gres, free,
			       s->ignore_alloc ? NULL : n->cpu_used, ord);
}

static uint64_t _first_gpus(const uint8_t *ord, size_t k)
{
	uint64_t m = 0;

	for (size_t i = 0; i < k; i++)
		m |= (uint64_t) 1 << ord[i];
	return m;
}

/* CPU ids of n not free for a job bound to gpus: held, or off their
 * cores (a new bitmap, NULL when the GPUs bind every core). */
static bitmap_t *_bind_blocked(const sel_ctx_t *s, const select_node_t *n,
			       uint64_t gpus)
{
	bitmap_t *b = gres_bind_cpus(n->gres, gpus, n->cpus);

	if (!b)
		return NULL;
	bitmap_not(b);
	if (!s->ignore_alloc && n->cpu_used &&
	    bitmap_size(n->cpu_used) == bitmap_size(b))
		bitmap_or(b, n->cpu_used);
	return b;
}

/* Free CPUs for a job bound to the first k GPUs of ord. */
static uint32_t _bind_free(const sel_ctx_t *s, const select_node_t *n,
			   const uint8_t *ord, size_t k)
{
	bitmap_t *b = _bind_blocked(s, n, _first_gpus(ord, k));
	uint32_t free;

	if (!b)
		return _free_cpus(s, n);
	free = _free_ids(b, n->cpus, _thr(n, s->req->cr));
	bitmap_destroy(b);
	return free;
}

/* Tasks n can take when its CPUs must sit on the cores of its GPUs:
 * each count of GPUs is taken best first (most free CPUs on their
 * cores), and the tasks must fit on the cores of those.  With --gpus
 * (spread by _share_gpus later) every free GPU may be used. */
static uint32_t _bind_cap(const sel_ctx_t *s, const select_node_t *n,
			  uint32_t most)
{
	const select_req_t *r = s->req;
	uint8_t ord[SELECT_MAX_GPUS];
	size_t k = _bind_order(s, n, ord), want;
	uint32_t t, best = 0;

	if (!r->gpus_per_task) {
		want = r->gpus_per_job ? k : r->gpus_per_node;
		if (want > k || !want)
			return 0;
		return _bind_free(s, n, ord, want) / r->cpus_per_task;
	}
	for (t = 1; t <= most; t++) {
		want = r->gpus_per_node + (size_t) r->gpus_per_task * t;
		if (want > k ||
		    _bind_free(s, n, ord, want) / r->cpus_per_task < t)
			break;
		best = t;
	}
	return best;
}

/* How many tasks of req node n could take now (or when empty). */
static uint32_t _node_cap(const sel_ctx_t *s, const select_node_t *n)
{
	const select_req_t *r = s->req;
	bool mem_ok = !(r->cr & SELECT_CR_NO_MEMORY);
	uint16_t thr = _thr(n, r->cr);
	uint64_t free_mem = n->real_memory, t, g;
	uint32_t free_cpus;

	if (!s->ignore_alloc) {
		if (_exclusive(r) && !_idle(n))
			return 0;
		free_mem = n->alloc_memory >= n->real_memory ?
			0 : n->real_memory - n->alloc_memory;
	}
	free_cpus = _exclusive(r) ? n->cpus / thr * thr : _free_cpus(s, n);
	if (r->max_cpus && free_cpus > r->max_cpus[n - s->nodes])
		free_cpus = r->max_cpus[n - s->nodes] / thr * thr;
	t = free_cpus / r->cpus_per_task;
	if (r->ntasks_per_node && t > r->ntasks_per_node)
		t = r->ntasks_per_node;
	if (mem_ok && r->mem_per_node) {
		if (free_mem < r->mem_per_node)
			return 0;
	} else if (mem_ok && r->mem_per_cpu) {
		if (_exclusive(r)) {
			if ((uint64_t) n->cpus * r->mem_per_cpu > free_mem)
				return 0;
		} else {
			uint64_t c = free_mem / r->mem_per_cpu / thr * thr;

			if (t > c / r->cpus_per_task)
				t = c / r->cpus_per_task;
		}
	}
	g = _gpu_cap(s, n);
	if (t > g)
		t = g;
	if (t && _binds(r, n)) {
		g = _bind_cap(s, n, (uint32_t) t);
		if (t > g)
			t = g;
	}
	if (r->gres_cnt && !gres_sel_fits(n->gres,
			s->ignore_alloc ? NULL : n->gres_use,
			s->ignore_alloc ? 0 : n->gpu_used, r->gres,
			r->gres_cnt))
		return 0;
	return t > UINT32_MAX ? UINT32_MAX : (uint32_t) t;
}

#define CAP_UNKNOWN UINT32_MAX

/* Tasks node i can take, computed the first time it is asked: a small
 * job looks at a few nodes, not all of them. */
static uint32_t _cap(sel_ctx_t *s, uint32_t i)
{
	if (s->cap[i] == CAP_UNKNOWN) {
		uint32_t c = _node_cap(s, &s->nodes[i]);

		s->cap[i] = c == CAP_UNKNOWN ? CAP_UNKNOWN - 1 : c;
	}
	return s->cap[i];
}

/* Candidate order: required nodes (index order), then the rest of avail
 * by weight; with contiguous, plain index order. */
static int _build_order(sel_ctx_t *s, const bitmap_t *avail, size_t node_cnt)
{
	const bitmap_t *reqd = s->req->required;
	const bitmap_t *feat = s->req->feature_nodes;
	size_t nreq = 0, first_other;
	bool uniform = true;
	long i;

	s->order = xcalloc(node_cnt ? node_cnt : 1, sizeof(uint32_t));
	if (reqd && !s->req->contiguous) {
		for (i = bitmap_first_set(reqd); i >= 0;
		     i = bitmap_next_set(reqd, i + 1)) {
			if ((size_t) i >= node_cnt)
				return -1;
			if (!bitmap_test(avail, i) && !s->ignore_alloc)
				return -1;
			if (feat && !bitmap_test(feat, i))
				return -1;
			s->order[nreq++] = i;
		}
	}
	first_other = nreq;
	for (i = bitmap_first_set(avail); i >= 0 && (size_t) i < node_cnt;
	     i = bitmap_next_set(avail, i + 1)) {
		if (reqd && bitmap_test(reqd, i) && !s->req->contiguous)
			continue;
		if (feat && !bitmap_test(feat, i))
			continue;
		if (s->order_cnt &&
		    s->nodes[i].weight != s->nodes[s->order[first_other]].weight)
			uniform = false;
		s->order[first_other + s->order_cnt++] = i;
	}
	if ((s->req->cr & SELECT_LLN) && !s->req->contiguous)
		qsort_r(s->order + first_other, s->order_cnt, sizeof(uint32_t),
			_cmp_lln, s);
	else if (!uniform && !s->req->contiguous)
		qsort_r(s->order + first_other, s->order_cnt, sizeof(uint32_t),
			_cmp_weight, (void *) s->nodes);
	s->order_cnt += nreq;
	s->nreq = nreq;
	return (int) nreq;
}

/* Spread: one task per node over as many nodes as allowed, then deal the
 * rest round-robin. */
static uint32_t _spread(sel_ctx_t *s, const uint32_t *ord, size_t cnt,
			uint32_t chosen, uint32_t tasks_left)
{
	const select_req_t *r = s->req;
	bool any = true;
	size_t k;

	for (k = 0; k < cnt && tasks_left && chosen < r->max_nodes; k++) {
		if (s->tasks[ord[k]] || !_cap(s, ord[k]))
			continue;
		s->tasks[ord[k]] = 1;
		tasks_left--;
		chosen++;
	}
	while (tasks_left && any) {
		any = false;
		for (k = 0; k < cnt && tasks_left; k++) {
			uint32_t *t = &s->tasks[ord[k]];

			if (!*t || *t >= _cap(s, ord[k]))
				continue;
			(*t)++;
			tasks_left--;
			any = true;
		}
	}
	return tasks_left;
}

/* Distribute tasks over ord[0..cnt) (its first nreq required), choosing
 * other nodes only if they can take min_cap tasks; returns 0 when all
 * tasks found a place. */
static int _distribute(sel_ctx_t *s, const uint32_t *ord, size_t cnt,
		       size_t nreq, uint32_t min_cap)
{
	const select_req_t *r = s->req;
	uint32_t chosen = 0, tasks_left, add;
	size_t k, next = 0;

	for (k = 0; k < nreq; k++) {
		if (!_cap(s, ord[k]))
			return -1;
		s->tasks[ord[k]] = 1;
		chosen++;
	}
	for (next = nreq; next < cnt && chosen < r->min_nodes; next++) {
		if (!_cap(s, ord[next]) || _cap(s, ord[next]) < min_cap)
			continue;
		s->tasks[ord[next]] = 1;
		chosen++;
	}
	if (chosen < r->min_nodes || chosen > r->max_nodes)
		return -1;
	tasks_left = r->num_tasks > chosen ? r->num_tasks - chosen : 0;
	if (r->spread)
		return _spread(s, ord, cnt, chosen, tasks_left) ? -1 : 0;
	for (k = 0; k < next && tasks_left; k++) {
		uint32_t *t = &s->tasks[ord[k]];

		if (!*t)
			continue;
		add = _cap(s, ord[k]) - *t < tasks_left ?
			_cap(s, ord[k]) - *t : tasks_left;
		*t += add;
		tasks_left -= add;
	}
	for (; next < cnt && tasks_left && chosen < r->max_nodes; next++) {
		if (!_cap(s, ord[next]) || _cap(s, ord[next]) < min_cap)
			continue;
		add = _cap(s, ord[next]) < tasks_left ? _cap(s, ord[next]) :
			tasks_left;
		s->tasks[ord[next]] = add;
		tasks_left -= add;
		chosen++;
	}
	return tasks_left ? -1 : 0;
}

/* --gpus=N: shares of the chosen nodes' free GPUs, in candidate order. */
static int _share_gpus(sel_ctx_t *s, const uint32_t *ord, size_t cnt)
{
	const select_req_t *r = s->req;
	uint32_t left = r->gpus_per_job;
	size_t k;

	for (k = 0; k < cnt && left; k++) {
		uint32_t i = ord[k], free, own;

		if (!s->tasks[i])
			continue;
		own = r->gpus_per_node + r->gpus_per_task * s->tasks[i];
		free = _free_gpus(s, &s->nodes[i]);
		free = free > own ? free - own : 0;
		s->gpus[i] = free < left ? free : left;
		left -= s->gpus[i];
	}
	return left ? -1 : 0;
}

static void _reset(sel_ctx_t *s, size_t node_cnt)
{
	memset(s->tasks, 0, node_cnt * sizeof(uint32_t));
	memset(s->gpus, 0, node_cnt * sizeof(uint32_t));
}

static bool _has_required(const sel_ctx_t *s)
{
	const bitmap_t *reqd = s->req->required;
	long i;

	if (!reqd)
		return true;
	for (i = bitmap_first_set(reqd); i >= 0; i = bitmap_next_set(reqd, i + 1))
		if (!s->tasks[i])
			return false;
	return true;
}

/* Try each run of consecutive usable nodes (index order). */
static int _place_contiguous(sel_ctx_t *s, size_t node_cnt)
{
	size_t a = 0, b;

	while (a < s->order_cnt) {
		if (!_cap(s, s->order[a])) {
			a++;
			continue;
		}
		for (b = a + 1; b < s->order_cnt &&
		     s->order[b] == s->order[b - 1] + 1 && _cap(s, s->order[b]);
		     b++)
			;
		_reset(s, node_cnt);
		if (!_distribute(s, s->order + a, b - a, 0, 1) &&
		    _has_required(s) &&
		    (!s->req->gpus_per_job ||
		     !_share_gpus(s, s->order + a, b - a)))
			return 0;
		a = b;
	}
	return -1;
}

static int _place(sel_ctx_t *s, size_t node_cnt)
{
	memset(s->cap, 0xff, node_cnt * sizeof(uint32_t));   /* CAP_UNKNOWN */
	if (s->req->contiguous)
		return _place_contiguous(s, node_cnt);
	/* With few nodes allowed (-N 1 -n 8), look first for nodes that hold
	 * their whole share, not the first with a free CPU. */
	if (s->req->max_nodes < s->order_cnt && !s->req->spread) {
		uint32_t share = (s->req->num_tasks + s->req->max_nodes - 1) /
			s->req->max_nodes;

		if (share > 1) {
			if (!_distribute(s, s->order, s->order_cnt, s->nreq,
					 share) &&
			    (!s->req->gpus_per_job ||
			     !_share_gpus(s, s->order, s->order_cnt)))
				return 0;
			_reset(s, node_cnt);
		}
	}
	if (_distribute(s, s->order, s->order_cnt, s->nreq, 1) < 0)
		return -1;
	if (s->req->gpus_per_job && _share_gpus(s, s->order, s->order_cnt) < 0)
		return -1;
	return 0;
}

/* Lowest free CPU ids (whole cores under SELECT_CR_CORE), none of
 * blocked (NULL = no more blocked than held); *got how many. */
static bitmap_t *_pick_cpus(const sel_ctx_t *s, const select_node_t *n,
			    uint32_t want, const bitmap_t *blocked,
			    uint32_t *got)
{
	uint16_t thr = _thr(n, s->req->cr);
	bitmap_t *b = bitmap_create(n->cpus ? n->cpus : 1);
	uint32_t c, t;

	*got = 0;
	for (c = 0; c + thr <= n->cpus && *got < want; c += thr) {
		for (t = 0; t < thr; t++)
			if ((!s->ignore_alloc &&
			     bitmap_test(n->cpu_used, c + t)) ||
			    (blocked && bitmap_test(blocked, c + t)))
				break;
		if (t < thr)
			continue;
		bitmap_set_range(b, c, c + thr - 1);
		*got += thr;
	}
	return b;
}

static uint64_t _pick_gpus(const sel_ctx_t *s, const select_node_t *n,
			   uint32_t want)
{
	uint64_t free = _gpu_mask(n, _exclusive(s->req) ? NULL :
				  s->req->gpu_type) &
		~(s->ignore_alloc ? 0 : _gpu_busy(n));
	uint64_t out = 0;

	while (want-- && free) {
		uint64_t low = free & -free;

		out |= low;
		free &= ~low;
	}
	return out;
}

/* A bound request's GPUs on n (best first) and the CPUs off their
 * cores; -1 when their cores hold too few free CPUs. */
static int _fill_bound(const sel_ctx_t *s, const select_node_t *n,
		       uint32_t g, uint32_t cpus, uint32_t j,
		       select_result_t *res)
{
	uint8_t ord[SELECT_MAX_GPUS];
	size_t k = _bind_order(s, n, ord);
	bitmap_t *blocked;
	uint32_t got = cpus;

	if (k < g)
		return -1;
	res->gpus[j] = _first_gpus(ord, g);
	blocked = _bind_blocked(s, n, res->gpus[j]);
	if (res->cpu_ids && n->cpu_used)
		res->cpu_ids[j] = _pick_cpus(s, n, cpus, blocked, &got);
	else if (blocked)
		got = _free_ids(blocked, n->cpus, _thr(n, s->req->cr));
	if (blocked)
		bitmap_destroy(blocked);
	return got < cpus ? -1 : 0;
}

static int _fill_node(const sel_ctx_t *s, size_t i, uint32_t j,
		      select_result_t *res)
{
	const select_req_t *r = s->req;
	const select_node_t *n = &s->nodes[i];
	uint32_t cpus, g, got;

	cpus = _exclusive(r) ? n->cpus :
		select_cpus_for(n, r->cr, s->tasks[i] * r->cpus_per_task);
	res->cpus[j] = cpus;
	res->tasks[j] = s->tasks[i];
	if (r->cr & SELECT_CR_NO_MEMORY)
		res->mem[j] = 0;
	else if (r->mem_per_node)
		res->mem[j] = r->mem_per_node;
	else if (r->mem_per_cpu)
		res->mem[j] = r->mem_per_cpu * cpus;
	g = r->gpus_per_node + r->gpus_per_task * s->tasks[i] + s->gpus[i];
	if (_exclusive(r))
		g = n->gpus;          /* whole nodes come with all their GPUs */
	if (g && _binds(r, n)) {
		if (_fill_bound(s, n, g, cpus, j, res) < 0)
			return -1;
	} else {
		if (res->cpu_ids && n->cpu_used)
			res->cpu_ids[j] = _pick_cpus(s, n, cpus, NULL, &got);
		res->gpus[j] = g ? _pick_gpus(s, n, g) : 0;
	}
	res->gpu_cnt += (uint32_t) __builtin_popcountll(res->gpus[j]);
	res->cpu_cnt += cpus;
	if (res->gres_alloc)
		res->gres_alloc[j] = gres_sel_pick(n->gres,
			s->ignore_alloc ? NULL : n->gres_use,
			(s->ignore_alloc ? 0 : n->gpu_used) | res->gpus[j],
			r->gres, r->gres_cnt);
	return 0;
}

/* 0, or -1 (res freed) when a bound node's cores fell short. */
static int _fill_result(const sel_ctx_t *s, size_t node_cnt,
			 select_result_t *res)
{
	bool ids = false;
	uint32_t j = 0;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->nodes = bitmap_create(node_cnt ? node_cnt : 1);
	for (i = 0; i < node_cnt; i++) {
		if (!s->tasks[i])
			continue;
		res->node_cnt++;
		if (s->nodes[i].cpu_used)
			ids = true;
	}
	res->cpus = xcalloc(res->node_cnt + 1, sizeof(uint16_t));
	res->tasks = xcalloc(res->node_cnt + 1, sizeof(uint16_t));
	res->mem = xcalloc(res->node_cnt + 1, sizeof(uint64_t));
	res->gpus = xcalloc(res->node_cnt + 1, sizeof(uint64_t));
	if (s->req->gres_cnt)
		res->gres_alloc = xcalloc(res->node_cnt + 1, sizeof(char *));
	if (ids)
		res->cpu_ids = xcalloc(res->node_cnt + 1, sizeof(bitmap_t *));
	for (i = 0; i < node_cnt; i++) {
		if (!s->tasks[i])
			continue;
		bitmap_set(res->nodes, i);
		if (_fill_node(s, i, j, res) < 0) {
			select_result_free(res);
			return -1;
		}
		j++;
	}
	return 0;
}

static bool _valid(const select_req_t *req)
{
	if (!req->cpus_per_task || !req->min_nodes ||
	    req->min_nodes > req->max_nodes)
		return false;
	if (req->gpus_per_node > SELECT_MAX_GPUS ||
	    req->gpus_per_task > SELECT_MAX_GPUS)
		return false;
	return true;
}

int select_job_test(const select_node_t *nodes, size_t node_cnt,
		    const bitmap_t *avail, const select_req_t *req,
		    bool ignore_alloc, select_result_t *res)
{
	sel_ctx_t s = { .nodes = nodes, .req = req,
			.ignore_alloc = ignore_alloc };
	int nreq, rc = ignore_alloc ? SELECT_NEVER : SELECT_BUSY;
	size_t cnt = node_cnt ? node_cnt : 1;

	if (!_valid(req))
		return SELECT_NEVER;
	nreq = _build_order(&s, avail, node_cnt);
	if (nreq < 0)
		goto out;
	if ((uint32_t) nreq > req->max_nodes)
		goto out;
	s.tasks = xcalloc(cnt, sizeof(uint32_t));
	s.cap = xcalloc(cnt, sizeof(uint32_t));
	s.gpus = xcalloc(cnt, sizeof(uint32_t));
	if (_place(&s, node_cnt) < 0)
		goto out;
	if (_fill_result(&s, node_cnt, res) < 0)
		goto out;
	rc = SELECT_OK;
out:
	xfree(s.order);
	xfree(s.tasks);
	xfree(s.cap);
	xfree(s.gpus);
	return rc;
}

void select_result_free(select_result_t *res)
{
	if (!res)
		return;
	if (res->nodes)
		bitmap_destroy(res->nodes);
	for (uint32_t k = 0; res->cpu_ids && k < res->node_cnt; k++)
		if (res->cpu_ids[k])
			bitmap_destroy(res->cpu_ids[k]);
	xfree(res->cpu_ids);
	for (uint32_t k = 0; res->gres_alloc && k < res->node_cnt; k++)
		xfree(res->gres_alloc[k]);
	xfree(res->gres_alloc);
	xfree(res->cpus);
	xfree(res->tasks);
	xfree(res->mem);
	xfree(res->gpus);
	memset(res, 0, sizeof(*res));
}

char *select_compress_counts(const uint16_t *vals, size_t n)
{
	char *out = NULL;
	size_t i = 0, run;

	while (i < n) {
		for (run = 1; i + run < n && vals[i + run] == vals[i]; run++)
			;
		if (out)
			xstrcatc(&out, ',');
		if (run > 1)
			xstrfmtcat(&out, "%u(x%zu)", vals[i], run);
		else
			xstrfmtcat(&out, "%u", vals[i]);
		i += run;
	}
	return out ? out : xstrdup("");
}

char *select_gpu_idx_str(uint64_t bits)
{
	char *out = NULL;
	int i = 0, j;

	while (i < 64) {
		if (!(bits & ((uint64_t) 1 << i))) {
			i++;
			continue;
		}
		for (j = i; j + 1 < 64 && (bits & ((uint64_t) 1 << (j + 1))); j++)
			;
		if (out)
			xstrcatc(&out, ',');
		if (j > i)
			xstrfmtcat(&out, "%d-%d", i, j);
		else
			xstrfmtcat(&out, "%d", i);
		i = j + 1;
	}
	return out ? out : xstrdup("");
}
