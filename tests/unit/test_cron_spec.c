/* test_cron_spec.c — cron_spec.h: malformed time fields first (each with
 * a message, nothing changed), then what good ones match, the next start
 * over month ends, leap years, cron(5)'s day-of-month/day-of-week rule
 * and daylight saving time changes (TZ set per test). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "common/cron_spec.h"

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

/* Local time as seconds since the epoch (isdst from the zone). */
static time_t at(int y, int mon, int d, int h, int min)
{
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mon - 1, .tm_mday = d,
			 .tm_hour = h, .tm_min = min, .tm_isdst = -1 };

	return mktime(&tm);
}

static void test_bad_specs(void **state)
{
	static const char *const bad[] = {
		"", "   ", "* * * *", "60 * * * * x", "* 24 * * * x",
		"* * 0 * * x", "* * 32 * * x", "* * * 0 * x", "* * * 13 * x",
		"* * * * 8 x", "*/0 * * * * x", "5-1 * * * * x", "1- * * * * x",
		"-1 * * * * x", "a * * * * x", "1,,2 * * * * x", ", * * * * x",
		"1/ * * * * x", "*/61 * * * * x", "* * * foo * x",
		"* * * * sunday x", "@reboot x", "@hourlyx x", "@ x",
		"1.5 * * * * x", "99999999999 * * * * x", "*-5 * * * * x",
		"* * * jan-13 * x", "1/2/3 * * * * x",
	};
	cron_spec_t c, was;
	char err[128];

	memset(&was, 0x5a, sizeof(was));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = was;
		err[0] = '\0';
		if (cron_spec_parse(bad[i], &c, NULL, err, sizeof(err)) == 0)
			fail_msg("\"%s\" parsed", bad[i]);
		if (!err[0])
			fail_msg("\"%s\": no message", bad[i]);
		if (memcmp(&c, &was, sizeof(c)))
			fail_msg("\"%s\": spec changed on failure", bad[i]);
	}
	assert_int_equal(cron_spec_parse(NULL, &c, NULL, err, sizeof(err)), -1);
	/* a bare spec may not carry a command */
	assert_int_equal(cron_spec_parse_only("* * * * * echo", &c, err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "echo"));
	assert_int_equal(cron_spec_parse_only("61 * * * *", &c, err,
					      sizeof(err)), -1);
	assert_string_equal(err, "invalid minute field \"61\"");
}

static void test_fields_and_rest(void **state)
{
	cron_spec_t c;
	const char *rest;
	char err[128];

	assert_int_equal(cron_spec_parse("  */15 1-3,5 * jan-mar,Dec mon-fri "
					 "  echo hi there", &c, &rest, err,
					 sizeof(err)), 0);
	assert_string_equal(rest, "echo hi there");
	assert_true(c.minute == ((1ull << 0) | (1ull << 15) | (1ull << 30) |
				 (1ull << 45)));
	assert_int_equal(c.hour, (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5));
	assert_int_equal(c.month, (1 << 1) | (1 << 2) | (1 << 3) | (1 << 12));
	assert_int_equal(c.dow, 0x3e);
	assert_true(c.dom_star);
	assert_false(c.dow_star);
	/* Sunday is 0 and 7; "5/20" runs from 5 to the end */
	assert_int_equal(cron_spec_parse_only("5/20 0 1 1 7", &c, err,
					      sizeof(err)), 0);
	assert_true(c.minute == ((1ull << 5) | (1ull << 25) | (1ull << 45)));
	assert_int_equal(c.dow, 1);
	assert_int_equal(cron_spec_parse_only("0 0 * * 0-7/7", &c, err,
					      sizeof(err)), 0);
	assert_int_equal(c.dow, 1);
	/* the words */
	assert_int_equal(cron_spec_parse("@hourly /bin/true", &c, &rest, err,
					 sizeof(err)), 0);
	assert_string_equal(rest, "/bin/true");
	assert_true(c.minute == 1);
	assert_int_equal(c.hour, 0xffffff);
	assert_int_equal(cron_spec_parse_only("@WEEKLY", &c, err, sizeof(err)),
			 0);
	assert_int_equal(c.dow, 1);
	assert_false(c.dow_star);
}

static time_t next_of(const char *spec, time_t after)
{
	cron_spec_t c;
	char err[128];

	if (cron_spec_parse_only(spec, &c, err, sizeof(err)))
		fail_msg("%s: %s", spec, err);
	return cron_spec_next(&c, after);
}

