/* test_select.c — placement by select_job_test() on synthetic clusters. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/ctld/select.c"

#define NODES 4

static select_node_t cl[NODES];

static void _cluster(uint16_t cpus, uint64_t mem)
{
	for (int i = 0; i < NODES; i++) {
		cl[i] = (select_node_t) { .cpus = cpus, .real_memory = mem,
					  .weight = 1 };
	}
}

static bitmap_t *_all(void)
{
	bitmap_t *b = bitmap_create(NODES);

	bitmap_set_all(b);
	return b;
}

static select_req_t _req(uint32_t tasks)
{
	return (select_req_t) { .min_nodes = 1, .max_nodes = 1000,
				.num_tasks = tasks, .cpus_per_task = 1 };
}

/* Take what res says, as the controller does. */
static void _commit(const select_result_t *res)
{
	long i;
	int j = 0;

	for (i = bitmap_first_set(res->nodes); i >= 0;
	     i = bitmap_next_set(res->nodes, i + 1), j++) {
		cl[i].alloc_cpus += res->cpus[j];
		cl[i].alloc_memory += res->mem[j];
		assert_true(cl[i].alloc_cpus <= cl[i].cpus);
		assert_true(cl[i].alloc_memory <= cl[i].real_memory);
	}
}

static void test_bad_requests(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);

	_cluster(2, 1000);
	r.cpus_per_task = 0;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res),
			 SELECT_NEVER);
	r = _req(1);
	r.min_nodes = 3;
	r.max_nodes = 2;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res),
			 SELECT_NEVER);
	r = _req(100);
	r.max_nodes = 1;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res),
			 SELECT_BUSY);
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	bitmap_destroy(all);
}

static void test_two_per_node(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);
	int i;

	_cluster(2, 1000);
	for (i = 0; i < 2 * NODES; i++) {
		assert_int_equal(select_job_test(cl, NODES, all, &r, false,
						 &res), SELECT_OK);
		assert_int_equal(res.node_cnt, 1);
		assert_int_equal(bitmap_first_set(res.nodes), i / 2);
		_commit(&res);
		select_result_free(&res);
	}
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res),
			 SELECT_BUSY);
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_OK);
	select_result_free(&res);
	bitmap_destroy(all);
}

static void test_exclusive(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1), ex = _req(1);

	_cluster(2, 1000);
	ex.exclusive = true;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	_commit(&res);            /* n0 half used */
	select_result_free(&res);
	assert_int_equal(select_job_test(cl, NODES, all, &ex, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 1);
	assert_int_equal(res.cpus[0], 2);
	_commit(&res);
	select_result_free(&res);
	/* a 1-CPU job now goes to n0's free CPU, never onto n1 */
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 0);
	_commit(&res);
	select_result_free(&res);
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 2);
	select_result_free(&res);
	bitmap_destroy(all);
}

static void test_min_nodes(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(3);
	char *s;

	_cluster(2, 1000);
	r.min_nodes = 3;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 3);
	assert_int_equal(res.cpu_cnt, 3);
	s = bitmap_to_str(res.nodes);
	assert_string_equal(s, "0-2");
	xfree(s);
	select_result_free(&res);
	/* -n 5 on 2-CPU nodes: block 2,2,1 */
	r = _req(5);
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	s = select_compress_counts(res.cpus, res.node_cnt);
	assert_string_equal(s, "2(x2),1");
	xfree(s);
	select_result_free(&res);
	/* ntasks-per-node 1 with -N 2 -n 2 spreads */
	r = _req(2);
	r.min_nodes = 2;
	r.ntasks_per_node = 1;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 2);
	select_result_free(&res);
	/* more nodes than exist */
	r = _req(5);
	r.min_nodes = 5;
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	bitmap_destroy(all);
}

