/* test_xstring.c — string helpers and the allocation wrappers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_null_inputs(void **state)
{
	char *s = NULL;

	assert_null(xstrdup(NULL));
	assert_null(xstrndup(NULL, 3));
	xstrcat(&s, NULL);
	assert_null(s);
	xstrcat(&s, "");
	assert_string_equal(s, "");
	xfree(s);
	assert_null(s);
	assert_int_equal(xstrcmp(NULL, NULL), 0);
	assert_true(xstrcmp(NULL, "a") < 0);
	assert_true(xstrcmp("a", NULL) > 0);
	assert_true(xstrcasecmp(NULL, "a") < 0);
	assert_false(xstrcaseprefix(NULL, "a"));
	assert_null(xstrtrim(NULL));
	assert_null(xstrtolower(NULL));
	assert_int_equal(xstrarray_len(NULL), 0);
	xstrarray_free(NULL);
}

static void test_cat(void **state)
{
	char *s = NULL;

	xstrcat(&s, "ab");
	xstrncat(&s, "cdef", 2);
	xstrcatc(&s, 'e');
	xstrfmtcat(&s, "-%d-%s", 42, "x");
	assert_string_equal(s, "abcde-42-x");
	xfree(s);

	/* longer than any internal first-try buffer */
	for (int i = 0; i < 100; i++)
		xstrfmtcat(&s, "%0100d", i);
	assert_int_equal(strlen(s), 10000);
	xfree(s);

	s = xstrdup_printf("%s=%u", "Nodes", 12u);
	assert_string_equal(s, "Nodes=12");
	xfree(s);
	s = xstrndup("abcdef", 3);
	assert_string_equal(s, "abc");
	xfree(s);
	s = xstrndup("ab", 10);
	assert_string_equal(s, "ab");
	xfree(s);
}

static void test_compare_case(void **state)
{
	char buf[] = "  MiXeD Case \t\n";

	assert_int_equal(xstrcasecmp("ABC", "abc"), 0);
	assert_true(xstrcaseprefix("SlurmctldHost", "slurmctld"));
	assert_false(xstrcaseprefix("Slurm", "slurmctld"));
	assert_string_equal(xstrtrim(buf), "MiXeD Case");
	assert_string_equal(xstrtolower(buf), "mixed case");
}

static void test_split(void **state)
{
	static const struct {
		const char *in, *delims;
		size_t n;
		const char *items[4];
	} cases[] = {
		{ "", ",", 0, { NULL } },
		{ ",,,", ",", 0, { NULL } },
		{ "a", ",", 1, { "a" } },
		{ "a,b,,c,", ",", 3, { "a", "b", "c" } },
		{ " a b\tc ", " \t", 3, { "a", "b", "c" } },
		{ "x=1;y=2", ";", 2, { "x=1", "y=2" } },
	};

	for (size_t i = 0; i < N(cases); i++) {
		size_t n = 99;
		char **arr = xstrsplit(cases[i].in, cases[i].delims, &n);

		assert_int_equal(n, cases[i].n);
		assert_int_equal(xstrarray_len(arr), cases[i].n);
		for (size_t k = 0; k < n; k++)
			assert_string_equal(arr[k], cases[i].items[k]);
		assert_null(arr[n]);
		xstrarray_free(arr);
	}
}

static void test_array(void **state)
{
	char **a = NULL, **b;

	a = xstrarray_append(a, "one");
	a = xstrarray_append(a, "two");
	assert_int_equal(xstrarray_len(a), 2);
	b = xstrarray_dup(a);
	a = xstrarray_append(a, "three");
	assert_int_equal(xstrarray_len(b), 2);
	assert_string_equal(b[1], "two");
	assert_string_equal(a[2], "three");
	assert_null(a[3]);
	xstrarray_free(a);
	xstrarray_free(b);
}

static void test_xmalloc(void **state)
{
	unsigned char *p = xmalloc(16);

	for (int i = 0; i < 16; i++)
		assert_int_equal(p[i], 0);
	memset(p, 0xab, 16);
	p = xrealloc_sz(p, 16, 64);
	assert_int_equal(p[15], 0xab);
	for (int i = 16; i < 64; i++)
		assert_int_equal(p[i], 0);
	xfree(p);
	assert_null(p);
	p = xcalloc(4, 8);
	assert_int_equal(p[31], 0);
	xfree(p);
	p = xmalloc(0);		/* never NULL */
	assert_non_null(p);
	xfree(p);
	xfree(p);		/* already NULL: harmless */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_inputs),
		cmocka_unit_test(test_cat),
		cmocka_unit_test(test_compare_case),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_array),
		cmocka_unit_test(test_xmalloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
