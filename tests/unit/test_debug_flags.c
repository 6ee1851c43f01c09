/* test_debug_flags.c — DebugFlags names and masks, log_flag(), and the
 * CommunicationParameters / JobAcctGatherParams / MpiParams words
 * (debug_flags.h, comm_params.h): bad input first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/comm_params.h"
#include "common/debug_flags.h"
#include "common/xmalloc.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_debug_flags_bad(void **state)
{
	static const struct {
		const char *list, *bad;
	} cases[] = {
		{ "Bogus", "Bogus" },
		{ "Backfill,Bogus", "Bogus" },
		{ "Backfill, Stepz", "Stepz" },
		{ "Back fill", "Back fill" },
		{ "+Backfill", "+Backfill" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		uint64_t m = 42;
		char bad[64] = "";

		assert_int_equal(debug_flags_parse(cases[i].list, &m, bad,
						   sizeof(bad)), -1);
		assert_string_equal(bad, cases[i].bad);
		assert_int_equal(m, 42);       /* unchanged on failure */
	}
}

static void test_debug_flags_good(void **state)
{
	uint64_t m = 1;
	char *s;

	assert_int_equal(debug_flags_parse("", &m, NULL, 0), 0);
	assert_int_equal(m, 0);
	assert_null(debug_flags_string(0));
	/* any case, any order, spaces and empty words; printed in order */
	assert_int_equal(debug_flags_parse("steps, BACKFILL,,tracejobs,cpu_bind",
					   &m, NULL, 0), 0);
	s = debug_flags_string(m);
	assert_string_equal(s, "Backfill,CPU_Bind,Steps,TraceJobs");
	xfree(s);
	for (int f = 0; f < DEBUG_FLAG_CNT; f++) {
		uint64_t one;

		assert_int_equal(debug_flags_parse(debug_flag_name(f), &one,
						   NULL, 0), 0);
		assert_true(one == DEBUG_FLAG_BIT(f));
	}
	debug_flags_set_conf("Route,Bogus,Agent");  /* checked before */
	assert_true(debug_flag_on(ROUTE) && debug_flag_on(AGENT));
	assert_false(debug_flag_on(STEPS));
	debug_flags_set(0);
	assert_false(debug_flag_on(ROUTE));
}

static void test_comm_params(void **state)
{
	static const char *const bad[] = {
		"keepalivetime=", "keepalivetime=abc", "keepalivetime=-1",
		"keepaliveinterval=99999999", "keepaliveprobes=5x",
		"keepalivetime",
	};
	comm_params_t p;
	char err[256];

	for (size_t i = 0; i < N(bad); i++) {
		err[0] = '\0';
		assert_int_equal(comm_params_parse(bad[i], &p, err,
						   sizeof(err)), -1);
		assert_non_null(strstr(err, "CommunicationParameters"));
		assert_int_equal(p.keepalive_time, -1);
	}
	assert_int_equal(comm_params_parse(NULL, &p, err, sizeof(err)), 0);
	assert_int_equal(p.keepalive_time, -1);
	assert_false(p.no_in_addr_any || p.no_ctld_in_addr_any);
	assert_int_equal(comm_params_parse("KeepAliveTime=30, keepaliveinterval"
					   "=5,keepaliveprobes=3,NoAddrCache,"
					   "NoCtldInAddrAny", &p, err,
					   sizeof(err)), 0);
	assert_int_equal(p.keepalive_time, 30);
	assert_int_equal(p.keepalive_intvl, 5);
	assert_int_equal(p.keepalive_probes, 3);
	assert_true(p.no_ctld_in_addr_any);
	assert_false(p.no_in_addr_any);
	/* NoInAddrAny covers the controller too */
	assert_int_equal(comm_params_parse("NoInAddrAny", &p, err,
					   sizeof(err)), 0);
	assert_true(p.no_in_addr_any && p.no_ctld_in_addr_any);
}

static void test_jag_params(void **state)
{
	assert_int_equal(jag_params_parse(NULL), 0);
	assert_int_equal(jag_params_parse("bogus,DisableGPUAcct"), 0);
	assert_int_equal(jag_params_parse("usepss, OverMemoryKill"),
			 JAG_PARAM_USE_PSS | JAG_PARAM_OVER_MEMORY_KILL);
	assert_int_equal(jag_params_parse("NoShared"), JAG_PARAM_NO_SHARED);
}

static void test_mpi_params(void **state)
{
	static const char *const bad[] = {
		"ports=", "ports=12000", "ports=12000-", "ports=-12000",
		"ports=2000-1000", "ports=0-10", "ports=1000-70000",
		"ports=1-2x", "port=1-2", "ports=1-2,other",
	};
	uint16_t lo = 7, hi = 7;
	char err[256];

	for (size_t i = 0; i < N(bad); i++) {
		err[0] = '\0';
		assert_int_equal(mpi_params_ports(bad[i], &lo, &hi, err,
						  sizeof(err)), -1);
		assert_non_null(strstr(err, "not supported"));
		assert_int_equal(lo, 7);
	}
	assert_int_equal(mpi_params_ports(NULL, &lo, &hi, err, sizeof(err)), 0);
	assert_int_equal(lo, 0);
	assert_int_equal(mpi_params_ports("ports=12000-12999", &lo, &hi, err,
					  sizeof(err)), 0);
	assert_int_equal(lo, 12000);
	assert_int_equal(hi, 12999);
	assert_int_equal(mpi_params_ports("Ports=5-5", &lo, &hi, err,
					  sizeof(err)), 0);
	assert_int_equal(lo, 5);
	assert_int_equal(hi, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debug_flags_bad),
		cmocka_unit_test(test_debug_flags_good),
		cmocka_unit_test(test_comm_params),
		cmocka_unit_test(test_jag_params),
		cmocka_unit_test(test_mpi_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
