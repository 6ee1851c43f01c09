/* test_select.c — placement by select_job_test() on synthetic clusters. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/ctld/select.c"
#include "../../src/ctld/gres_sel.c"
#include "../../src/ctld/gres_bind.c"

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

/* ---- cons_tres detail: CPU ids, whole cores, GPUs ---- */

static bitmap_t *used[NODES];

/* 4 CPUs = 2 cores x 2 threads, 2 GPUs (n3: none), CPU ids tracked. */
static void _detail_cluster(void)
{
	for (int i = 0; i < NODES; i++) {
		if (used[i])
			bitmap_destroy(used[i]);
		used[i] = bitmap_create(4);
		cl[i] = (select_node_t) { .cpus = 4, .real_memory = 1000,
					  .weight = 1, .threads = 2,
					  .cpu_used = used[i],
					  .gpus = i == 3 ? 0 : 2,
					  .gpu_type = "tesla" };
	}
}

/* Take res, failing on any CPU id or GPU index taken twice. */
static void _commit_detail(const select_result_t *res)
{
	long i;
	int j = 0;

	_commit(res);
	for (i = bitmap_first_set(res->nodes); i >= 0;
	     i = bitmap_next_set(res->nodes, i + 1), j++) {
		assert_non_null(res->cpu_ids);
		assert_false(bitmap_overlaps(used[i], res->cpu_ids[j]));
		assert_int_equal(bitmap_count(res->cpu_ids[j]), res->cpus[j]);
		bitmap_or(used[i], res->cpu_ids[j]);
		assert_int_equal(cl[i].gpu_used & res->gpus[j], 0);
		cl[i].gpu_used |= res->gpus[j];
	}
}

static void test_whole_cores(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);
	char *s;

	_detail_cluster();
	r.cr = SELECT_CR_CORE;
	/* one task, one CPU: a whole core (2 threads) */
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.cpus[0], 2);
	s = bitmap_to_str(res.cpu_ids[0]);
	assert_string_equal(s, "0-1");
	xfree(s);
	_commit_detail(&res);
	select_result_free(&res);
	/* next one takes the other core of n0 */
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 0);
	s = bitmap_to_str(res.cpu_ids[0]);
	assert_string_equal(s, "2-3");
	xfree(s);
	_commit_detail(&res);
	select_result_free(&res);
	/* -c 3 rounds to 2 cores = 4 CPUs: n1 */
	r.cpus_per_task = 3;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 1);
	assert_int_equal(res.cpu_cnt, 4);
	select_result_free(&res);
	/* CR_CPU: single threads, 2 tasks share a core */
	_detail_cluster();
	r = _req(2);
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.cpu_cnt, 2);
	s = bitmap_to_str(res.cpu_ids[0]);
	assert_string_equal(s, "0-1");
	xfree(s);
	select_result_free(&res);
	bitmap_destroy(all);
}

static void test_memory_not_consumable(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);

	_cluster(2, 1000);
	r.cr = SELECT_CR_NO_MEMORY;
	r.mem_per_node = 900;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(select_job_test(cl, NODES, all, &r, false,
						 &res), 0);
		/* both on n0: memory is not counted (CR_Core) */
		assert_int_equal(bitmap_first_set(res.nodes), 0);
		assert_int_equal(res.mem[0], 0);
		_commit(&res);
		select_result_free(&res);
	}
	bitmap_destroy(all);
}

static void test_gpus(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(1);
	int placed = 0;

	_detail_cluster();
	r.cr = SELECT_CR_CORE;
	r.gpus_per_node = 1;
	/* 6 one-GPU jobs fill the 6 GPUs of n0-n2, never n3 */
	while (select_job_test(cl, NODES, all, &r, false, &res) == 0) {
		assert_int_not_equal(bitmap_first_set(res.nodes), 3);
		assert_int_equal(res.gpu_cnt, 1);
		_commit_detail(&res);
		select_result_free(&res);
		placed++;
	}
	assert_int_equal(placed, 6);
	/* n0 GPUs 0 and 1 went to the first two jobs */
	assert_int_equal(cl[0].gpu_used, 3);
	/* never: 3 GPUs on one node */
	r.gpus_per_node = 3;
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	/* a type no node has */
	r.gpus_per_node = 1;
	r.gpu_type = "k80";
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	r.gpu_type = "tesla";
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res), 0);
	select_result_free(&res);
	/* --gpus-per-task=1 -n 4: two nodes with 2 GPUs each */
	_detail_cluster();
	r = _req(4);
	r.gpus_per_task = 1;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 2);
	assert_int_equal(res.gpus[0], 3);
	assert_int_equal(res.gpus[1], 3);
	select_result_free(&res);
	/* --gpus=3 on -N 2 */
	r = _req(2);
	r.min_nodes = r.max_nodes = 2;
	r.gpus_per_job = 3;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.gpu_cnt, 3);
	select_result_free(&res);
	r.gpus_per_job = 5;
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	bitmap_destroy(all);
}

