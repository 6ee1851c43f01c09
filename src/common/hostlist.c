/* hostlist.c — Slurm hostlist expressions.
 *
 * A hostlist is an array of hosts; each host keeps its name and, when the
 * name ends in digits, where the prefix ends, the number and how many digits
 * it was written with.  Parsing expands bracket groups; hostlist_ranged()
 * walks the array once and merges adjacent hosts back into ranges.
 *
 * Width rule (as Slurm): a name is "padded" when it has more digits than its
 * number needs (n01).  Hosts share a range printed with width W when every
 * padded member has exactly W digits and every other member at least W, so
 * printing each number with W gives back its name: n9,n10 -> n[9-11] but
 * n02,n3 -> n[01-02,3].
 */
#include "common/hostlist.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define MAX_DIGITS	18	/* longer digit runs are not numbers */
#define MAX_GROUPS	16	/* bracket groups in one name */

typedef struct {
	char *name;
	uint32_t plen;		/* prefix length; name[plen..] are digits */
	uint8_t width;		/* digits written; 0 = no number */
	uint8_t nat;		/* digits the number needs */
	uint64_t num;
} host_t;

struct hostlist {
	host_t *h;
	size_t n, cap;
};

/* ---- hosts ---- */

static uint8_t digits_of(uint64_t v)
{
	uint8_t d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static void host_init(host_t *h, char *name)
{
	size_t len = strlen(name), d = 0;

	while (d < len && isdigit((unsigned char)name[len - d - 1]))
		d++;
	h->name = name;
	h->plen = (uint32_t)len;
	h->width = h->nat = 0;
	h->num = 0;
	if (!d || d > MAX_DIGITS)
		return;
	h->plen = (uint32_t)(len - d);
	h->width = (uint8_t)d;
	for (size_t i = len - d; i < len; i++)
		h->num = h->num * 10 + (uint64_t)(name[i] - '0');
	h->nat = digits_of(h->num);
}

static bool host_padded(const host_t *h)
{
	return h->width > h->nat;
}

static bool same_prefix(const host_t *a, const host_t *b)
{
	return a->plen == b->plen && !memcmp(a->name, b->name, a->plen);
}

/* Could a and b be printed with one width (see the file comment)? */
static bool width_compatible(const host_t *a, const host_t *b)
{
	if (host_padded(a) && host_padded(b))
		return a->width == b->width;
	if (host_padded(a))
		return b->nat >= a->width;
	if (host_padded(b))
		return a->nat >= b->width;
	return true;
}

static host_t *hl_grow(hostlist_t *hl)
{
	if (hl->n == hl->cap) {
		size_t cap = hl->cap ? hl->cap * 2 : 16;

		hl->h = xrealloc(hl->h, cap * sizeof(*hl->h));
		hl->cap = cap;
	}
	return &hl->h[hl->n++];
}

/* A name given whole: its number is its trailing digits. */
static void hl_append(hostlist_t *hl, char *name)
{
	host_init(hl_grow(hl), name);
}

/* A name expanded from "pre[lo-hi]": the number is the bracket's, even
 * when the prefix itself ends in digits ("n1[2-3]" stays n1 + 2..3). */
static void hl_append_num(hostlist_t *hl, char *name, size_t plen,
			  uint64_t num, int width)
{
	host_t *h = hl_grow(hl);

	h->name = name;
	h->plen = (uint32_t)plen;
	h->num = num;
	h->width = (uint8_t)width;
	h->nat = digits_of(num);
}

static void hl_truncate(hostlist_t *hl, size_t n)
{
	while (hl->n > n) {
		hl->n--;
		xfree(hl->h[hl->n].name);
	}
}

/* ---- a growing output buffer (xstrcat is quadratic on long lists) ---- */

typedef struct {
	char *s;
	size_t len, cap;
} buf_t;

static void buf_add(buf_t *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (b->len + n + 1 > cap)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_str(buf_t *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_num(buf_t *b, uint64_t v, int width)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%0*llu", width,
			 (unsigned long long)v);

	buf_add(b, tmp, (size_t)n);
}

static char *buf_take(buf_t *b)
{
	return b->s ? b->s : xstrdup("");
}

/* ---- parsing ---- */

typedef struct {
	uint64_t lo, hi;
	int width;
} range_t;

typedef struct {
	const char *seg;	/* text before this group's '[' */
	size_t seglen;
	range_t *r;
	size_t nr;
	uint64_t count;
} group_t;

static void set_err(char *err, size_t errlen, const char *fmt, const char *s,
		    size_t n)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, (int)n, s);
}

