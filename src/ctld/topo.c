/* topo.c — placement inside the network topology (see topo.h).
 *
 * Per call the free CPUs and usable nodes of each level-0 domain are
 * counted once over avail, and summed up for the higher domains; those
 * counts only filter (a domain with too few is not tried), the answer is
 * always the select function's on the domain's nodes.  A level gives up
 * after a few failed tries (memory or GPUs short where the CPU count
 * said yes), so a job costs a bounded number of selections.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hostlist.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/topo.h"

#define TP_NONE UINT32_MAX
#define TP_MAX_TRIES 16            /* failed selections per level */

typedef struct {
	char     *name;        /* NULL: an aggregated block (not shown) */
	uint32_t  level;
	uint32_t  link_speed;
	bitmap_t *nodes;
	uint32_t *leaves;      /* level-0 domains under it (itself at 0) */
	uint32_t  leaf_cnt;
	char     *switches;    /* child switches as written (tree) */
	uint32_t  conf_idx;    /* line order in the file */
	uint32_t  size;        /* block: its node count */
} tp_dom_t;

struct topo {
	enum topo_kind kind;
	size_t    node_cnt;
	tp_dom_t    *dom;         /* by level, then file order */
	size_t    dom_cnt;
	uint32_t *lv_start;    /* first domain of each level, max_level+2 */
	uint32_t  max_level;
	uint32_t *leaf_of;     /* per node: its level-0 domain, or TP_NONE */
	bitmap_t *all;         /* nodes in some domain */
	uint32_t *show;        /* domain index of the i-th shown line */
	size_t    show_cnt;
};

typedef struct {
	const char *name;
	uint32_t    idx;
} tp_name_idx_t;

static int _tp_cmp_name(const void *a, const void *b)
{
	return strcmp(((const tp_name_idx_t *) a)->name,
		      ((const tp_name_idx_t *) b)->name);
}

/* Nodes of expr into b; -1 with err naming a node not in slurm.conf. */
static int _tp_resolve(const tp_name_idx_t *tab, size_t cnt, const char *expr,
		    bitmap_t *b, const char *fname, int line, char *err,
		    size_t errlen)
{
	char why[256];
	hostlist_t *hl = hostlist_parse(expr, why, sizeof(why));

	if (!hl) {
		snprintf(err, errlen, "%s:%d: %s", fname, line, why);
		return -1;
	}
	for (size_t k = 0; k < hostlist_count(hl); k++) {
		tp_name_idx_t key = { hostlist_nth(hl, k), 0 }, *hit;

		hit = bsearch(&key, tab, cnt, sizeof(*tab), _tp_cmp_name);
		if (!hit) {
			snprintf(err, errlen, "%s:%d: node %s is not in "
				 "slurm.conf", fname, line, key.name);
			hostlist_destroy(hl);
			return -1;
		}
		bitmap_set(b, hit->idx);
	}
	hostlist_destroy(hl);
	return 0;
}

void topo_destroy(topo_t *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->dom_cnt; i++) {
		xfree(t->dom[i].name);
		xfree(t->dom[i].leaves);
		xfree(t->dom[i].switches);
		if (t->dom[i].nodes)
			bitmap_destroy(t->dom[i].nodes);
	}
	xfree(t->dom);
	xfree(t->lv_start);
	xfree(t->leaf_of);
	xfree(t->show);
	if (t->all)
		bitmap_destroy(t->all);
	xfree(t);
}

static tp_dom_t *_tp_add_dom(topo_t *t)
{
	t->dom = xrealloc_sz(t->dom, t->dom_cnt * sizeof(tp_dom_t),
			     (t->dom_cnt + 1) * sizeof(tp_dom_t));
	t->dom[t->dom_cnt].nodes = bitmap_create(t->node_cnt ?
						 t->node_cnt : 1);
	return &t->dom[t->dom_cnt++];
}

static void _tp_add_leaf(tp_dom_t *d, uint32_t leaf)
{
	d->leaves = xrealloc_sz(d->leaves, d->leaf_cnt * sizeof(uint32_t),
				(d->leaf_cnt + 1) * sizeof(uint32_t));
	d->leaves[d->leaf_cnt++] = leaf;
}

