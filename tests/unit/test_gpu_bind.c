/* test_gpu_bind.c — --gpu-bind values (bad ones first, with Slurm's
 * message) and the GPUs each local task gets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/gpu_bind.h"

static void test_bad(void **state)
{
	static const char *bad[] = {
		"", "foo", "verbose", "verbose,", "closest,verbose",
		"Closest", "map_gpu:", "map_gpu:x", "map_gpu:0*x",
		"map_gpu:1,,2", "map_gpu:1,", "map_gpu:64", "map_gpu:0*0",
		"mask_gpu:0", "mask_gpu:0xZ", "mask_gpu:0x",
		"mask_gpu:11112222333344445", "per_task:", "per_task:0",
		"per_task:-1", "single:", "single:x", "none,closest",
		"map_gpu:0*2000",
	};
	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gpu_bind_t b;
		char err[256] = "", want[256];

		assert_int_equal(gpu_bind_parse(bad[i], &b, err, sizeof(err)),
				 -1);
		snprintf(want, sizeof(want),
			 "Invalid --gpu-bind argument: gpu:%s", bad[i]);
		assert_string_equal(err, want);
		assert_null(b.list);
		assert_int_equal(b.cnt, 0);
	}
}

static void test_parse(void **state)
{
	gpu_bind_t b;
	char err[256];

	(void) state;
	assert_int_equal(gpu_bind_parse("verbose,closest", &b, err,
					sizeof(err)), 0);
	assert_int_equal(b.type, GPU_BIND_CLOSEST);
	assert_true(b.verbose);
	gpu_bind_free(&b);
	assert_int_equal(gpu_bind_parse("per_task:2", &b, err, sizeof(err)), 0);
	assert_int_equal(b.type, GPU_BIND_PER_TASK);
	assert_int_equal(b.n, 2);
	assert_false(b.verbose);
	gpu_bind_free(&b);
	assert_int_equal(gpu_bind_parse("map_gpu:1,0*3", &b, err,
					sizeof(err)), 0);
	assert_int_equal(b.type, GPU_BIND_MAP);
	assert_int_equal(b.cnt, 4);
	assert_int_equal(b.list[0], 2);      /* GPU 1 as a mask */
	assert_int_equal(b.list[3], 1);
	gpu_bind_free(&b);
	assert_int_equal(gpu_bind_parse("mask_gpu:0x3,C*2", &b, err,
					sizeof(err)), 0);
	assert_int_equal(b.type, GPU_BIND_MASK);
	assert_int_equal(b.cnt, 3);
	assert_int_equal(b.list[0], 3);
	assert_int_equal(b.list[2], 12);
	gpu_bind_free(&b);
}

/* The step holds GPUs 1, 2, 5 and 6 of the node (0x66). */
static void test_tasks(void **state)
{
	static const struct {
		const char *spec;
		bool        rel;
		uint64_t    want[4];     /* local tasks 0..3 */
		bool        outside;     /* task 0 named none of the step's */
	} cases[] = {
		{ "none", false, { 0x66, 0x66, 0x66, 0x66 }, false },
		{ "closest", false, { 0x66, 0x66, 0x66, 0x66 }, false },
		{ "per_task:1", false, { 0x02, 0x04, 0x20, 0x40 }, false },
		{ "per_task:2", false, { 0x06, 0x60, 0x06, 0x60 }, false },
		{ "single:2", false, { 0x02, 0x02, 0x04, 0x04 }, false },
		{ "map_gpu:2,1", false, { 0x04, 0x02, 0x04, 0x02 }, false },
		{ "map_gpu:1,0", true, { 0x04, 0x02, 0x04, 0x02 }, false },
		{ "map_gpu:0", false, { 0x02, 0x02, 0x02, 0x02 }, true },
		{ "mask_gpu:0x60,0x6", false, { 0x60, 0x06, 0x60, 0x06 },
		  false },
		{ "mask_gpu:0x3", true, { 0x06, 0x06, 0x06, 0x06 }, false },
	};
	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gpu_bind_t b;
		char err[256];

		assert_int_equal(gpu_bind_parse(cases[i].spec, &b, err,
						sizeof(err)), 0);
		for (uint32_t lid = 0; lid < 4; lid++) {
			bool out = !cases[i].outside;
			uint64_t m = gpu_bind_task(&b, 0x66, lid, cases[i].rel,
						   &out);

			if (m != cases[i].want[lid])
				fail_msg("%s task %u: %#llx", cases[i].spec,
					 lid, (unsigned long long) m);
			if (lid == 0)
				assert_int_equal(out, cases[i].outside);
		}
		assert_int_equal(gpu_bind_task(&b, 0, 0, false, NULL), 0);
		gpu_bind_free(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_tasks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
