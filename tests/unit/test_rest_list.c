/* test_rest_list.c — GET jobs and GET nodes write each record by its
 * version's plan (rest_plan.h), with no tree.  The text must be the old
 * path's byte for byte: each record's object from the field table,
 * viewed through the version's item schema, serialized by json-c.  And
 * in v0.0.43, the layout the tables are written in, that view must
 * change nothing: the tables give every member v0.0.43 requires, so
 * squeue --json and scontrol show --json (the tables, unviewed) are the
 * REST answer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli_fields.h"
#include "common/xmalloc.h"
#include "restd/rest_list.h"
#include "restd/rest_plan.h"
#include "restd/rest_spec.h"
#include "restd/rest_text.h"
#include "rest_list_data.h"

#define NREC 77

static const struct {
	const char *schema;     /* after v0.0.4N_ */
	const char *key;
	int         jobs;       /* 1: jobs, 0: nodes */
} lists[] = {
	{ "openapi_job_info_resp", "jobs", 1 },
	{ "openapi_nodes_resp", "nodes", 0 },
};

static cli_ctx_t ctx = { .now = 1764690000, .slurmd_port = 6818 };

static rest_list_recs_t recs_of(int jobs, void *recs)
{
	if (jobs)
		return (rest_list_recs_t){ cli_job_fields, recs,
					   sizeof(job_info_t), NREC };
	return (rest_list_recs_t){ cli_node_fields, recs, sizeof(node_info_t),
				   NREC };
}

static int setup(void **state)
{
	(void)state;
	return rest_spec_init();
}

static int teardown(void **state)
{
	(void)state;
	rest_plan_fini();
	rest_spec_fini();
	return 0;
}

/* Text made by hand: json-c's escapes, numbers, nesting. */
static void test_text_is_json_c(void **state)
{
	const char *odd = rld_odd_text();
	json_object *o = json_object_new_object();
	json_object *a = json_object_new_array();
	rest_text_t t = { 0 };
	size_t len;
	char *s;

	(void)state;
	json_object_object_add(o, "s", json_object_new_string(odd));
	json_object_object_add(o, odd, json_object_new_int64(-5));
	json_object_object_add(o, "big", json_object_new_uint64(UINT64_MAX));
	json_object_object_add(o, "d", json_object_new_double(1.5));
	json_object_object_add(o, "d0", json_object_new_double(2));
	json_object_object_add(o, "b", json_object_new_boolean(0));
	json_object_object_add(o, "n", NULL);
	json_object_array_add(a, json_object_new_object());
	json_object_array_add(a, json_object_new_array());
	json_object_object_add(o, "a", a);
	rest_text_value(&t, o);
	s = rest_text_take(&t, &len);
	assert_string_equal(s, json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	assert_int_equal(len, strlen(s));
	xfree(s);
	json_object_put(o);
}

/* The plan's text equals the old path's, in every version. */
static void test_plan_equals_view(void **state)
{
	job_info_t *jobs = rld_jobs(NREC);
	node_info_t *nodes = rld_nodes(NREC);

	(void)state;
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		for (int ver = REST_VER_MIN; ver <= REST_VER_MAX; ver++) {
			rest_list_recs_t recs = recs_of(lists[l].jobs,
				lists[l].jobs ? (void *)jobs : (void *)nodes);
			char schema[128], *tree, *plan;
			size_t tlen, plen;

			snprintf(schema, sizeof(schema), "v0.0.%d_%s", ver,
				 lists[l].schema);
			assert_non_null(rest_plan_get(ver, schema,
						      lists[l].key,
						      recs.tab));
			tree = rest_list_items(ver, schema, lists[l].key,
					       &recs, &ctx, true, &tlen);
			plan = rest_list_items(ver, schema, lists[l].key,
					       &recs, &ctx, false, &plen);
			if (strcmp(tree, plan)) {
				size_t d = 0;

				while (tree[d] == plan[d])
					d++;
				d = d > 80 ? d - 80 : 0;
				fail_msg("%s v0.0.%d: plan and view differ:\n"
					 "view: %.240s\nplan: %.240s",
					 lists[l].key, ver, tree + d, plan + d);
			}
			assert_int_equal(tlen, plen);
			xfree(tree);
			xfree(plan);
		}
	}
	xfree(jobs);
	xfree(nodes);
}

/* v0.0.43: the tables' own objects need no view. */
static void test_tables_complete_for_v43(void **state)
{
	job_info_t *jobs = rld_jobs(NREC);
	node_info_t *nodes = rld_nodes(NREC);

	(void)state;
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		rest_list_recs_t recs = recs_of(lists[l].jobs,
			lists[l].jobs ? (void *)jobs : (void *)nodes);
		char schema[128];

		snprintf(schema, sizeof(schema), "v0.0.%d_%s", REST_VER_MAX,
			 lists[l].schema);
		for (uint32_t i = 0; i < NREC; i++) {
			const void *rec = (const char *)recs.recs +
					  i * recs.size;
			rest_list_recs_t one = { recs.tab, rec, recs.size, 1 };
			json_object *o = cli_fields_json(recs.tab, rec, &ctx);
			char *viewed = rest_list_items(REST_VER_MAX, schema,
						       lists[l].key, &one,
						       &ctx, true, NULL);
			const char *raw = json_object_to_json_string_ext(o,
				JSON_C_TO_STRING_PLAIN |
				JSON_C_TO_STRING_NOSLASHESCAPE);

			/* viewed is "[" raw "]" when the view added nothing */
			if (strlen(viewed) != strlen(raw) + 2 ||
			    strncmp(viewed + 1, raw, strlen(raw))) {
				size_t d = 0;

				while (raw[d] == viewed[d + 1])
					d++;
				d = d > 80 ? d - 80 : 0;
				fail_msg("%s record %u: the view of v0.0.43 "
					 "changes the table's object:\n"
					 "table: %.240s\nview:  %.240s",
					 lists[l].key, i, raw + d,
					 viewed + 1 + d);
			}
			xfree(viewed);
			json_object_put(o);
		}
	}
	xfree(jobs);
	xfree(nodes);
}

/* A list the version does not have: no plan (the caller falls back). */
static void test_no_plan_for_unknown_list(void **state)
{
	(void)state;
	assert_null(rest_plan_get(REST_VER_MAX, "v0.0.43_no_such_schema",
				  "jobs", cli_job_fields));
	assert_null(rest_plan_get(REST_VER_MAX, "v0.0.43_openapi_job_info_resp",
				  "no_such_member", cli_job_fields));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_plan_for_unknown_list),
		cmocka_unit_test(test_text_is_json_c),
		cmocka_unit_test(test_plan_equals_view),
		cmocka_unit_test(test_tables_complete_for_v43),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
