/* fuzz_gres.c — arbitrary text as gres.conf (and its Cores= as slurmd
 * registers them), as a registration's GPU cores bound to a node, as a
 * GRES spec list (and its GPU count), as a
 * node's Gres= layout (placing and releasing GRES on it), as a job's
 * per-node GRES allocation string and as a -C/--constraint expression.  Anything that parses must be internally
 * consistent (Count matches File= entries, matching a valid expression
 * never fails on syntax); a mismatch aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/features.h"
#include "common/gres.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/gres_sel.c"
#include "ctld/gres_bind.c"

/* Gres= as a layout: what is placed on it is given back exactly. */
static void _layout(const char *text)
{
	char err[256], *a, *used;
	gres_layout_t *l = gres_layout_parse(text, err, sizeof(err));
	gres_spec_t want[3] = { { .name = "nic", .count = 1 },
				{ .name = "shard", .count = 1 },
				{ .name = "mps", .count = 1 } };
	gres_use_t *u;

	if (!l)
		return;
	if (l->gpus > 64 || (l->gpus && gres_gpu_mask(l, NULL) !=
			     (l->gpus >= 64 ? UINT64_MAX :
			      ((uint64_t) 1 << l->gpus) - 1)))
		abort();
	u = gres_use_create(l);
	for (size_t k = 0; k < 3; k++) {
		a = gres_sel_pick(l, u, 0, &want[k], 1);
		if (!a != !gres_sel_fits(l, u, 0, &want[k], 1))
			abort();
		if (a && gres_use_apply(l, u, a, true) < 0)
			abort();
		if (a && gres_use_apply(l, u, a, false) < 0)
			abort();
		xfree(a);
	}
	for (size_t i = 0; i < l->cnt; i++)
		if (u->used[i])
			abort();
	if (gres_shared_busy(l, u))
		abort();
	used = gres_used_str(l, u, 0);
	xfree(used);
	gres_use_apply(l, u, text, true);     /* any text as an allocation */
	gres_use_free(u);
	gres_layout_free(l);
}

static void _alloc(const char *text)
{
	gres_alloc_item_t it[8];
	int n = gres_alloc_parse(text, it, 8);
	char *d;

	for (int k = 0; k < n; k++)
		if (it[k].gpu >= 64 || (it[k].gpu >= 0 && !it[k].per_gpu))
			abort();
	d = gres_alloc_detail(text);
	xfree(d);
}

static void _conf(const char *text)
{
	char err[256];
	uint32_t dev[64];
	gres_conf_t *g = gres_conf_parse(text, NULL, err, sizeof(err));

	if (!g)
		return;
	for (size_t i = 0; i < g->cnt; i++) {
		size_t nf = 0;

		while (g->v[i].files && g->v[i].files[nf])
			nf++;
		if (g->v[i].files && nf != g->v[i].count)
			abort();
	}
	gres_conf_gpu_devices(g, dev, 64);
	gres_conf_destroy(g);
}

/* Text as a registration's GPU cores, bound to a fixed layout: bound
 * GPUs show their sockets; a failure leaves the layout unbound. */
static void _cores(const char *text)
{
	static const gres_bind_shape_t sh = { .cpus = 16, .sockets = 2,
					      .cores = 4, .threads = 2 };
	char err[256], *s;
	gres_gpu_cores_t e[8];
	gres_layout_t *l = gres_layout_parse("gpu:a100:2,gpu:2,nic:1", err,
					     sizeof(err));
	int n = gres_cores_msg_parse(text, e, 8);

	for (int k = 0; k < n; k++)
		if (strlen(e[k].type) >= sizeof(e[k].type))
			abort();
	if (gres_bind_set(l, text, &sh, err, sizeof(err)) < 0) {
		if (l->gpu_cpus)
			abort();
	} else {
		uint8_t ord[64];
		bitmap_t *b = gres_bind_cpus(l, 0xf, 16);
		size_t k = gres_bind_order(l, 0xf, NULL, ord);

		if (k != 4)
			abort();
		if (b)
			bitmap_destroy(b);
	}
	s = gres_bind_show(l);
	if (s && !l->gpu_cpus)
		abort();
	xfree(s);
	gres_layout_free(l);
}

/* A gres.conf's Cores= as slurmd registers them, parsed back as the
 * controller does. */
static void _conf_cores(const char *text)
{
	char err[256], *m;
	gres_gpu_cores_t e[64];
	gres_conf_t *g = gres_conf_parse(text, NULL, err, sizeof(err));

	if (!g)
		return;
	gres_conf_check_cores(g, 8, err, sizeof(err));
	m = gres_conf_cores_msg(g);
	if (m && gres_cores_msg_parse(m, e, 64) == 0)
		abort();      /* a message names at least one GPU */
	xfree(m);
	gres_conf_destroy(g);
}

static void _spec(const char *text)
{
	char err[256];
	size_t n;
	gres_spec_t *v = gres_specs_parse(text, &n, err, sizeof(err));

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		if (!v[i].name || v[i].count > GRES_MAX_COUNT * 1024ull * 1024 * 1024)
			abort();
	gres_specs_count(v, n, "gpu", NULL);
	gres_specs_free(v, n);
	{
		uint64_t gpus;
		char *type = NULL;
		gres_spec_t *o = NULL;
		size_t oc = 0;

		if (gres_specs_gpus(text, true, 64, &gpus, &type, &o, &oc) == 0
		    && gpus > 64)
			abort();
		xfree(type);
		gres_specs_free(o, oc);
	}
}

static void _constraint(const char *text)
{
	char err[128];
	bool ok = features_valid(text, err, sizeof(err));

	features_match(text, "a,b,c");
	if (ok && features_match(text, NULL) && strpbrk(text, "&,") == NULL &&
	    strchr(text, '|') == NULL && text[0] != '(')
		abort();   /* a plain name cannot match a featureless node */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *) data, size);

	_conf(text);
	_spec(text);
	_layout(text);
	_alloc(text);
	_cores(text);
	_conf_cores(text);
	_constraint(text);
	{
		uint64_t v;

		if (gres_parse_per_gpu(text, &v) == 0 && *text && !v)
			abort();   /* a given value is at least 1 */
	}
	xfree(text);
	return 0;
}
