/* test_parse_util.c — durations, memory sizes, numbers, times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "common/parse_util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_duration_bad(void **state)
{
	static const char *const bad[] = {
		NULL, "", "abc", "1:2:3:4", "-5", "-", "1-", "-1-2", "1--2",
		"10x", "10 ", " 10", "1:", ":1", "1::2", "1-2:3:4:5", "1-2-3",
		"+5", "1.5", "0x10", "99999999999", "unlimitedx", "1-a",
	};
	uint32_t v = 77;

	for (size_t i = 0; i < N(bad); i++) {
		if (parse_duration_min(bad[i], &v) != -1)
			fail_msg("parse_duration_min accepted \"%s\"", bad[i]);
		if (parse_duration_sec(bad[i], &v) != -1)
			fail_msg("parse_duration_sec accepted \"%s\"", bad[i]);
	}
	assert_int_equal(v, 77);	/* untouched on failure */
}

static void test_duration_good(void **state)
{
	static const struct {
		const char *in;
		uint32_t min, sec;
	} cases[] = {
		{ "UNLIMITED", INFINITE32, INFINITE32 },
		{ "unlimited", INFINITE32, INFINITE32 },
		{ "infinite", INFINITE32, INFINITE32 },
		{ "INFINITE", INFINITE32, INFINITE32 },
		{ "-1", INFINITE32, INFINITE32 },
		{ "0", 0, 0 },
		{ "30", 30, 1800 },
		{ "90", 90, 5400 },
		{ "1:00", 1, 60 },
		{ "1:01", 2, 61 },		/* seconds round up */
		{ "0:30", 1, 30 },
		{ "0:00", 0, 0 },
		{ "1:00:00", 60, 3600 },
		{ "2:03:04", 124, 7384 },
		{ "1-0", 1440, 86400 },
		{ "1-2", 1560, 93600 },
		{ "1-02:03", 1563, 93780 },
		{ "1-02:03:04", 1564, 93784 },
		{ "7-00:00:00", 10080, 604800 },
	};

	for (size_t i = 0; i < N(cases); i++) {
		uint32_t m = 0, s = 0;

		assert_int_equal(parse_duration_min(cases[i].in, &m), 0);
		assert_int_equal(parse_duration_sec(cases[i].in, &s), 0);
		if (m != cases[i].min || s != cases[i].sec)
			fail_msg("\"%s\": got %u min %u sec", cases[i].in, m, s);
	}
}

static void test_fmt_durations(void **state)
{
	static const struct {
		uint32_t v;
		const char *elapsed;
	} el[] = {
		{ 0, "0:00" }, { 5, "0:05" }, { 65, "1:05" }, { 600, "10:00" },
		{ 3600, "1:00:00" }, { 3723, "1:02:03" }, { 86399, "23:59:59" },
		{ 86400, "1-00:00:00" }, { 93784, "1-02:03:04" },
		{ 10 * 86400, "10-00:00:00" },
	};
	static const struct {
		uint32_t min;
		const char *lim, *lower, *upper;
	} lim[] = {
		{ INFINITE32, "UNLIMITED", "infinite", "UNLIMITED" },
		{ 0, "00:00:00", "0:00", "0:00" },
		{ 30, "00:30:00", "30:00", "30:00" },
		{ 60, "01:00:00", "1:00:00", "1:00:00" },
		{ 125, "02:05:00", "2:05:00", "2:05:00" },
		{ 1440, "1-00:00:00", "1-00:00:00", "1-00:00:00" },
		{ 1564, "1-02:04:00", "1-02:04:00", "1-02:04:00" },
	};
	char buf[32];

	for (size_t i = 0; i < N(el); i++) {
		fmt_elapsed(el[i].v, buf, sizeof(buf));
		assert_string_equal(buf, el[i].elapsed);
	}
	for (size_t i = 0; i < N(lim); i++) {
		fmt_time_limit(lim[i].min, buf, sizeof(buf));
		assert_string_equal(buf, lim[i].lim);
		fmt_time_limit_short(lim[i].min, true, buf, sizeof(buf));
		assert_string_equal(buf, lim[i].lower);
		fmt_time_limit_short(lim[i].min, false, buf, sizeof(buf));
		assert_string_equal(buf, lim[i].upper);
	}
	fmt_elapsed(3723, buf, 4);		/* truncates, never overflows */
	assert_string_equal(buf, "1:0");
}

/* The one comparison of a time limit with a MaxTime/MaxWall: no limit at
 * all (-t 0, UNLIMITED, INFINITE) is over every finite maximum. */
static void test_time_limit_over(void **state)
{
	static const struct {
		uint32_t limit;
		uint64_t max;
		bool     over;
	} t[] = {
		{ INFINITE32, 10, true }, { INFINITE32, 0, true },
		{ INFINITE32, 0xfffffffdu, true }, { 11, 10, true },
		{ 1, 0, true },
		{ NO_VAL32, 10, false }, { INFINITE32, INFINITE64, false },
		{ 10, 10, false }, { 0, 10, false }, { 9, INFINITE64, false },
	};

	(void) state;
	for (size_t i = 0; i < N(t); i++)
		if (time_limit_over(t[i].limit, t[i].max) != t[i].over)
			fail_msg("time_limit_over(%u, %llu) != %d", t[i].limit,
				 (unsigned long long) t[i].max, t[i].over);
}

