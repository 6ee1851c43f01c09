/* bf_map.c — backfill's availability map (bf_map.h).
 *
 * Per node a sorted array of change points (slot, free cpus, free mem,
 * free GPU indexes): the free amount holds from that slot to the next
 * point.  GPU types are interned per map (type k+1 = types[k]); a node
 * of typed GPUs keeps each type's index mask, so a typed request counts
 * only the free GPUs of its type.  A query for
 * the earliest start scans the nodes once per candidate slot; a failed
 * scan yields the next candidate directly (the k-th smallest per-node
 * earliest start), and a per-slot total of free CPUs skips slots where
 * the cluster as a whole cannot hold the job.
 */
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/bf_map.h"

#define SLOT_INF UINT32_MAX

typedef struct {
	uint32_t slot;
	uint16_t cpus;
	uint64_t gpus;           /* free GPU indexes */
	uint64_t mem;
} bf_pt_t;

typedef struct {
	bf_pt_t *pt;
	uint32_t cnt, cap;
	uint16_t cap_cpus;
	uint16_t cap_gpus;
	uint64_t cap_mask;       /* the node's GPU indexes */
	uint64_t cap_mem;
	uint32_t weight;
} bf_node_t;

typedef struct {
	uint32_t node, slot;
	uint16_t cpus;
	uint64_t gpus, mem;
} bf_rel_t;

#define BF_MAX_TYPES 32

struct bf_map {
	bf_node_t *nodes;
	size_t     node_cnt;
	time_t     now;
	uint32_t   res;          /* seconds per slot */
	uint32_t   slots;        /* slots in the window */
	int64_t   *slot_free;    /* total free CPUs per slot, [slots] */
	bf_rel_t  *rel;          /* releases before finalize */
	size_t     rel_cnt, rel_cap;
	uint32_t  *scratch;      /* per-node earliest, for the k-th pick */
	size_t     cursor;       /* where the next scan begins */
	char      *types[BF_MAX_TYPES]; /* GPU type names seen */
	size_t     type_cnt;
	uint64_t  *tmask;        /* [node * BF_MAX_TYPES + k]: GPUs of
				  * types[k], NULL if no node is typed */
};

/* Intern type, -1 when the table is full. */
static int _type_idx(bf_map_t *m, const char *type, bool add)
{
	for (size_t k = 0; k < m->type_cnt; k++)
		if (!strcmp(m->types[k], type))
			return (int) k;
	if (!add || m->type_cnt == BF_MAX_TYPES)
		return -1;
	m->types[m->type_cnt] = xstrdup(type);
	return (int) m->type_cnt++;
}

/* Record the GPU masks of each type of node i. */
static void _node_types(bf_map_t *m, size_t i, const select_node_t *s)
{
	const gres_layout_t *l = s->gres;

	for (size_t k = 0; l && k < l->cnt; k++) {
		const gres_item_t *it = &l->v[k];
		int t;

		if (strcmp(it->name, "gpu") || !it->type ||
		    (t = _type_idx(m, it->type, true)) < 0)
			continue;
		if (!m->tmask)
			m->tmask = xcalloc(m->node_cnt * BF_MAX_TYPES + 1,
					   sizeof(uint64_t));
		m->tmask[i * BF_MAX_TYPES + (size_t) t] |= it->mask;
	}
	if (!l && s->gpu_type && s->gpus) {
		int t = _type_idx(m, s->gpu_type, true);

		if (t < 0)
			return;
		if (!m->tmask)
			m->tmask = xcalloc(m->node_cnt * BF_MAX_TYPES + 1,
					   sizeof(uint64_t));
		m->tmask[i * BF_MAX_TYPES + (size_t) t] = m->nodes[i].cap_mask;
	}
}

uint16_t bf_map_gpu_type(const bf_map_t *m, const char *type)
{
	int t;

	if (!type || !*type)
		return 0;
	t = _type_idx((bf_map_t *) m, type, false);
	return t < 0 ? BF_GPU_TYPE_NONE : (uint16_t) (t + 1);
}

