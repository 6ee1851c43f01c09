/* test_rate_limit.c — the per-user token bucket (SlurmctldParameters=rl_*). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/ctld/rate_limit.c"
#include "common/conf_params.h"

static int teardown(void **state)
{
	(void) state;
	rl_fini();
	return 0;
}

static void test_parse_defaults_and_keys(void **state)
{
	rl_conf_t c;
	char err[128] = "";

	(void) state;
	assert_int_equal(conf_parse_rl(NULL, &c, err, sizeof(err)), 0);
	assert_false(c.enable);
	assert_int_equal(c.bucket_size, 30);
	assert_int_equal(c.refill_rate, 10);
	assert_int_equal(c.refill_period, 1);
	assert_int_equal(c.table_size, 8192);
	assert_int_equal(conf_parse_rl("enable_configless,rl_enable,rl_bucket_size=5,"
				  "rl_refill_rate=2,rl_refill_period=3,"
				  "rl_table_size=16,rl_log_freq=-1", &c, err,
				  sizeof(err)), 0);
	assert_true(c.enable);
	assert_int_equal(c.bucket_size, 5);
	assert_int_equal(c.refill_rate, 2);
	assert_int_equal(c.refill_period, 3);
	assert_int_equal(c.table_size, 16);
	assert_int_equal(c.log_freq, -1);
}

static void test_parse_errors(void **state)
{
	static const char *bad[] = {
		"rl_enable,rl_bucket_size=0", "rl_bucket_size=", "rl_bucket_size",
		"rl_refill_rate=x", "rl_refill_period=-1", "rl_table_size=99999999999",
		"rl_table_size=100000000", "rl_log_freq=-2", "rl_log_freq=1x",
	};
	rl_conf_t c;
	char err[128];

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(conf_parse_rl(bad[i], &c, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "SlurmctldParameters"));
	}
}

static void test_disabled_allows_everything(void **state)
{
	rl_conf_t c;
	char err[64];

	(void) state;
	conf_parse_rl("rl_bucket_size=1", &c, err, sizeof(err));
	rl_configure(&c);
	for (int i = 0; i < 1000; i++)
		assert_true(rl_allow(1000, 100));
}

static void test_bucket_and_refill(void **state)
{
	rl_conf_t c;
	char err[64];

	(void) state;
	conf_parse_rl("rl_enable,rl_bucket_size=3,rl_refill_rate=2,rl_refill_period=5,"
		 "rl_log_freq=-1", &c, err, sizeof(err));
	rl_configure(&c);
	/* a burst of bucket_size, then refused */
	for (int i = 0; i < 3; i++)
		assert_true(rl_allow(1000, 100));
	assert_false(rl_allow(1000, 100));
	assert_false(rl_allow(1000, 104));        /* period not over */
	/* another user has a bucket of his own */
	assert_true(rl_allow(1001, 104));
	/* one period: refill_rate tokens */
	assert_true(rl_allow(1000, 105));
	assert_true(rl_allow(1000, 105));
	assert_false(rl_allow(1000, 105));
	/* a long pause refills no more than the bucket holds */
	for (int i = 0; i < 3; i++)
		assert_true(rl_allow(1000, 1000));
	assert_false(rl_allow(1000, 1000));
	/* clock going backwards refunds nothing and breaks nothing */
	assert_false(rl_allow(1000, 10));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_parse_defaults_and_keys, teardown),
		cmocka_unit_test_teardown(test_parse_errors, teardown),
		cmocka_unit_test_teardown(test_disabled_allows_everything, teardown),
		cmocka_unit_test_teardown(test_bucket_and_refill, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