static void test_mem(void **state)
{
	static const char *const bad[] = {
		NULL, "", "abc", "-1", "4X", "4GB", "1.5G", " 4", "4 ", "G",
		"99999999999999999999", "9999999999T", "+4",
	};
	static const struct {
		const char *in;
		uint64_t mb;
	} good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "512M", 512 }, { "512m", 512 },
		{ "4G", 4096 }, { "16g", 16384 }, { "1T", 1048576 },
		{ "1t", 1048576 }, { "100K", 1 }, { "1024k", 1 }, { "1025K", 2 },
		{ "0K", 0 },
	};
	static const struct {
		uint64_t mb;
		const char *out;
	} fmt[] = {
		{ 0, "0M" }, { 1000, "1000M" }, { 1024, "1G" }, { 4096, "4G" },
		{ 1536, "1536M" }, { 1048576, "1T" }, { 3145728, "3T" },
	};
	uint64_t v = 9;
	char buf[32];

	for (size_t i = 0; i < N(bad); i++)
		if (parse_mem_mb(bad[i], &v) != -1)
			fail_msg("parse_mem_mb accepted \"%s\"", bad[i]);
	assert_int_equal(v, 9);
	for (size_t i = 0; i < N(good); i++) {
		assert_int_equal(parse_mem_mb(good[i].in, &v), 0);
		if (v != good[i].mb)
			fail_msg("\"%s\" -> %llu", good[i].in,
				 (unsigned long long)v);
	}
	for (size_t i = 0; i < N(fmt); i++) {
		fmt_mem_mb(fmt[i].mb, buf, sizeof(buf));
		assert_string_equal(buf, fmt[i].out);
	}
}

static void test_numbers(void **state)
{
	static const char *const bad[] = {
		NULL, "", "-1", "+1", "1a", " 1", "0x10", "4294967296",
	};
	uint32_t u = 5;
	uint64_t w = 5;
	bool b = false;

	for (size_t i = 0; i < N(bad); i++)
		assert_int_equal(parse_u32(bad[i], &u), -1);
	assert_int_equal(u, 5);
	assert_int_equal(parse_u32("4294967295", &u), 0);
	assert_int_equal(u, 4294967295u);
	assert_int_equal(parse_u32("007", &u), 0);
	assert_int_equal(u, 7);
	assert_int_equal(parse_u64("18446744073709551616", &w), -1);
	assert_int_equal(parse_u64("18446744073709551615", &w), 0);
	assert_true(w == UINT64_MAX);

	assert_int_equal(parse_bool("maybe", &b), -1);
	assert_int_equal(parse_bool(NULL, &b), -1);
	assert_int_equal(parse_bool("YES", &b), 0);
	assert_true(b);
	assert_int_equal(parse_bool("false", &b), 0);
	assert_false(b);
	assert_int_equal(parse_bool("1", &b), 0);
	assert_true(b);
	assert_int_equal(parse_bool("No", &b), 0);
	assert_false(b);
}

/* 2026-11-22T12:45:48 UTC */
#define NOW ((time_t)1795351548)

static void test_time_bad(void **state)
{
	static const char *const bad[] = {
		NULL, "", "later", "now+", "now+x", "now+5parsecs", "now*5",
		"25:00", "12:60", "12:5", "2026-13-01", "2026-02-30",
		"2026-11-22T25:00", "2026-11-22X", "13/01", "02/30", "1/2/3/4",
		"12:00:00x", "noonish", "12/25/202", "12/25/1999", "2026-11-22T12:00:00junk",
		"noon-noon", "tomorrow today", "tomorrow-", "-noon", "noon tomorrow x",
		"4pm", "10am", "12:00-13:00",
	};
	time_t t = 42;

	for (size_t i = 0; i < N(bad); i++)
		if (parse_time(bad[i], NOW, &t) != -1)
			fail_msg("parse_time accepted \"%s\"", bad[i]);
	assert_int_equal(t, 42);
}

