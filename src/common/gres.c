/* gres.c — GRES specs and gres.conf (gres.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/bitmap.h"
#include "common/gres.h"
#include "common/hostlist.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define GRES_MAX_FILE (1u << 20)   /* gres.conf is small; refuse a huge one */

/* A GRES name or type: a letter, then letters, digits, '_', '-', '.'; at
 * most as long as an allocation item holds (gres_alloc_item_t). */
static bool _ident(const char *s)
{
	if (!isalpha((unsigned char) *s) ||
	    strlen(s) >= sizeof(((gres_alloc_item_t *) 0)->type))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char) *s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return false;
	return true;
}

/* "12", "2K" (x1024), "1M", "1G" */
static int _count(const char *s, uint64_t *out)
{
	uint64_t n = 0, mul = 1;
	const char *p = s;

	if (!isdigit((unsigned char) *p))
		return -1;
	for (; isdigit((unsigned char) *p); p++) {
		n = n * 10 + (uint64_t) (*p - '0');
		if (n > GRES_MAX_COUNT)
			return -1;
	}
	if (*p) {
		switch (toupper((unsigned char) *p)) {
		case 'K': mul = 1024; break;
		case 'M': mul = 1024 * 1024; break;
		case 'G': mul = 1024 * 1024 * 1024; break;
		default: return -1;
		}
		if (p[1])
			return -1;
	}
	if (n * mul > GRES_MAX_COUNT * 1024ull * 1024 * 1024)
		return -1;
	*out = n * mul;
	return 0;
}

static int _one_spec(const char *item, gres_spec_t *g, char *err,
		     size_t errlen)
{
	char **f;
	size_t n;
	int rc = -1;

	if (!strncmp(item, "gres/", 5) || !strncmp(item, "gres:", 5))
		item += 5;
	f = xstrsplit(item, ":", &n);
	memset(g, 0, sizeof(*g));
	g->count = 1;
	if (n < 1 || n > 3 || !_ident(f[0]))
		goto out;
	g->name = xstrdup(f[0]);
	if (n == 2 && isdigit((unsigned char) f[1][0])) {
		if (_count(f[1], &g->count) < 0)
			goto out;
	} else if (n >= 2) {
		if (!_ident(f[1]))
			goto out;
		g->type = xstrdup(f[1]);
		if (n == 3 && _count(f[2], &g->count) < 0)
			goto out;
	}
	rc = 0;
out:
	if (rc < 0) {
		snprintf(err, errlen, "invalid GRES specification \"%s\"", item);
		xfree(g->name);
		xfree(g->type);
	}
	xstrarray_free(f);
	return rc;
}

gres_spec_t *gres_specs_parse(const char *spec, size_t *cnt, char *err,
			      size_t errlen)
{
	gres_spec_t *v;
	char **items;
	size_t n = 0, i;

	*cnt = 0;
	items = xstrsplit(spec ? spec : "", ",", &n);
	v = xcalloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		if (_one_spec(items[i], &v[i], err, errlen) < 0) {
			gres_specs_free(v, i);
			xstrarray_free(items);
			return NULL;
		}
	}
	xstrarray_free(items);
	*cnt = n;
	return v;
}

void gres_specs_free(gres_spec_t *v, size_t cnt)
{
	for (size_t i = 0; v && i < cnt; i++) {
		xfree(v[i].name);
		xfree(v[i].type);
	}
	xfree(v);
}

uint64_t gres_specs_count(const gres_spec_t *v, size_t cnt, const char *name,
			  const char *type)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < cnt; i++) {
		if (strcmp(v[i].name, name))
			continue;
		if (type && (!v[i].type || strcmp(v[i].type, type)))
			continue;
		sum += v[i].count;
	}
	return sum;
}

/* ---- gres.conf ---- */

static const char *const conf_keys[] = {
	"NodeName", "Name", "Type", "Count", "File", "Cores", "CPUs", "Links",
	"Flags", "AutoDetect", "MultipleFiles", NULL
};

static void _rec_free(gres_conf_rec_t *r)
{
	xfree(r->name);
	xfree(r->type);
	xstrarray_free(r->files);
	xfree(r->cores);
}

void gres_conf_destroy(gres_conf_t *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->cnt; i++)
		_rec_free(&g->v[i]);
	xfree(g->v);
	xfree(g->autodetect);
	xfree(g);
}

static bool _known_key(const char *k)
{
	for (size_t i = 0; conf_keys[i]; i++)
		if (!strcasecmp(conf_keys[i], k))
			return true;
	return false;
}