/* Switches by level, then line; their nodes and leaves from below. */
static int _tp_build_tree(topo_t *t, const topo_conf_t *c, const tp_name_idx_t *tab,
		       size_t cnt, const char *fname, char *err, size_t errlen)
{
	uint32_t *dom_of = xcalloc(c->sw_cnt + 1, sizeof(uint32_t));
	int rc = 0;

	for (uint32_t lv = 0; rc == 0 && lv <= t->max_level; lv++) {
		for (size_t i = 0; i < c->sw_cnt; i++) {
			const topo_switch_conf_t *s = &c->sw[i];
			tp_dom_t *d;

			if (s->level != lv)
				continue;
			dom_of[i] = (uint32_t) t->dom_cnt;
			d = _tp_add_dom(t);
			d->name = xstrdup(s->name);
			d->level = lv;
			d->link_speed = s->link_speed;
			d->conf_idx = (uint32_t) i;
			d->switches = xstrdup(s->switches);
			if (s->nodes) {
				if (_tp_resolve(tab, cnt, s->nodes, d->nodes,
					     fname, s->line, err, errlen) < 0) {
					rc = -1;
					break;
				}
			}
			if (!lv)
				_tp_add_leaf(d, dom_of[i]);
			for (uint32_t k = 0; k < s->child_cnt; k++) {
				const tp_dom_t *ch = &t->dom[dom_of[s->child[k]]];

				d = &t->dom[dom_of[i]];
				bitmap_or(d->nodes, ch->nodes);
				for (uint32_t l = 0; l < ch->leaf_cnt; l++)
					_tp_add_leaf(d, ch->leaves[l]);
			}
		}
	}
	xfree(dom_of);
	return rc;
}

/* Blocks at level 0, aggregated blocks of each larger BlockSizes. */
static int _tp_build_blocks(topo_t *t, const topo_conf_t *c,
			 const tp_name_idx_t *tab, size_t cnt, const char *fname,
			 char *err, size_t errlen)
{
	uint32_t base = c->bs_cnt ? c->block_sizes[0] : 1;

	for (size_t i = 0; i < c->blk_cnt; i++) {
		tp_dom_t *d = _tp_add_dom(t);

		d->name = xstrdup(c->blk[i].name);
		d->conf_idx = (uint32_t) i;
		d->size = c->blk[i].node_cnt;
		_tp_add_leaf(d, (uint32_t) i);
		if (_tp_resolve(tab, cnt, c->blk[i].nodes, d->nodes, fname,
			     c->blk[i].line, err, errlen) < 0)
			return -1;
	}
	for (size_t k = 1; k < c->bs_cnt; k++) {
		uint32_t g = (c->block_sizes[k] + base - 1) / base;

		if (g < 2)
			continue;
		t->max_level++;
		for (size_t i = 0; i < c->blk_cnt; i += g) {
			tp_dom_t *d = _tp_add_dom(t);

			d->level = t->max_level;
			d->size = c->block_sizes[k];
			for (size_t b = i; b < i + g && b < c->blk_cnt; b++) {
				bitmap_or(d->nodes, t->dom[b].nodes);
				_tp_add_leaf(d, (uint32_t) b);
			}
		}
	}
	/* a job larger than every level spans any blocks */
	if (c->blk_cnt > 1) {
		tp_dom_t *d;
		size_t top = 0;

		for (size_t i = 0; i < t->dom_cnt; i++)
			if (t->dom[i].level == t->max_level)
				top++;
		if (top > 1) {
			d = _tp_add_dom(t);
			d->level = ++t->max_level;
			for (size_t b = 0; b < c->blk_cnt; b++) {
				bitmap_or(d->nodes, t->dom[b].nodes);
				_tp_add_leaf(d, (uint32_t) b);
			}
			d->size = (uint32_t) bitmap_count(d->nodes);
		}
	}
	return 0;
}

