/* test_sim_trace.c — sluice-sim's trace readers: malformed lines first
 * (each error names the file and line), then what good lines become. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/xmalloc.h"
#include "sim/trace.h"

#define SWF_OK "1 0 -1 100 16 -1 -1 16 200 -1 1 7 3 -1 2 -1 -1 -1\n"
#define SACCT_HDR "JobID|Partition|Account|User|State|Submit|Start|End|" \
	"Timelimit|NCPUS|NNodes\n"

static int _read(trace_fmt_t fmt, const char *text, bool skip, trace_t *t,
		 char *err, size_t errlen)
{
	trace_opts_t o;
	int rc;

	trace_opts_init(&o);
	o.fmt = fmt;
	o.skip_bad = skip;
	o.quiet = true;
	memset(t, 0, sizeof(*t));
	rc = trace_read_buf(text, strlen(text), "tr", &o, t, err, errlen);
	trace_opts_free(&o);
	return rc;
}

static void test_swf_bad(void **st)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "1 0 -1 100 16\n", "tr:1: fewer than 18 fields" },
		{ SWF_OK "1 0 -1 100 16 -1 -1 16 200 -1 1 7 3 -1 2 -1 -1 -1 9\n",
		  "tr:2: more than 18 fields" },
		{ "; header\n1 0 -1 x 16 -1 -1 16 200 -1 1 7 3 -1 2 -1 -1 -1\n",
		  "tr:2: field 4 is not an integer" },
		{ "1 -5 -1 100 16 -1 -1 16 200 -1 1 7 3 -1 2 -1 -1 -1\n",
		  "tr:1: submit time -5 is out of range" },
		{ "1 0 -1 100 -1 -1 -1 -1 200 -1 1 7 3 -1 2 -1 -1 -1\n",
		  "tr:1: no processor count" },
		{ "1 0 -1 100 16 -1 -1 16 200 -1 9 7 3 -1 2 -1 -1 -1\n",
		  "tr:1: status 9 is not -1..5" },
		{ "-3 0 -1 100 16 -1 -1 16 200 -1 1 7 3 -1 2 -1 -1 -1\n",
		  "tr:1: job number -3 is negative" },
		{ "1 0 -1 100 16 -1 -1 16 200 -1 1 99999999999 3 -1 2 -1 -1 -1\n",
		  "tr:1: user or group id out of range" },
	};
	char err[256];
	trace_t t;

	(void) st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(_read(TRACE_FMT_SWF, bad[i].text, false, &t,
				       err, sizeof(err)), -1);
		assert_non_null(strstr(err, bad[i].err));
		assert_int_equal(t.cnt, 0);
		/* --skip-bad: the line is counted and the rest read */
		assert_int_equal(_read(TRACE_FMT_SWF, bad[i].text, true, &t,
				       err, sizeof(err)), 0);
		assert_int_equal(t.skipped, 1);
		trace_free(&t);
	}
}

static void test_swf_good(void **st)
{
	const char *text = "; Version: 2.2\n;\n\n" SWF_OK
		"2 60 30 -1 4 -1 -1 -1 -1 -1 5 8 3 -1 -1 1 -1 -1\n"
		"3 61 -1 50 8 1.5 2.25 8 -1 -1 0 9 3 -1 1 -1 -1 -1\n";
	trace_opts_t o;
	char err[256];
	trace_t t = { 0 };

	(void) st;
	trace_opts_init(&o);
	o.epoch = 1000;
	assert_int_equal(trace_opts_swf_parts(&o, "1=debug,2=batch", err,
					      sizeof(err)), 0);
	assert_int_equal(trace_opts_swf_parts(&o, "x=batch", err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "NUMBER=PARTITION"));
	assert_int_equal(trace_read_buf(text, strlen(text), "tr", &o, &t, err,
					sizeof(err)), 0);
	assert_int_equal(t.cnt, 3);
	assert_string_equal(t.jobs[0].id, "1");
	assert_int_equal(t.jobs[0].submit, 1000);
	assert_int_equal(t.jobs[0].ncpus, 16);
	assert_int_equal(t.jobs[0].time_limit, 4);      /* 200 s, rounded up */
	assert_int_equal(t.jobs[0].runtime, 100);
	assert_int_equal(t.jobs[0].uid, 7);
	/* the group (field 13) is the account, by its number */
	assert_string_equal(t.jobs[0].user, "7");
	assert_string_equal(t.jobs[0].account, "3");
	assert_string_equal(t.jobs[2].account, "3");
	assert_string_equal(t.jobs[0].partition, "batch");   /* queue 2 */
	assert_int_equal(t.jobs[0].end, TRACE_COMPLETED);
	/* cancelled before it ran, after waiting 30 s; queue -1: partition 1 */
	assert_int_equal(t.jobs[1].runtime, -1);
	assert_int_equal(t.jobs[1].cancel_after, 30);
	assert_int_equal(t.jobs[1].end, TRACE_CANCELLED);
	assert_string_equal(t.jobs[1].partition, "debug");
	assert_int_equal(t.jobs[1].time_limit, 0);
	assert_int_equal(t.jobs[2].end, TRACE_FAILED);
	trace_free(&t);
	trace_opts_free(&o);
}

