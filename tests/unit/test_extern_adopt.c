/* test_extern_adopt.c — who may put a process into a job's extern step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../src/slurmd/stepd/extern_adopt.c"

#define ROOT 0u
#define SLURM 64030u
#define JOBU 1001u
#define OTHER 1002u

static void root_adopts_for_the_job_user(void **state)
{
	(void) state;
	/* sshd (root) adopting its own root-owned session process */
	assert_int_equal(extern_adopt_allowed(ROOT, SLURM, JOBU, JOBU, 4242,
					      ROOT), SLURM_SUCCESS);
	assert_int_equal(extern_adopt_allowed(SLURM, SLURM, JOBU, JOBU, 4242,
					      OTHER), SLURM_SUCCESS);
}

static void not_this_users_job(void **state)
{
	(void) state;
	assert_int_equal(extern_adopt_allowed(ROOT, SLURM, JOBU, OTHER, 4242,
					      ROOT), ESLURM_ACCESS_DENIED);
	assert_int_equal(extern_adopt_allowed(OTHER, SLURM, JOBU, OTHER, 4242,
					      OTHER), ESLURM_ACCESS_DENIED);
}

static void user_adopts_own_processes_only(void **state)
{
	(void) state;
	assert_int_equal(extern_adopt_allowed(JOBU, SLURM, JOBU, JOBU, 4242,
					      JOBU), SLURM_SUCCESS);
	/* someone else's process, or root's */
	assert_int_equal(extern_adopt_allowed(JOBU, SLURM, JOBU, JOBU, 4242,
					      OTHER), ESLURM_ACCESS_DENIED);
	assert_int_equal(extern_adopt_allowed(JOBU, SLURM, JOBU, JOBU, 4242,
					      ROOT), ESLURM_ACCESS_DENIED);
	/* another user claiming to act for the job's user */
	assert_int_equal(extern_adopt_allowed(OTHER, SLURM, JOBU, JOBU, 4242,
					      OTHER), ESLURM_ACCESS_DENIED);
}

static void bad_pids(void **state)
{
	(void) state;
	assert_int_equal(extern_adopt_allowed(ROOT, SLURM, JOBU, JOBU, 1,
					      ROOT), SLURM_ERROR);
	assert_int_equal(extern_adopt_allowed(ROOT, SLURM, JOBU, JOBU, 0,
					      ROOT), SLURM_ERROR);
	assert_int_equal(extern_adopt_allowed(JOBU, SLURM, JOBU, JOBU, -5,
					      JOBU), SLURM_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(root_adopts_for_the_job_user),
		cmocka_unit_test(not_this_users_job),
		cmocka_unit_test(user_adopts_own_processes_only),
		cmocka_unit_test(bad_pids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
