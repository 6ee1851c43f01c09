/* rest_req.c — a request's path and query from its URI, and freeing. */
#include "restd/rest_req.h"

#include <event2/http.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

const char *rest_query(const rest_req_t *r, const char *name)
{
	for (size_t i = 0; i < r->nquery; i++)
		if (!strcmp(r->query[i].name, name))
			return r->query[i].value;
	return NULL;
}

/* No control character (NUL, newline, ...) in n bytes of s: a path is
 * logged, and "%0a" must not start a forged log line. */
static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* n bytes of s percent-decoded ('+' is a space, as a form encodes it),
 * xmalloc'd; NULL if it decodes to a control character. */
static char *query_decode(const char *s, size_t n)
{
	char *in = xstrndup(s, n), *out, *copy = NULL;
	size_t len = 0;

	out = evhttp_uridecode(in, 1, &len);
	if (out && printable(out, len))
		copy = xstrdup(out);
	free(out);
	xfree(in);
	return copy;
}

/* The query "a=1&flag&b=x%20y": each parameter, name and value decoded; a
 * bare name is a flag (value "").  -1 if a name is empty, a name or value
 * holds a control character, or there are more than REST_MAX_QUERY. */
static int read_query(const struct evhttp_uri *uri, rest_req_t *r)
{
	const char *q = evhttp_uri_get_query(uri), *p, *amp;

	for (p = q; p && *p; p = amp ? amp + 1 : NULL) {
		size_t n, kn;
		const char *eq;
		char *k, *v;

		amp = strchr(p, '&');
		n = amp ? (size_t)(amp - p) : strlen(p);
		if (!n)
			continue;                       /* "a=1&&b=2" */
		eq = memchr(p, '=', n);
		kn = eq ? (size_t)(eq - p) : n;
		if (!kn || r->nquery >= REST_MAX_QUERY)
			return -1;
		k = query_decode(p, kn);
		v = eq ? query_decode(eq + 1, n - kn - 1) : xstrdup("");
		if (!k || !v || !*k) {
			xfree(k);
			xfree(v);
			return -1;
		}
		r->query[r->nquery].name = k;
		r->query[r->nquery].value = v;
		r->nquery++;
	}
	return 0;
}

int rest_req_set_uri(rest_req_t *r, const struct evhttp_uri *uri)
{
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	size_t plen = 0;
	char *p = path ? evhttp_uridecode(path, 0, &plen) : NULL;
	int rc = 0;

	if (!p || !printable(p, plen)) {
		/* keep it as sent (still encoded) for the error and logs */
		r->path = xstrdup(path && printable(path, strlen(path)) ?
				  path : "");
		free(p);
		return -1;
	}
	/* evhttp's allocation: make it ours */
	r->path = xstrdup(p);
	if (read_query(uri, r) < 0)
		rc = -1;
	free(p);
	return rc;
}

void rest_req_clear(rest_req_t *r)
{
	xfree(r->path);
	for (int i = 0; i < REST_MAX_PATH_PARAMS; i++)
		xfree(r->param[i]);
	for (size_t i = 0; i < r->nquery; i++) {
		xfree(r->query[i].name);
		xfree(r->query[i].value);
	}
	r->nquery = 0;
	xfree(r->body);
	xfree(r->token);
	json_object_put(r->resp);
	r->resp = NULL;
	xfree(r->raw);
}