static void _tp_index(topo_t *t)
{
	t->lv_start = xcalloc(t->max_level + 2, sizeof(uint32_t));
	for (uint32_t lv = 0, i = 0; lv <= t->max_level + 1; lv++) {
		while (i < t->dom_cnt && t->dom[i].level < lv)
			i++;
		t->lv_start[lv] = i;
	}
	t->leaf_of = xcalloc(t->node_cnt + 1, sizeof(uint32_t));
	for (size_t n = 0; n < t->node_cnt; n++)
		t->leaf_of[n] = TP_NONE;
	t->all = bitmap_create(t->node_cnt ? t->node_cnt : 1);
	for (uint32_t i = 0; i < t->lv_start[1]; i++) {
		const bitmap_t *b = t->dom[i].nodes;

		for (long n = bitmap_first_set(b); n >= 0;
		     n = bitmap_next_set(b, n + 1))
			t->leaf_of[n] = i;
		bitmap_or(t->all, b);
	}
	t->show = xcalloc(t->dom_cnt + 1, sizeof(uint32_t));
	for (uint32_t c = 0; c < t->dom_cnt; c++)   /* file order */
		for (uint32_t i = 0; i < t->dom_cnt; i++)
			if (t->dom[i].name && t->dom[i].conf_idx == c) {
				t->show[t->show_cnt++] = i;
				break;
			}
}

topo_t *topo_create(const topo_conf_t *c, enum topo_kind kind,
		    const char *const *names, size_t node_cnt,
		    const char *fname, char **unplaced, char *err,
		    size_t errlen)
{
	tp_name_idx_t *tab = xcalloc(node_cnt + 1, sizeof(*tab));
	topo_t *t = xcalloc(1, sizeof(*t));
	int rc;

	*unplaced = NULL;
	t->kind = kind;
	t->node_cnt = node_cnt;
	for (size_t i = 0; i < node_cnt; i++)
		tab[i] = (tp_name_idx_t) { names[i], (uint32_t) i };
	qsort(tab, node_cnt, sizeof(*tab), _tp_cmp_name);
	if (kind == TOPO_TREE) {
		for (size_t i = 0; i < c->sw_cnt; i++)
			if (c->sw[i].level > t->max_level)
				t->max_level = c->sw[i].level;
		rc = c->sw_cnt ? _tp_build_tree(t, c, tab, node_cnt, fname, err,
					     errlen) : -1;
		if (!c->sw_cnt)
			snprintf(err, errlen, "%s: topology/tree needs "
				 "SwitchName= lines", fname);
	} else {
		rc = c->blk_cnt ? _tp_build_blocks(t, c, tab, node_cnt, fname,
						err, errlen) : -1;
		if (!c->blk_cnt)
			snprintf(err, errlen, "%s: topology/block needs "
				 "BlockName= lines", fname);
	}
	xfree(tab);
	if (rc < 0) {
		topo_destroy(t);
		return NULL;
	}
	_tp_index(t);
	for (size_t i = 0; i < node_cnt; i++)
		if (!bitmap_test(t->all, i)) {
			if (*unplaced)
				xstrcatc(unplaced, ',');
			xstrcat(unplaced, names[i]);
		}
	return t;
}

enum topo_kind topo_kind(const topo_t *t)
{
	return t->kind;
}

const bitmap_t *topo_nodes(const topo_t *t)
{
	return t->all;
}

size_t topo_domain_cnt(const topo_t *t)
{
	return t ? t->dom_cnt : 0;
}

const bitmap_t *topo_domain_nodes(const topo_t *t, size_t k)
{
	return t->dom[k].nodes;
}

uint32_t topo_domain_level(const topo_t *t, size_t k)
{
	return t->dom[k].level;
}

uint32_t topo_leaf_count(const topo_t *t, const bitmap_t *nodes)
{
	uint32_t cnt = 0, last = TP_NONE;
	uint8_t *seen;

	if (!t || !nodes)
		return 0;
	seen = xcalloc(t->lv_start[1] + 1, 1);
	for (long n = bitmap_first_set(nodes); n >= 0 &&
	     (size_t) n < t->node_cnt; n = bitmap_next_set(nodes, n + 1)) {
		uint32_t l = t->leaf_of[n];

		if (l == TP_NONE || l == last || seen[l])
			continue;
		seen[l] = 1;
		last = l;
		cnt++;
	}
	xfree(seen);
	return cnt;
}

/* ---- placement ---- */

typedef struct {
	const topo_t        *t;
	topo_select_f        fn;
	const select_node_t *nodes;
	size_t               node_cnt;
	const bitmap_t      *avail;
	const select_req_t  *req;
	bool                 ignore_alloc;
	select_result_t     *res;
	uint64_t            *free_cpus;  /* per domain */
	uint32_t            *free_nodes; /* per domain */
	uint64_t             need_cpus;
	uint32_t             need_nodes;
	bitmap_t            *sub;        /* scratch */
	uint32_t            *order;      /* scratch, dom_cnt */
} tp_place_t;

