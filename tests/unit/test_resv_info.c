/* test_resv_info.c — reservation flags and time arithmetic: recurring
 * (HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY) occurrences, rolling forward,
 * overlap of a reservation with a job's time and with another one.
 * Times are built in local time with mktime, as the module works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "common/parse_util.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"

#define H 3600
#define D 86400

/* Local time y-m-d h:mi (tm_isdst worked out by mktime). */
static time_t at(int y, int m, int d, int h, int mi)
{
	struct tm tm = { .tm_year = y - 1900, .tm_mon = m - 1, .tm_mday = d,
			 .tm_hour = h, .tm_min = mi, .tm_isdst = -1 };

	return mktime(&tm);
}

static int wday(time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	return tm.tm_wday;
}

static void test_flags_bad(void **st)
{
	static const char *const bad[] = {
		"", "BOGUS", "MAINT,BOGUS", "SPEC_NODES", "PURGE_COMP=junk",
		"MAINT=1", "NO_OVERLAP", "-OVERLAP", NULL
	};
	uint64_t set, clear;
	uint32_t purge = 0;

	for (int i = 0; bad[i]; i++)
		assert_int_equal(resv_flags_parse(bad[i], &set, &clear, &purge),
				 -1);
	assert_int_equal(resv_flags_parse(NULL, &set, &clear, &purge), -1);
}

static void test_flags_good(void **st)
{
	uint64_t set, clear;
	uint32_t purge = 0;
	char *s;

	assert_int_equal(resv_flags_parse("weekly,maint,Ignore_Jobs", &set,
					  &clear, &purge), 0);
	assert_int_equal(set, RESV_WEEKLY | RESV_MAINT | RESV_IGNORE_JOBS);
	assert_int_equal(clear, 0);
	/* 22.05's print order, whatever the order given */
	s = resv_flags_string(set | RESV_SPEC_NODES, 0);
	assert_string_equal(s, "MAINT,IGNORE_JOBS,WEEKLY,SPEC_NODES");
	xfree(s);
	assert_int_equal(resv_flags_parse("STATIC_ALLOC,PURGE_COMP=10:00,"
					  "NO_HOLD_JOBS_AFTER_END,MAGNETIC",
					  &set, &clear, &purge), 0);
	assert_int_equal(purge, 600);
	s = resv_flags_string(set | RESV_DAILY | RESV_MAINT, purge);
	assert_string_equal(s, "MAINT,DAILY,STATIC,PURGE_COMP=00:10:00,"
			       "NO_HOLD_JOBS_AFTER_END,MAGNETIC");
	xfree(s);
	/* PURGE_COMP alone: five minutes */
	assert_int_equal(resv_flags_parse("PURGE_COMP", &set, &clear, &purge),
			 0);
	assert_int_equal(purge, 300);
	/* update: NO_x clears */
	assert_int_equal(resv_flags_parse("NO_MAINT,DAILY", &set, &clear,
					  &purge), 0);
	assert_int_equal(set, RESV_DAILY);
	assert_int_equal(clear, RESV_MAINT);
	s = resv_flags_string(0, 0);
	assert_string_equal(s, "");
	xfree(s);
}

