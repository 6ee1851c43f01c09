/* test_rest_dbd_body.c — the /slurmdb/ request parsers (rest_dbd_body.c,
 * rest_dbd_query.c): bad bodies and query parameters first, each refused
 * with the place it names; then good ones and the settings they give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_dbd_body.h"
#include "restd/rest_dbd_query.h"

typedef int (*parse_f)(json_object *, rest_dbd_rec_t **, size_t *, char **);

static const struct {
	parse_f     parse;
	const char *body;
	const char *err;     /* a part of the message */
} bad_bodies[] = {
	{ rest_dbd_accounts_parse, "[]", "accounts: expected a list" },
	{ rest_dbd_accounts_parse, "{\"accounts\":[]}", "expected a list" },
	{ rest_dbd_accounts_parse, "{\"accounts\":[1]}",
	  "accounts[0]: expected an object" },
	{ rest_dbd_accounts_parse, "{\"accounts\":[{\"name\":\"\"}]}",
	  "accounts[0]/name" },
	{ rest_dbd_accounts_parse, "{\"accounts\":[{\"name\":\"a b\"}]}",
	  "accounts[0]/name" },
	{ rest_dbd_accounts_parse,
	  "{\"accounts\":[{\"name\":\"a\",\"flags\":[\"DELETED\"]}]}",
	  "accounts[0]/flags: not supported" },
	{ rest_dbd_accounts_parse,
	  "{\"accounts\":[{\"name\":\"a\"},{\"name\":\"a\"}]}",
	  "accounts[1]/name: a is there twice" },
	{ rest_dbd_accounts_parse,
	  "{\"accounts\":[{\"name\":\"a\",\"description\":\"x\\u0001\"}]}",
	  "accounts[0]/description" },
	{ rest_dbd_accounts_parse, "{\"accounts\":[{\"name\":\"a\"}],\"x\":1}",
	  "x: not supported" },
	{ rest_dbd_users_parse,
	  "{\"users\":[{\"name\":\"u\",\"administrator_level\":[\"God\"]}]}",
	  "users[0]/administrator_level" },
	{ rest_dbd_qos_parse,
	  "{\"qos\":[{\"name\":\"q\",\"priority\":\"high\"}]}",
	  "qos[0]/priority" },
	{ rest_dbd_qos_parse, "{\"qos\":[{\"name\":\"q\",\"priority\":-2}]}",
	  "qos[0]/priority" },
	{ rest_dbd_qos_parse, "{\"qos\":[{\"name\":\"q\",\"id\":\"1\"}]}",
	  "qos[0]/id" },
	{ rest_dbd_qos_parse,
	  "{\"qos\":[{\"name\":\"q\",\"limits\":{\"max\":{\"tres\":{\"per\":"
	  "{\"user\":[{\"type\":\"cpu\",\"count\":1}]}}}}}]}",
	  "qos[0]/limits/max/tres/per/user: not supported" },
	{ rest_dbd_assocs_parse, "{\"associations\":[{\"user\":\"u\"}]}",
	  "associations[0]/account" },
	{ rest_dbd_assocs_parse,
	  "{\"associations\":[{\"account\":\"a\",\"max\":{\"tres\":{\"total\":"
	  "[{\"type\":\"cpu\",\"count\":\"x\"}]}}}]}",
	  "associations[0]/max/tres/total" },
	{ rest_dbd_assocs_parse,
	  "{\"associations\":[{\"account\":\"a\",\"qos\":[\"a,b\"]}]}",
	  "associations[0]/qos" },
	{ rest_dbd_assocs_parse,
	  "{\"associations\":[{\"account\":\"a\",\"lineage\":\"/a/\"}]}",
	  "associations[0]/lineage: not supported" },
	{ rest_dbd_accounts_parse,
	  "{\"accounts\":[{\"name\":\"a\",\"coordinators\":[{\"name\":"
	  "\"u,v\"}]}]}", "accounts[0]/coordinators" },
	{ rest_dbd_accounts_parse,
	  "{\"accounts\":[{\"name\":\"a\",\"coordinators\":\"u\"}]}",
	  "accounts[0]/coordinators" },
	{ rest_dbd_clusters_parse, "{\"clusters\":[{\"name\":\"c,d\"}]}",
	  "clusters[0]/name" },
	{ rest_dbd_clusters_parse,
	  "{\"clusters\":[{\"name\":\"c\",\"flags\":[\"FEDERATION\"]}]}",
	  "clusters[0]/flags: not supported" },
};