/* The GPUs of node i that a request of gpu_type may use. */
static uint64_t _type_mask(const bf_map_t *m, const bf_node_t *n,
			   uint16_t gpu_type)
{
	if (!gpu_type)
		return n->cap_mask;
	if (gpu_type == BF_GPU_TYPE_NONE || !m->tmask)
		return 0;
	return m->tmask[(size_t) (n - m->nodes) * BF_MAX_TYPES +
			gpu_type - 1];
}

bf_map_t *bf_map_create(const select_node_t *nodes, size_t node_cnt,
			time_t now, uint32_t resolution, uint32_t window)
{
	bf_map_t *m = xmalloc(sizeof(*m));
	size_t i;

	m->node_cnt = node_cnt;
	m->now = now;
	m->res = resolution ? resolution : 1;
	m->slots = (window + m->res - 1) / m->res;
	if (m->slots < 1)
		m->slots = 1;
	m->nodes = xcalloc(node_cnt + 1, sizeof(*m->nodes));
	m->slot_free = xcalloc(m->slots + 1, sizeof(int64_t));
	m->scratch = xcalloc(node_cnt + 1, sizeof(uint32_t));
	for (i = 0; i < node_cnt; i++) {
		const select_node_t *s = &nodes[i];
		bf_node_t *n = &m->nodes[i];

		n->cap_cpus = s->cpus;
		n->cap_mem = s->real_memory;
		n->weight = s->weight;
		n->cap = 4;
		n->pt = xcalloc(n->cap, sizeof(bf_pt_t));
		n->cnt = 1;
		n->pt[0].cpus = s->alloc_cpus >= s->cpus ? 0 :
			s->cpus - s->alloc_cpus;
		n->pt[0].mem = s->alloc_memory >= s->real_memory ? 0 :
			s->real_memory - s->alloc_memory;
		n->cap_gpus = s->gpus > SELECT_MAX_GPUS ? SELECT_MAX_GPUS :
			s->gpus;
		n->cap_mask = n->cap_gpus >= 64 ? UINT64_MAX :
			((uint64_t) 1 << n->cap_gpus) - 1;
		n->pt[0].gpus = n->cap_mask & ~s->gpu_used;
		m->slot_free[0] += n->pt[0].cpus;
		_node_types(m, i, s);
	}
	return m;
}

void bf_map_destroy(bf_map_t *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->node_cnt; i++)
		xfree(m->nodes[i].pt);
	xfree(m->nodes);
	xfree(m->slot_free);
	xfree(m->rel);
	xfree(m->scratch);
	for (size_t k = 0; k < m->type_cnt; k++)
		xfree(m->types[k]);
	xfree(m->tmask);
	xfree(m);
}

size_t bf_map_bytes(const bf_map_t *m)
{
	size_t b = sizeof(*m) + m->node_cnt * (sizeof(bf_node_t) + 4) +
		(m->slots + 1) * sizeof(int64_t) + m->rel_cap * sizeof(bf_rel_t);

	for (size_t i = 0; i < m->node_cnt; i++)
		b += m->nodes[i].cap * sizeof(bf_pt_t);
	if (m->tmask)
		b += m->node_cnt * BF_MAX_TYPES * sizeof(uint64_t);
	return b;
}

/* Slot of an absolute time, rounded up (a release is never early). */
static uint32_t _slot_up(const bf_map_t *m, time_t t)
{
	int64_t rel = (int64_t) (t - m->now);

	if (rel <= 0)
		return 0;
	rel = (rel + m->res - 1) / m->res;
	return rel >= SLOT_INF ? SLOT_INF - 1 : (uint32_t) rel;
}

static uint32_t _dur_slots(const bf_map_t *m, uint32_t secs)
{
	uint32_t d = (uint32_t) (((uint64_t) secs + m->res - 1) / m->res);

	return d ? d : 1;
}

