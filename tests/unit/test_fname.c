/* test_fname.c — fname.h: odd patterns first, then every symbol. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/fname.h"
#include "common/xmalloc.h"

typedef struct {
	const char *pattern;
	const char *want;
} fname_case_t;

static const fname_ctx_t plain = {
	.job_id = 128, .array_job_id = 0, .array_task_id = 0xfffffffeu,
	.step_id = 0, .node_id = 1, .task_id = 3, .restart_cnt = 2,
	.job_name = "myjob", .user_name = "alice", .node_name = "n7",
};

static const fname_ctx_t array = {
	.job_id = 131, .array_job_id = 120, .array_task_id = 17,
	.step_id = FNAME_BATCH_STEP, .node_id = 0, .task_id = 0,
	.job_name = "arr", .user_name = "bob", .node_name = "n1",
};

static void check(const fname_case_t *cases, size_t n, const fname_ctx_t *ctx)
{
	for (size_t i = 0; i < n; i++) {
		char *got = fname_expand(cases[i].pattern, ctx);

		if (strcmp(got, cases[i].want))
			fail_msg("pattern '%s': got '%s', want '%s'",
				 cases[i].pattern, got, cases[i].want);
		xfree(got);
	}
}

static void test_odd_patterns(void **state)
{
	static const fname_case_t cases[] = {
		{ "", "" },
		{ "%", "%" },
		{ "abc%", "abc%" },
		{ "%5", "%5" },
		{ "x%q.out", "x%q.out" },
		{ "x%3q.out", "x%3q.out" },
		{ "%%", "%" },
		{ "%%j", "%j" },
		{ "100%%.%j", "100%.128" },
		{ "out\\%j", "out%j" },
		{ "a\\b%x", "ab%x" },
		{ "%99j", "0000000128" },
		{ "%010j", "0000000128" },
		{ "%4N-%8u-%3x", "n7-alice-myjob" },
	};

	assert_null(fname_expand(NULL, &plain));
	check(cases, sizeof(cases) / sizeof(cases[0]), &plain);
}

static void test_symbols(void **state)
{
	static const fname_case_t cases[] = {
		{ "slurm-%j.out", "slurm-128.out" },
		{ "job%J.out", "job128.0.out" },
		{ "job%4j.out", "job0128.out" },
		{ "job%2j-%2t.out", "job128-03.out" },
		{ "%A_%a", "128_4294967294" },
		{ "%N.%n.%t.%s", "n7.1.3.0" },
		{ "%u/%x", "alice/myjob" },
		{ "r%r", "r2" },
		{ "/abs/%x-%j.err", "/abs/myjob-128.err" },
	};

	check(cases, sizeof(cases) / sizeof(cases[0]), &plain);
}

static void test_array_batch(void **state)
{
	static const fname_case_t cases[] = {
		{ "slurm-%A_%a.out", "slurm-120_17.out" },
		{ "%j", "131" },
		{ "%4a", "0017" },
		{ "%b", "7" },
		{ "%J", "131.batch" },
		{ "%s", "batch" },
	};

	check(cases, sizeof(cases) / sizeof(cases[0]), &array);
	assert_string_equal(fname_default_batch(0), "slurm-%j.out");
	assert_string_equal(fname_default_batch(120), "slurm-%A_%a.out");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_patterns),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_array_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