static void test_bad_bodies(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_bodies) / sizeof(bad_bodies[0]);
	     i++) {
		json_object *b = json_tokener_parse(bad_bodies[i].body);
		rest_dbd_rec_t *recs = (void *)1;
		size_t n = 1;
		char *err = NULL;

		assert_int_equal(bad_bodies[i].parse(b, &recs, &n, &err), -1);
		assert_null(recs);
		assert_int_equal(n, 0);
		assert_non_null(err);
		if (!strstr(err, bad_bodies[i].err))
			fail_msg("%s: got \"%s\", want \"%s\"",
				 bad_bodies[i].body, err, bad_bodies[i].err);
		xfree(err);
		json_object_put(b);
	}
}

static char *joined(char **set)
{
	char *s = NULL;

	for (size_t i = 0; set && set[i]; i++)
		xstrfmtcat(&s, "%s%s", i ? " " : "", set[i]);
	return s ? s : xstrdup("");
}

static const struct {
	parse_f     parse;
	const char *body;
	const char *set;     /* the first record's settings */
} good_bodies[] = {
	{ rest_dbd_accounts_parse,
	  "{\"accounts\":[{\"name\":\"a\",\"description\":\"d e\","
	  "\"organization\":\"o\",\"coordinators\":[],\"flags\":[]}],"
	  "\"meta\":{\"x\":1}}",
	  "description=d e organization=o" },
	{ rest_dbd_users_parse,
	  "{\"users\":[{\"name\":\"u\",\"default\":{\"account\":\"a\","
	  "\"wckey\":\"\"},\"administrator_level\":[\"Operator\"]}]}",
	  "defaultaccount=a adminlevel=Operator" },
	{ rest_dbd_qos_parse,
	  "{\"qos\":[{\"name\":\"q\",\"id\":4,\"priority\":{\"set\":true,"
	  "\"infinite\":false,\"number\":10},\"usage_factor\":{\"number\":2},"
	  "\"limits\":{\"max\":{\"wall_clock\":{\"per\":{\"job\":"
	  "{\"infinite\":true}}}}},\"preempt\":{\"list\":[],\"mode\":[]}}]}",
	  "priority=10 usagefactor=2.000000 maxwall=-1" },
	{ rest_dbd_assocs_parse,
	  "{\"associations\":[{\"account\":\"a\",\"user\":\"u\","
	  "\"qos\":[\"normal\",\"high\"],\"max\":{\"tres\":{\"per\":{\"job\":"
	  "[{\"type\":\"cpu\",\"name\":\"\",\"count\":4},{\"type\":\"gres\","
	  "\"name\":\"gpu\",\"count\":1}]}},\"jobs\":{\"per\":{\"count\":"
	  "{\"set\":true,\"number\":5}}}}}]}",
	  "qos=normal,high maxjobs=5 maxtres=cpu=4,gres/gpu=1" },
};

static void test_good_bodies(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(good_bodies) / sizeof(good_bodies[0]);
	     i++) {
		json_object *b = json_tokener_parse(good_bodies[i].body);
		rest_dbd_rec_t *recs = NULL;
		size_t n = 0;
		char *err = NULL, *set;

		if (good_bodies[i].parse(b, &recs, &n, &err) < 0)
			fail_msg("%s: %s", good_bodies[i].body, err);
		assert_null(err);
		assert_int_equal(n, 1);
		set = joined(recs[0].set);
		assert_string_equal(set, good_bodies[i].set);
		xfree(set);
		rest_dbd_recs_free(recs, n);
		json_object_put(b);
	}
}

