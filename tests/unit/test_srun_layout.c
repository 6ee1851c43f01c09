/* test_srun_layout.c — srun's task-to-node maps: malformed counts first,
 * then block, cyclic and plane as srun(1) documents them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/cli/srun_layout.c"

static void test_bad_counts(void **state)
{
	uint32_t v[4];

	assert_int_equal(srun_parse_counts("", 1, v), -1);
	assert_int_equal(srun_parse_counts("1,", 2, v), -1);
	assert_int_equal(srun_parse_counts("1,2,3", 2, v), -1);
	assert_int_equal(srun_parse_counts("1;2", 2, v), -1);
	assert_int_equal(srun_parse_counts("x", 1, v), -1);
	assert_int_equal(srun_parse_counts("70000", 1, v), -1);
	assert_int_equal(srun_parse_counts("2,2,1", 3, v), 0);
	assert_int_equal(v[2], 1);
}

static void check(uint16_t dist, uint16_t plane, const uint32_t *counts,
		  uint32_t nodes, const uint32_t *want)
{
	uint32_t *out[8];
	size_t k = 0;

	srun_layout(dist, plane, counts, nodes, out);
	for (uint32_t n = 0; n < nodes; n++) {
		for (uint32_t t = 0; t < counts[n]; t++)
			assert_int_equal(out[n][t], want[k++]);
		xfree(out[n]);
	}
}

static void test_block(void **state)
{
	/* srun(1): 4 tasks on 3 nodes -> 0-1 / 2 / 3 */
	check(STEP_DIST_BLOCK, 0, (uint32_t[]) { 2, 1, 1 }, 3,
	      (uint32_t[]) { 0, 1, 2, 3 });
	check(STEP_DIST_BLOCK, 0, (uint32_t[]) { 2, 2, 2, 2 }, 4,
	      (uint32_t[]) { 0, 1, 2, 3, 4, 5, 6, 7 });
}

static void test_cyclic(void **state)
{
	/* 8 on 4: node 0 has 0,4; node 1 has 1,5 ... */
	check(STEP_DIST_CYCLIC, 0, (uint32_t[]) { 2, 2, 2, 2 }, 4,
	      (uint32_t[]) { 0, 4, 1, 5, 2, 6, 3, 7 });
	/* uneven: 5 on 3 -> 0,3 / 1,4 / 2 */
	check(STEP_DIST_CYCLIC, 0, (uint32_t[]) { 2, 2, 1 }, 3,
	      (uint32_t[]) { 0, 3, 1, 4, 2 });
}

static void test_plane(void **state)
{
	/* plane=2, 6 tasks on 2 nodes: 0-1,4-5 / 2-3 */
	check(STEP_DIST_PLANE, 2, (uint32_t[]) { 4, 2 }, 2,
	      (uint32_t[]) { 0, 1, 4, 5, 2, 3 });
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_counts),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_cyclic),
		cmocka_unit_test(test_plane),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
