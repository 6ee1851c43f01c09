/* test_rlimits.c — PropagateResourceLimits lists, RequeueExit lists, and
 * the SLURM_RLIMIT_* variables from a command to a task. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "common/conf_params.h"
#include "common/rlimits.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_rlimits_bad(void **state)
{
	static const char *const bad[] = {
		"", ",", "NOFILE,", ",NOFILE", "NOFILES", "nofile,bogus",
		"ALL,NOFILE", "RLIMIT_", "NONE,CORE", "NOFILE,,CORE",
	};
	unsigned m = 77;
	char err[256];

	(void) state;
	for (size_t i = 0; i < N(bad); i++) {
		err[0] = 0;
		if (rlimits_parse("K", bad[i], &m, err, sizeof(err)) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_true(!strncmp(err, "K: ", 3));
	}
	assert_int_equal(m, 77);
	assert_int_equal(rlimits_conf_mask("CORE", "BOGUS", &m, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "PropagateResourceLimitsExcept"));
}

static void test_rlimits_good(void **state)
{
	unsigned all, m, core, nofile;
	char err[256];

	(void) state;
	assert_int_equal(rlimits_parse("K", "ALL", &all, err, 256), 0);
	assert_int_equal(all, (1u << RLIMITS_CNT) - 1);
	assert_int_equal(rlimits_parse("K", "none", &m, err, 256), 0);
	assert_int_equal(m, 0);
	assert_int_equal(rlimits_parse("K", NULL, &m, err, 256), 0);
	assert_int_equal(m, 0);
	assert_int_equal(rlimits_parse("K", "core", &core, err, 256), 0);
	assert_int_equal(rlimits_parse("K", "RLIMIT_NOFILE", &nofile, err,
				       256), 0);
	assert_int_equal(rlimits_parse("K", "NOFILE,CORE", &m, err, 256), 0);
	assert_int_equal(m, core | nofile);
	/* unset PropagateResourceLimits is ALL */
	assert_int_equal(rlimits_conf_mask(NULL, "CORE", &m, err, 256), 0);
	assert_int_equal(m, all & ~core);
	assert_int_equal(rlimits_conf_mask("NONE", NULL, &m, err, 256), 0);
	assert_int_equal(m, 0);
}

static char **setf(char **env, const char *k, const char *v)
{
	char *kv = NULL;

	xstrfmtcat(&kv, "%s=%s", k, v);
	env = xstrarray_append(env, kv);
	xfree(kv);
	return env;
}

static void test_rlimits_env(void **state)
{
	unsigned nofile, core;
	struct rlimit rl;
	rlimits_req_t r;
	char err[256], want[64], **env = xcalloc(1, sizeof(char *));

	(void) state;
	rlimits_parse("K", "NOFILE", &nofile, err, sizeof(err));
	rlimits_parse("K", "CORE", &core, err, sizeof(err));
	env = xstrarray_append(env, "A=1");
	env = rlimits_to_env(env, nofile, 0, setf);
	env = rlimits_to_env(env, core, 1, setf);
	env = xstrarray_append(env, "SLURM_RLIMIT_BOGUS=5");
	getrlimit(RLIMIT_NOFILE, &rl);
	snprintf(want, sizeof(want), "SLURM_RLIMIT_NOFILE=%llu",
		 (unsigned long long) rl.rlim_cur);
	assert_string_equal(env[1], want);
	assert_true(!strncmp(env[2], "SLURM_RLIMIT_CORE=U", 19));
	/* a node that propagates nothing still sets what the user asked
	 * for, and no SLURM_RLIMIT_* is left */
	rlimits_take(env, 0, &r);
	assert_int_equal(r.mask, core);
	assert_int_equal(r.user, core);
	assert_string_equal(env[0], "A=1");
	assert_null(env[1]);
	xstrarray_free(env);
}

static void test_exit_list(void **state)
{
	static const char *const bad[] = {
		"a", "256", "1-", "-1", "5-2", "1,", ",1", "1,,2", "1 ", "0x1",
		"1-2-3", "1000",
	};
	uint8_t bits[32];
	char err[256];

	(void) state;
	for (size_t i = 0; i < N(bad); i++) {
		err[0] = 0;
		if (conf_parse_exit_list("RequeueExit", bad[i], bits, err,
					 sizeof(err)) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_true(!strncmp(err, "RequeueExit: ", 13));
	}
	assert_int_equal(conf_parse_exit_list("K", "1-9,18,255", bits, err,
					      sizeof(err)), 0);
	for (unsigned c = 0; c < 256; c++)
		assert_int_equal(conf_exit_listed(bits, c),
				 (c >= 1 && c <= 9) || c == 18 || c == 255);
	assert_false(conf_exit_listed(bits, 256));
	assert_int_equal(conf_parse_exit_list("K", NULL, bits, err,
					      sizeof(err)), 0);
	assert_false(conf_exit_listed(bits, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rlimits_bad),
		cmocka_unit_test(test_rlimits_good),
		cmocka_unit_test(test_rlimits_env),
		cmocka_unit_test(test_exit_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
