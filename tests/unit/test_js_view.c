/* test_js_view.c — the job_submit plugin view (ctld/js_view.c): every
 * served version is filled from the controller's job_desc_t and what a
 * plugin changes in it comes back; versions not served have no size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ctld/js_view.c"
#include "common/proto_version.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void test_versions_not_served(void **state)
{
	(void) state;
	assert_int_equal(js_view_size(0), 0);
	assert_int_equal(js_view_size(JOB_SUBMIT_VIEW_VERSION + 1), 0);
	assert_int_equal(js_view_size(1), sizeof(job_submit_view_v1_t));
	assert_int_equal(js_view_size(2), sizeof(job_submit_view_t));
}

/* every member of every served view has its job_desc_t row (but the
 * ones the controller fills itself) */
static void test_every_member_mapped(void **state)
{
	(void) state;
	for (uint32_t v = JS_VIEW_OLDEST; v <= JOB_SUBMIT_VIEW_VERSION; v++) {
		view_ver_t *vv = _ver(v);

		assert_non_null(vv);
		for (size_t i = 0; vv->fields[i].name; i++)
			if (vv->map[i] < 0 &&
			    strcmp(vv->fields[i].name, "client_version"))
				fail_msg("view %u: %s has no job_desc_t member",
					 v, vv->fields[i].name);
	}
}

static void fill_desc(job_desc_t *d)
{
	job_desc_init(d);
	d->name = xstrdup("job");
	d->comment = xstrdup("old");
	d->time_limit = 10;
	d->pn_min_memory = 512;
	d->mem_per_cpu = true;
	d->begin_time = 1234567;
	d->alloc_resp_port = 4242;
	d->spank_env = xstrdup("X=1");
}

static void test_v1_round_trip(void **state)
{
	job_submit_view_v1_t v;
	job_desc_t d;

	(void) state;
	fill_desc(&d);
	js_view_fill(1, &v, &d, PROTO_OWN);
	assert_string_equal(v.name, "job");
	assert_int_equal(v.time_limit, 10);
	assert_int_equal(v.pn_min_memory, 512);
	assert_true(v.mem_per_cpu);
	assert_int_equal(v.begin_time, 1234567);
	assert_int_equal(v.alloc_resp_port, 4242);
	assert_string_equal(v.spank_env, "X=1");
	/* what a plugin does: replace a string, change numbers */
	xfree(v.comment);
	v.comment = xstrdup("new");
	v.time_limit = 20;
	v.mem_per_cpu = false;
	js_view_take(1, &v, &d);
	assert_string_equal(d.comment, "new");
	assert_int_equal(d.time_limit, 20);
	assert_false(d.mem_per_cpu);
	assert_string_equal(d.name, "job");
	job_desc_free_members(&d);
}

static void test_v2_round_trip(void **state)
{
	job_submit_view_t v;
	job_desc_t d;

	(void) state;
	fill_desc(&d);
	js_view_fill(2, &v, &d, 0x2411);
	assert_int_equal(v.client_version, 0x2411);
	assert_string_equal(v.comment, "old");
	xfree(v.comment);
	v.time_min = 3;
	v.client_version = 1;           /* read-only: not taken back */
	js_view_take(2, &v, &d);
	assert_null(d.comment);
	assert_int_equal(d.time_min, 3);
	/* members view 2 does not have are the controller's, untouched */
	assert_int_equal(d.alloc_resp_port, 4242);
	assert_string_equal(d.spank_env, "X=1");
	job_desc_free_members(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions_not_served),
		cmocka_unit_test(test_every_member_mapped),
		cmocka_unit_test(test_v1_round_trip),
		cmocka_unit_test(test_v2_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