/* One "N" or "N-M" of a bracket list. */
static int parse_range(const char *s, size_t n, range_t *r, char *err,
		       size_t errlen)
{
	size_t i = 0, d;

	for (d = 0; i < n && isdigit((unsigned char)s[i]); i++, d++)
		r->lo = (d ? r->lo * 10 : 0) + (uint64_t)(s[i] - '0');
	if (!d || d > MAX_DIGITS)
		goto invalid;
	r->width = (int)d;
	r->hi = r->lo;
	if (i < n && s[i] == '-') {
		for (i++, d = 0; i < n && isdigit((unsigned char)s[i]); i++, d++)
			r->hi = (d ? r->hi * 10 : 0) + (uint64_t)(s[i] - '0');
		if (!d || d > MAX_DIGITS)
			goto invalid;
	}
	if (i != n || r->hi < r->lo)
		goto invalid;
	if (r->hi - r->lo >= HOSTLIST_MAX_HOSTS) {
		set_err(err, errlen, "Too many hosts in range `%.*s'", s, n);
		return -1;
	}
	return 0;
invalid:
	set_err(err, errlen, "Invalid range: `%.*s'", s, n);
	return -1;
}

/* The text between '[' and ']'. */
static int parse_group(const char *s, size_t n, group_t *g, char *err,
		       size_t errlen)
{
	size_t start = 0;

	g->r = NULL;
	g->nr = 0;
	g->count = 0;
	for (size_t i = 0; i <= n; i++) {
		range_t r;

		if (i < n && s[i] != ',')
			continue;
		if (parse_range(s + start, i - start, &r, err, errlen) < 0)
			return -1;
		g->r = xrealloc(g->r, (g->nr + 1) * sizeof(*g->r));
		g->r[g->nr++] = r;
		g->count += r.hi - r.lo + 1;
		if (g->count > HOSTLIST_MAX_HOSTS) {
			set_err(err, errlen, "Too many hosts in range `%.*s'",
				s, n);
			return -1;
		}
		start = i + 1;
	}
	return 0;
}

/* Split item into bracket groups; *tail is the text after the last ']'. */
static int split_groups(const char *item, size_t len, group_t *g, size_t *ng,
			const char **tail, char *err, size_t errlen)
{
	const char *p = item, *end = item + len;

	*ng = 0;
	while (p < end) {
		const char *open = memchr(p, '[', (size_t)(end - p));
		const char *close = memchr(p, ']', (size_t)(end - p));
		const char *next;

		if (!open && !close)
			break;
		if (!open || !close || close < open || *ng == MAX_GROUPS)
			goto invalid;
		next = memchr(open + 1, '[', (size_t)(close - open - 1));
		if (next)
			goto invalid;
		g[*ng].seg = p;
		g[*ng].seglen = (size_t)(open - p);
		if (parse_group(open + 1, (size_t)(close - open - 1), &g[*ng],
				err, errlen) < 0) {
			xfree(g[*ng].r);
			return -1;
		}
		(*ng)++;
		p = close + 1;
	}
	*tail = p;
	return 0;
invalid:
	set_err(err, errlen, "Invalid hostlist: %.*s", item, len);
	return -1;
}

/* Odometer over the groups in Slurm's order: the last group turns
 * fastest, then the first, the second, ... and the one before the last
 * slowest ("r[0-1]k[2-3]b[4-5]": r0k2b4 r0k2b5 r1k2b4 r1k2b5 r0k3b4 ...).
 * With one or two groups that is plain leftmost-slowest. */
static void expand_groups(hostlist_t *hl, const group_t *g, size_t ng,
			  const char *tail, size_t taillen)
{
	size_t ri[MAX_GROUPS] = { 0 };
	uint64_t v[MAX_GROUPS];
	size_t turn[MAX_GROUPS];	/* groups, fastest first */
	size_t t;

	turn[0] = ng - 1;
	for (size_t k = 0; k + 1 < ng; k++)
		turn[k + 1] = k;

	for (size_t k = 0; k < ng; k++)
		v[k] = g[k].r[0].lo;
	for (;;) {
		buf_t b = { 0 };
		size_t k, plen = 0;

		for (k = 0; k < ng; k++) {
			buf_add(&b, g[k].seg, g[k].seglen);
			plen = b.len;
			buf_num(&b, v[k], g[k].r[ri[k]].width);
		}
		if (taillen) {
			buf_add(&b, tail, taillen);
			hl_append_num(hl, b.s, b.len, 0, 0);
		} else {
			hl_append_num(hl, b.s, plen, v[ng - 1],
				      (int)(b.len - plen));
		}
		for (t = 0; t < ng; t++) {
			k = turn[t];
			if (v[k] < g[k].r[ri[k]].hi) {
				v[k]++;
				break;
			}
			if (++ri[k] < g[k].nr) {
				v[k] = g[k].r[ri[k]].lo;
				break;
			}
			ri[k] = 0;
			v[k] = g[k].r[0].lo;
		}
		if (t == ng)
			return;
	}
}

