/* test_array_spec.c — array_spec.h: malformed specs first, then the sets
 * good ones give, Slurm's printed forms and the SLURM_ARRAY_TASK_* figures. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/array_spec.h"
#include "common/xmalloc.h"

static void test_bad_specs(void **state)
{
	static const char *const bad[] = {
		"", "abc", "-1", "1-", "-", ",", "1,", ",1", "1,,2", "5-1",
		"1-5:0", "1-5:", "1-5:x", "1:2", "%2", "1%", "1%x", "1%2%3",
		"1-3%2,5", " 1", "1 ", "1-3 ", "0x10", "+3", "1.5", "99999999999",
		"1-2-3", "1--2", "4294967295", "1;2",
	};
	char err[128];
	uint32_t thr;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (array_spec_parse(bad[i], 1001, &thr, err, sizeof(err)))
			fail_msg("\"%s\" parsed", bad[i]);
		if (!err[0])
			fail_msg("\"%s\": no message", bad[i]);
	}
	assert_null(array_spec_parse(NULL, 1001, &thr, err, sizeof(err)));
}

static void test_max_size(void **state)
{
	char err[128];
	uint32_t thr;
	bitmap_t *b;

	assert_null(array_spec_parse("0-1001", 1001, &thr, err, sizeof(err)));
	assert_non_null(strstr(err, "MaxArraySize=1001"));
	assert_null(array_spec_parse("1000,1001", 1001, &thr, err, sizeof(err)));
	b = array_spec_parse("0-1000", 1001, &thr, err, sizeof(err));
	assert_non_null(b);
	assert_int_equal(bitmap_count(b), 1001);
	bitmap_destroy(b);
	assert_null(array_spec_parse("4000001", 4000002, &thr, err, sizeof(err)));
}

typedef struct {
	const char *spec;
	const char *printed;     /* Slurm's form (checked against 22.05) */
	uint32_t    throttle;
	uint32_t    count, min, max, step;
} good_t;

static void test_good_specs(void **state)
{
	static const good_t cases[] = {
		{ "0-99", "0-99", 0, 100, 0, 99, 1 },
		{ "1,3,5-9", "1,3,5-9", 0, 7, 1, 9, 1 },
		{ "0-100:10", "0-100:10", 0, 11, 0, 100, 10 },
		{ "0-100:10%2", "0-100:10%2", 2, 11, 0, 100, 10 },
		{ "5-99%10", "5-99%10", 10, 95, 5, 99, 1 },
		{ "0-3%0", "0-3", 0, 4, 0, 3, 1 },
		{ "4", "4", 0, 1, 4, 4, 1 },
		{ "0,2,4", "0,2,4", 0, 3, 0, 4, 2 },
		{ "0-9:3", "0,3,6,9", 0, 4, 0, 9, 3 },
		{ "0-10:2", "0,2,4,6,8,10", 0, 6, 0, 10, 2 },
		{ "0-12:2", "0-12:2", 0, 7, 0, 12, 2 },
		{ "0-40:10", "0,10,20,30,40", 0, 5, 0, 40, 10 },
		{ "0-50:10", "0-50:10", 0, 6, 0, 50, 10 },
		{ "0-15:3", "0-15:3", 0, 6, 0, 15, 3 },
		{ "100-108:2", "100,102,104,106,108", 0, 5, 100, 108, 2 },
		{ "2,4,6,7", "2,4,6-7", 0, 4, 2, 7, 1 },
		{ "0-20:2,21-25", "0,2,4,6,8,10,12,14,16,18,20-25", 0, 16, 0, 25, 1 },
		{ "3,1,2,2", "1-3", 0, 3, 1, 3, 1 },
		{ "0-998:2", "0-998:2", 0, 500, 0, 998, 2 },
		{ "60-130", "60-130", 0, 71, 60, 130, 1 },
	};
	char err[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const good_t *c = &cases[i];
		array_spec_stats_t st;
		uint32_t thr = 99;
		bitmap_t *b = array_spec_parse(c->spec, 1001, &thr, err,
					       sizeof(err));
		char *s;

		if (!b)
			fail_msg("\"%s\": %s", c->spec, err);
		s = array_spec_format(b, thr);
		if (strcmp(s, c->printed))
			fail_msg("\"%s\" printed \"%s\", want \"%s\"", c->spec, s,
				 c->printed);
		array_spec_stats(b, &st);
		if (thr != c->throttle || st.count != c->count ||
		    st.min != c->min || st.max != c->max || st.step != c->step)
			fail_msg("\"%s\": throttle %u count %u min %u max %u step %u",
				 c->spec, thr, st.count, st.min, st.max, st.step);
		xfree(s);
		bitmap_destroy(b);
	}
}

static void test_contains(void **state)
{
	assert_true(array_spec_contains("1,3,5-9", 7));
	assert_false(array_spec_contains("1,3,5-9", 4));
	assert_true(array_spec_contains("20-100:10%2", 30));
	assert_false(array_spec_contains("20-100:10%2", 35));
	assert_false(array_spec_contains("20-100:10%2", 110));
	assert_false(array_spec_contains("junk", 1));
	assert_false(array_spec_contains(NULL, 1));
}

static void test_format_empty_and_words(void **state)
{
	bitmap_t *b = bitmap_create(200);
	char *s = array_spec_format(b, 0);

	assert_string_equal(s, "");
	xfree(s);
	bitmap_set_range(b, 0, 63);
	bitmap_set_range(b, 64, 130);
	bitmap_set(b, 199);
	s = array_spec_format(b, 5);
	assert_string_equal(s, "0-130,199%5");
	xfree(s);
	bitmap_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_max_size),
		cmocka_unit_test(test_good_specs),
		cmocka_unit_test(test_contains),
		cmocka_unit_test(test_format_empty_and_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
