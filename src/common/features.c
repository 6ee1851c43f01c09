/* features.c — node feature expressions (features.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/features.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define MAX_DEPTH 32

typedef struct {
	const char *p;
	const char *node;      /* node features, or NULL: syntax only */
	int         depth;
	const char *err;
} fx_t;

static bool _name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == ':' || c == '=';
}

/* Is name (len bytes) one of the comma-separated node features? */
static bool _has(const char *list, const char *name, size_t len)
{
	const char *p = list;

	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t) (e - p) : strlen(p);

		if (n == len && !strncmp(p, name, len))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

static bool _or(fx_t *x);

static bool _atom(fx_t *x)
{
	const char *start = x->p;
	bool v;

	if (*x->p == '(') {
		if (++x->depth > MAX_DEPTH) {
			x->err = "too deeply nested";
			return false;
		}
		x->p++;
		v = _or(x);
		if (x->err)
			return false;
		if (*x->p != ')') {
			x->err = "missing ')'";
			return false;
		}
		x->p++;
		x->depth--;
		return v;
	}
	while (_name_char(*x->p))
		x->p++;
	if (x->p == start) {
		x->err = *x->p ? "unexpected character" : "missing feature name";
		return false;
	}
	return x->node ? _has(x->node, start, (size_t) (x->p - start)) : true;
}

static bool _and(fx_t *x)
{
	bool v = _atom(x);

	while (!x->err && (*x->p == '&' || *x->p == ',')) {
		x->p++;
		v = _atom(x) && v;
	}
	return v;
}

static bool _or(fx_t *x)
{
	bool v = _and(x);

	while (!x->err && *x->p == '|') {
		x->p++;
		v = _and(x) || v;
	}
	return v;
}

static bool _run(fx_t *x)
{
	bool v;

	if (!x->p || !*x->p) {
		x->err = "empty expression";
		return false;
	}
	v = _or(x);
	if (!x->err && *x->p)
		x->err = *x->p == ')' ? "unbalanced ')'" : "unexpected character";
	return !x->err && v;
}

bool features_valid(const char *expr, char *err, size_t errlen)
{
	fx_t x = { .p = expr };

	_run(&x);
	if (x.err && err && errlen)
		snprintf(err, errlen, "%s", x.err);
	return !x.err;
}

bool features_match(const char *expr, const char *node_features)
{
	fx_t x = { .p = expr, .node = node_features ? node_features : "" };

	return _run(&x);
}

bool features_each(const char *expr, bool (*fn)(const char *name, void *arg),
		   void *arg)
{
	const char *p = expr;

	while (p && *p) {
		const char *s;
		char *name;
		bool ok;

		while (*p && !_name_char(*p))
			p++;
		for (s = p; _name_char(*p); p++)
			;
		if (p == s)
			continue;
		name = xstrndup(s, (size_t) (p - s));
		ok = fn(name, arg);
		xfree(name);
		if (!ok)
			return false;
	}
	return true;
}
