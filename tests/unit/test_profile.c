/* test_profile.c — --profile and --acctg-freq (common/profile.h): what
 * Slurm's sbatch takes, what Sluice refuses and why, and the intervals
 * read back; bad inputs first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/profile.h"

static void test_profile_bad(void **state)
{
	static const char *const bad[] = {
		"", "bogus", "task,", ",task", "task,,energy", "task;energy",
		"lustre", "network", "task,network", "al", "TASKS",
	};
	char why[256];
	uint32_t p;

	(void) state;
	assert_int_equal(profile_parse(NULL, &p, why, sizeof(why)), -1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		why[0] = '\0';
		assert_int_equal(profile_parse(bad[i], &p, why, sizeof(why)),
				 -1);
		assert_true(why[0]);
	}
	profile_parse("lustre", &p, why, sizeof(why));
	assert_non_null(strstr(why, "not supported"));
	profile_parse("bogus", &p, why, sizeof(why));
	assert_non_null(strstr(why, "'bogus' is not one of"));
}

static void test_profile_good(void **state)
{
	char why[256];
	uint32_t p;

	(void) state;
	assert_int_equal(profile_parse("all", &p, why, sizeof(why)), 0);
	assert_int_equal(p, PROFILE_ALL);
	assert_string_equal(profile_str(p), "Energy,Task");
	assert_int_equal(profile_parse("None", &p, why, sizeof(why)), 0);
	assert_int_equal(p, PROFILE_NONE);
	assert_string_equal(profile_str(p), "None");
	assert_int_equal(profile_parse("task", &p, why, sizeof(why)), 0);
	assert_int_equal(p, PROFILE_TASK);
	assert_string_equal(profile_str(p), "Task");
	assert_int_equal(profile_parse("Energy,task", &p, why, sizeof(why)),
			 0);
	assert_int_equal(p, PROFILE_ALL);
	assert_string_equal(profile_str(PROFILE_NOT_SET), "NotSet");
}

static void test_acctg_freq(void **state)
{
	static const char *const bad[] = {
		"", "task=", "=5", "task=x", "task=-1", "task=65536",
		"disk=5", "task=5,", "task=5,,energy=1", "5s",
		"task=99999999999999999999",
	};
	char why[256];

	(void) state;
	assert_int_equal(acctg_freq_check(NULL, why, sizeof(why)), -1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		why[0] = '\0';
		if (acctg_freq_check(bad[i], why, sizeof(why)) != -1)
			fail_msg("accepted: %s", bad[i]);
		assert_true(why[0]);
	}
	assert_int_equal(acctg_freq_check("task=5,energy=0,network=3,"
					  "filesystem=9", why, sizeof(why)), 0);
	assert_int_equal(acctg_freq_of("task=5,energy=0", "task", 30), 5);
	assert_int_equal(acctg_freq_of("task=5,energy=0", "energy", 30), 0);
	assert_int_equal(acctg_freq_of("energy=2", "task", 30), 30);
	assert_int_equal(acctg_freq_of("7", "task", 30), 7);
	assert_int_equal(acctg_freq_of("7", "energy", 30), 30);
	assert_int_equal(acctg_freq_of(NULL, "task", 30), 30);
	assert_int_equal(acctg_freq_of("Task=1", "task", 30), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_bad),
		cmocka_unit_test(test_profile_good),
		cmocka_unit_test(test_acctg_freq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