static int _files(const char *v, gres_conf_rec_t *r, char *why, size_t wl)
{
	hostlist_t *hl = hostlist_parse(v, why, wl);
	size_t n;

	if (!hl)
		return -1;
	n = hostlist_count(hl);
	if (n > GRES_MAX_COUNT) {
		hostlist_destroy(hl);
		snprintf(why, wl, "too many files in File=%s", v);
		return -1;
	}
	r->files = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		r->files[i] = xstrdup(hostlist_nth(hl, i));
	hostlist_destroy(hl);
	return 0;
}

/* One Key=Value of a line into r; *mine is false when NodeName= does not
 * name node.  0, or -1 with why. */
static int _pair(const char *k, const char *v, const char *node,
		 gres_conf_rec_t *r, bool *mine, bool *has_count, char *why,
		 size_t wl)
{
	if (!_known_key(k)) {
		snprintf(why, wl, "unknown key \"%s\"", k);
		return -1;
	}
	if (!strcasecmp(k, "Name")) {
		if (!_ident(v))
			goto bad;
		xfree(r->name);
		r->name = xstrdup(v);
	} else if (!strcasecmp(k, "Type")) {
		if (!_ident(v))
			goto bad;
		xfree(r->type);
		r->type = xstrdup(v);
	} else if (!strcasecmp(k, "Count")) {
		if (_count(v, &r->count) < 0)
			goto bad;
		*has_count = true;
	} else if (!strcasecmp(k, "File") || !strcasecmp(k, "MultipleFiles")) {
		if (r->files || _files(v, r, why, wl) < 0)
			goto bad;
	} else if (!strcasecmp(k, "Cores") || !strcasecmp(k, "CPUs")) {
		bitmap_t *b = bitmap_from_str(v, GRES_MAX_CORES);

		if (!b || !bitmap_count(b)) {
			if (b)
				bitmap_destroy(b);
			goto bad;
		}
		bitmap_destroy(b);
		xfree(r->cores);
		r->cores = xstrdup(v);
	} else if (!strcasecmp(k, "NodeName")) {
		hostlist_t *hl = hostlist_parse(v, why, wl);

		if (!hl)
			goto bad;
		if (node && hostlist_find(hl, node) < 0)
			*mine = false;
		hostlist_destroy(hl);
	}
	return 0;
bad:
	snprintf(why, wl, "invalid value \"%s\" for %s", v, k);
	return -1;
}

/* Key=Value tokens of one line (already without comment). */
static int _line(gres_conf_t *g, char *line, unsigned lineno,
		 const char *node, char *why, size_t wl)
{
	gres_conf_rec_t r = { 0 };
	bool mine = true, has_count = false, any = false, only_auto = true;
	char *save = NULL, *tok, *autodetect = NULL;
	size_t nf = 0;

	for (tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok || !eq[1]) {
			snprintf(why, wl, "expected Key=Value, found \"%s\"", tok);
			goto fail;
		}
		*eq = '\0';
		if (_pair(tok, eq + 1, node, &r, &mine, &has_count, why, wl) < 0)
			goto fail;
		any = true;
		if (!strcasecmp(tok, "AutoDetect"))
			autodetect = eq + 1;
		else if (strcasecmp(tok, "NodeName"))
			only_auto = false;
	}
	if (autodetect) {
		if (strcasecmp(autodetect, "nvml") &&
		    strcasecmp(autodetect, "off") &&
		    strcasecmp(autodetect, "rsmi") &&
		    strcasecmp(autodetect, "nrt") &&
		    strcasecmp(autodetect, "oneapi") &&
		    strcasecmp(autodetect, "nvidia")) {
			snprintf(why, wl, "invalid value \"%s\" for AutoDetect",
				 autodetect);
			goto fail;
		}
		if (mine && (only_auto || !g->autodetect)) {
			xfree(g->autodetect);
			g->autodetect = xstrdup(autodetect);
		}
	}
	if (!any || (only_auto && autodetect))
		return 0;
	if (!r.name) {
		snprintf(why, wl, "a line without Name=");
		goto fail;
	}
	while (r.files && r.files[nf])
		nf++;
	if (!has_count)
		r.count = r.files ? nf : 1;
	else if (r.files && r.count != nf) {
		snprintf(why, wl, "Count=%llu does not match %zu File= entries",
			 (unsigned long long) r.count, nf);
		goto fail;
	}
	if (!mine) {
		_rec_free(&r);
		return 0;
	}
	r.line = lineno;
	g->v = xrealloc(g->v, (g->cnt + 1) * sizeof(*g->v));
	g->v[g->cnt++] = r;
	return 0;
