/* test_step_gres.c — the GRES a job step gets out of its job's: the
 * request srun sends (bad ones first), GPU picking (too many, busy,
 * per node, per task, per step over nodes, typed), the non-GPU part of
 * the allocation, the TRES words. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ctld/step_gres.c"

static void test_parse_bad(void **st)
{
	static const char *bad[][3] = {
		{ "gres/gpu:1x", NULL, NULL },
		{ NULL, "gpu:a100:1,gpu:h100:1", NULL },
		{ NULL, "gpu:65", NULL },
		{ "gres/nic:1", NULL, NULL },     /* --gpus is GPUs only */
		{ NULL, NULL, "gres/gpu:1:2:3" },
		{ "none", NULL, NULL },
		{ NULL, ":", NULL },
	};
	step_gres_req_t q;

	(void) st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(step_gres_parse(bad[i][0], bad[i][1],
						 bad[i][2], &q),
				 ESLURM_INVALID_GRES);
		assert_int_equal(q.mode, STEP_GRES_ALL);
		assert_null(q.type);
		assert_null(q.other);
	}
}

static void test_parse_good(void **st)
{
	step_gres_req_t q;

	(void) st;
	assert_int_equal(step_gres_parse(NULL, NULL, NULL, &q), 0);
	assert_int_equal(q.mode, STEP_GRES_ALL);
	assert_int_equal(step_gres_parse(NULL, "", "", &q), 0);
	assert_int_equal(q.mode, STEP_GRES_ALL);
	assert_int_equal(step_gres_parse(NULL, "none", NULL, &q), 0);
	assert_int_equal(q.mode, STEP_GRES_NONE);
	assert_int_equal(step_gres_parse(NULL, "NONE", NULL, &q), 0);
	assert_int_equal(q.mode, STEP_GRES_NONE);
	assert_int_equal(step_gres_parse(NULL, "gpu:0", NULL, &q), 0);
	assert_int_equal(q.mode, STEP_GRES_NONE);
	assert_int_equal(step_gres_parse("gres/gpu:3", "gres/gpu:1",
					 "gres/gpu:2", &q), 0);
	assert_int_equal(q.mode, STEP_GRES_ASK);
	assert_int_equal(q.per_step, 3);
	assert_int_equal(q.per_node, 1);
	assert_int_equal(q.per_task, 2);
	step_gres_req_free(&q);
	assert_int_equal(step_gres_parse(NULL, "gpu:a100:2,nic:1,shard:0",
					 NULL, &q), 0);
	assert_int_equal(q.per_node, 2);
	assert_string_equal(q.type, "a100");
	assert_int_equal(q.other_cnt, 1);
	assert_string_equal(q.other[0].name, "nic");
	step_gres_req_free(&q);
	assert_null(q.type);
}

static int _pick(const char *ps, const char *pn, const char *pt,
		 uint32_t cnt, const uint16_t *tasks, const uint64_t *job,
		 const uint64_t *busy, uint64_t *out)
{
	step_gres_req_t q;
	uint64_t typed[8];
	int rc;

	for (int i = 0; i < 8; i++)
		typed[i] = UINT64_MAX;
	assert_int_equal(step_gres_parse(ps, pn, pt, &q), 0);
	rc = step_gres_pick(&q, cnt, tasks, job, typed, busy, out);
	step_gres_req_free(&q);
	return rc;
}