static uint32_t _tp_node_free(const tp_place_t *p, const select_node_t *n)
{
	bool excl = p->req->exclusive || (p->req->cr & SELECT_LINEAR);

	if (p->ignore_alloc)
		return n->cpus;
	if (excl)
		return n->alloc_cpus || n->alloc_memory || n->gpu_used ?
			0 : n->cpus;
	return n->alloc_cpus >= n->cpus ? 0 : n->cpus - n->alloc_cpus;
}

static void _tp_count(tp_place_t *p)
{
	const topo_t *t = p->t;

	for (long n = bitmap_first_set(p->avail); n >= 0 &&
	     (size_t) n < t->node_cnt; n = bitmap_next_set(p->avail, n + 1)) {
		uint32_t l = t->leaf_of[n], f;

		if (l == TP_NONE)
			continue;
		f = _tp_node_free(p, &p->nodes[n]);
		if (!f)
			continue;
		p->free_cpus[l] += f;
		p->free_nodes[l]++;
	}
	for (size_t d = t->lv_start[1]; d < t->dom_cnt; d++)
		for (uint32_t k = 0; k < t->dom[d].leaf_cnt; k++) {
			p->free_cpus[d] += p->free_cpus[t->dom[d].leaves[k]];
			p->free_nodes[d] += p->free_nodes[t->dom[d].leaves[k]];
		}
}

static bool _tp_enough(const tp_place_t *p, uint64_t cpus, uint32_t nodes)
{
	return cpus >= p->need_cpus && nodes >= p->need_nodes;
}

/* Best fit: the fewest free CPUs first. */
static int _tp_cmp_fit(const void *a, const void *b, void *arg)
{
	const tp_place_t *p = arg;
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
	uint64_t fx = p->free_cpus[x], fy = p->free_cpus[y];

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return x < y ? -1 : (x > y);
}

/* The most free CPUs first (to need the fewest). */
static int _tp_cmp_room(const void *a, const void *b, void *arg)
{
	const tp_place_t *p = arg;
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
	uint64_t fx = p->free_cpus[x], fy = p->free_cpus[y];

	if (fx != fy)
		return fx > fy ? -1 : 1;
	return x < y ? -1 : (x > y);
}

static int _tp_try(tp_place_t *p, const bitmap_t *where)
{
	bitmap_clear_all(p->sub);
	bitmap_or(p->sub, where);
	bitmap_and(p->sub, p->avail);
	return p->fn(p->nodes, p->node_cnt, p->sub, p->req, p->ignore_alloc,
		     p->res);
}

/* Inside domain d (level > 0): the fewest leaves, most room first. */
static int _tp_try_leaves(tp_place_t *p, const tp_dom_t *d)
{
	uint32_t *lv = xcalloc(d->leaf_cnt + 1, sizeof(uint32_t)), n = 0;
	bitmap_t *acc = bitmap_create(p->node_cnt ? p->node_cnt : 1);
	uint64_t cpus = 0;
	uint32_t nodes = 0, fails = 0;
	int rc = SELECT_BUSY;

	for (uint32_t k = 0; k < d->leaf_cnt; k++)
		if (p->free_nodes[d->leaves[k]])
			lv[n++] = d->leaves[k];
	qsort_r(lv, n, sizeof(uint32_t), _tp_cmp_room, p);
	for (uint32_t k = 0; k < n; k++) {
		bitmap_or(acc, p->t->dom[lv[k]].nodes);
		cpus += p->free_cpus[lv[k]];
		nodes += p->free_nodes[lv[k]];
		if (!_tp_enough(p, cpus, nodes))
			continue;
		if (p->req->required && !bitmap_is_subset(p->req->required,
							  acc))
			continue;
		/* tried again only with everything left (bounded cost) */
		if (fails && k + 1 < n)
			continue;
		if ((rc = _tp_try(p, acc)) == SELECT_OK)
			break;
		fails++;
	}
	bitmap_destroy(acc);
	xfree(lv);
	return rc;
}