fail:
	_rec_free(&r);
	return -1;
}

gres_conf_t *gres_conf_parse(const char *text, const char *node, char *err,
			     size_t errlen)
{
	gres_conf_t *g = xmalloc(sizeof(*g));
	const char *p = text ? text : "";
	size_t lineno = 0;
	char why[256];

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t) (nl - p) : strlen(p);
		char *line = xstrndup(p, len), *hash = strchr(line, '#');
		int rc;

		lineno++;
		if (hash)
			*hash = '\0';
		rc = _line(g, line, (unsigned) lineno, node, why, sizeof(why));
		xfree(line);
		if (rc < 0) {
			snprintf(err, errlen, "line %zu: %s", lineno, why);
			gres_conf_destroy(g);
			return NULL;
		}
		p += len + (nl ? 1 : 0);
	}
	return g;
}

gres_conf_t *gres_conf_load(const char *path, const char *node, char *err,
			    size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;
	gres_conf_t *g;

	if (!f) {
		if (errno == ENOENT)
			return xmalloc(sizeof(gres_conf_t));
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text = xmalloc(GRES_MAX_FILE + 1);
	n = fread(text, 1, GRES_MAX_FILE + 1, f);
	fclose(f);
	if (n > GRES_MAX_FILE) {
		snprintf(err, errlen, "%s: file too large", path);
		xfree(text);
		return NULL;
	}
	text[n] = '\0';
	g = gres_conf_parse(text, node, err, errlen);
	xfree(text);
	if (!g) {
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%s %s", path, err);
		snprintf(err, errlen, "%s", tmp);
	}
	return g;
}

static uint32_t _dev_number(const char *file, uint32_t dflt)
{
	size_t len = strlen(file), i = len;
	unsigned long v;

	while (i && isdigit((unsigned char) file[i - 1]))
		i--;
	if (i == len || len - i > 6)
		return dflt;
	v = strtoul(file + i, NULL, 10);
	return (uint32_t) v;
}

size_t gres_conf_gpu_devices(const gres_conf_t *g, uint32_t *dev, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; g && i < g->cnt; i++) {
		const gres_conf_rec_t *r = &g->v[i];

		if (strcmp(r->name, "gpu"))
			continue;
		for (uint64_t k = 0; k < r->count && n < max; k++) {
			const char *file = r->files ? r->files[k] : NULL;

			dev[n] = file ? _dev_number(file, (uint32_t) n) :
				(uint32_t) n;
			n++;
		}
	}
	return n;
}

int gres_parse_per_gpu(const char *spec, uint64_t *v)
{
	const char *p = spec;
	uint64_t n;

	if (v)
		*v = 0;
	if (!spec || !*spec)
		return 0;
	if (!strncmp(p, "gres/", 5) || !strncmp(p, "gres:", 5))
		p += 5;
	if (strncmp(p, "gpu:", 4) || parse_u64(p + 4, &n) < 0 || !n ||
	    n > UINT32_MAX)
		return -1;
	if (v)
		*v = n;
	return 0;
}

/* ---- allocation strings ---- */

static int _one_alloc(const char *s, gres_alloc_item_t *a)
{
	char name[64], rest[128];
	const char *at = strchr(s, '@');
	unsigned long long n, per;
	int g, len;

	memset(a, 0, sizeof(*a));
	a->gpu = -1;
	if (at) {
		/* name:N@G/PER */
		if (sscanf(s, "%31[^:@]:%llu@%d/%llu%n", a->name, &n, &g, &per,
			   &len) != 4 || s[len] || g < 0 || g >= 64 ||
		    !per)
			return -1;
		a->count = n;
		a->gpu = g;
		a->per_gpu = per;
		return 0;
	}
	if (sscanf(s, "%63[^:]:%127s", name, rest) != 2 ||
	    strlen(name) >= sizeof(a->name))
		return -1;
	snprintf(a->name, sizeof(a->name), "%s", name);
	if (sscanf(rest, "%llu%n", &n, &len) == 1 && !rest[len]) {
		a->count = n;
		return 0;
	}
	if (sscanf(rest, "%31[^:]:%llu%n", a->type, &n, &len) != 2 ||
	    rest[len])
		return -1;
	a->count = n;
	return 0;
}

