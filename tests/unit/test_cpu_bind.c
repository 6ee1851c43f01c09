/* test_cpu_bind.c — srun --cpu-bind values: Slurm's words and lists,
 * and the refusals srun prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/cpu_bind.h"

static void test_good(void **state)
{
	cpu_bind_t b;
	char err[256];

	(void) state;
	assert_int_equal(cpu_bind_parse("verbose,cores", &b, err, sizeof(err)), 0);
	assert_int_equal(b.type, CPU_BIND_CORES);
	assert_true(b.verbose);
	cpu_bind_free(&b);
	assert_int_equal(cpu_bind_parse("none", &b, err, sizeof(err)), 0);
	assert_int_equal(b.type, CPU_BIND_NONE);
	assert_false(b.verbose);
	cpu_bind_free(&b);
	assert_int_equal(cpu_bind_parse("v,map_cpu:3,0x1,0", &b, err, sizeof(err)), 0);
	assert_int_equal(b.type, CPU_BIND_MAP);
	assert_int_equal(b.cnt, 3);
	assert_int_equal(b.list[0], 3);
	assert_int_equal(b.list[1], 1);
	assert_int_equal(b.list[2], 0);
	cpu_bind_free(&b);
	assert_int_equal(cpu_bind_parse("mask_cpu:0x3,c", &b, err, sizeof(err)), 0);
	assert_int_equal(b.type, CPU_BIND_MASK);
	assert_int_equal(b.list[0], 3);
	assert_int_equal(b.list[1], 12);
	assert_string_equal(b.list_text, "0x3,c");
	cpu_bind_free(&b);
	assert_int_equal(cpu_bind_parse("threads,quiet", &b, err, sizeof(err)), 0);
	assert_int_equal(b.type, CPU_BIND_THREADS);
	cpu_bind_free(&b);
	assert_int_equal(cpu_bind_parse("ldoms", &b, err, sizeof(err)), 0);
	assert_int_equal(b.type, CPU_BIND_SOCKETS);
	cpu_bind_free(&b);
}

static void test_bad(void **state)
{
	static const struct {
		const char *in, *err;
	} cases[] = {
		{ "bogus", "unrecognized --cpu-bind argument \"bogus\"" },
		{ "boards", "unrecognized --cpu-bind argument \"boards\"" },
		{ "", "unrecognized --cpu-bind argument \"\"" },
		{ "cores,threads", "--cpu-bind: more than one binding type in \"cores,threads\"" },
		{ "map_cpu:", "bad list for \"--cpu-bind=map_cpu:\"" },
		{ "map_cpu:1,,2", "bad list for \"--cpu-bind=map_cpu:1,,2\"" },
		{ "map_cpu:99999", "bad list for \"--cpu-bind=map_cpu:99999\"" },
		{ "mask_cpu:0", "bad list for \"--cpu-bind=mask_cpu:0\"" },
		{ "mask_cpu:zz", "bad list for \"--cpu-bind=mask_cpu:zz\"" },
		{ "cores,map_cpu:1", "bad list for \"--cpu-bind=map_cpu:1\"" },
	};
	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cpu_bind_t b;
		char err[256] = "";

		assert_int_equal(cpu_bind_parse(cases[i].in, &b, err, sizeof(err)), -1);
		assert_string_equal(err, cases[i].err);
		assert_null(b.list);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