static void test_sacct_bad(void **st)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "JobID|Submit|End\n1|2026-01-01T00:00:00|Unknown\n",
		  "tr:1: the header has no Start column" },
		{ SACCT_HDR "1|b|a|u|COMPLETED|2026-01-01T00:00:00|"
		  "2026-01-01T00:00:00|2026-01-01T00:01:00|10\n",
		  "tr:2: 9 fields, the header has 11" },
		{ SACCT_HDR "\n1|b|a|u|COMPLETED|yesterday-ish|"
		  "2026-01-01T00:00:00|2026-01-01T00:01:00|10|1|1\n",
		  "tr:3: Submit 'yesterday-ish' is not a time" },
		{ SACCT_HDR "1|b|a|u|COMPLETED|2026-01-01T00:00:00|"
		  "2026-01-01T00:00:00|2026-01-01T00:01:00|ten|1|1\n",
		  "tr:2: Timelimit 'ten' is not a duration" },
		{ SACCT_HDR "1|b|a|u|RUNNING|2026-01-01T00:00:00|"
		  "2026-01-01T00:00:00|Unknown|10|1|1\n",
		  "tr:2: State 'RUNNING': the job had not ended" },
		{ SACCT_HDR "1|b|a|u|COMPLETED|2026-01-01T00:10:00|"
		  "2026-01-01T00:00:00|2026-01-01T00:11:00|10|1|1\n",
		  "tr:2: Start is before Submit" },
		{ SACCT_HDR "1|b|a|u|COMPLETED|2026-01-01T00:00:00|"
		  "2026-01-01T00:00:00|2026-01-01T00:01:00|10|x|1\n",
		  "tr:2: NCPUS 'x' is not a number" },
		{ "", "tr:0: no header line" },
	};
	char err[256];
	trace_t t;

	(void) st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(_read(TRACE_FMT_SACCT, bad[i].text, false,
				       &t, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].err))
			fail_msg("case %zu: '%s'", i, err);
		assert_int_equal(t.cnt, 0);
	}
}

static void test_sacct_good(void **st)
{
	const char *text = SACCT_HDR
		"7|batch|phys|alice|COMPLETED|2026-01-01T00:00:00|"
		"2026-01-01T00:01:00|2026-01-01T00:11:00|00:30:00|8|2\n"
		"7.batch|||||2026-01-01T00:00:00|2026-01-01T00:01:00|"
		"2026-01-01T00:11:00||4|1\n"
		"8|debug|chem|bob|CANCELLED by 0|1767225600|None|1767225660|"
		"1-00:00:00|4|1\n"
		"9|debug|chem|bob|RUNNING|1767225600|1767225600|Unknown|"
		"10|4|1\n";
	char err[256];
	trace_t t;

	(void) st;
	/* the RUNNING row is malformed for a trace: skipped when asked */
	assert_int_equal(_read(TRACE_FMT_GUESS, text, true, &t, err,
			       sizeof(err)), 0);
	assert_int_equal(t.cnt, 2);
	assert_int_equal(t.skipped, 1);
	assert_string_equal(t.jobs[0].id, "7");
	assert_string_equal(t.jobs[0].user, "alice");
	assert_string_equal(t.jobs[0].account, "phys");
	assert_string_equal(t.jobs[0].partition, "batch");
	assert_int_equal(t.jobs[0].runtime, 600);
	assert_int_equal(t.jobs[0].time_limit, 30);
	assert_int_equal(t.jobs[0].ncpus, 8);
	assert_int_equal(t.jobs[0].nnodes, 2);
	assert_int_equal(t.jobs[1].submit, 1767225600);
	assert_int_equal(t.jobs[1].runtime, -1);
	assert_int_equal(t.jobs[1].cancel_after, 60);
	assert_int_equal(t.jobs[1].time_limit, 1440);
	/* both bob: one uid */
	assert_int_equal(t.jobs[1].uid, t.jobs[1].gid);
	trace_free(&t);
}

static void test_guess(void **st)
{
	(void) st;
	assert_int_equal(trace_guess(SWF_OK, strlen(SWF_OK)), TRACE_FMT_SWF);
	assert_int_equal(trace_guess("; a|b\n" SWF_OK, 6 + strlen(SWF_OK)),
			 TRACE_FMT_SWF);
	assert_int_equal(trace_guess(SACCT_HDR, strlen(SACCT_HDR)),
			 TRACE_FMT_SACCT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swf_bad),
		cmocka_unit_test(test_swf_good),
		cmocka_unit_test(test_sacct_bad),
		cmocka_unit_test(test_sacct_good),
		cmocka_unit_test(test_guess),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