/* One separator-free item: "n5", "n[1-3]", "r[1-2]n[01-04]-ib". */
static int push_item(hostlist_t *hl, const char *item, size_t len,
		     uint64_t *budget, char *err, size_t errlen)
{
	group_t g[MAX_GROUPS];
	size_t ng = 0;
	const char *tail;
	uint64_t total = 1;
	int rc = -1;

	if (split_groups(item, len, g, &ng, &tail, err, errlen) < 0)
		goto out;
	for (size_t k = 0; k < ng; k++) {
		total *= g[k].count;
		if (total > *budget) {
			set_err(err, errlen, "Too many hosts in hostlist `%.*s'",
				item, len);
			goto out;
		}
	}
	if (!ng) {
		if (!*budget) {
			set_err(err, errlen, "Too many hosts in hostlist `%.*s'",
				item, len);
			goto out;
		}
		hl_append(hl, xstrndup(item, len));
	} else {
		expand_groups(hl, g, ng, tail, (size_t)(item + len - tail));
	}
	*budget -= total;
	rc = 0;
out:
	for (size_t k = 0; k < ng; k++)
		xfree(g[k].r);
	return rc;
}

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int push_max(hostlist_t *hl, const char *expr, uint64_t budget,
		    char *err, size_t errlen)
{
	size_t start_n = hl->n;
	const char *p = expr;

	if (!expr) {
		set_err(err, errlen, "Invalid hostlist: %.*s", "(null)", 6);
		return -1;
	}
	while (*p) {
		const char *start;
		int depth = 0;

		while (is_sep(*p))
			p++;
		start = p;
		/* commas inside brackets belong to the range list */
		while (*p && (depth || !is_sep(*p))) {
			if (*p == '[')
				depth++;
			else if (*p == ']' && depth)
				depth--;
			p++;
		}
		if (p > start && push_item(hl, start, (size_t)(p - start),
					   &budget, err, errlen) < 0) {
			hl_truncate(hl, start_n);
			return -1;
		}
	}
	return 0;
}

int hostlist_push(hostlist_t *hl, const char *expr, char *err, size_t errlen)
{
	return push_max(hl, expr, HOSTLIST_MAX_HOSTS, err, errlen);
}

/* ---- create / destroy / access ---- */

hostlist_t *hostlist_create(void)
{
	return xmalloc(sizeof(hostlist_t));
}

hostlist_t *hostlist_parse(const char *expr, char *err, size_t errlen)
{
	hostlist_t *hl = hostlist_create();

	if (hostlist_push(hl, expr, err, errlen) < 0) {
		hostlist_destroy(hl);
		return NULL;
	}
	return hl;
}

hostlist_t *hostlist_parse_max(const char *expr, size_t max, char *err,
			       size_t errlen)
{
	hostlist_t *hl = hostlist_create();

	if (max > HOSTLIST_MAX_HOSTS)
		max = HOSTLIST_MAX_HOSTS;
	if (push_max(hl, expr, max, err, errlen) < 0) {
		hostlist_destroy(hl);
		return NULL;
	}
	return hl;
}

hostlist_t *hostlist_copy(const hostlist_t *hl)
{
	hostlist_t *c = hostlist_create();

	c->cap = hl->n;
	c->h = xmalloc((hl->n ? hl->n : 1) * sizeof(*c->h));
	for (size_t i = 0; i < hl->n; i++) {
		c->h[i] = hl->h[i];
		c->h[i].name = xstrdup(hl->h[i].name);
	}
	c->n = hl->n;
	return c;
}

void hostlist_destroy(hostlist_t *hl)
{
	if (!hl)
		return;
	hl_truncate(hl, 0);
	xfree(hl->h);
	xfree(hl);
}

size_t hostlist_count(const hostlist_t *hl)
{
	return hl ? hl->n : 0;
}

const char *hostlist_nth(const hostlist_t *hl, size_t i)
{
	return i < hl->n ? hl->h[i].name : NULL;
}

long hostlist_find(const hostlist_t *hl, const char *name)
{
	for (size_t i = 0; name && i < hl->n; i++)
		if (!strcmp(hl->h[i].name, name))
			return (long)i;
	return -1;
}

void hostlist_push_host(hostlist_t *hl, const char *name)
{
	if (name)
		hl_append(hl, xstrdup(name));
}

bool hostlist_delete_host(hostlist_t *hl, const char *name)
{
	long i = hostlist_find(hl, name);

	if (i < 0)
		return false;
	xfree(hl->h[i].name);
	memmove(&hl->h[i], &hl->h[i + 1], (hl->n - (size_t)i - 1) * sizeof(host_t));
	hl->n--;
	return true;
}

