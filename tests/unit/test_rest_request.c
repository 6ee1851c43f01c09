/* test_rest_request.c — slurmrestd's reading of a request: the route of a
 * path and method (rest_route_parse), a token's user (rest_auth_jwt_user),
 * request bodies (rest_ctld_body) and error descriptions that quote the
 * request (always valid UTF-8).  Bad inputs first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <event2/http.h>

#include "common/xmalloc.h"
#include "restd/rest_auth.h"
#include "restd/rest_ctld.h"
#include "restd/rest_resp.h"
#include "restd/rest_route.h"
#include "restd/rest_spec.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- routes ---- */

static const struct {
	const char      *path;
	enum rest_method method;
	int              status;
} bad_routes[] = {
	{ "", REST_GET, 404 },
	{ "/", REST_GET, 404 },
	{ "slurm/v0.0.43/ping/", REST_GET, 404 },
	{ "/slurm", REST_GET, 404 },
	{ "/slurm/v0.0.", REST_GET, 404 },
	{ "/slurm/v0.0.43", REST_GET, 404 },
	{ "/slurm/v0.0.4/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.39/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.44/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.043/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.+43/ping/", REST_GET, 404 },
	{ "/slurm/v0.0. 43/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.4294967339/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.43x/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.43/nosuch/", REST_GET, 404 },
	{ "/slurm/v0.0.43/job/", REST_GET, 404 },
	{ "/slurm/v0.0.43/job//", REST_GET, 404 },
	{ "/slurm/v0.0.43/job/1/2", REST_GET, 404 },
	{ "/slurm/v0.0.43//ping/", REST_GET, 404 },
	{ "/slurmx/v0.0.43/ping/", REST_GET, 404 },
	{ "/slurm/v0.0.43/ping/", REST_DELETE, 405 },
	{ "/slurm/v0.0.43/ping/", 0, 405 },
	{ "/slurm/v0.0.43/jobs/", REST_POST, 405 },
};

static void test_bad_routes(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(bad_routes); i++) {
		char *param[REST_MAX_PATH_PARAMS] = { 0 };
		const char *plugin = NULL;
		int ver = 0;
		int st = rest_route_parse(bad_routes[i].path,
					  bad_routes[i].method, &ver, &plugin,
					  param);

		if (st != bad_routes[i].status)
			fail_msg("%s: %d, not %d", bad_routes[i].path, st,
				 bad_routes[i].status);
		for (int k = 0; k < REST_MAX_PATH_PARAMS; k++)
			assert_null(param[k]);
	}
}

static const struct {
	const char      *path;
	enum rest_method method;
	int              ver;
	const char      *plugin, *param;
} good_routes[] = {
	{ "/slurm/v0.0.43/ping/", REST_GET, 43, "slurm", NULL },
	{ "/slurm/v0.0.40/ping", REST_GET, 40, "slurm", NULL },
	{ "/slurm/v0.0.41/job/12_3", REST_GET, 41, "slurm", "12_3" },
	{ "/slurm/v0.0.42/job/7/", REST_DELETE, 42, "slurm", "7" },
	{ "/slurm/v0.0.43/node/n[1-4]", REST_POST, 43, "slurm", "n[1-4]" },
	{ "/slurm/v0.0.43/node/\xff", REST_GET, 43, "slurm", "\xff" },
};

static void test_good_routes(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(good_routes); i++) {
		char *param[REST_MAX_PATH_PARAMS] = { 0 };
		const char *plugin = NULL;
		int ver = 0;
		int st = rest_route_parse(good_routes[i].path,
					  good_routes[i].method, &ver, &plugin,
					  param);

		if (st != 200)
			fail_msg("%s: %d", good_routes[i].path, st);
		assert_int_equal(ver, good_routes[i].ver);
		assert_string_equal(plugin, good_routes[i].plugin);
		if (good_routes[i].param)
			assert_string_equal(param[0], good_routes[i].param);
		else
			assert_null(param[0]);
		for (int k = 0; k < REST_MAX_PATH_PARAMS; k++)
			xfree(param[k]);
	}
}

/* ---- URIs ---- */