static void test_required_excluded(void **st)
{
	bitmap_t *all = _all(), *reqd = bitmap_create(NODES);
	select_result_t res;
	select_req_t r = _req(1);
	char *s;

	_cluster(2, 1000);
	bitmap_set(reqd, 2);
	r.required = reqd;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 2);
	select_result_free(&res);
	/* -w n[1,3] -n 2 */
	bitmap_set(reqd, 3);
	r.num_tasks = 2;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	s = bitmap_to_str(res.nodes);
	assert_string_equal(s, "2-3");
	xfree(s);
	select_result_free(&res);
	/* required node not usable now -> busy */
	bitmap_clear(all, 3);
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res),
			 SELECT_BUSY);
	/* -x: the caller removes excluded nodes from avail */
	r = _req(1);
	bitmap_clear(all, 0);
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 1);
	select_result_free(&res);
	bitmap_destroy(reqd);
	bitmap_destroy(all);
}

static void test_memory(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);

	_cluster(2, 1000);
	r.mem_per_node = 600;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 0);
	assert_int_equal(res.mem[0], 600);
	_commit(&res);
	select_result_free(&res);
	/* n0 has a free CPU but only 400M: next job lands on n1 */
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 1);
	select_result_free(&res);
	r.mem_per_node = 2000;
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	/* mem-per-cpu limits tasks per node: 2 tasks x 400M > 1000M */
	_cluster(2, 1000);
	r = _req(2);
	r.mem_per_cpu = 400;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 1);
	assert_int_equal(res.mem[0], 800);
	select_result_free(&res);
	r.mem_per_cpu = 600;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 2);
	select_result_free(&res);
	bitmap_destroy(all);
}

static void test_weight_order(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);

	_cluster(2, 1000);
	cl[0].weight = 10;
	cl[3].weight = 0;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 3);
	select_result_free(&res);
	bitmap_destroy(all);
}

static void test_never_oversubscribe(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r;
	int i, placed = 0;

	_cluster(2, 1000);
	for (i = 0; i < 50; i++) {
		r = _req(1 + i % 3);
		r.exclusive = (i % 7 == 0);
		if (select_job_test(cl, NODES, all, &r, false, &res) == 0) {
			_commit(&res);
			placed += res.cpu_cnt;
			select_result_free(&res);
		}
	}
	assert_true(placed <= 2 * NODES);
	bitmap_destroy(all);
}

static void test_max_nodes_and_ntpn(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(6);

	_cluster(2, 1000);
	/* 6 tasks on 2-CPU nodes need 3 nodes: -N 1-2 cannot */
	r.max_nodes = 2;
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	r.max_nodes = 3;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 3);
	select_result_free(&res);
	/* --ntasks-per-node=1 spreads 3 tasks over 3 nodes */
	r = _req(3);
	r.ntasks_per_node = 1;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 3);
	assert_int_equal(res.tasks[0], 1);
	select_result_free(&res);
	/* -c 2: one task per 2-CPU node */
	r = _req(2);
	r.cpus_per_task = 2;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 2);
	assert_int_equal(res.cpu_cnt, 4);
	select_result_free(&res);
	r.cpus_per_task = 3;
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	bitmap_destroy(all);
}

static void test_exclusive_memory(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);

	_cluster(2, 1000);
	r.exclusive = true;
	r.mem_per_cpu = 400;           /* whole node: 2 x 400 */
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.mem[0], 800);
	assert_int_equal(res.cpus[0], 2);
	select_result_free(&res);
	r.mem_per_cpu = 600;           /* 1200 > 1000 on every node */
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	bitmap_destroy(all);
}

static void test_compress(void **st)
{
	uint16_t v[] = { 2, 2, 2, 1 };
	char *s = select_compress_counts(v, 4);

	assert_string_equal(s, "2(x3),1");
	xfree(s);
	s = select_compress_counts(v, 1);
	assert_string_equal(s, "2");
	xfree(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_requests),
		cmocka_unit_test(test_two_per_node),
		cmocka_unit_test(test_exclusive),
		cmocka_unit_test(test_min_nodes),
		cmocka_unit_test(test_required_excluded),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_weight_order),
		cmocka_unit_test(test_never_oversubscribe),
		cmocka_unit_test(test_max_nodes_and_ntpn),
		cmocka_unit_test(test_exclusive_memory),
		cmocka_unit_test(test_compress),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