int gres_alloc_parse(const char *alloc, gres_alloc_item_t *out, size_t max)
{
	char **items;
	size_t n = 0;
	int rc = 0;

	if (!alloc || !*alloc)
		return 0;
	items = xstrsplit(alloc, ",", &n);
	if (n > max)
		rc = -1;
	for (size_t i = 0; !rc && i < n; i++)
		if (_one_alloc(items[i], &out[i]) < 0)
			rc = -1;
	xstrarray_free(items);
	return rc < 0 ? -1 : (int) n;
}


uint64_t gres_alloc_gpu_mask(const char *alloc)
{
	gres_alloc_item_t a[128];
	int n = gres_alloc_parse(alloc, a, 128);
	uint64_t m = 0;

	for (int k = 0; k < n; k++)
		if (a[k].gpu >= 0 && a[k].gpu < 64)
			m |= (uint64_t) 1 << a[k].gpu;
	return m;
}

/* ---- Cores= ---- */

int gres_conf_check_cores(const gres_conf_t *g, uint32_t ncores, char *err,
			  size_t errlen)
{
	for (size_t i = 0; g && i < g->cnt; i++) {
		const gres_conf_rec_t *r = &g->v[i];
		bitmap_t *b;

		if (!r->cores)
			continue;
		if (!(b = bitmap_from_str(r->cores, ncores ? ncores : 1))) {
			snprintf(err, errlen, "line %u: Cores=%s is out of "
				 "range: the node has %u cores (0-%u)",
				 r->line, r->cores, ncores,
				 ncores ? ncores - 1 : 0);
			return -1;
		}
		bitmap_destroy(b);
	}
	return 0;
}

char *gres_conf_cores_msg(const gres_conf_t *g)
{
	char *out = NULL;
	bool any = false;

	for (size_t i = 0; g && i < g->cnt; i++) {
		const gres_conf_rec_t *r = &g->v[i];

		if (strcmp(r->name, "gpu"))
			continue;
		any |= r->cores != NULL;
		for (uint64_t k = 0; k < r->count && k < 64; k++)
			xstrfmtcat(&out, "%s%s@%s", out ? ";" : "",
				   r->type ? r->type : "",
				   r->cores ? r->cores : "");
	}
	if (!any)
		xfree(out);
	return out;
}

int gres_cores_msg_parse(const char *msg, gres_gpu_cores_t *out, size_t max)
{
	char **w;
	size_t n = 0;
	int rc = 0;

	if (!msg || !*msg)
		return 0;
	w = xstrsplit(msg, ";", &n);
	if (n > max)
		rc = -1;
	for (size_t k = 0; !rc && k < n; k++) {
		char *at = strchr(w[k], '@');

		if (!at || (size_t) (at - w[k]) >= sizeof(out[k].type) ||
		    (at != w[k] && (*at = '\0', !_ident(w[k]))) ||
		    strlen(at + 1) >= sizeof(out[k].cores)) {
			rc = -1;
			break;
		}
		snprintf(out[k].type, sizeof(out[k].type), "%s",
			 at == w[k] ? "" : w[k]);
		snprintf(out[k].cores, sizeof(out[k].cores), "%s", at + 1);
	}
	xstrarray_free(w);
	return rc < 0 ? -1 : (int) n;
}

/* ---- GPU counts of a request ---- */

int gres_specs_gpus(const char *spec, bool keep_others, uint64_t max,
		    uint64_t *gpus, char **type, gres_spec_t **others,
		    size_t *others_cnt)
{
	char err[128];
	size_t cnt = 0;
	gres_spec_t *v;
	uint64_t sum = 0;
	int rc = -1;

	*gpus = 0;
	if (!spec || !*spec)
		return 0;
	if (!(v = gres_specs_parse(spec, &cnt, err, sizeof(err))))
		return -1;
	for (size_t i = 0; i < cnt; i++) {
		if (strcmp(v[i].name, "gpu")) {
			if (!keep_others)
				goto out;
			if (!others || !v[i].count)
				continue;
			*others = xrealloc(*others, (*others_cnt + 1) *
					   sizeof(**others));
			(*others)[(*others_cnt)++] = v[i];
			v[i].name = v[i].type = NULL;
			continue;
		}
		sum += v[i].count;
		if (sum > max)
			goto out;
		/* one GPU type a request: gpu:a100:1,gpu:h100:1 is refused,
		 * and so is an untyped count before a typed one */
		if ((*type && (!v[i].type || strcmp(*type, v[i].type))) ||
		    (!*type && v[i].type && sum > v[i].count))
			goto out;
		if (v[i].type && !*type)
			*type = xstrdup(v[i].type);
	}
	*gpus = sum;
	rc = 0;
out:
	gres_specs_free(v, cnt);
	return rc;
}