/* Every segment of treq->segment nodes in one block. */
static int _tp_segments(tp_place_t *p, uint32_t seg)
{
	const topo_t *t = p->t;
	uint32_t nseg, left, *k_of = xcalloc(t->dom_cnt + 1, sizeof(uint32_t));
	select_req_t r = *p->req;
	int rc = SELECT_BUSY;

	if (!seg || p->need_nodes % seg) {
		xfree(k_of);
		return SELECT_NEVER;
	}
	nseg = p->need_nodes / seg;
	r.min_nodes = r.max_nodes = p->need_nodes;
	p->req = &r;
	for (uint32_t lvl = 0; lvl <= t->max_level && rc != SELECT_OK; lvl++) {
		for (uint32_t d = t->lv_start[lvl]; d < t->lv_start[lvl + 1] &&
		     rc != SELECT_OK; d++) {
			const tp_dom_t *dm = &t->dom[d];
			uint32_t have = 0, n = 0, *lv = p->order;

			for (uint32_t k = 0; k < dm->leaf_cnt; k++) {
				uint32_t b = dm->leaves[k];

				k_of[b] = p->free_nodes[b] / seg;
				have += k_of[b];
				if (k_of[b])
					lv[n++] = b;
			}
			if (have < nseg)
				continue;
			qsort_r(lv, n, sizeof(uint32_t), _tp_cmp_room, p);
			bitmap_clear_all(p->sub);
			left = nseg;
			for (uint32_t k = 0; k < n && left; k++) {
				uint32_t take = k_of[lv[k]] < left ?
					k_of[lv[k]] : left, got = 0;
				const bitmap_t *b = t->dom[lv[k]].nodes;

				for (long i = bitmap_first_set(b); i >= 0 &&
				     got < take * seg;
				     i = bitmap_next_set(b, i + 1)) {
					if (!bitmap_test(p->avail, i) ||
					    !_tp_node_free(p, &p->nodes[i]))
						continue;
					bitmap_set(p->sub, i);
					got++;
				}
				left -= take;
			}
			rc = p->fn(p->nodes, p->node_cnt, p->sub, p->req,
				   p->ignore_alloc, p->res);
		}
	}
	xfree(k_of);
	return rc == SELECT_OK ? rc : (p->ignore_alloc ? SELECT_NEVER :
				       SELECT_BUSY);
}

static int _tp_place(tp_place_t *p)
{
	const topo_t *t = p->t;

	for (uint32_t lv = 0; lv <= t->max_level; lv++) {
		uint32_t n = 0, fails = 0;

		for (uint32_t d = t->lv_start[lv]; d < t->lv_start[lv + 1];
		     d++) {
			if (!_tp_enough(p, p->free_cpus[d], p->free_nodes[d]))
				continue;
			if (p->req->required &&
			    !bitmap_is_subset(p->req->required,
					      t->dom[d].nodes))
				continue;
			p->order[n++] = d;
		}
		qsort_r(p->order, n, sizeof(uint32_t), _tp_cmp_fit, p);
		for (uint32_t k = 0; k < n && fails < TP_MAX_TRIES; k++) {
			const tp_dom_t *d = &t->dom[p->order[k]];
			int rc = d->leaf_cnt > 1 ? _tp_try_leaves(p, d) :
				_tp_try(p, d->nodes);

			if (rc == SELECT_OK)
				return rc;
			fails++;
		}
	}
	return p->ignore_alloc ? SELECT_NEVER : SELECT_BUSY;
}

int topo_job_test(const topo_t *t, topo_select_f fn,
		  const select_node_t *nodes, size_t node_cnt,
		  const bitmap_t *avail, const select_req_t *req,
		  const topo_req_t *treq, bool ignore_alloc,
		  select_result_t *res, uint32_t *leaves)
{
	tp_place_t p = { .t = t, .fn = fn, .nodes = nodes, .node_cnt = node_cnt,
		      .avail = avail, .req = req, .ignore_alloc = ignore_alloc,
		      .res = res };
	bool excl = req->exclusive || (req->cr & SELECT_LINEAR);
	int rc;

	if (leaves)
		*leaves = 0;
	if (!t || t->node_cnt != node_cnt)
		return fn(nodes, node_cnt, avail, req, ignore_alloc, res);
	p.free_cpus = xcalloc(t->dom_cnt + 1, sizeof(uint64_t));
	p.free_nodes = xcalloc(t->dom_cnt + 1, sizeof(uint32_t));
	p.order = xcalloc(t->dom_cnt + 1, sizeof(uint32_t));
	p.sub = bitmap_create(node_cnt ? node_cnt : 1);
	p.need_nodes = req->min_nodes;
	p.need_cpus = excl ? 0 : (uint64_t) (req->num_tasks ?
					     req->num_tasks : 1) *
		(req->cpus_per_task ? req->cpus_per_task : 1);
	_tp_count(&p);
	if (treq && treq->segment && t->kind == TOPO_BLOCK)
		rc = _tp_segments(&p, treq->segment);
	else
		rc = _tp_place(&p);
	if (rc == SELECT_OK && leaves)
		*leaves = topo_leaf_count(t, res->nodes);
	xfree(p.free_cpus);
	xfree(p.free_nodes);
	xfree(p.order);
	bitmap_destroy(p.sub);
	return rc;
}