static const struct {
	const char *uri;
	int         rc;
	const char *path;      /* r->path after it */
} uris[] = {
	{ "/slurm/v0.0.43/ping/%00", -1, "/slurm/v0.0.43/ping/%00" },
	{ "/slurm/v0.0.43/job/1%0aforged", -1,
	  "/slurm/v0.0.43/job/1%0aforged" },
	{ "/x%0d", -1, "/x%0d" },
	{ "/x%1b[31m", -1, "/x%1b[31m" },
	{ "/x%7f", -1, "/x%7f" },
	{ "/x?a=1&a=2&a=3&a=4&a=5&a=6&a=7&a=8&a=9&a=10&a=11&a=12&a=13&a=14"
	  "&a=15&a=16&a=17&a=18&a=19&a=20&a=21&a=22&a=23&a=24&a=25&a=26"
	  "&a=27&a=28&a=29&a=30&a=31&a=32&a=33&a=34&a=35&a=36&a=37&a=38"
	  "&a=39&a=40&a=41&a=42&a=43&a=44&a=45&a=46&a=47&a=48&a=49&a=50"
	  "&a=51&a=52&a=53&a=54&a=55&a=56&a=57&a=58&a=59&a=60&a=61&a=62"
	  "&a=63&a=64&a=65", -1, "/x" },
	{ "/x?=1", -1, "/x" },
	{ "/x?a=1&=2", -1, "/x" },
	{ "/x?a=1%0a[forged]", -1, "/x" },
	{ "/x?a%0a=1", -1, "/x" },
	{ "/x?a=%00", -1, "/x" },
	{ "/slurm/v0.0.43/node/n%31", 0, "/slurm/v0.0.43/node/n1" },
	{ "/slurm/v0.0.43/node/%ff", 0, "/slurm/v0.0.43/node/\xff" },
	{ "/x?a=%zz&b", 0, "/x" },
	{ "/x?b&&a=%zz&", 0, "/x" },
	{ "/x?Include%20deleted+QOS&a=%zz&b=&c+d=e+f%2Bg", 0, "/x" },
};

static void test_uris(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(uris); i++) {
		struct evhttp_uri *u = evhttp_uri_parse_with_flags(
			uris[i].uri, EVHTTP_URI_NONCONFORMANT);
		rest_req_t r = { 0 };
		int rc;

		assert_non_null(u);
		rc = rest_req_set_uri(&r, u);
		if (rc != uris[i].rc)
			fail_msg("%s: %d", uris[i].uri, rc);
		assert_string_equal(r.path, uris[i].path);
		if (!rc && strchr(uris[i].uri, '?')) {
			/* a malformed escape is kept; a bare name is a flag */
			assert_string_equal(rest_query(&r, "a"), "%zz");
			assert_string_equal(rest_query(&r, "b"), "");
			assert_null(rest_query(&r, "c"));
		}
		if (strstr(uris[i].uri, "QOS")) {
			/* names are decoded too; '+' is a space */
			assert_string_equal(rest_query(
				&r, "Include deleted QOS"), "");
			assert_string_equal(rest_query(&r, "c d"), "e f+g");
			assert_int_equal(r.nquery, 4);
		}
		rest_req_clear(&r);
		evhttp_uri_free(u);
	}
}

/* ---- a token's user ---- */

/* header {"alg":"HS256"} and signature "sig" around a payload */
#define HDR "eyJhbGciOiJIUzI1NiJ9."
#define SIG ".c2ln"

static const struct {
	const char *token, *user;   /* user NULL: malformed */
} tokens[] = {
	{ "", NULL },
	{ "abc", NULL },
	{ "a.b", NULL },
	{ "a.b.c.d", NULL },
	{ ".eyJzdW4iOiJ4In0.c2ln", NULL },
	{ HDR SIG, NULL },
	{ HDR "!!!!" SIG, NULL },
	{ HDR "e" SIG, NULL },                          /* 1 char mod 4 */
	{ HDR "bm90IGpzb24" SIG, NULL },                /* not json */
	{ HDR "WzFd" SIG, NULL },                       /* [1] */
	{ HDR "eyJleHAiOjF9" SIG, NULL },               /* no sun */
	{ HDR "eyJzdW4iOjd9" SIG, NULL },               /* sun: 7 */
	{ HDR "eyJzdW4iOiIifQ" SIG, NULL },             /* sun: "" */
	{ HDR "eyJzdW4iOiL__yJ9" SIG, NULL },           /* sun: ff ff */
	{ HDR "eyJzdW4iOiJhXHUwMDAwYiJ9" SIG, NULL },   /* sun: "a\0b" */
	{ HDR "eyJzdW4iOiJhXG5iIn0" SIG, NULL },        /* sun: "a\nb" */
	{ HDR "eyJzdW4iOiJhG2IifQ" SIG, NULL },         /* sun: "a\x1bb" */
	{ HDR "eyJzdW4iOiJ4In0geA" SIG, NULL },         /* {..} x */
	{ HDR "eyJzdW4iOiJ4In0A" SIG, NULL },           /* {..}\0 */
	/* sun of 70 characters: does not fit 64 */
	{ HDR "eyJzdW4iOiJhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFh"
	  "YWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhIn0" SIG, NULL },
	{ HDR "eyJzdW4iOiJ4In0" SIG, "x" },             /* {"sun":"x"} */
	{ HDR "eyJzdW4iOiJ4In0K" SIG, "x" },            /* {..}\n */
	{ HDR "eyJzdW4iOiJjYWbDqSJ9" SIG, "caf\xc3\xa9" },
	/* 63 characters: fits */
	{ HDR "eyJzdW4iOiJhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFh"
	  "YWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWEifQ" SIG,
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
};

static void test_token_user(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(tokens); i++) {
		char buf[64] = "";
		int rc = rest_auth_jwt_user(tokens[i].token, buf, sizeof(buf));

		if (!tokens[i].user) {
			if (rc != -1)
				fail_msg("%s: accepted (%s)", tokens[i].token,
					 buf);
			continue;
		}
		if (rc != 0)
			fail_msg("%s: refused", tokens[i].token);
		assert_string_equal(buf, tokens[i].user);
	}
}

