/* fuzz_rest_request.c — what slurmrestd makes of a request's outside
 * input, without a network: the first byte picks the part,
 *
 *   0  the route of a path and method (rest_route_parse): a match names
 *      the plugin and version the path starts with;
 *   1  a request URI as evhttp parses it, then its path and query
 *      (rest_req_set_uri) and the route of the result;
 *   2  authentication: "X-SLURM-USER-NAME\nX-SLURM-USER-TOKEN\n
 *      Authorization" (an empty line is an absent header) through
 *      rest_auth(), and the token alone through rest_auth_jwt_user();
 *   3  a request body through rest_ctld_body(): JSON or a 400 with errors;
 *   4  a JSON document shaped by rest_view() to a schema of the document
 *      of every operation (the next two bytes, little-endian, pick which):
 *      the result is JSON that serializes.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON -DSLUICE_ASAN=ON
 */
#include <event2/http.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_auth.h"
#include "restd/rest_ctld.h"
#include "restd/rest_req.h"
#include "restd/rest_resp.h"
#include "restd/rest_route.h"
#include "restd/rest_spec.h"
#include "restd/rest_view.h"

static char **schemas;    /* "v0.0.4N_name" of every schema served */
static size_t nschemas;

static bool every_op(int ver, const char *tmpl, const char *method)
{
	(void)ver;
	(void)tmpl;
	(void)method;
	return true;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	json_object *doc, *comp = NULL, *s = NULL;
	char *text;

	(void)argc;
	(void)argv;
	if (rest_spec_init() < 0)
		abort();
	text = rest_spec_openapi(~0u, every_op);
	doc = json_tokener_parse(text);
	if (!json_object_object_get_ex(doc, "components", &comp) ||
	    !json_object_object_get_ex(comp, "schemas", &s))
		abort();
	json_object_object_foreach(s, name, v) {
		(void)v;
		schemas = xrealloc(schemas, (nschemas + 1) * sizeof(char *));
		schemas[nschemas++] = xstrdup(name);
	}
	json_object_put(doc);
	xfree(text);
	return 0;
}

static void check_route(const char *path, enum rest_method m)
{
	char *param[REST_MAX_PATH_PARAMS] = { 0 };
	const char *plugin = NULL;
	char prefix[32];
	int ver = 0;
	int st = rest_route_parse(path, m, &ver, &plugin, param);

	if (st != 200 && st != 404 && st != 405)
		abort();
	if (st == 200) {
		if (ver < REST_VER_MIN || ver > REST_VER_MAX || !plugin)
			abort();
		snprintf(prefix, sizeof(prefix), "/%s/v0.0.%d/", plugin, ver);
		if (strncmp(path, prefix, strlen(prefix)))
			abort();
	}
	for (int i = 0; i < REST_MAX_PATH_PARAMS; i++)
		xfree(param[i]);
}

static void fuzz_uri(const char *s)
{
	struct evhttp_uri *uri = evhttp_uri_parse_with_flags(
		s, EVHTTP_URI_NONCONFORMANT);
	rest_req_t r = { 0 };

	if (!uri)
		return;
	if (rest_req_set_uri(&r, uri) == 0) {
		if (r.nquery > REST_MAX_QUERY || strlen(r.path) > strlen(s))
			abort();
		for (size_t i = 0; i < r.nquery; i++)
			if (rest_query(&r, r.query[i].name) == NULL)
				abort();
		check_route(r.path, REST_GET);
	}
	rest_req_clear(&r);
	evhttp_uri_free(uri);
}

/* The next line of *s (NULL if empty), cut off in place. */
static const char *line(char **s)
{
	char *l = *s, *nl;

	if (!l)
		return NULL;
	if ((nl = strchr(l, '\n'))) {
		*nl = '\0';
		*s = nl + 1;
	} else {
		*s = NULL;
	}
	return *l ? l : NULL;
}

static void fuzz_auth(char *s, uint8_t flags)
{
	rest_auth_in_t in = { 0 };
	rest_req_t r = { 0 };
	char why[256], user[64];

	in.user_name = line(&s);
	in.token = line(&s);
	in.authorization = line(&s);
	in.unix_peer = flags & 1;
	in.peer_uid = getuid();
	in.peer_gid = getgid();
	if (in.token && rest_auth_jwt_user(in.token, user, sizeof(user)) == 0 &&
	    (!*user || strlen(user) >= sizeof(user)))
		abort();
	if (rest_auth(&r, &in, why, sizeof(why)) == 0) {
		if (!*r.user)
			abort();
	} else if (!*why) {
		abort();
	}
	rest_req_clear(&r);
}

static void fuzz_body(const uint8_t *data, size_t size)
{
	rest_req_t r = { .ver = REST_VER_MAX, .plugin = "slurm" };
	json_object *o;

	r.body = xmalloc(size + 1);
	memcpy(r.body, data, size);
	r.body_len = size;
	r.resp = rest_resp_new(&r);
	o = rest_ctld_body(&r, "fuzz");
	if (!o && r.status != 400)
		abort();
	if (o && r.status >= 400)
		abort();
	json_object_put(o);
	rest_req_clear(&r);
}

static void fuzz_view(const char *s)
{
	const char *name;
	json_object *doc;
	int ver;

	if (!s[0] || !s[1] || !nschemas)
		return;
	name = schemas[((uint8_t)s[0] | (uint8_t)s[1] << 8) % nschemas];
	ver = atoi(name + strlen("v0.0."));
	doc = json_tokener_parse(s + 2);
	if (!doc)
		return;
	doc = rest_view(ver, name, doc);
	if (!json_object_to_json_string(doc))
		abort();
	json_object_put(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 2 || size > 65536)
		return 0;
	s = xmalloc(size);      /* data[1..] as a string: up to a NUL */
	memcpy(s, data + 1, size - 1);
	switch (data[0] % 5) {
	case 0:         /* GET, POST, DELETE or another (PUT: 0) */
		check_route(s + 1, data[1] % 4 == 3 ? (enum rest_method)0 :
			    (enum rest_method)(1u << (data[1] % 4)));
		break;
	case 1:
		fuzz_uri(s);
		break;
	case 2:
		fuzz_auth(s + 1, data[1]);
		break;
	case 3:
		fuzz_body(data + 1, size - 1);
		break;
	case 4:
		fuzz_view(s);
		break;
	}
	xfree(s);
	return 0;
}