static void _release(bf_map_t *m, uint32_t node, time_t end, uint16_t cpus,
		     uint64_t mem, uint64_t gpus)
{
	uint32_t s = _slot_up(m, end);

	if (node >= m->node_cnt || s >= m->slots)
		return;
	if (!s)
		s = 1;
	if (m->rel_cnt == m->rel_cap) {
		m->rel_cap = m->rel_cap ? m->rel_cap * 2 : 64;
		m->rel = xrealloc(m->rel, m->rel_cap * sizeof(bf_rel_t));
	}
	m->rel[m->rel_cnt++] = (bf_rel_t) { node, s, cpus, gpus, mem };
}

void bf_map_release(bf_map_t *m, uint32_t node, time_t end, uint16_t cpus,
		    uint64_t mem)
{
	_release(m, node, end, cpus, mem, 0);
}

void bf_map_release_gpus(bf_map_t *m, uint32_t node, time_t end,
			 uint64_t mask)
{
	if (mask)
		_release(m, node, end, 0, 0, mask);
}

static int _rel_cmp(const void *a, const void *b)
{
	const bf_rel_t *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->slot < y->slot ? -1 : (x->slot > y->slot);
}

static void _push_pt(bf_node_t *n, bf_pt_t p)
{
	if (n->cnt == n->cap) {
		n->cap *= 2;
		n->pt = xrealloc(n->pt, n->cap * sizeof(bf_pt_t));
	}
	n->pt[n->cnt++] = p;
}

void bf_map_finalize(bf_map_t *m)
{
	size_t k;

	if (m->rel_cnt)
		qsort(m->rel, m->rel_cnt, sizeof(bf_rel_t), _rel_cmp);
	for (k = 0; k < m->rel_cnt; k++) {
		const bf_rel_t *r = &m->rel[k];
		bf_node_t *n = &m->nodes[r->node];
		bf_pt_t last = n->pt[n->cnt - 1];
		uint32_t c = last.cpus + r->cpus;

		last.cpus = c > n->cap_cpus ? n->cap_cpus : c;
		last.mem = last.mem + r->mem > n->cap_mem ? n->cap_mem :
			last.mem + r->mem;
		last.gpus = (last.gpus | r->gpus) & n->cap_mask;
		m->slot_free[r->slot] += last.cpus - n->pt[n->cnt - 1].cpus;
		if (n->pt[n->cnt - 1].slot == r->slot)
			n->pt[n->cnt - 1] = last;
		else {
			last.slot = r->slot;
			_push_pt(n, last);
		}
	}
	for (k = 1; k < m->slots; k++)
		m->slot_free[k] += m->slot_free[k - 1];
	xfree(m->rel);
	m->rel_cnt = m->rel_cap = 0;
}

/* ---- queries ---- */

static bool _fits(const bf_map_t *m, const bf_node_t *n, const bf_pt_t *p,
		  const bf_req_t *r)
{
	uint64_t tm = r->gpus ? _type_mask(m, n, r->gpu_type) : 0;

	if (r->exclusive)
		return p->cpus >= n->cap_cpus && p->mem >= n->cap_mem &&
		       p->gpus == n->cap_mask && n->cap_cpus &&
		       __builtin_popcountll(tm) >= r->gpus;
	return p->cpus >= r->cpus && p->mem >= r->mem &&
	       (!r->gpus || __builtin_popcountll(p->gpus & tm) >= r->gpus);
}

/* Earliest slot >= s where node n holds r for d slots with the same
 * GPUs all along (each point having enough free is not enough: a GPU
 * freed at one point may be taken at the next), or SLOT_INF. */
