/* gres_sel.c — node GRES layout and per-node GRES placement (gres_sel.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/gres_sel.h"

#define GRES_SEL_MAX_GPUS 64

static int _gs_share_kind(const char *name)
{
	if (!strcmp(name, "shard"))
		return GRES_SHARE_SHARD;
	if (!strcmp(name, "mps"))
		return GRES_SHARE_MPS;
	return -1;
}

void gres_layout_free(gres_layout_t *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->cnt; i++) {
		xfree(l->v[i].name);
		xfree(l->v[i].type);
	}
	xfree(l->v);
	for (uint16_t g = 0; l->gpu_cpus && g < l->gpus; g++)
		if (l->gpu_cpus[g])
			bitmap_destroy(l->gpu_cpus[g]);
	xfree(l->gpu_cpus);
	xfree(l->gpu_sockets);
	xfree(l);
}

gres_layout_t *gres_layout_parse(const char *gres, char *err, size_t errlen)
{
	size_t cnt = 0;
	gres_spec_t *v = gres_specs_parse(gres, &cnt, err, errlen);
	gres_layout_t *l;
	uint64_t share_tot[GRES_SHARE_KINDS] = { 0 };
	uint32_t next = 0;

	if (!v)
		return NULL;
	l = xmalloc(sizeof(*l));
	l->v = xcalloc(cnt + 1, sizeof(gres_item_t));
	for (size_t i = 0; i < cnt; i++) {
		gres_item_t *it = &l->v[l->cnt];

		if (!strcmp(v[i].name, "gpu")) {
			if (next + v[i].count > GRES_SEL_MAX_GPUS) {
				snprintf(err, errlen, "more than %d GPUs on "
					 "one node", GRES_SEL_MAX_GPUS);
				goto fail;
			}
			it->mask = v[i].count >= 64 ? UINT64_MAX :
				(((uint64_t) 1 << v[i].count) - 1) << next;
			next += (uint32_t) v[i].count;
		}
		it->name = xstrdup(v[i].name);
		it->type = xstrdup(v[i].type);
		it->count = v[i].count;
		it->share = _gs_share_kind(v[i].name);
		if (it->share >= 0)
			share_tot[it->share] += v[i].count;
		l->cnt++;
	}
	l->gpus = (uint16_t) next;
	for (int k = 0; k < GRES_SHARE_KINDS; k++) {
		if (!share_tot[k])
			continue;
		if (!l->gpus) {
			snprintf(err, errlen, "%s needs GPUs on the node "
				 "(no gpu in Gres=)",
				 k == GRES_SHARE_MPS ? "mps" : "shard");
			goto fail;
		}
		l->per_gpu[k] = share_tot[k] / l->gpus;
		if (!l->per_gpu[k]) {
			snprintf(err, errlen, "%s count %llu is less than "
				 "one a GPU", k == GRES_SHARE_MPS ? "mps" :
				 "shard", (unsigned long long) share_tot[k]);
			goto fail;
		}
	}
	gres_specs_free(v, cnt);
	return l;
fail:
	gres_specs_free(v, cnt);
	gres_layout_free(l);
	return NULL;
}

gres_use_t *gres_use_create(const gres_layout_t *l)
{
	gres_use_t *u = xmalloc(sizeof(*u));

	u->used = xcalloc(l->cnt + 1, sizeof(uint64_t));
	u->shared = xcalloc((size_t) GRES_SHARE_KINDS * l->gpus + 1,
			    sizeof(uint64_t));
	return u;
}

void gres_use_free(gres_use_t *u)
{
	if (!u)
		return;
	xfree(u->used);
	xfree(u->shared);
	xfree(u);
}

uint64_t gres_gpu_mask(const gres_layout_t *l, const char *type)
{
	uint64_t m = 0;

	for (size_t i = 0; l && i < l->cnt; i++)
		if (!strcmp(l->v[i].name, "gpu") &&
		    (!type || (l->v[i].type && !strcmp(l->v[i].type, type))))
			m |= l->v[i].mask;
	return m;
}

static uint64_t _gs_kind_busy(const gres_layout_t *l, const uint64_t *shared,
			   int kind)
{
	uint64_t m = 0;

	for (uint16_t g = 0; shared && g < l->gpus; g++)
		if (shared[kind * l->gpus + g])
			m |= (uint64_t) 1 << g;
	return m;
}

uint64_t gres_shared_busy(const gres_layout_t *l, const gres_use_t *u)
{
	if (!l || !u)
		return 0;
	return _gs_kind_busy(l, u->shared, GRES_SHARE_SHARD) |
	       _gs_kind_busy(l, u->shared, GRES_SHARE_MPS);
}

bool gres_layout_has(const gres_layout_t *l, const char *name,
		     const char *type)
{
	for (size_t i = 0; l && i < l->cnt; i++) {
		if (strcmp(l->v[i].name, name))
			continue;
		if (!type || (l->v[i].type && !strcmp(l->v[i].type, type)))
			return true;
		/* shard:a100:1 — shares of the node's a100 GPUs */
		if (l->v[i].share >= 0 && gres_gpu_mask(l, type))
			return true;
	}
	return false;
}