static void test_next(void **state)
{
	set_tz("UTC");
	/* strictly after: the same minute is not the next one */
	assert_true(next_of("* * * * *", at(2026, 12, 3, 10, 20) + 0) ==
		    at(2026, 12, 3, 10, 21));
	assert_true(next_of("* * * * *", at(2026, 12, 3, 10, 20) + 59) ==
		    at(2026, 12, 3, 10, 21));
	assert_true(next_of("*/15 * * * *", at(2026, 12, 3, 10, 20)) ==
		    at(2026, 12, 3, 10, 30));
	assert_true(next_of("0 * * * *", at(2026, 12, 31, 23, 0)) ==
		    at(2027, 1, 1, 0, 0));
	assert_true(next_of("@monthly", at(2026, 1, 31, 12, 0)) ==
		    at(2026, 2, 1, 0, 0));
	assert_true(next_of("@yearly", at(2026, 6, 1, 0, 0)) ==
		    at(2027, 1, 1, 0, 0));
	/* 31st: months without one are passed over */
	assert_true(next_of("0 12 31 * *", at(2026, 4, 1, 0, 0)) ==
		    at(2026, 5, 31, 12, 0));
	/* Feb 29: the next leap year */
	assert_true(next_of("0 0 29 2 *", at(2026, 3, 1, 0, 0)) ==
		    at(2028, 2, 29, 0, 0));
	/* never: Feb 30 */
	assert_true(next_of("0 0 30 2 *", at(2026, 1, 1, 0, 0)) == 0);
	/* 2026-12-03 is a Thursday */
	assert_true(next_of("0 9 * * mon", at(2026, 12, 3, 10, 0)) ==
		    at(2026, 12, 7, 9, 0));
	assert_true(next_of("30 8 * * sat,sun", at(2026, 12, 3, 10, 0)) ==
		    at(2026, 12, 5, 8, 30));
}

/* cron(5): both day fields restricted: either matches; one '*': both. */
static void test_dom_dow_rule(void **state)
{
	set_tz("UTC");
	/* the 15th or a Monday: Monday 7 Dec comes first */
	assert_true(next_of("0 0 15 * 1", at(2026, 12, 3, 10, 0)) ==
		    at(2026, 12, 7, 0, 0));
	/* the 4th or a Monday: Friday the 4th */
	assert_true(next_of("0 0 4 * 1", at(2026, 12, 3, 10, 0)) ==
		    at(2026, 12, 4, 0, 0));
	/* '*' day of week: only the 15th */
	assert_true(next_of("0 0 15 * *", at(2026, 12, 3, 10, 0)) ==
		    at(2026, 12, 15, 0, 0));
	/* "*\/1" counts as starting with '*': both must match (the 1st,
	 * any day of the week) */
	assert_true(next_of("0 0 1 * */1", at(2026, 12, 3, 10, 0)) ==
		    at(2027, 1, 1, 0, 0));
	assert_true(next_of("0 0 */1 * 1", at(2026, 12, 3, 10, 0)) ==
		    at(2026, 12, 7, 0, 0));
}

static void test_dst(void **state)
{
	time_t t;
	struct tm tm;

	set_tz("Europe/Berlin");
	/* 2026-03-29: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist
	 * that day and is skipped to the next */
	t = next_of("30 2 * * *", at(2026, 3, 28, 12, 0));
	assert_true(t == at(2026, 3, 30, 2, 30));
	/* every minute carries on across the jump: 01:59 -> 03:00 */
	t = next_of("* * * * *", at(2026, 3, 29, 1, 59));
	localtime_r(&t, &tm);
	assert_int_equal(tm.tm_hour, 3);
	assert_int_equal(tm.tm_min, 0);
	assert_int_equal(t - at(2026, 3, 29, 1, 59), 60);
	/* 2026-10-25: 03:00 CEST goes back to 02:00 CET; 02:30 happens
	 * twice, an hour apart, and each is a match */
	t = next_of("30 2 * * *", at(2026, 10, 25, 0, 0));
	localtime_r(&t, &tm);
	assert_int_equal(tm.tm_hour, 2);
	assert_int_equal(tm.tm_isdst, 1);
	assert_true(next_of("30 2 * * *", t) == t + 3600);
	/* and the day after is a day after (no loop, no going back) */
	assert_true(next_of("30 2 * * *", t + 3600) == at(2026, 10, 26, 2, 30));
	/* a daily job at midnight over both changes */
	t = at(2026, 3, 28, 0, 0);
	for (int i = 0; i < 240; i++) {
		time_t n = next_of("0 0 * * *", t);

		assert_true(n > t);
		localtime_r(&n, &tm);
		assert_int_equal(tm.tm_hour, 0);
		assert_int_equal(tm.tm_min, 0);
		t = n;
	}
	set_tz("UTC");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_fields_and_rest),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_dom_dow_rule),
		cmocka_unit_test(test_dst),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
