/* test_x11_fwd.c — --x11's shared pieces: DISPLAY values (malformed
 * first), the --x11 words, cookies as xauth prints them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/x11_fwd.h"
#include "common/xmalloc.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_bad_displays(void **state)
{
	static const char *const bad[] = {
		"", "0", "host", ":", ":x", ":1.", ":1.x", "host::0",
		":99999999", ":65000", ":1.256", "host:1:2x", ":-1",
	};
	char *host;
	int num, screen;

	(void) state;
	for (size_t i = 0; i < N(bad); i++) {
		host = NULL;
		assert_int_equal(x11_display_parse(bad[i], &host, &num,
						   &screen), -1);
		xfree(host);
	}
	assert_int_equal(x11_display_parse(NULL, &host, &num, &screen), -1);
}

static void test_good_displays(void **state)
{
	static const struct {
		const char *d, *host;
		int num, screen;
	} good[] = {
		{ ":0", NULL, 0, 0 },
		{ ":73.2", NULL, 73, 2 },
		{ "unix:5", NULL, 5, 0 },
		{ "login1/unix:10.0", NULL, 10, 0 },
		{ "localhost:10.0", "localhost", 10, 0 },
		{ "10.1.2.3:3", "10.1.2.3", 3, 0 },
		{ "[::1]:4", "[::1]", 4, 0 },
	};

	(void) state;
	for (size_t i = 0; i < N(good); i++) {
		char *host = NULL;
		int num = -1, screen = -1;

		assert_int_equal(x11_display_parse(good[i].d, &host, &num,
						   &screen), 0);
		if (good[i].host)
			assert_string_equal(host, good[i].host);
		else
			assert_null(host);
		assert_int_equal(num, good[i].num);
		assert_int_equal(screen, good[i].screen);
		xfree(host);
	}
}

static void test_words(void **state)
{
	(void) state;
	assert_int_equal(x11_flags_parse("sideways"), 0);
	assert_int_equal(x11_flags_parse("batch"), 0);  /* sbatch's, not
							 * srun's */
	assert_int_equal(x11_flags_parse(NULL), X11_FORWARD_ALL);
	assert_int_equal(x11_flags_parse(""), X11_FORWARD_ALL);
	assert_int_equal(x11_flags_parse("ALL"), X11_FORWARD_ALL);
	assert_int_equal(x11_flags_parse("first"), X11_FORWARD_FIRST);
	assert_int_equal(x11_flags_parse("last"), X11_FORWARD_LAST);
	assert_string_equal(x11_flags_name(X11_FORWARD_FIRST), "first");
	assert_string_equal(x11_flags_name(X11_FORWARD_LAST), "last");
	assert_string_equal(x11_flags_name(X11_FORWARD_ALL), "all");
}

static void test_cookies(void **state)
{
	char big[X11_COOKIE_MAX + 3];

	(void) state;
	assert_false(x11_cookie_valid(NULL));
	assert_false(x11_cookie_valid(""));
	assert_false(x11_cookie_valid("abc"));          /* odd */
	assert_false(x11_cookie_valid("zz"));
	assert_false(x11_cookie_valid("ab\ncd"));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_false(x11_cookie_valid(big));
	assert_true(x11_cookie_valid("0123456789abcdefABCDEF00"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_displays),
		cmocka_unit_test(test_good_displays),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_cookies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