/* Working copy of a node's usage while one request is placed. */
typedef struct {
	const gres_layout_t *l;
	uint64_t *used;
	uint64_t *shared;
	uint64_t  gpu_used;
	char     *out;        /* allocation string, when picking */
	bool      pick;
} gs_work_t;

static int _gs_take_counted(gs_work_t *w, const gres_spec_t *r)
{
	const gres_layout_t *l = w->l;
	uint64_t want = r->count, have = 0;

	for (size_t i = 0; i < l->cnt; i++) {
		const gres_item_t *it = &l->v[i];

		if (strcmp(it->name, r->name) ||
		    (r->type && (!it->type || strcmp(it->type, r->type))))
			continue;
		have += it->count - (w->used[i] < it->count ? w->used[i] :
				     it->count);
	}
	if (have < want)
		return -1;
	for (size_t i = 0; i < l->cnt && want; i++) {
		const gres_item_t *it = &l->v[i];
		uint64_t free, t;

		if (strcmp(it->name, r->name) ||
		    (r->type && (!it->type || strcmp(it->type, r->type))))
			continue;
		free = it->count - (w->used[i] < it->count ? w->used[i] :
				    it->count);
		t = free < want ? free : want;
		if (!t)
			continue;
		w->used[i] += t;
		want -= t;
		if (w->pick)
			xstrfmtcat(&w->out, "%s%s%s%s:%llu", w->out ? "," : "",
				   it->name, it->type ? ":" : "",
				   it->type ? it->type : "",
				   (unsigned long long) t);
	}
	return 0;
}

static void _gs_take_shared(gs_work_t *w, int kind, const char *name, int g,
			 uint64_t t)
{
	w->shared[kind * w->l->gpus + g] += t;
	if (w->pick)
		xstrfmtcat(&w->out, "%s%s:%llu@%d/%llu", w->out ? "," : "",
			   name, (unsigned long long) t, g,
			   (unsigned long long) w->l->per_gpu[kind]);
}

/* Shard or MPS units: from GPUs not held whole nor holding the other
 * kind.  MPS from one GPU; shards from one GPU if one has room (the
 * fullest such), else spread in index order. */
static int _gs_take_shared_req(gs_work_t *w, int kind, const gres_spec_t *r)
{
	const gres_layout_t *l = w->l;
	uint64_t ok = gres_gpu_mask(l, r->type) & ~w->gpu_used &
		~_gs_kind_busy(l, w->shared, 1 - kind);
	uint64_t per = l->per_gpu[kind], sum = 0, want = r->count;
	int best = -1;
	uint64_t best_free = UINT64_MAX;

	for (int g = 0; g < l->gpus; g++) {
		uint64_t held, free;

		if (!(ok & ((uint64_t) 1 << g)))
			continue;
		held = w->shared[kind * l->gpus + g];
		free = held < per ? per - held : 0;
		sum += free;
		if (free >= want && free < best_free) {
			best = g;
			best_free = free;
		}
	}
	if (best >= 0) {
		_gs_take_shared(w, kind, r->name, best, want);
		return 0;
	}
	if (kind == GRES_SHARE_MPS || sum < want)
		return -1;
	for (int g = 0; g < l->gpus && want; g++) {
		uint64_t held, free, t;

		if (!(ok & ((uint64_t) 1 << g)))
			continue;
		held = w->shared[kind * l->gpus + g];
		free = held < per ? per - held : 0;
		t = free < want ? free : want;
		if (t) {
			_gs_take_shared(w, kind, r->name, g, t);
			want -= t;
		}
	}
	return 0;
}