static void test_advance(void **st)
{
	time_t t = at(2026, 11, 23, 10, 30);      /* a Monday */

	assert_int_equal(wday(t), 1);
	assert_true(resv_time_advance(t, 0) == t);
	assert_true(resv_time_advance(t, RESV_HOURLY) == at(2026, 11, 23, 11, 30));
	assert_true(resv_time_advance(t, RESV_DAILY) == at(2026, 11, 24, 10, 30));
	assert_true(resv_time_advance(t, RESV_WEEKLY) == at(2026, 11, 30, 10, 30));
	/* Friday -> Monday for WEEKDAY; Saturday -> Sunday -> Saturday for
	 * WEEKEND; a weekday -> Saturday */
	assert_true(resv_time_advance(at(2026, 11, 27, 8, 0), RESV_WEEKDAY) ==
		    at(2026, 11, 30, 8, 0));
	assert_true(resv_time_advance(at(2026, 11, 24, 8, 0), RESV_WEEKDAY) ==
		    at(2026, 11, 25, 8, 0));
	assert_true(resv_time_advance(at(2026, 11, 28, 8, 0), RESV_WEEKEND) ==
		    at(2026, 11, 29, 8, 0));
	assert_true(resv_time_advance(at(2026, 11, 29, 8, 0), RESV_WEEKEND) ==
		    at(2026, 12, 5, 8, 0));
	assert_true(resv_time_advance(at(2026, 11, 25, 8, 0), RESV_WEEKEND) ==
		    at(2026, 11, 28, 8, 0));
	/* month and year ends */
	assert_true(resv_time_advance(at(2026, 12, 31, 23, 0), RESV_DAILY) ==
		    at(2027, 1, 1, 23, 0));
	assert_true(resv_time_advance(at(2026, 12, 31, 23, 0), RESV_HOURLY) ==
		    at(2027, 1, 1, 0, 0));
}

static void test_roll_forward(void **st)
{
	time_t s = at(2026, 11, 23, 10, 0), e = s + 2 * H;
	time_t now = at(2026, 11, 25, 11, 0);       /* inside Wed's */

	/* single: unchanged */
	resv_roll_forward(&s, &e, RESV_MAINT, now);
	assert_true(s == at(2026, 11, 23, 10, 0));
	/* daily: the occurrence going on now */
	resv_roll_forward(&s, &e, RESV_DAILY, now);
	assert_true(s == at(2026, 11, 25, 10, 0) && e == s + 2 * H);
	/* not ended yet: unchanged */
	resv_roll_forward(&s, &e, RESV_DAILY, now);
	assert_true(s == at(2026, 11, 25, 10, 0));
	/* an end exactly now has ended */
	resv_roll_forward(&s, &e, RESV_DAILY, e);
	assert_true(s == at(2026, 11, 26, 10, 0));
	/* weekly, a year later: the same weekday and time */
	s = at(2026, 11, 23, 10, 0);
	e = s + 2 * H;
	resv_roll_forward(&s, &e, RESV_WEEKLY, at(2027, 11, 23, 0, 0));
	assert_int_equal(wday(s), 1);
	assert_true(s > at(2027, 11, 16, 0, 0) && s <= at(2027, 11, 23, 0, 0) +
		    7 * D);
	assert_true(e - s == 2 * H);
	/* weekday from Friday evening, now Saturday: Monday's */
	s = at(2026, 11, 27, 18, 0);
	e = s + H;
	resv_roll_forward(&s, &e, RESV_WEEKDAY, at(2026, 11, 28, 12, 0));
	assert_true(s == at(2026, 11, 30, 18, 0));
	/* hourly months later stays on the minute: the one going on */
	s = at(2026, 11, 23, 10, 15);
	e = s + 30 * 60;
	resv_roll_forward(&s, &e, RESV_HOURLY, at(2027, 2, 1, 3, 20));
	assert_true(s == at(2027, 2, 1, 3, 15));
	resv_roll_forward(&s, &e, RESV_HOURLY, at(2027, 2, 1, 3, 50));
	assert_true(s == at(2027, 2, 1, 4, 15));
}