static void test_features(void **st)
{
	bitmap_t *all = _all(), *feat = bitmap_create(NODES);
	select_result_t res;
	select_req_t r = _req(1);

	_cluster(2, 1000);
	bitmap_set(feat, 2);
	r.feature_nodes = feat;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 2);
	select_result_free(&res);
	r.min_nodes = 2;
	r.num_tasks = 2;
	assert_int_equal(select_job_test(cl, NODES, all, &r, true, &res),
			 SELECT_NEVER);
	bitmap_destroy(feat);
	bitmap_destroy(all);
}

static void test_contiguous(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(2);
	char *s;

	_cluster(2, 1000);
	cl[1].alloc_cpus = 2;          /* n1 busy: n0 | n2 n3 */
	r.min_nodes = r.max_nodes = 2;
	r.contiguous = true;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	s = bitmap_to_str(res.nodes);
	assert_string_equal(s, "2-3");
	xfree(s);
	select_result_free(&res);
	/* without --contiguous, the lowest free nodes */
	r.contiguous = false;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	s = bitmap_to_str(res.nodes);
	assert_string_equal(s, "0,2");
	xfree(s);
	select_result_free(&res);
	r.contiguous = true;
	r.min_nodes = r.max_nodes = 3;
	r.num_tasks = 3;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res),
			 SELECT_BUSY);
	bitmap_destroy(all);
}

static void test_spread_and_linear(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(4);

	_cluster(4, 1000);
	/* -n 4 packs onto one 4-CPU node... */
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 1);
	select_result_free(&res);
	/* ...--spread-job uses one node per task */
	r.spread = true;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(res.node_cnt, 4);
	assert_int_equal(res.tasks[3], 1);
	select_result_free(&res);
	/* select/linear: a 1-CPU job takes the whole node, and a node with
	 * anything on it is not used */
	r = _req(1);
	r.cr = SELECT_LINEAR;
	cl[0].alloc_cpus = 1;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 1);
	assert_int_equal(res.cpus[0], 4);
	select_result_free(&res);
	bitmap_destroy(all);
}

/* -N 1 -n 2 must not fail because the first node has one free CPU */
static void test_share_fits_one_node(void **st)
{
	bitmap_t *all = _all();
	select_result_t res;
	select_req_t r = _req(2);

	_cluster(2, 1000);
	cl[0].alloc_cpus = 1;
	r.max_nodes = 1;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 1);
	assert_int_equal(res.tasks[0], 2);
	select_result_free(&res);
	/* with room for more nodes, the free CPU of n0 is used first */
	r.max_nodes = 4;
	assert_int_equal(select_job_test(cl, NODES, all, &r, false, &res), 0);
	assert_int_equal(bitmap_first_set(res.nodes), 0);
	select_result_free(&res);
	bitmap_destroy(all);
}

static void test_gpu_idx_str(void **st)
{
	char *s = select_gpu_idx_str(0xb);

	assert_string_equal(s, "0-1,3");
	xfree(s);
	s = select_gpu_idx_str(0);
	assert_string_equal(s, "");
	xfree(s);
}

static int teardown_detail(void **st)
{
	for (int i = 0; i < NODES; i++)
		if (used[i])
			bitmap_destroy(used[i]);
	return 0;
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
		cmocka_unit_test(test_whole_cores),
		cmocka_unit_test(test_memory_not_consumable),
		cmocka_unit_test(test_gpus),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_contiguous),
		cmocka_unit_test(test_spread_and_linear),
		cmocka_unit_test(test_gpu_idx_str),
		cmocka_unit_test(test_share_fits_one_node),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_detail);
}
