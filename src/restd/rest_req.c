/* rest_req.c — a request's path and query from its URI, and freeing. */
#include "restd/rest_req.h"

#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

const char *rest_query(const rest_req_t *r, const char *name)
{
	for (size_t i = 0; i < r->nquery; i++)
		if (!strcmp(r->query[i].name, name))
			return r->query[i].value;
	return NULL;
}

static int read_query(const struct evhttp_uri *uri, rest_req_t *r)
{
	const char *q = evhttp_uri_get_query(uri);
	struct evkeyvalq kv;
	struct evkeyval *e;
	int rc = 0;

	if (!q || !*q)
		return 0;
	TAILQ_INIT(&kv);
	if (evhttp_parse_query_str(q, &kv) < 0)
		return -1;
	TAILQ_FOREACH(e, &kv, next) {
		if (r->nquery >= REST_MAX_QUERY) {
			rc = -1;
			break;
		}
		r->query[r->nquery].name = xstrdup(e->key);
		r->query[r->nquery].value = xstrdup(e->value ? e->value : "");
		r->nquery++;
	}
	evhttp_clear_headers(&kv);
	return rc;
}

int rest_req_set_uri(rest_req_t *r, const struct evhttp_uri *uri)
{
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;
	size_t plen = 0;
	char *p = path ? evhttp_uridecode(path, 0, &plen) : NULL;
	int rc = 0;

	/* evhttp's allocation: make it ours */
	r->path = xstrdup(p ? p : "");
	if (!p || strlen(p) != plen || read_query(uri, r) < 0)
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