static int _gs_place(gs_work_t *w, const gres_spec_t *req, size_t cnt)
{
	for (size_t k = 0; k < cnt; k++) {
		int kind = _gs_share_kind(req[k].name);
		int rc = kind >= 0 && w->l->gpus ?
			_gs_take_shared_req(w, kind, &req[k]) :
			_gs_take_counted(w, &req[k]);

		if (rc < 0)
			return -1;
	}
	return 0;
}

static void _gs_work_init(gs_work_t *w, const gres_layout_t *l,
		       const gres_use_t *u, uint64_t gpu_used, bool pick)
{
	size_t ns = (size_t) GRES_SHARE_KINDS * l->gpus;

	memset(w, 0, sizeof(*w));
	w->l = l;
	w->gpu_used = gpu_used;
	w->pick = pick;
	w->used = xcalloc(l->cnt + 1, sizeof(uint64_t));
	w->shared = xcalloc(ns + 1, sizeof(uint64_t));
	if (u) {
		memcpy(w->used, u->used, l->cnt * sizeof(uint64_t));
		memcpy(w->shared, u->shared, ns * sizeof(uint64_t));
	}
}

static void _gs_work_free(gs_work_t *w)
{
	xfree(w->used);
	xfree(w->shared);
}

bool gres_sel_fits(const gres_layout_t *l, const gres_use_t *u,
		   uint64_t gpu_used, const gres_spec_t *req, size_t cnt)
{
	gs_work_t w;
	int rc;

	if (!cnt)
		return true;
	if (!l)
		return false;
	_gs_work_init(&w, l, u, gpu_used, false);
	rc = _gs_place(&w, req, cnt);
	_gs_work_free(&w);
	return rc == 0;
}

char *gres_sel_pick(const gres_layout_t *l, const gres_use_t *u,
		    uint64_t gpu_used, const gres_spec_t *req, size_t cnt)
{
	gs_work_t w;

	if (!cnt || !l)
		return NULL;
	_gs_work_init(&w, l, u, gpu_used, true);
	if (_gs_place(&w, req, cnt) < 0)
		xfree(w.out);
	_gs_work_free(&w);
	return w.out;
}

#define GS_MAX_ALLOC_ITEMS 128

int gres_use_apply(const gres_layout_t *l, gres_use_t *u, const char *alloc,
		   bool on)
{
	gres_alloc_item_t a[GS_MAX_ALLOC_ITEMS];
	int n = gres_alloc_parse(alloc, a, GS_MAX_ALLOC_ITEMS);

	if (n < 0)
		return -1;
	for (int k = 0; l && u && k < n; k++) {
		uint64_t *slot = NULL;

		if (a[k].gpu >= 0) {
			int kind = _gs_share_kind(a[k].name);

			if (kind >= 0 && a[k].gpu < l->gpus)
				slot = &u->shared[kind * l->gpus + a[k].gpu];
		} else {
			for (size_t i = 0; i < l->cnt && !slot; i++)
				if (!strcmp(l->v[i].name, a[k].name) &&
				    !strcmp(l->v[i].type ? l->v[i].type : "",
					    a[k].type))
					slot = &u->used[i];
		}
		if (!slot)
			continue;
		if (on)
			*slot += a[k].count;
		else
			*slot = *slot > a[k].count ? *slot - a[k].count : 0;
	}
	return 0;
}

static char *_gs_idx_str(uint64_t bits)
{
	char *out = NULL;
	int i = 0, j;

	while (i < 64) {
		if (!(bits & ((uint64_t) 1 << i))) {
			i++;
			continue;
		}
		for (j = i; j + 1 < 64 && (bits & ((uint64_t) 1 << (j + 1)));
		     j++)
			;
		if (j > i)
			xstrfmtcat(&out, "%s%d-%d", out ? "," : "", i, j);
		else
			xstrfmtcat(&out, "%s%d", out ? "," : "", i);
		i = j + 1;
	}
	return out ? out : xstrdup("N/A");
}