static void test_pick(void **st)
{
	uint16_t one[] = { 1, 1 }, two[] = { 2, 2 };
	uint64_t job[] = { 0x3, 0x3 }, none[] = { 0, 0 }, out[2];
	uint64_t busy0[] = { 0x1, 0 }, full[] = { 0x3, 0x3 };

	(void) st;
	/* more than the job has: never */
	assert_int_equal(_pick("gres/gpu:3", NULL, NULL, 1, one, job, none,
			       out), ESLURM_INVALID_GRES);
	assert_int_equal(_pick(NULL, "gpu:3", NULL, 2, one, job, none, out),
			 ESLURM_INVALID_GRES);
	assert_int_equal(_pick(NULL, NULL, "gres/gpu:2", 1, two, job, none,
			       out), ESLURM_INVALID_GRES);
	assert_int_equal(_pick("gres/gpu:5", NULL, NULL, 2, one, job, none,
			       out), ESLURM_INVALID_GRES);
	/* held by other steps: later */
	assert_int_equal(_pick("gres/gpu:1", NULL, NULL, 1, one, job, full,
			       out), ESLURM_NODES_BUSY);
	assert_int_equal(_pick("gres/gpu:2", NULL, NULL, 1, one, job, busy0,
			       out), ESLURM_NODES_BUSY);
	/* the free ones */
	assert_int_equal(_pick("gres/gpu:1", NULL, NULL, 1, one, job, none,
			       out), 0);
	assert_int_equal(out[0], 0x1);
	assert_int_equal(_pick("gres/gpu:1", NULL, NULL, 1, one, job, busy0,
			       out), 0);
	assert_int_equal(out[0], 0x2);
	/* per node and per task on two nodes */
	assert_int_equal(_pick(NULL, "gres/gpu:1", NULL, 2, one, job, busy0,
			       out), 0);
	assert_int_equal(out[0], 0x2);
	assert_int_equal(out[1], 0x1);
	assert_int_equal(_pick(NULL, NULL, "gres/gpu:1", 2, two, job, none,
			       out), 0);
	assert_int_equal(out[0], 0x3);
	assert_int_equal(out[1], 0x3);
	/* --gpus over two nodes: an even share each, then the rest */
	assert_int_equal(_pick("gres/gpu:2", NULL, NULL, 2, one, job, none,
			       out), 0);
	assert_int_equal(out[0], 0x1);
	assert_int_equal(out[1], 0x1);
	assert_int_equal(_pick("gres/gpu:3", NULL, NULL, 2, one, job, none,
			       out), 0);
	assert_int_equal(out[0], 0x3);
	assert_int_equal(out[1], 0x1);
}

static void test_pick_typed(void **st)
{
	step_gres_req_t q;
	uint16_t one[] = { 1 };
	uint64_t job[] = { 0x3c }, typed[] = { 0x30 }, none[] = { 0 }, out[1];

	(void) st;
	assert_int_equal(step_gres_parse("gres/gpu:h100:1", NULL, NULL, &q),
			 0);
	assert_int_equal(step_gres_pick(&q, 1, one, job, typed, none, out),
			 0);
	assert_int_equal(out[0], 0x10);
	q.per_step = 3;
	assert_int_equal(step_gres_pick(&q, 1, one, job, typed, none, out),
			 ESLURM_INVALID_GRES);
	step_gres_req_free(&q);
}

static void test_other(void **st)
{
	step_gres_req_t q;
	char *s;
	int rc;

	(void) st;
	assert_int_equal(step_gres_parse(NULL, NULL, NULL, &q), 0);
	s = step_gres_other(&q, "nic:2,shard:3@0/4", &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "nic:2,shard:3@0/4");
	xfree(s);
	assert_int_equal(step_gres_parse(NULL, "none", NULL, &q), 0);
	assert_null(step_gres_other(&q, "nic:2", &rc));
	assert_int_equal(rc, 0);
	/* asked: all of it, or an error */
	assert_int_equal(step_gres_parse(NULL, "shard:3", NULL, &q), 0);
	s = step_gres_other(&q, "nic:2,shard:2@0/4,shard:1@1/4", &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "shard:2@0/4,shard:1@1/4");
	xfree(s);
	assert_null(step_gres_other(&q, "nic:2", &rc));
	assert_int_equal(rc, ESLURM_INVALID_GRES);
	step_gres_req_free(&q);
	assert_int_equal(step_gres_parse(NULL, "shard:1", NULL, &q), 0);
	assert_null(step_gres_other(&q, "shard:3@0/4", &rc));
	assert_int_equal(rc, ESLURM_NOT_SUPPORTED);
	step_gres_req_free(&q);
	/* GPUs only: none of the others */
	assert_int_equal(step_gres_parse("gres/gpu:1", NULL, NULL, &q), 0);
	assert_null(step_gres_other(&q, "nic:2", &rc));
	assert_int_equal(rc, 0);
	step_gres_req_free(&q);
}

static void test_tres(void **st)
{
	uint64_t g[] = { 0x3, 0x1 };
	char *s;

	(void) st;
	s = step_gres_tres(g, 2);
	assert_string_equal(s, "gres/gpu=3");
	xfree(s);
	s = step_gres_tres(NULL, 2);
	assert_string_equal(s, "");
	xfree(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_pick_typed),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_tres),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