static void test_time_good(void **state)
{
	static const struct {
		const char *in;
		const char *out;
	} cases[] = {
		{ "now", "2026-11-22T12:45:48" },
		{ "NOW", "2026-11-22T12:45:48" },
		{ "now+60", "2026-11-22T12:46:48" },
		{ "now-60", "2026-11-22T12:44:48" },
		{ "now+1hour", "2026-11-22T13:45:48" },
		{ "now+2hours", "2026-11-22T14:45:48" },
		{ "now+10minutes", "2026-11-22T12:55:48" },
		{ "now+10min", "2026-11-22T12:55:48" },
		{ "now+1day", "2026-11-23T12:45:48" },
		{ "now+1week", "2026-11-29T12:45:48" },
		{ "now+30s", "2026-11-22T12:46:18" },
		{ "16:00", "2026-11-22T16:00:00" },
		{ "16:00:30", "2026-11-22T16:00:30" },
		{ "4:00PM", "2026-11-22T16:00:00" },
		{ "10:00", "2026-11-23T10:00:00" },	/* passed: tomorrow */
		{ "midnight", "2026-11-23T00:00:00" },
		{ "noon", "2026-11-23T12:00:00" },
		{ "teatime", "2026-11-22T16:00:00" },
		{ "fika", "2026-11-22T15:00:00" },
		{ "today", "2026-11-22T00:00:00" },
		{ "tomorrow", "2026-11-23T00:00:00" },
		{ "2026-12-01", "2026-12-01T00:00:00" },
		{ "2027-01-02T03:04", "2027-01-02T03:04:00" },
		{ "2027-01-02T03:04:05", "2027-01-02T03:04:05" },
		{ "12/25", "2026-12-25T00:00:00" },
		{ "01/05", "2027-01-05T00:00:00" },	/* passed: next year */
		{ "12/25/27", "2027-12-25T00:00:00" },
		{ "12/25/2027", "2027-12-25T00:00:00" },
		{ "12/25/26-08:30", "2026-12-25T08:30:00" },
		{ "12.25.26", "2026-12-25T00:00:00" },
		{ "122526", "2026-12-25T00:00:00" },
		/* a day and a time of day, as Slurm 22.05's sbatch -v shows */
		{ "noon-tomorrow", "2026-11-23T12:00:00" },
		{ "noon tomorrow", "2026-11-23T12:00:00" },
		{ "tomorrow-noon", "2026-11-23T12:00:00" },
		{ "tomorrow 10:00", "2026-11-23T10:00:00" },
		{ "10:00 tomorrow", "2026-11-23T10:00:00" },
		{ "teatime-tomorrow", "2026-11-23T16:00:00" },
		{ "midnight-tomorrow", "2026-11-23T00:00:00" },
		{ "16:00-tomorrow", "2026-11-23T16:00:00" },
		{ "noon today", "2026-11-22T12:00:00" },	/* passed: kept */
		{ "today-noon", "2026-11-22T12:00:00" },
		{ "2027-01-05 10:00", "2027-01-05T10:00:00" },
		{ "01/05 10:00", "2027-01-05T10:00:00" },
		{ "0105-10:00", "2027-01-05T10:00:00" },
		{ "4:00 pm", "2026-11-22T16:00:00" },
		{ "10:00:00AM", "2026-11-23T10:00:00" },
		{ "now + 1 hour", "2026-11-22T13:45:48" },
		{ "now+1 hour", "2026-11-22T13:45:48" },
		{ "NOW+1HOUR", "2026-11-22T13:45:48" },
		{ "elevenses", "2026-11-23T11:00:00" },
	};
	char buf[32];

	for (size_t i = 0; i < N(cases); i++) {
		time_t t;

		if (parse_time(cases[i].in, NOW, &t) != 0)
			fail_msg("parse_time rejected \"%s\"", cases[i].in);
		fmt_time(t, buf, sizeof(buf));
		if (strcmp(buf, cases[i].out))
			fail_msg("\"%s\" -> %s, want %s", cases[i].in, buf,
				 cases[i].out);
	}
}

/* sacct -S/-E: a date or clock time without a year or day means the
 * last one already past. */
static void test_time_past(void **state)
{
	static const struct {
		const char *in;
		const char *out;
	} cases[] = {
		{ "10:00", "2026-11-22T10:00:00" },	/* passed: today */
		{ "16:00", "2026-11-21T16:00:00" },	/* not yet: yesterday */
		{ "01/05", "2026-01-05T00:00:00" },
		{ "12/25", "2025-12-25T00:00:00" },
		{ "12/25/26", "2026-12-25T00:00:00" },	/* a year given: as is */
		{ "2026-11-01", "2026-11-01T00:00:00" },
		{ "now-1hour", "2026-11-22T11:45:48" },
		{ "today", "2026-11-22T00:00:00" },
	};
	char buf[32];

	(void) state;
	for (size_t i = 0; i < N(cases); i++) {
		time_t t;

		if (parse_time_past(cases[i].in, NOW, &t) != 0)
			fail_msg("parse_time_past rejected \"%s\"", cases[i].in);
		fmt_time(t, buf, sizeof(buf));
		if (strcmp(buf, cases[i].out))
			fail_msg("\"%s\" -> %s, want %s", cases[i].in, buf,
				 cases[i].out);
	}
}

static void test_fmt_time(void **state)
{
	char buf[32];

	fmt_time(0, buf, sizeof(buf));
	assert_string_equal(buf, "Unknown");
	fmt_time(NOW, buf, sizeof(buf));
	assert_string_equal(buf, "2026-11-22T12:45:48");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_bad),
		cmocka_unit_test(test_duration_good),
		cmocka_unit_test(test_fmt_durations),
		cmocka_unit_test(test_time_limit_over),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_time_bad),
		cmocka_unit_test(test_time_good),
		cmocka_unit_test(test_time_past),
		cmocka_unit_test(test_fmt_time),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