/* ---- sorting ---- */

/* Prefix, then number when the widths are compatible, else width. */
static int host_cmp(const host_t *a, const host_t *b)
{
	size_t n = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if (!a->width || !b->width)
		return (int)a->width - (int)b->width;
	if (width_compatible(a, b)) {
		if (a->num != b->num)
			return a->num < b->num ? -1 : 1;
		return (int)a->width - (int)b->width;
	}
	return (int)a->width - (int)b->width;
}

/* Stable merge sort: safe whatever the comparator does at the edges. */
static void merge_sort(host_t *a, host_t *tmp, size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(a, tmp, mid);
	merge_sort(a + mid, tmp, n - mid);
	if (host_cmp(&a[mid - 1], &a[mid]) <= 0)
		return;
	while (i < mid && j < n)
		tmp[k++] = host_cmp(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

void hostlist_sort(hostlist_t *hl)
{
	host_t *tmp;

	if (hl->n < 2)
		return;
	tmp = xmalloc(hl->n * sizeof(*tmp));
	merge_sort(hl->h, tmp, hl->n);
	xfree(tmp);
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return h;
}

/* Insert name into an open-addressing set; false if it was there. */
static bool name_set_add(const char **set, size_t mask, const char *name)
{
	for (size_t i = (size_t)name_hash(name) & mask;; i = (i + 1) & mask) {
		if (!set[i]) {
			set[i] = name;
			return true;
		}
		if (!strcmp(set[i], name))
			return false;
	}
}

/* A name can be held twice with different structure (n12 from "n12" and
 * from "n1[2]"), and those need not sort next to each other, so duplicates
 * are found by name in a hash set rather than by neighbours. */
void hostlist_uniq(hostlist_t *hl)
{
	size_t out = 0, size = 16;
	const char **set;

	hostlist_sort(hl);
	while (size < hl->n * 2)
		size *= 2;
	set = xcalloc(size, sizeof(*set));
	for (size_t i = 0; i < hl->n; i++) {
		if (!name_set_add(set, size - 1, hl->h[i].name)) {
			xfree(hl->h[i].name);
			continue;
		}
		hl->h[out++] = hl->h[i];
	}
	hl->n = out;
	xfree(set);
}

/* ---- compression ---- */

/* Emit hosts h[0..n) (same prefix, all numbered) as "p[a-b,c,...]". */
static void emit_group(buf_t *b, const host_t *h, size_t n)
{
	size_t i = 0;

	buf_add(b, h[0].name, h[0].plen);
	buf_add(b, "[", 1);
	while (i < n) {
		int padw = host_padded(&h[i]) ? h[i].width : 0;
		int minnat = h[i].nat;
		size_t j = i;

		while (j + 1 < n && h[j + 1].num == h[j].num + 1) {
			const host_t *x = &h[j + 1];

			if (host_padded(x) ? (padw ? padw != x->width
						   : minnat < x->width)
					   : (padw && x->nat < padw))
				break;
			if (host_padded(x))
				padw = x->width;
			j++;
		}
		if (i)
			buf_add(b, ",", 1);
		buf_num(b, h[i].num, padw ? padw : minnat);
		if (j > i) {
			buf_add(b, "-", 1);
			buf_num(b, h[j].num, padw ? padw : minnat);
		}
		i = j + 1;
	}
	buf_add(b, "]", 1);
}

char *hostlist_ranged(const hostlist_t *hl)
{
	buf_t b = { 0 };
	size_t i = 0;

	while (i < hl->n) {
		size_t j = i;

		if (hl->h[i].width)
			while (j + 1 < hl->n && hl->h[j + 1].width &&
			       same_prefix(&hl->h[i], &hl->h[j + 1]))
				j++;
		if (i)
			buf_add(&b, ",", 1);
		if (j == i)
			buf_str(&b, hl->h[i].name);
		else
			emit_group(&b, &hl->h[i], j - i + 1);
		i = j + 1;
	}
	return buf_take(&b);
}

char *hostlist_deranged(const hostlist_t *hl)
{
	buf_t b = { 0 };

	for (size_t i = 0; i < hl->n; i++) {
		if (i)
			buf_add(&b, ",", 1);
		buf_str(&b, hl->h[i].name);
	}
	return buf_take(&b);
}

char *hostlist_compress_expr(const char *expr, char *err, size_t errlen)
{
	hostlist_t *hl = hostlist_parse(expr, err, errlen);
	char *s;

	if (!hl)
		return NULL;
	s = hostlist_ranged(hl);
	hostlist_destroy(hl);
	return s;
}
