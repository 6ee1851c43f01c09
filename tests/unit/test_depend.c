/* test_depend.c — dependency expressions: bad ones first, then what each
 * good one parses to and how it prints (Slurm's scontrol form). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/depend.h"
#include "common/xmalloc.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"afterok", "afterok:", "afterok:1:", "afterok::1", "afterok:x",
		"afterok:0", "afterok:-1", "afterok:1x", "afterok:1_", "afterok:1_x",
		"afterok:1+", "afterok:1+x", "afterok:1+99999999999",
		"afterok:99999999999", "foo:1", "after ok:1", ":1", ",", "?",
		"afterok:1,", ",afterok:1", "afterok:1,,afterany:2",
		"afterok:1?", "afterok:1??afterok:2", "afterok:1,afterok:2?afterok:3",
		"singleton:1", "singletonx", "singleton,", "afterok:1(unfulfilled)",
		"singleton(failed)", "1:", "1x", "expand:1",
	};
	char err[128];

	for (size_t i = 0; i < N(bad); i++) {
		depend_list_t l = { .cnt = 77 };

		err[0] = '\0';
		if (depend_parse(bad[i], false, &l, err, sizeof(err)) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		if (!err[0])
			fail_msg("no reason for \"%s\"", bad[i]);
		assert_int_equal(l.cnt, 0);
		assert_null(l.e);
	}
}

static void test_bad_state(void **state)
{
	static const char *const bad[] = {
		"afterok:1(", "afterok:1(done)", "afterok:1(unfulfilled", "afterok:1()",
		"afterok:1(failed)x", "singleton(nope)", "afterok:1(FAILED)",
	};
	depend_list_t l;

	for (size_t i = 0; i < N(bad); i++)
		if (depend_parse(bad[i], true, &l, NULL, 0) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
}

static void test_good(void **state)
{
	static const struct {
		const char *in;
		uint32_t    cnt;
		bool        any;
		const char *out;
	} cases[] = {
		{ "", 0, false, NULL },
		{ "afterok:12", 1, false, "afterok:12(unfulfilled)" },
		{ "AfterOK:12", 1, false, "afterok:12(unfulfilled)" },
		{ "afterok:20:21,afterany:23", 3, false,
		  "afterok:20(unfulfilled),afterok:21(unfulfilled),"
		  "afterany:23(unfulfilled)" },
		{ "afterok:20:21?afterany:23", 3, true,
		  "afterok:20(unfulfilled)?afterok:21(unfulfilled)?"
		  "afterany:23(unfulfilled)" },
		{ "after:12+5", 1, false, "after:12+5(unfulfilled)" },
		{ "after:12+5:13", 2, false,
		  "after:12+5(unfulfilled),after:13(unfulfilled)" },
		{ "afternotok:7", 1, false, "afternotok:7(unfulfilled)" },
		{ "aftercorr:7", 1, false, "aftercorr:7(unfulfilled)" },
		{ "afterburstbuffer:7", 1, false,
		  "afterburstbuffer:7(unfulfilled)" },
		{ "singleton", 1, false, "singleton(unfulfilled)" },
		{ "SINGLETON,afterok:3", 2, false,
		  "singleton(unfulfilled),afterok:3(unfulfilled)" },
		{ "12:13", 2, false,
		  "afterany:12(unfulfilled),afterany:13(unfulfilled)" },
		{ "afterok:12_3", 1, false, "afterok:12_3(unfulfilled)" },
		{ "afterok:12_*", 1, false, "afterok:12_*(unfulfilled)" },
		{ "afterany:12_0+2", 1, false, "afterany:12_0+2(unfulfilled)" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		depend_list_t l;
		char *s;

		if (depend_parse(cases[i].in, false, &l, NULL, 0) != 0)
			fail_msg("refused \"%s\"", cases[i].in);
		assert_int_equal(l.cnt, cases[i].cnt);
		assert_int_equal(l.any, cases[i].any);
		s = depend_string(&l);
		if (cases[i].out)
			assert_string_equal(s, cases[i].out);
		else
			assert_null(s);
		xfree(s);
		depend_list_free(&l);
	}
}

static void test_fields(void **state)
{
	depend_list_t l;

	assert_int_equal(depend_parse("after:5+10,afterok:6_2,afterany:7_*",
				      false, &l, NULL, 0), 0);
	assert_int_equal(l.e[0].type, DEPEND_AFTER);
	assert_int_equal(l.e[0].job_id, 5);
	assert_int_equal(l.e[0].minutes, 10);
	assert_int_equal(l.e[0].task_id, DEPEND_NO_TASK);
	assert_int_equal(l.e[1].type, DEPEND_AFTER_OK);
	assert_int_equal(l.e[1].task_id, 2);
	assert_int_equal(l.e[2].type, DEPEND_AFTER_ANY);
	assert_int_equal(l.e[2].task_id, DEPEND_ALL_TASKS);
	assert_int_equal(l.e[2].state, DEPEND_UNFULFILLED);
	depend_list_free(&l);
}

/* The saved form parses back to the same states. */
static void test_round_trip_states(void **state)
{
	static const char *const saved[] = {
		"afterok:12(failed)",
		"afterany:12(fulfilled),afterok:13(unfulfilled)",
		"after:4+3(fulfilled)?singleton(unfulfilled)",
		"afterok:12_*(failed),afterok:12_4(fulfilled)",
	};

	for (size_t i = 0; i < N(saved); i++) {
		depend_list_t l;
		char *s;

		assert_int_equal(depend_parse(saved[i], true, &l, NULL, 0), 0);
		s = depend_string(&l);
		assert_string_equal(s, saved[i]);
		xfree(s);
		depend_list_free(&l);
	}
}

static void test_too_many(void **state)
{
	char *s = NULL;
	depend_list_t l;
	size_t len = 0;

	s = xmalloc(16 * (DEPEND_MAX + 2));
	len += (size_t) sprintf(s, "afterok");
	for (int i = 1; i <= DEPEND_MAX + 1; i++)
		len += (size_t) sprintf(s + len, ":%d", i);
	assert_int_equal(depend_parse(s, false, &l, NULL, 0), -1);
	assert_int_equal(l.cnt, 0);
	xfree(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_bad_state),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_round_trip_states),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