/* A cluster: what its controller registers is named, not taken. */
static void test_cluster_registered_members(void **state)
{
	json_object *b = json_tokener_parse(
		"{\"clusters\":[{\"name\":\"c\",\"controller\":{\"host\":"
		"\"h\",\"port\":6817},\"rpc_version\":10752,\"flags\":[],"
		"\"nodes\":\"\"},{\"name\":\"d\"}]}");
	rest_dbd_rec_t *recs = NULL;
	size_t n = 0;
	char *err = NULL;

	(void)state;
	assert_int_equal(rest_dbd_clusters_parse(b, &recs, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(recs[0].name, "c");
	assert_null(recs[0].set);
	assert_string_equal(recs[0].ignored, "controller, rpc_version");
	assert_null(recs[1].ignored);
	rest_dbd_recs_free(recs, n);
	json_object_put(b);
}

typedef int (*add_parse_f)(json_object *, rest_dbd_add_t *, char **);

static const struct {
	add_parse_f parse;
	const char *body;
	const char *want;    /* names|settings, or an error's part */
	bool        ok;
} add_bodies[] = {
	{ rest_dbd_accounts_add_parse, "[]", "association_condition", false },
	{ rest_dbd_accounts_add_parse, "{\"association_condition\":{}}",
	  "association_condition/accounts: expected a list of names", false },
	{ rest_dbd_accounts_add_parse,
	  "{\"association_condition\":{\"accounts\":[\"a b\"]}}",
	  "association_condition/accounts", false },
	{ rest_dbd_accounts_add_parse,
	  "{\"association_condition\":{\"accounts\":[\"a\"],"
	  "\"users\":[\"u\"]}}",
	  "association_condition/users: not supported", false },
	{ rest_dbd_accounts_add_parse,
	  "{\"association_condition\":{\"accounts\":[\"a\"],"
	  "\"association\":{\"comment\":\"c\"}}}",
	  "association_condition/association/comment: not supported", false },
	{ rest_dbd_accounts_add_parse,
	  "{\"association_condition\":{\"accounts\":[\"a\"],"
	  "\"association\":{\"maxjobs\":\"x\"}}}",
	  "association_condition/association/maxjobs: expected a count",
	  false },
	{ rest_dbd_accounts_add_parse,
	  "{\"association_condition\":{\"accounts\":[\"a\"]},"
	  "\"account\":{\"flags\":[\"DELETED\"]}}",
	  "account/flags: not supported", false },
	{ rest_dbd_users_add_parse,
	  "{\"association_condition\":{\"users\":[\"u\"],"
	  "\"wckeys\":[\"w\"]}}",
	  "association_condition/wckeys: not supported", false },
	{ rest_dbd_users_add_parse,
	  "{\"association_condition\":{\"users\":[\"u\"],"
	  "\"association\":{\"parent\":\"p\"}}}",
	  "an account's, not a user's", false },
	{ rest_dbd_users_add_parse,
	  "{\"association_condition\":{\"users\":[\"u\"]},"
	  "\"user\":{\"defaultwckey\":\"w\"}}",
	  "user/defaultwckey: not supported", false },
	{ rest_dbd_users_add_parse,
	  "{\"association_condition\":{\"users\":[\"u\"]},"
	  "\"user\":{\"adminlevel\":[\"God\"]}}",
	  "user/adminlevel", false },
	{ rest_dbd_accounts_add_parse,
	  "{\"association_condition\":{\"accounts\":[\"a\",\"b\"],"
	  "\"clusters\":[\"c\"],\"association\":{\"fairshare\":7,"
	  "\"maxjobs\":{\"set\":true,\"number\":4},\"parent\":\"p\","
	  "\"qoslevel\":[\"normal\"],\"grpjobsaccrue\":{\"set\":false}}},"
	  "\"account\":{\"description\":\"d\",\"organization\":\"o\"},"
	  "\"meta\":{}}",
	  "a b|cluster=c description=d organization=o fairshare=7 maxjobs=4 "
	  "qos=normal parent=p", true },
	{ rest_dbd_users_add_parse,
	  "{\"association_condition\":{\"users\":[\"u\"],\"accounts\":"
	  "[\"a\",\"b\"],\"partitions\":[\"p\"],\"wckeys\":[]},"
	  "\"user\":{\"defaultaccount\":\"a\",\"adminlevel\":[\"Not Set\"],"
	  "\"defaultwckey\":\"\"}}",
	  "u|account=a,b partition=p defaultaccount=a", true },
};

static void test_add_cond_bodies(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(add_bodies) / sizeof(add_bodies[0]);
	     i++) {
		json_object *b = json_tokener_parse(add_bodies[i].body);
		rest_dbd_add_t a;
		char *err = NULL, *names, *set, *got;
		int rc = add_bodies[i].parse(b, &a, &err);

		if (!add_bodies[i].ok) {
			assert_int_equal(rc, -1);
			assert_null(a.names);
			assert_null(a.set);
			if (!err || !strstr(err, add_bodies[i].want))
				fail_msg("%s: got \"%s\", want \"%s\"",
					 add_bodies[i].body, err,
					 add_bodies[i].want);
			xfree(err);
			json_object_put(b);
			continue;
		}
		if (rc < 0)
			fail_msg("%s: %s", add_bodies[i].body, err);
		names = joined(a.names);
		set = joined(a.set);
		got = xstrdup_printf("%s|%s", names, set);
		assert_string_equal(got, add_bodies[i].want);
		xfree(got);
		xfree(names);
		xfree(set);
		rest_dbd_add_free(&a);
		json_object_put(b);
	}
}

static void test_assoc_names_itself(void **state)
{
	json_object *b = json_tokener_parse(
		"{\"associations\":[{\"account\":\"a\",\"cluster\":\"c\","
		"\"id\":7}]}");
	rest_dbd_rec_t *recs = NULL;
	size_t n = 0;
	char *err = NULL;

	(void)state;
	assert_int_equal(rest_dbd_assocs_parse(b, &recs, &n, &err), 0);
	assert_null(recs[0].name);
	assert_string_equal(recs[0].account, "a");
	assert_string_equal(recs[0].cluster, "c");
	assert_string_equal(recs[0].user, "");
	assert_string_equal(recs[0].partition, "");
	assert_int_equal(recs[0].id, 7);
	assert_null(recs[0].set);
	rest_dbd_recs_free(recs, n);
	json_object_put(b);
}

static const struct {
	const char *name, *value, *err;
} bad_params[] = {
	{ "bogus", "1", "bogus: unknown query parameter" },
	{ "wckey", "x", "wckey: not supported by Sluice's job records" },
	{ "state", "NOTASTATE", "state: invalid value NOTASTATE" },
	{ "start_time", "yesterdayish", "start_time: invalid time" },
	{ "node", "n[1-", "node: invalid node list" },
	{ "step", "12_x", "step: invalid value 12_x" },
	{ "step", "0", "step: invalid value 0" },
	{ "step", "12.batch", "step: invalid value 12.batch" },
	{ "users", "no_such_user_xyz", "users: invalid value" },
};

static void test_bad_params(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_params) / sizeof(bad_params[0]);
	     i++) {
		rest_kv_t kv = { (char *)bad_params[i].name,
				 (char *)bad_params[i].value };
		rest_jobs_query_t q = { 0 };
		char *err = NULL;

		assert_int_equal(rest_jobs_query_parse(&kv, 1, &q, &err), -1);
		assert_non_null(err);
		if (!strstr(err, bad_params[i].err))
			fail_msg("%s=%s: got \"%s\"", bad_params[i].name,
				 bad_params[i].value, err);
		xfree(err);
		rest_jobs_query_free(&q);
	}
}