/* ---- RouteTree ---- */

int topo_route(const topo_t *t, const uint32_t *idx, uint32_t cnt,
	       uint32_t *perm, uint32_t **sizes, uint32_t *group_cnt)
{
	bitmap_t *want;
	uint32_t *grp, top = TP_NONE, g = 0, k, n = 0;
	size_t d;

	if (!t || t->kind != TOPO_TREE || cnt < 2)
		return -1;
	want = bitmap_create(t->node_cnt ? t->node_cnt : 1);
	for (k = 0; k < cnt; k++)       /* those under some switch */
		if (idx[k] < t->node_cnt && bitmap_test(t->all, idx[k]))
			bitmap_set(want, idx[k]);
	for (d = 0; d < t->dom_cnt && top == TP_NONE; d++)
		if (bitmap_is_subset(want, t->dom[d].nodes))
			top = (uint32_t) d;
	if (!bitmap_count(want) || top == TP_NONE || !t->dom[top].level) {
		bitmap_destroy(want);
		return -1;            /* one leaf: no split by switch */
	}
	/* each node's group: the child of top holding it, else its own */
	grp = xcalloc(cnt + 1, sizeof(uint32_t));
	for (k = 0; k < cnt; k++)
		grp[k] = TP_NONE;
	for (d = t->lv_start[t->dom[top].level - 1];
	     d < t->lv_start[t->dom[top].level]; d++) {
		if (!bitmap_is_subset(t->dom[d].nodes, t->dom[top].nodes) ||
		    !bitmap_overlaps(t->dom[d].nodes, want))
			continue;
		for (k = 0; k < cnt; k++)
			if (idx[k] < t->node_cnt &&
			    bitmap_test(t->dom[d].nodes, idx[k]))
				grp[k] = g;
		g++;
	}
	*sizes = xcalloc(g + cnt + 1, sizeof(uint32_t));
	for (uint32_t gi = 0; gi < g; gi++)
		for (k = 0; k < cnt; k++)
			if (grp[k] == gi) {
				perm[n++] = k;
				(*sizes)[gi]++;
			}
	for (k = 0; k < cnt; k++)
		if (grp[k] == TP_NONE) {
			perm[n++] = k;
			(*sizes)[g++] = 1;
		}
	*group_cnt = g;
	xfree(grp);
	bitmap_destroy(want);
	return 0;
}

/* ---- scontrol show topology ---- */

static bool _tp_shows(const topo_t *t, const tp_dom_t *d, const char *name,
		   long node_index)
{
	if (!name)
		return true;
	if (!strcmp(d->name, name))
		return true;
	(void) t;
	return node_index >= 0 && bitmap_test(d->nodes, (size_t) node_index);
}

char *topo_show(const topo_t *t, const char *node, long node_index,
		char *(*node_names)(const bitmap_t *nodes))
{
	char *out = NULL;

	for (size_t k = 0; t && k < t->show_cnt; k++) {
		const tp_dom_t *d = &t->dom[t->show[k]];
		char *names;

		if (!_tp_shows(t, d, node, node_index))
			continue;
		names = node_names(d->nodes);
		if (t->kind == TOPO_TREE) {
			xstrfmtcat(&out, "SwitchName=%s Level=%u LinkSpeed=%u",
				   d->name, d->level, d->link_speed);
			if (names && *names)
				xstrfmtcat(&out, " Nodes=%s", names);
			if (d->switches)
				xstrfmtcat(&out, " Switches=%s", d->switches);
		} else {
			xstrfmtcat(&out, "BlockName=%s BlockIndex=%u Nodes=%s "
				   "BlockSize=%u", d->name, d->conf_idx,
				   names ? names : "", d->size);
		}
		xstrcatc(&out, '\n');
		xfree(names);
	}
	return out;
}
