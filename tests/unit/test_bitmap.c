/* test_bitmap.c — bit sets: strings, ranges, search, set algebra. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/bitmap.h"
#include "common/xmalloc.h"

static void test_from_str_bad(void **state)
{
	static const char *const bad[] = {
		"a", "-1", "1-", "-", "3-1", "1,,2", "1,", ",1", "0-200", "128",
		"1 2", "1-2-3", "0x3", "99999999999999999999999",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bitmap_t *b = bitmap_from_str(bad[i], 128);

		if (b)
			fail_msg("accepted \"%s\"", bad[i]);
	}
	assert_null(bitmap_from_str(NULL, 10));
}

static void test_str_round_trip(void **state)
{
	static const struct {
		const char *in, *out;
		size_t count;
	} cases[] = {
		{ "", "", 0 },
		{ "0", "0", 1 },
		{ "0-3,7", "0-3,7", 5 },
		{ "7,0-3", "0-3,7", 5 },
		{ "0,1,2,3", "0-3", 4 },
		{ "63-64", "63-64", 2 },
		{ "0-199", "0-199", 200 },
		{ "5,5,5", "5", 1 },
		{ "62,64,127,128,199", "62,64,127-128,199", 5 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bitmap_t *b = bitmap_from_str(cases[i].in, 200);
		char *s;

		assert_non_null(b);
		s = bitmap_to_str(b);
		assert_string_equal(s, cases[i].out);
		assert_int_equal(bitmap_count(b), cases[i].count);
		xfree(s);
		bitmap_destroy(b);
	}
}

static void test_set_clear_range(void **state)
{
	bitmap_t *b = bitmap_create(130);

	assert_int_equal(bitmap_size(b), 130);
	assert_int_equal(bitmap_nwords(b), 3);
	assert_int_equal(bitmap_first_set(b), -1);
	assert_int_equal(bitmap_last_set(b), -1);
	bitmap_set(b, 500);		/* out of range: ignored */
	assert_false(bitmap_test(b, 500));
	bitmap_set_range(b, 10, 129);
	assert_int_equal(bitmap_count(b), 120);
	bitmap_clear_range(b, 60, 70);
	assert_int_equal(bitmap_count(b), 109);
	assert_int_equal(bitmap_next_set(b, 60), 71);
	assert_int_equal(bitmap_first_set(b), 10);
	assert_int_equal(bitmap_last_set(b), 129);
	assert_int_equal(bitmap_nth_set(b, 0), 10);
	assert_int_equal(bitmap_nth_set(b, 50), 71);
	assert_int_equal(bitmap_nth_set(b, 108), 129);
	assert_int_equal(bitmap_nth_set(b, 109), -1);
	assert_int_equal(bitmap_next_set(b, 130), -1);
	bitmap_set_all(b);
	assert_int_equal(bitmap_count(b), 130);
	bitmap_not(b);
	assert_int_equal(bitmap_count(b), 0);
	bitmap_not(b);
	assert_int_equal(bitmap_count(b), 130);
	bitmap_clear(b, 0);
	assert_false(bitmap_test(b, 0));
	assert_true(bitmap_test(b, 1));
	bitmap_clear_all(b);
	assert_int_equal(bitmap_count(b), 0);
	bitmap_destroy(b);
}

static void test_algebra(void **state)
{
	bitmap_t *a = bitmap_from_str("0-9,100", 128);
	bitmap_t *b = bitmap_from_str("5-14", 128);
	bitmap_t *c = bitmap_copy(a);
	char *s;

	assert_true(bitmap_equal(a, c));
	assert_true(bitmap_overlaps(a, b));
	bitmap_and(c, b);
	s = bitmap_to_str(c);
	assert_string_equal(s, "5-9");
	xfree(s);
	assert_true(bitmap_is_subset(c, a));
	assert_true(bitmap_is_subset(c, b));
	assert_false(bitmap_is_subset(a, b));
	bitmap_or(c, a);
	assert_true(bitmap_equal(a, c));
	bitmap_and_not(c, b);
	s = bitmap_to_str(c);
	assert_string_equal(s, "0-4,100");
	xfree(s);
	assert_false(bitmap_overlaps(c, b));
	bitmap_destroy(a);
	bitmap_destroy(b);
	bitmap_destroy(c);
}

static void test_resize(void **state)
{
	bitmap_t *b = bitmap_from_str("1,70,127", 128);
	char *s;

	b = bitmap_resize(b, 71);
	s = bitmap_to_str(b);
	assert_string_equal(s, "1,70");
	xfree(s);
	b = bitmap_resize(b, 300);
	assert_int_equal(bitmap_count(b), 2);
	assert_false(bitmap_test(b, 127));
	bitmap_set(b, 299);
	assert_int_equal(bitmap_last_set(b), 299);
	bitmap_destroy(b);
}

static void test_empty(void **state)
{
	bitmap_t *b = bitmap_create(0);
	char *s = bitmap_to_str(b);

	assert_string_equal(s, "");
	assert_int_equal(bitmap_count(b), 0);
	assert_int_equal(bitmap_first_set(b), -1);
	bitmap_set_all(b);
	bitmap_set_range(b, 0, 5);
	assert_int_equal(bitmap_count(b), 0);
	xfree(s);
	bitmap_destroy(b);
}

static void test_large(void **state)
{
	bitmap_t *b = bitmap_create(100000);
	size_t n = 0;

	for (size_t i = 0; i < 100000; i += 3)
		bitmap_set(b, i);
	for (long i = bitmap_first_set(b); i >= 0;
	     i = bitmap_next_set(b, (size_t)i + 1))
		n++;
	assert_int_equal(n, bitmap_count(b));
	assert_int_equal(n, 33334);
	bitmap_destroy(b);
}

/* Words written by an unpacker may carry bits past nbits: ignore them. */
static void test_dirty_tail(void **state)
{
	bitmap_t *b = bitmap_create(70);
	char *s;

	bitmap_words_mut(b)[1] = ~UINT64_C(0);
	assert_int_equal(bitmap_count(b), 6);
	assert_int_equal(bitmap_last_set(b), 69);
	assert_int_equal(bitmap_next_set(b, 69), 69);
	assert_int_equal(bitmap_nth_set(b, 6), -1);
	s = bitmap_to_str(b);
	assert_string_equal(s, "64-69");
	xfree(s);
	bitmap_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_str_bad),
		cmocka_unit_test(test_str_round_trip),
		cmocka_unit_test(test_set_clear_range),
		cmocka_unit_test(test_algebra),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_dirty_tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