static uint32_t _node_earliest_gpus(const bf_map_t *m, const bf_node_t *n,
				    uint32_t s, uint32_t d, const bf_req_t *r)
{
	uint64_t tm = _type_mask(m, n, r->gpu_type);

	for (uint32_t i0 = 0; i0 < n->cnt; i0++) {
		uint32_t e0 = i0 + 1 < n->cnt ? n->pt[i0 + 1].slot : SLOT_INF;
		uint32_t run = n->pt[i0].slot > s ? n->pt[i0].slot : s;
		uint64_t keep = tm;

		if (e0 <= s)
			continue;
		for (uint32_t i = i0; i < n->cnt; i++) {
			uint32_t end = i + 1 < n->cnt ? n->pt[i + 1].slot :
				SLOT_INF;

			keep &= n->pt[i].gpus;
			if (!_fits(m, n, &n->pt[i], r) ||
			    __builtin_popcountll(keep) < r->gpus)
				break;
			if (end == SLOT_INF || end - run >= d)
				return run;
		}
	}
	return SLOT_INF;
}

/* Earliest slot >= s where node n holds r for d slots, or SLOT_INF. */
static uint32_t _node_earliest(const bf_map_t *m, const bf_node_t *n,
			       uint32_t s, uint32_t d, const bf_req_t *r)
{
	uint32_t run = SLOT_INF, i;

	if (r->gpus && !r->exclusive)
		return _node_earliest_gpus(m, n, s, d, r);

	for (i = 0; i < n->cnt; i++) {
		uint32_t end = i + 1 < n->cnt ? n->pt[i + 1].slot : SLOT_INF;

		if (end <= s)
			continue;
		if (!_fits(m, n, &n->pt[i], r)) {
			run = SLOT_INF;
			continue;
		}
		if (run == SLOT_INF)
			run = n->pt[i].slot > s ? n->pt[i].slot : s;
		if (end == SLOT_INF || end - run >= d)
			return run;
	}
	return SLOT_INF;
}

/* First slot in [s, s+d) (within the window) where the cluster's free
 * CPUs are below need, or SLOT_INF. */
static uint32_t _short_slot(const bf_map_t *m, uint32_t s, uint32_t d,
			    int64_t need)
{
	uint32_t e = s + d < m->slots && s + d > s ? s + d : m->slots;

	for (uint32_t k = s; k < e; k++)
		if (m->slot_free[k] < need)
			return k;
	return SLOT_INF;
}