/* ---- bodies and descriptions ---- */

static const char *first_description(rest_req_t *r)
{
	json_object *e = NULL, *d = NULL;

	assert_true(json_object_object_get_ex(r->resp, "errors", &e));
	assert_true(json_object_object_get_ex(
		json_object_array_get_idx(e, 0), "description", &d));
	return json_object_get_string(d);
}

static const struct {
	const char *body;
	size_t      len;
	const char *says;    /* NULL: parses */
} bodies[] = {
	{ "", 0, "no body" },
	{ "   ", 3, "at byte" },
	{ "{", 1, "at byte 1 of 1" },
	{ "{\"a\":1} x", 9, "at byte 8 of 9" },
	{ "{\"a\":1}\0", 8, "at byte 7 of 8: data after" },
	{ "{\"a\":\"\xff\"}", 9, "at byte" },
	{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
	  68, "at byte 64" },
	{ "{\"a\":1,}", 8, "at byte" },
	{ "{\"a\":1} \n", 9, NULL },
	{ "[]", 2, NULL },
};

static void test_bodies(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(bodies); i++) {
		rest_req_t r = { .ver = 43, .plugin = "slurm" };
		json_object *o;

		r.body = xmalloc(bodies[i].len + 1);
		memcpy(r.body, bodies[i].body, bodies[i].len);
		r.body_len = bodies[i].len;
		r.resp = rest_resp_new(&r);
		o = rest_ctld_body(&r, "test");
		if (!bodies[i].says) {
			if (!o)
				fail_msg("%s: %s", bodies[i].body,
					 first_description(&r));
		} else {
			assert_null(o);
			assert_int_equal(r.status, 400);
			if (!strstr(first_description(&r), bodies[i].says))
				fail_msg("%s: '%s' lacks '%s'", bodies[i].body,
					 first_description(&r),
					 bodies[i].says);
		}
		json_object_put(o);
		rest_req_clear(&r);
	}
}

static void test_descriptions_are_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} quoted[] = {
		{ "\xff\xfe", "??" },
		{ "caf\xc3", "caf?" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
		{ "\xc0\xaf", "??" },                   /* overlong '/' */
		{ "\xed\xa0\x80", "???" },              /* a surrogate */
		{ "\xf4\x90\x80\x80", "????" },         /* past U+10FFFF */
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },
		{ "a\x80z", "a?z" },
	};

	(void)state;
	for (size_t i = 0; i < N(quoted); i++) {
		rest_req_t r = { .ver = 43, .plugin = "slurm" };
		char want[64];

		r.resp = rest_resp_new(&r);
		rest_error_http(&r, 404, 0, "test", "no %s here", quoted[i].in);
		snprintf(want, sizeof(want), "no %s here", quoted[i].out);
		assert_string_equal(first_description(&r), want);
		rest_req_clear(&r);
	}
}

static int setup(void **state)
{
	(void)state;
	return rest_spec_init();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_routes),
		cmocka_unit_test(test_good_routes),
		cmocka_unit_test(test_uris),
		cmocka_unit_test(test_token_user),
		cmocka_unit_test(test_bodies),
		cmocka_unit_test(test_descriptions_are_utf8),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