static void test_good_params(void **state)
{
	rest_kv_t kv[] = {
		{ "users", "0,root" }, { "state", "CD,FAILED" },
		{ "step", "12_3,14" }, { "start_time", "100" },
		{ "skip_steps", "" }, { "show_duplicates", "" },
		{ "node", "n[1-2]" }, { "format", "x" },
	};
	rest_jobs_query_t q = { 0 };
	char *err = NULL;

	(void)state;
	assert_int_equal(rest_jobs_query_parse(kv, 8, &q, &err), 0);
	assert_null(err);
	assert_string_equal(q.cond.users[0], "0");
	assert_string_equal(q.cond.users[1], "0");
	assert_int_equal(xstrarray_len(q.cond.states), 2);
	assert_string_equal(q.cond.job_ids[0], "12_3");
	assert_string_equal(q.cond.job_ids[1], "14");
	assert_int_equal(q.cond.start, 100);
	assert_int_equal(q.cond.flags, DBD_JOBS_NO_STEPS | DBD_JOBS_DUPLICATES);
	assert_non_null(q.nodes);
	rest_jobs_query_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_good_bodies),
		cmocka_unit_test(test_assoc_names_itself),
		cmocka_unit_test(test_cluster_registered_members),
		cmocka_unit_test(test_add_cond_bodies),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_good_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
