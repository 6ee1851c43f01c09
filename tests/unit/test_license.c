/* test_license.c — license lists (common/license.c) and backfill's
 * license availability over time (ctld/bf_lic.c): bad inputs first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/license.h"
#include "common/xmalloc.h"
#include "../../src/ctld/bf_lic.c"

static void test_conf_bad(void **st)
{
	static const char *bad[] = {
		"a:", ":3", "a:x", "a:-1", "a:1,,b", ",a", "a,", "a:1,a:2",
		"a b", "a=3", "a:1|b:1", "a:99999999999", "a:1000000001",
		"a:3:4", "a;b",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	lic_list_t l;
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (lic_conf_parse(bad[i], &l, err, sizeof(err)) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_int_equal(l.cnt, 0);
		assert_null(l.items);
		assert_true(err[0]);
	}
}

static void test_conf_good(void **st)
{
	lic_list_t l;
	char err[128], *s;

	assert_int_equal(lic_conf_parse("fluent:30,ansys,zero:0,x@srv:2", &l,
					err, sizeof(err)), 0);
	assert_int_equal(l.cnt, 4);
	assert_false(l.any);
	assert_int_equal(lic_list_find(&l, "fluent")->count, 30);
	assert_int_equal(lic_list_find(&l, "ansys")->count, 1);
	assert_int_equal(lic_list_find(&l, "zero")->count, 0);
	assert_int_equal(lic_list_find(&l, "x@srv")->count, 2);
	assert_null(lic_list_find(&l, "fluen"));
	s = lic_list_string(&l);
	assert_string_equal(s, "fluent:30,ansys:1,zero:0,x@srv:2");
	xfree(s);
	lic_list_free(&l);
	assert_int_equal(lic_conf_parse("", &l, err, sizeof(err)), 0);
	assert_int_equal(l.cnt, 0);
}

static void test_req_bad(void **st)
{
	static const char *bad[] = {
		"", "a:0", "a:", ":1", "a,b|c", "a|b,c", "a|a", "a||b", "a,",
		"|a", "a:1x", "a b", "a:1000000001", "a:600000000,a:600000000",
	};
	lic_list_t l;
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (lic_req_parse(bad[i], &l, err, sizeof(err)) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_int_equal(l.cnt, 0);
		assert_true(err[0]);
	}
}

static void test_req_good(void **st)
{
	lic_list_t l;
	char err[128], *s;

	assert_int_equal(lic_req_parse("a:2,b,a:1", &l, err, sizeof(err)), 0);
	assert_false(l.any);
	s = lic_list_string(&l);
	assert_string_equal(s, "a:3,b:1");    /* a name twice adds up */
	xfree(s);
	lic_list_free(&l);
	assert_int_equal(lic_req_parse("a:2|b", &l, err, sizeof(err)), 0);
	assert_true(l.any);
	s = lic_list_string(&l);
	assert_string_equal(s, "a:2|b:1");
	xfree(s);
	lic_list_free(&l);
}

/* Two licenses, 60 s slots, a 10-slot window. */
static void test_bf_lic(void **st)
{
	const uint32_t free_now[] = { 1, 0 };
	const uint32_t lic_a[] = { 0 }, two[] = { 2 }, one[] = { 1 };
	const uint32_t any_lic[] = { 0, 1 }, any_cnt[] = { 2, 1 };
	bf_lic_req_t a2 = { lic_a, two, 1, false };
	bf_lic_req_t a1 = { lic_a, one, 1, false };
	bf_lic_req_t any = { any_lic, any_cnt, 2, true };
	bf_lic_req_t all = { any_lic, any_cnt, 2, false };
	const uint32_t bad_lic[] = { 7 };
	bf_lic_req_t bad = { bad_lic, one, 1, false };
	time_t now = 1000000, t;
	size_t choice;
	bf_lic_t *m = bf_lic_create(free_now, 2, now, 60, 600);

	bf_lic_release(m, 0, now + 120, 1);      /* a: 2 free from slot 2 */
	bf_lic_release(m, 1, now + 300, 1);      /* b: 1 free from slot 5 */
	assert_int_equal(bf_lic_earliest(m, &bad, 60, now, &t, NULL), -1);
	assert_int_equal(bf_lic_earliest(m, &a1, 60, now, &t, NULL), 0);
	assert_int_equal(t, now);
	assert_int_equal(bf_lic_earliest(m, &a2, 60, now, &t, NULL), 0);
	assert_int_equal(t, now + 120);
	/* any: a:2 at slot 2 comes before b:1 at slot 5 */
	assert_int_equal(bf_lic_earliest(m, &any, 60, now, &t, &choice), 0);
	assert_int_equal(t, now + 120);
	assert_int_equal(choice, 0);
	/* all: both from slot 5 */
	assert_int_equal(bf_lic_earliest(m, &all, 60, now, &t, NULL), 0);
	assert_int_equal(t, now + 300);
	/* a planned job takes a:2 over slots 2..4: a:1 for 3 slots now fits
	 * only before it ... not at all (slot 2 is taken) -> from slot 5 */
	bf_lic_take(m, 0, 2, now + 120, 180);
	assert_int_equal(bf_lic_earliest(m, &a1, 180, now, &t, NULL), 0);
	assert_int_equal(t, now + 300);
	assert_int_equal(bf_lic_earliest(m, &a1, 60, now, &t, NULL), 0);
	assert_int_equal(t, now);
	assert_int_equal(bf_lic_free_for(m, 0, 60), 1);
	assert_int_equal(bf_lic_free_for(m, 0, 180), 0);
	/* for ever from slot 5: nothing after it in the window */
	bf_lic_take(m, 0, 2, now + 300, UINT32_MAX);
	assert_int_equal(bf_lic_earliest(m, &a2, 60, now, &t, NULL), -1);
	bf_lic_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_bad),
		cmocka_unit_test(test_conf_good),
		cmocka_unit_test(test_req_bad),
		cmocka_unit_test(test_req_good),
		cmocka_unit_test(test_bf_lic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
