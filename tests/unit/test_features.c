/* test_features.c — -C/--constraint expressions against node Features. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/features.h"

static void test_malformed(void **st)
{
	static const char *const bad[] = {
		"", "&", "a&", "|a", "a||b", "(a", "a)", "(a|b", "[a|b]",
		"a*2", "a b", "()", "a&(b|)", NULL
	};
	char err[64];

	for (int i = 0; bad[i]; i++) {
		assert_false(features_valid(bad[i], err, sizeof(err)));
		assert_true(err[0] != '\0');
		assert_false(features_match(bad[i], "a,b"));
	}
	assert_false(features_valid(NULL, err, sizeof(err)));
}

static void test_match(void **st)
{
	static const struct { const char *expr, *node; int want; } t[] = {
		{ "intel", "intel,ib", 1 },
		{ "amd", "intel,ib", 0 },
		{ "intel&ib", "intel,ib", 1 },
		{ "intel&gpu", "intel,ib", 0 },
		{ "intel,ib", "ib,intel", 1 },
		{ "amd|intel", "intel", 1 },
		{ "amd|arm", "intel", 0 },
		{ "(amd|intel)&ib", "intel,ib", 1 },
		{ "(amd|intel)&ib", "intel", 0 },
		{ "amd|intel&ib", "amd", 1 },
		{ "int", "intel", 0 },
		{ "intel", NULL, 0 },
		{ "big-mem.v2", "big-mem.v2", 1 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(features_match(t[i].expr, t[i].node),
				 t[i].want);
}

static int seen;

static bool _count(const char *name, void *arg)
{
	seen++;
	return name[0] != 'x';
}

static void test_each(void **st)
{
	seen = 0;
	assert_true(features_each("(a|b)&c", _count, NULL));
	assert_int_equal(seen, 3);
	seen = 0;
	assert_false(features_each("a|x|c", _count, NULL));
	assert_int_equal(seen, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_each),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