/* k-th smallest (0-based) of v[0..n): three-way quickselect. */
static uint32_t _kth(uint32_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		uint32_t piv = v[lo + (hi - lo) / 2], t;
		size_t lt = lo, gt = hi, i = lo;

		while (i < gt) {
			if (v[i] < piv) {
				t = v[i]; v[i++] = v[lt]; v[lt++] = t;
			} else if (v[i] > piv) {
				t = v[i]; v[i] = v[--gt]; v[gt] = t;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return piv;
	}
	return v[lo];
}

/* One scan at slot s: 1 if req fits (nodes filled), else 0 and *next is
 * the earliest slot worth trying (SLOT_INF: none). */
static int _scan(bf_map_t *m, const bitmap_t *avail, const bf_req_t *r,
		 uint32_t s, uint32_t d, bitmap_t *nodes, uint32_t *next)
{
	uint32_t found = 0, k = 0;
	long i, first = -1;
	size_t pass;

	if (nodes)
		bitmap_clear_all(nodes);
	for (pass = 0; pass < 2; pass++) {
		long from = pass ? 0 : (long) m->cursor;
		long stop = pass ? (long) m->cursor : (long) m->node_cnt;

		for (i = bitmap_next_set(avail, from); i >= 0 && i < stop;
		     i = bitmap_next_set(avail, i + 1)) {
			uint32_t t = _node_earliest(m, &m->nodes[i], s, d, r);

			if (t != s) {
				m->scratch[k++] = t;
				continue;
			}
			if (first < 0)
				first = i;
			if (nodes)
				bitmap_set(nodes, i);
			if (++found == r->node_cnt) {
				m->cursor = (size_t) i + 1 >= m->node_cnt ?
					0 : (size_t) i + 1;
				return 1;
			}
		}
	}
	if (k < r->node_cnt - found) {
		*next = SLOT_INF;
		return 0;
	}
	*next = _kth(m->scratch, k, r->node_cnt - found - 1);
	return 0;
}

int bf_map_earliest(bf_map_t *m, const bitmap_t *avail, const bf_req_t *r,
		    time_t not_before, time_t *start, bitmap_t *nodes)
{
	uint32_t s = _slot_up(m, not_before), d = _dur_slots(m, r->duration);
	int64_t need = (int64_t) r->node_cnt * (r->exclusive ? 1 : r->cpus);
	uint32_t next, shortk;

	if (!r->node_cnt)
		return -1;
	while (s < m->slots) {
		shortk = _short_slot(m, s, d, need);
		if (shortk != SLOT_INF) {
			s = shortk + 1;
			continue;
		}
		if (_scan(m, avail, r, s, d, nodes, &next)) {
			*start = m->now + (time_t) s * m->res;
			return 0;
		}
		if (next == SLOT_INF || next <= s)
			break;
		s = next;
	}
	return -1;
}

bool bf_map_fits_at(bf_map_t *m, const bitmap_t *avail, const bf_req_t *r,
		    time_t start, bitmap_t *nodes)
{
	uint32_t s = _slot_up(m, start), next;

	if (!r->node_cnt || s >= m->slots)
		return false;
	return _scan(m, avail, r, s, _dur_slots(m, r->duration), nodes,
		     &next) == 1;
}

/* Index of the point starting exactly at slot s, inserting one. */
int bf_map_earliest_all(bf_map_t *m, bitmap_t *const *avail,
			const bf_req_t *req, size_t n, time_t not_before,
			uint32_t step, time_t *start, bitmap_t **nodes)
{
	size_t cnt = n ? bitmap_size(avail[0]) : 1;
	bitmap_t *used = bitmap_create(cnt ? cnt : 1);
	bitmap_t *a = bitmap_create(cnt ? cnt : 1);
	time_t t = not_before, s;
	int rc = -1;

	for (int round = 0; round < 64 && rc < 0; round++) {
		size_t i;

		bitmap_clear_all(used);
		for (i = 0; i < n; i++) {
			bitmap_clear_all(a);
			bitmap_or(a, avail[i]);
			bitmap_and_not(a, used);
			if (!bf_map_fits_at(m, a, &req[i], t, nodes[i]))
				break;
			bitmap_or(used, nodes[i]);
		}
		if (i == n) {
			rc = 0;
			break;
		}
		/* later: when it fits beside the others, else when it fits
		 * at all, else a step on */
		if (bf_map_earliest(m, a, &req[i], t, &s, NULL) < 0 &&
		    bf_map_earliest(m, avail[i], &req[i], t, &s, NULL) < 0)
			break;
		t = s > t ? s : t + (step ? step : 60);
	}
	*start = t;
	bitmap_destroy(used);
	bitmap_destroy(a);
	return rc;
}

static uint32_t _split(bf_node_t *n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i < n->cnt && n->pt[i].slot < s; i++)
		;
	if (i < n->cnt && n->pt[i].slot == s)
		return i;
	_push_pt(n, n->pt[n->cnt - 1]);
	memmove(&n->pt[i + 1], &n->pt[i], (n->cnt - 1 - i) * sizeof(bf_pt_t));
	n->pt[i] = n->pt[i - 1];
	n->pt[i].slot = s;
	return i;
}

