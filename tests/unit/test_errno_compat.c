/* test_errno_compat.c — every error code Sluice knows has Slurm's number
 * and Slurm's text.
 *
 * Scripts and plugins compare codes and grep messages, so both must be
 * Slurm's.  When Debian's Slurm library is on the machine (slurm-wlm, as
 * installed for the oracle), its slurm_strerror() is the reference: for
 * each code from 1000 to 9999 that Sluice has a message for, Slurm must
 * give the same message for the same number, except for the codes in
 * newer_than_22_05 (Sluice follows 25.05, the library is 22.05).  Without
 * the library the comparison is skipped, and the spot checks still run.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "slurm/slurm_errno.h"

static const char *const slurm_libs[] = {
	"/usr/lib/x86_64-linux-gnu/slurm-wlm/libslurmfull.so",
	"/usr/lib/aarch64-linux-gnu/slurm-wlm/libslurmfull.so",
	"libslurm.so.38",
};

typedef const char *(*strerror_f)(int);

/* Codes whose number or text changed after 22.05, or that 22.05 lacks. */
static const int newer_than_22_05[] = {
	1804,        /* SLURMCTLD_COMMUNICATIONS_BACKOFF (rate limiting) */
	2040, 2041,  /* LICENSES_UNAVAILABLE, TAKEOVER_NO_HEARTBEAT moved here */
	2097, 2098,  /* scrontab / JobContainerType codes */
	3011, 3012,  /* ESPANK_NODE_FAILURE, ESPANK_JOB_FAILURE */
	4002,        /* ESLURMD_KILL_JOB_ALREADY_COMPLETE */
	6009,        /* ESLURM_AUTH_UNABLE_TO_GENERATE_TOKEN */
	2190, 2191,  /* ESLURM_NODE_ALREADY_EXISTS, ESLURM_NODE_TABLE_FULL
		      * (dynamic nodes, 23.02+: Slurm's texts; the numbers
		      * are Sluice's until checked against 25.05's) */
};

static int newer(int code)
{
	for (size_t i = 0; i < sizeof(newer_than_22_05) / sizeof(int); i++)
		if (newer_than_22_05[i] == code)
			return 1;
	return 0;
}

static strerror_f load_reference(void)
{
	for (size_t i = 0; i < sizeof(slurm_libs) / sizeof(slurm_libs[0]); i++) {
		void *h = dlopen(slurm_libs[i], RTLD_NOW | RTLD_LOCAL);

		if (h) {
			strerror_f f = (strerror_f) dlsym(h, "slurm_strerror");

			if (f)
				return f;
			dlclose(h);
		}
	}
	return NULL;
}

static int known(int code)
{
	char unknown[32];

	snprintf(unknown, sizeof(unknown), "Unknown error %d", code);
	return strcmp(slurm_strerror(code), unknown) != 0;
}

/* Numbers that callers depend on, checked by value. */
static void test_spot_numbers(void **state)
{
	(void) state;
	assert_int_equal(ESLURM_ACCESS_DENIED, 2002);
	assert_int_equal(ESLURM_INVALID_JOB_ID, 2017);
	assert_int_equal(ESLURM_ALREADY_DONE, 2021);
	assert_int_equal(ESLURM_DUPLICATE_STEP_ID, 2110);
	assert_int_equal(ESLURM_INVALID_NICE, 2123);
	assert_string_equal(slurm_strerror(ESLURM_INVALID_NICE),
			    "Invalid --nice value");
	assert_string_equal(slurm_strerror(ESLURM_ACCESS_DENIED),
			    "Access/permission denied");
}

static void test_same_as_slurm(void **state)
{
	strerror_f ref = *state;
	int compared = 0, wrong = 0;

	if (!ref)
		skip();
	for (int code = 1000; code < 10000; code++) {
		const char *theirs;

		if (!known(code) || newer(code))
			continue;
		theirs = ref(code);
		compared++;
		if (!theirs || strcmp(theirs, slurm_strerror(code))) {
			print_error("code %d: Sluice \"%s\", Slurm \"%s\"\n", code,
				    slurm_strerror(code), theirs ? theirs : "(null)");
			wrong++;
		}
	}
	print_message("compared %d codes with Slurm's library\n", compared);
	assert_true(compared > 100);
	assert_int_equal(wrong, 0);
}

static int setup(void **state)
{
	*state = (void *) load_reference();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spot_numbers),
		cmocka_unit_test_setup(test_same_as_slurm, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