static void test_overlaps_job(void **st)
{
	time_t s = at(2026, 11, 23, 10, 0), e = s + 2 * H;

	/* single: [t0, t1) against [s, e) */
	assert_true(resv_time_overlaps(s, e, 0, s - H, s + 1));
	assert_false(resv_time_overlaps(s, e, 0, s - H, s));   /* ends as it starts */
	assert_false(resv_time_overlaps(s, e, 0, e, e + H));
	assert_true(resv_time_overlaps(s, e, 0, e - 1, e + H));
	assert_true(resv_time_overlaps(s, e, 0, s - H, 0));    /* no limit */
	assert_false(resv_time_overlaps(s, e, 0, e + H, 0));   /* after it */
	/* daily: a job tomorrow at 11 for an hour meets tomorrow's */
	assert_true(resv_time_overlaps(s, e, RESV_DAILY, s + D + H, s + D + 2 * H));
	assert_false(resv_time_overlaps(s, e, RESV_DAILY, e + D, e + D + 19 * H));
	assert_true(resv_time_overlaps(s, e, RESV_DAILY, e + D, 0));
	/* weekly: the days between are free */
	assert_false(resv_time_overlaps(s, e, RESV_WEEKLY, s + D, s + 6 * D));
	assert_true(resv_time_overlaps(s, e, RESV_WEEKLY, s + D, s + 7 * D + 1));
	/* weekday (Monday's) : the weekend is free, Monday is not */
	assert_false(resv_time_overlaps(s, e, RESV_WEEKDAY,
					at(2026, 11, 28, 0, 0),
					at(2026, 11, 30, 9, 0)));
	assert_true(resv_time_overlaps(s, e, RESV_WEEKDAY,
				       at(2026, 11, 28, 0, 0),
				       at(2026, 11, 30, 11, 0)));
}

static void test_pair_overlaps(void **st)
{
	time_t s = at(2026, 11, 23, 10, 0), e = s + 2 * H;

	assert_true(resv_pair_overlaps(s, e, 0, s + H, s + 3 * H, 0));
	assert_false(resv_pair_overlaps(s, e, 0, e, e + H, 0));
	/* daily 10-12 and a single one two days later at 11 */
	assert_true(resv_pair_overlaps(s, e, RESV_DAILY, s + 2 * D + H,
				       s + 2 * D + 2 * H, 0));
	assert_true(resv_pair_overlaps(s + 2 * D + H, s + 2 * D + 2 * H, 0,
				       s, e, RESV_DAILY));
	assert_false(resv_pair_overlaps(s, e, RESV_DAILY, e + 2 * D,
					e + 2 * D + H, 0));
	/* daily 10-12 and weekly 13-14: never; weekly 11-13: yes */
	assert_false(resv_pair_overlaps(s, e, RESV_DAILY, s + 3 * H, s + 4 * H,
					RESV_WEEKLY));
	assert_true(resv_pair_overlaps(s, e, RESV_DAILY, s + 3 * D + H,
				       s + 3 * D + 3 * H, RESV_WEEKLY));
	/* weekday 10-12 and weekend 10-12: never; weekly on a Saturday
	 * against weekend: yes */
	assert_false(resv_pair_overlaps(s, e, RESV_WEEKDAY,
					at(2026, 11, 28, 10, 0),
					at(2026, 11, 28, 12, 0), RESV_WEEKEND));
	assert_true(resv_pair_overlaps(at(2026, 11, 28, 11, 0),
				       at(2026, 11, 28, 12, 0), RESV_WEEKLY,
				       at(2026, 11, 29, 10, 0),
				       at(2026, 11, 29, 12, 0), RESV_WEEKEND));
	/* hourly 10:00-10:15 and daily 14:30-15:00: never */
	assert_false(resv_pair_overlaps(s, s + 15 * 60, RESV_HOURLY,
					s + 4 * H + 30 * 60, s + 5 * H,
					RESV_DAILY));
	assert_true(resv_pair_overlaps(s, s + 15 * 60, RESV_HOURLY,
				       s + 4 * H + 5 * 60, s + 5 * H,
				       RESV_DAILY));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_bad),
		cmocka_unit_test(test_flags_good),
		cmocka_unit_test(test_advance),
		cmocka_unit_test(test_roll_forward),
		cmocka_unit_test(test_overlaps_job),
		cmocka_unit_test(test_pair_overlaps),
	};

	setenv("TZ", "Europe/Berlin", 1);   /* DST exists there */
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
