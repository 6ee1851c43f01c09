/* test_errno.c — slurm_strerror texts and numbering. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "slurm/slurm_errno.h"

/* Numbers scripts and plugins test against (Slurm 25.05's slurm_errno.h). */
_Static_assert(ESLURM_INVALID_PARTITION_NAME == 2000, "numbering");
_Static_assert(ESLURM_INVALID_JOB_ID == 2017, "numbering");
_Static_assert(ESLURM_ALREADY_DONE == 2021, "numbering");
_Static_assert(ESLURM_JOB_HELD == 2042, "numbering");
_Static_assert(ESLURM_ACCOUNTING_POLICY == 2050, "numbering");
_Static_assert(ESLURM_INVALID_TIME_LIMIT == 2051, "numbering");
_Static_assert(ESLURM_INVALID_QOS == 2066, "numbering");
_Static_assert(ESLURM_INVALID_ARRAY == 2081, "numbering");
_Static_assert(ESLURM_PARTITION_DOWN == 2101, "numbering");
_Static_assert(ESLURM_DUPLICATE_STEP_ID == 2110, "numbering");
_Static_assert(ESLURMD_STEP_NOTSUSPENDED == 4029, "numbering");
_Static_assert(SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT == 5004, "numbering");

static const struct {
	int code;
	const char *msg;
} cases[] = {
	/* odd inputs first */
	{ -5, "Unknown negative error number" },
	{ 1999, "Unknown error 1999" },
	{ 99999, "Unknown error 99999" },
	{ SLURM_ERROR, "Unspecified error" },
	{ SLURM_SUCCESS, "No error" },
	/* errno range */
	{ ENOENT, "No such file or directory" },
	{ EACCES, "Permission denied" },
	/* Slurm codes */
	{ ESLURM_INVALID_PARTITION_NAME, "Invalid partition name specified" },
	{ ESLURM_ACCESS_DENIED, "Access/permission denied" },
	{ ESLURM_INVALID_NODE_COUNT, "Node count specification invalid" },
	{ ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE, "Requested node configuration is not available" },
	{ ESLURM_INVALID_JOB_ID, "Invalid job id specified" },
	{ ESLURM_ALREADY_DONE, "Job/step already completing or completed" },
	{ ESLURM_INVALID_TIME_LIMIT, "Requested time limit is invalid (missing or exceeds some limit)" },
	{ ESLURM_ACCOUNTING_POLICY, "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)" },
	{ ESLURM_USER_ID_MISSING, "Invalid user id" },
	{ SLURM_PROTOCOL_AUTHENTICATION_ERROR, "Protocol authentication error" },
	{ SLURM_COMMUNICATIONS_CONNECTION_ERROR, "Communication connection failure" },
	{ SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR, "Unable to contact slurm controller (connect failure)" },
	{ SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT, "Socket timed out on send/recv operation" },
	{ ESPANK_BAD_ARG, "Bad argument" },
	{ ESLURM_INVALID_ACCOUNT, "Invalid account or account/partition combination specified" },
	{ ESLURM_INVALID_QOS, "Invalid qos specification" },
};

static void test_strerror_table(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(slurm_strerror(cases[i].code), cases[i].msg);
}

/* Every named code between 1000 and 8000 has a real message. */
static void test_no_unknown_names(void **state)
{
	static const int named[] = {
		SLURM_UNEXPECTED_MSG_ERROR, SLURM_COMMUNICATIONS_MISSING_SOCKET_ERROR,
		SLURMCTLD_COMMUNICATIONS_BACKOFF, SLURM_NO_CHANGE_IN_DATA,
		ESLURM_DUPLICATE_STEP_ID, ESLURMD_KILL_TASK_FAILED,
		ESLURMD_INVALID_SOCKET_NAME_LEN, ESCRIPT_NON_ZERO_RETURN,
		ESLURM_AUTH_SKIP, ESLURM_NO_REMOVE_DEFAULT_ACCOUNT,
		ESPANK_JOB_FAILURE, ESLURM_INVALID_USER_ID,
	};

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		assert_null(strstr(slurm_strerror(named[i]), "Unknown"));
}

static void test_seterrno(void **state)
{
	slurm_seterrno(ESLURM_INVALID_JOB_ID);
	assert_int_equal(slurm_get_errno(), ESLURM_INVALID_JOB_ID);
	assert_int_equal(errno, ESLURM_INVALID_JOB_ID);
	slurm_seterrno(0);
	assert_int_equal(slurm_get_errno(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strerror_table),
		cmocka_unit_test(test_no_unknown_names),
		cmocka_unit_test(test_seterrno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