static void _node_take(bf_map_t *m, bf_node_t *n, uint32_t s, uint32_t e,
		       uint16_t cpus, uint64_t mem, uint64_t gpus)
{
	uint32_t a, b, i, k;

	if (s >= m->slots && s != 0)
		return;
	a = _split(n, s);
	b = e >= m->slots ? n->cnt : _split(n, e);
	for (i = a; i < b; i++) {
		bf_pt_t *p = &n->pt[i];
		uint32_t to = i + 1 < n->cnt ? n->pt[i + 1].slot : m->slots;
		uint16_t took = p->cpus < cpus ? p->cpus : cpus;

		if (to > m->slots)
			to = m->slots;
		for (k = p->slot; k < to; k++)
			m->slot_free[k] -= took;
		p->cpus -= took;
		p->mem = p->mem < mem ? 0 : p->mem - mem;
		p->gpus &= ~gpus;
	}
}

/* The GPUs of r's type free on n over [s, e), the lowest r->gpus of them
 * (all there are if fewer: the request was planned without them). */
static uint64_t _bf_pick_gpus(const bf_map_t *m, const bf_node_t *n, uint32_t s,
			   uint32_t e, const bf_req_t *r)
{
	uint64_t free = UINT64_MAX, pick = 0;

	if (!r->gpus)
		return 0;
	for (uint32_t i = 0; i < n->cnt; i++) {
		uint32_t end = i + 1 < n->cnt ? n->pt[i + 1].slot : SLOT_INF;

		if (end > s && n->pt[i].slot < e)
			free &= n->pt[i].gpus;
	}
	free &= _type_mask(m, n, r->gpu_type);
	for (uint16_t k = 0; k < r->gpus && free; k++) {
		uint64_t low = free & -free;

		pick |= low;
		free &= ~low;
	}
	return pick;
}

void bf_map_reserve(bf_map_t *m, const bitmap_t *nodes, const bf_req_t *r,
		    time_t start)
{
	uint32_t s = _slot_up(m, start), e = s + _dur_slots(m, r->duration);
	long i;

	if (e < s)
		e = SLOT_INF;
	for (i = bitmap_first_set(nodes); i >= 0;
	     i = bitmap_next_set(nodes, i + 1)) {
		bf_node_t *n = &m->nodes[i];

		_node_take(m, n, s, e, r->exclusive ? n->cap_cpus : r->cpus,
			   r->exclusive ? n->cap_mem : r->mem,
			   r->exclusive ? n->cap_mask : _bf_pick_gpus(m, n, s, e, r));
	}
}

void bf_map_take(bf_map_t *m, const bitmap_t *nodes, const uint16_t *cpus,
		 const uint64_t *mem, const uint64_t *gpus, time_t start,
		 uint32_t duration)
{
	uint32_t s = _slot_up(m, start), e = s + _dur_slots(m, duration);
	long i, k = 0;

	if (e < s)
		e = SLOT_INF;
	for (i = bitmap_first_set(nodes); i >= 0;
	     i = bitmap_next_set(nodes, i + 1), k++)
		_node_take(m, &m->nodes[i], s, e, cpus[k], mem[k],
			   gpus ? gpus[k] : 0);
}

void bf_map_view(const bf_map_t *m, uint32_t duration, select_node_t *view)
{
	uint32_t d = _dur_slots(m, duration);

	for (size_t i = 0; i < m->node_cnt; i++) {
		const bf_node_t *n = &m->nodes[i];
		uint16_t c = n->pt[0].cpus;
		uint64_t mem = n->pt[0].mem, g = n->pt[0].gpus;

		for (uint32_t k = 1; k < n->cnt && n->pt[k].slot < d; k++) {
			if (n->pt[k].cpus < c)
				c = n->pt[k].cpus;
			if (n->pt[k].mem < mem)
				mem = n->pt[k].mem;
			g &= n->pt[k].gpus;
		}
		view[i].gpus = n->cap_gpus;
		view[i].gpu_used = n->cap_mask & ~g;
		view[i].cpus = n->cap_cpus;
		view[i].real_memory = n->cap_mem;
		view[i].weight = n->weight;
		view[i].alloc_cpus = n->cap_cpus - c;
		view[i].alloc_memory = n->cap_mem - mem;
	}
}