char *gres_used_str(const gres_layout_t *l, const gres_use_t *u,
		    uint64_t gpu_used)
{
	char *out = NULL;

	for (size_t i = 0; l && i < l->cnt; i++) {
		const gres_item_t *it = &l->v[i];
		const char *sep = out ? "," : "";
		const char *tc = it->type ? ":" : "", *t = it->type ? it->type : "";

		if (!strcmp(it->name, "gpu")) {
			uint64_t m = gpu_used & it->mask;
			char *idx = _gs_idx_str(m);

			xstrfmtcat(&out, "%sgpu%s%s:%d(IDX:%s)", sep, tc, t,
				   __builtin_popcountll(m), idx);
			xfree(idx);
		} else if (it->share >= 0) {
			uint64_t sum = 0;

			for (uint16_t g = 0; u && g < l->gpus; g++)
				sum += u->shared[it->share * l->gpus + g];
			/* one line per name: the first item carries the sum */
			for (size_t p = 0; p < i; p++)
				if (!strcmp(l->v[p].name, it->name))
					goto next;
			xstrfmtcat(&out, "%s%s:%llu", sep, it->name,
				   (unsigned long long) sum);
		} else {
			xstrfmtcat(&out, "%s%s%s%s:%llu", sep, it->name, tc, t,
				   (unsigned long long) (u ? u->used[i] : 0));
		}
next:		;
	}
	return out;
}

char *gres_gpu_detail(const gres_layout_t *l, uint64_t mask,
		      const char *type)
{
	char *out = NULL, *idx;

	if (!mask)
		return NULL;
	if (!l || !l->gpus) {
		idx = _gs_idx_str(mask);
		out = xstrdup_printf("gpu%s%s:%d(IDX:%s)", type ? ":" : "",
				     type ? type : "",
				     __builtin_popcountll(mask), idx);
		xfree(idx);
		return out;
	}
	for (size_t i = 0; i < l->cnt; i++) {
		uint64_t m = mask & l->v[i].mask;

		if (strcmp(l->v[i].name, "gpu") || !m)
			continue;
		idx = _gs_idx_str(m);
		xstrfmtcat(&out, "%sgpu%s%s:%d(IDX:%s)", out ? "," : "",
			   l->v[i].type ? ":" : "",
			   l->v[i].type ? l->v[i].type : "",
			   __builtin_popcountll(m), idx);
		xfree(idx);
	}
	return out;
}

char *gres_alloc_detail(const char *alloc)
{
	gres_alloc_item_t a[GS_MAX_ALLOC_ITEMS];
	int n = gres_alloc_parse(alloc, a, GS_MAX_ALLOC_ITEMS);
	char *out = NULL;

	for (int k = 0; k < n; k++) {
		const char *sep = out ? "," : "";

		if (a[k].gpu >= 0)
			xstrfmtcat(&out, "%s%s:%llu(IDX:%d)", sep, a[k].name,
				   (unsigned long long) a[k].count, a[k].gpu);
		else
			xstrfmtcat(&out, "%s%s%s%s:%llu", sep, a[k].name,
				   *a[k].type ? ":" : "", a[k].type,
				   (unsigned long long) a[k].count);
	}
	return out;
}

void gres_tally_add(gres_tally_t *t, const char *name, const char *type,
		    uint64_t n)
{
	char key[72];

	snprintf(key, sizeof(key), "%s%s%s", name, type && *type ? ":" : "",
		 type ? type : "");
	for (size_t i = 0; i < t->cnt; i++)
		if (!strcmp(t->key[i], key)) {
			t->n[i] += n;
			return;
		}
	if (t->cnt >= GRES_TALLY_MAX)
		return;
	snprintf(t->key[t->cnt], sizeof(t->key[0]), "%s", key);
	t->n[t->cnt++] = n;
}

void gres_tally_node(gres_tally_t *t, const gres_layout_t *l, uint64_t mask,
		     const char *alloc)
{
	gres_alloc_item_t a[GS_MAX_ALLOC_ITEMS];
	int n = gres_alloc_parse(alloc, a, GS_MAX_ALLOC_ITEMS);

	for (size_t i = 0; l && i < l->cnt; i++)
		if (!strcmp(l->v[i].name, "gpu") && l->v[i].type &&
		    (mask & l->v[i].mask))
			gres_tally_add(t, "gpu", l->v[i].type,
				       (uint64_t) __builtin_popcountll(
					       mask & l->v[i].mask));
	for (int k = 0; k < n; k++) {
		gres_tally_add(t, a[k].name, NULL, a[k].count);
		if (*a[k].type)
			gres_tally_add(t, a[k].name, a[k].type, a[k].count);
	}
}
