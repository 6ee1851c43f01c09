/* fuzz_gres.c — arbitrary text as gres.conf, as a GRES spec list and as a
 * -C/--constraint expression.  Anything that parses must be internally
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
	_constraint(text);
	{
		uint64_t v;

		if (gres_parse_per_gpu(text, &v) == 0 && *text && !v)
			abort();   /* a given value is at least 1 */
	}
	xfree(text);
	return 0;
}
