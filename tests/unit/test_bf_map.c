/* test_bf_map.c — backfill's availability map on synthetic clusters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/ctld/bf_map.c"
#include "../../src/ctld/gres_sel.c"

#define T0 1000000
#define MIN 60

/* n nodes of 4 CPUs / 4000 MB, all free. */
static void nodes_init(select_node_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (select_node_t) { .cpus = 4, .real_memory = 4000,
					 .weight = 1 };
}

static bitmap_t *all(size_t n)
{
	bitmap_t *b = bitmap_create(n);

	bitmap_set_all(b);
	return b;
}

static void test_bad_requests(void **st)
{
	select_node_t v[2];
	bitmap_t *a = all(2);
	bf_map_t *m;
	bf_req_t r = { .node_cnt = 0, .cpus = 1, .duration = 60 };
	time_t s;

	nodes_init(v, 2);
	m = bf_map_create(v, 2, T0, 60, 1440 * MIN);
	bf_map_finalize(m);
	/* no nodes wanted, more nodes than exist, more CPUs than a node has */
	assert_int_equal(bf_map_earliest(m, a, &r, T0, &s, NULL), -1);
	r.node_cnt = 3;
	assert_int_equal(bf_map_earliest(m, a, &r, T0, &s, NULL), -1);
	r.node_cnt = 1;
	r.cpus = 5;
	assert_int_equal(bf_map_earliest(m, a, &r, T0, &s, NULL), -1);
	r.cpus = 1;
	r.mem = 5000;
	assert_int_equal(bf_map_earliest(m, a, &r, T0, &s, NULL), -1);
	bf_map_destroy(m);
	bitmap_destroy(a);
}

/* Node 0 busy until +10 min, node 1 busy on 2 of 4 CPUs until +30 min.
 * A 2-node whole-node job plans for +30; a 2-CPU 20-minute job fits in
 * front of it now; a 2-CPU 60-minute job would delay it and so waits
 * until the large job is over. */
static void test_hole_in_front_of_large_job(void **st)
{
	select_node_t v[2];
	bitmap_t *a = all(2), *nodes = bitmap_create(2);
	bf_req_t big = { .node_cnt = 2, .cpus = 4, .duration = 10 * MIN };
	bf_req_t shortj = { .node_cnt = 1, .cpus = 2, .duration = 20 * MIN };
	bf_req_t longj = { .node_cnt = 1, .cpus = 2, .duration = 60 * MIN };
	select_node_t view[2];
	bf_map_t *m;
	time_t s;

	nodes_init(v, 2);
	v[0].alloc_cpus = 4;
	v[1].alloc_cpus = 2;
	m = bf_map_create(v, 2, T0, 60, 1440 * MIN);
	bf_map_release(m, 0, T0 + 10 * MIN, 4, 0);
	bf_map_release(m, 1, T0 + 30 * MIN, 2, 0);
	bf_map_finalize(m);

	assert_int_equal(bf_map_earliest(m, a, &big, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 30 * MIN);
	assert_int_equal(bitmap_count(nodes), 2);
	bf_map_reserve(m, nodes, &big, s);

	/* the long job cannot start before the large one ends */
	assert_int_equal(bf_map_earliest(m, a, &longj, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 40 * MIN);
	/* the short one starts now, on node 1 (node 0 is full) */
	assert_int_equal(bf_map_earliest(m, a, &shortj, T0, &s, nodes), 0);
	assert_int_equal(s, T0);
	assert_true(bitmap_test(nodes, 1));
	assert_false(bitmap_test(nodes, 0));
	/* what a 20-minute job may take now: 2 CPUs on node 1 */
	bf_map_view(m, 20 * MIN, view);
	assert_int_equal(view[0].cpus - view[0].alloc_cpus, 0);
	assert_int_equal(view[1].cpus - view[1].alloc_cpus, 2);
	/* for 60 minutes nothing is free anywhere */
	bf_map_view(m, 60 * MIN, view);
	assert_int_equal(view[1].cpus - view[1].alloc_cpus, 0);
	bf_map_reserve(m, nodes, &shortj, s);

	/* the reservation is intact: the large job still plans for +30 */
	bitmap_clear_all(nodes);
	assert_int_equal(bf_map_earliest(m, a, &big, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 40 * MIN);   /* its own slot is taken now */
	bf_map_destroy(m);
	bitmap_destroy(a);
	bitmap_destroy(nodes);
}

/* GPUs in the plan: one node of 4 CPUs and 2 GPUs, one GPU held until
 * +10 min.  A 2-GPU job plans for +10; a 1-GPU 30-minute job would take
 * its GPU and waits until it is over; a 1-GPU 5-minute one starts now;
 * CPU-only jobs are not held back by the GPU plan; the view for a long
 * job shows no free GPU. */
static void test_gpus_in_plan(void **st)
{
	select_node_t v[1], view[1];
	bitmap_t *a = all(1), *nodes = bitmap_create(1);
	bf_req_t two = { .node_cnt = 1, .cpus = 1, .gpus = 2,
			 .duration = 60 * MIN };
	bf_req_t long1 = { .node_cnt = 1, .cpus = 1, .gpus = 1,
			   .duration = 30 * MIN };
	bf_req_t short1 = { .node_cnt = 1, .cpus = 1, .gpus = 1,
			    .duration = 5 * MIN };
	bf_req_t cpu = { .node_cnt = 1, .cpus = 1, .duration = 120 * MIN };
	bf_req_t three = { .node_cnt = 1, .cpus = 1, .gpus = 3,
			   .duration = 5 * MIN };
	bf_map_t *m;
	time_t s;

	nodes_init(v, 1);
	v[0].gpus = 2;
	v[0].gpu_used = 0x1;
	v[0].alloc_cpus = 1;
	m = bf_map_create(v, 1, T0, 60, 1440 * MIN);
	bf_map_release(m, 0, T0 + 10 * MIN, 1, 0);
	bf_map_release_gpus(m, 0, T0 + 10 * MIN, 1);
	bf_map_finalize(m);

	assert_int_equal(bf_map_earliest(m, a, &three, T0, &s, nodes), -1);
	assert_int_equal(bf_map_earliest(m, a, &two, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 10 * MIN);
	bf_map_reserve(m, nodes, &two, s);
	assert_int_equal(bf_map_earliest(m, a, &long1, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 70 * MIN);
	assert_int_equal(bf_map_earliest(m, a, &short1, T0, &s, nodes), 0);
	assert_int_equal(s, T0);
	assert_int_equal(bf_map_earliest(m, a, &cpu, T0, &s, nodes), 0);
	assert_int_equal(s, T0);
	/* a 30-minute job may take no GPU now, a 5-minute one the free one */
	bf_map_view(m, 30 * MIN, view);
	assert_int_equal(view[0].gpus, 2);
	assert_int_equal(__builtin_popcountll(view[0].gpu_used), 2);
	bf_map_view(m, 5 * MIN, view);
	assert_int_equal(__builtin_popcountll(view[0].gpu_used), 1);
	bf_map_destroy(m);
	bitmap_destroy(a);
	bitmap_destroy(nodes);
}

/* Typed GPUs: one node, a100 0-1 and h100 2-3 (gres_layout_parse).  An
 * a100 held until +60, both h100s until +10.  A 2-a100 job plans for
 * +60 (not +10, when two GPUs of the wrong type are free); its
 * reservation holds a100s, so a 30-minute a100 job may not take the free
 * a100 now while an h100 job may start at +10; any-type requests count
 * every GPU; a type no node has never fits. */
static void test_typed_gpus_in_plan(void **st)
{
	char err[128];
	gres_layout_t *l = gres_layout_parse("gpu:a100:2,gpu:h100:2", err,
					     sizeof(err));
	select_node_t v[1], view[1];
	bitmap_t *a = all(1), *nodes = bitmap_create(1);
	bf_req_t a2 = { .node_cnt = 1, .cpus = 1, .gpus = 2,
			.duration = 60 * MIN };
	bf_req_t a1 = { .node_cnt = 1, .cpus = 1, .gpus = 1,
			.duration = 30 * MIN };
	bf_req_t h1 = { .node_cnt = 1, .cpus = 1, .gpus = 2,
			.duration = 30 * MIN };
	bf_req_t any3 = { .node_cnt = 1, .cpus = 1, .gpus = 3,
			  .duration = 5 * MIN };
	bf_req_t bad = { .node_cnt = 1, .cpus = 1, .gpus = 1,
			 .duration = 5 * MIN };
	bf_map_t *m;
	time_t s;

	assert_non_null(l);
	nodes_init(v, 1);
	v[0].gpus = 4;
	v[0].gres = l;
	v[0].gpu_used = 0x1 | 0xc;
	m = bf_map_create(v, 1, T0, 60, 1440 * MIN);
	bf_map_release_gpus(m, 0, T0 + 60 * MIN, 0x1);
	bf_map_release_gpus(m, 0, T0 + 10 * MIN, 0xc);
	bf_map_finalize(m);
	a2.gpu_type = a1.gpu_type = bf_map_gpu_type(m, "a100");
	h1.gpu_type = bf_map_gpu_type(m, "h100");
	bad.gpu_type = bf_map_gpu_type(m, "v100");
	assert_int_not_equal(a2.gpu_type, 0);
	assert_int_not_equal(a2.gpu_type, h1.gpu_type);
	assert_int_equal(bad.gpu_type, BF_GPU_TYPE_NONE);
	assert_int_equal(bf_map_gpu_type(m, NULL), 0);

	assert_int_equal(bf_map_earliest(m, a, &bad, T0, &s, nodes), -1);
	assert_int_equal(bf_map_earliest(m, a, &any3, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 10 * MIN);
	assert_int_equal(bf_map_earliest(m, a, &a2, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 60 * MIN);
	bf_map_reserve(m, nodes, &a2, s);
	/* the a100 free now is kept for the plan from +60: a 30-minute
	 * a100 job fits now; a 2-hour one would reach into the plan */
	assert_int_equal(bf_map_earliest(m, a, &a1, T0, &s, nodes), 0);
	assert_int_equal(s, T0);
	a1.duration = 120 * MIN;
	assert_int_equal(bf_map_earliest(m, a, &a1, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 120 * MIN);
	/* the h100s are not in the plan: free from +10 */
	assert_int_equal(bf_map_earliest(m, a, &h1, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 10 * MIN);
	/* the view for a 2-hour job: the reserved a100s are taken (both),
	 * the h100s too (held until +10), so no GPU at all */
	bf_map_view(m, 120 * MIN, view);
	assert_int_equal(view[0].gpu_used, 0xf);
	/* for 30 minutes: a100 1 is free (the plan starts at +60) */
	bf_map_view(m, 30 * MIN, view);
	assert_int_equal(view[0].gpu_used, 0xd);
	bf_map_destroy(m);
	gres_layout_free(l);
	bitmap_destroy(a);
	bitmap_destroy(nodes);
}

/* Free GPUs of type t on node i over slots [s, e) (the least at any
 * point). */
static int free_of_type(const bf_map_t *m, size_t i, uint16_t t, uint32_t s,
			uint32_t e)
{
	const bf_node_t *n = &m->nodes[i];
	uint64_t f = UINT64_MAX;

	for (uint32_t k = 0; k < n->cnt; k++) {
		uint32_t end = k + 1 < n->cnt ? n->pt[k + 1].slot : SLOT_INF;

		if (end > s && n->pt[k].slot < e)
			f &= n->pt[k].gpus;
	}
	return __builtin_popcountll(f & _type_mask(m, n, t));
}

/* Plans in priority order on 8 nodes of a100 0-1 + h100 2-3, with
 * random running jobs and random typed/untyped requests: each planned
 * start has enough GPUs of the type over the whole interval, and its
 * reservation takes exactly that many there, so no later (lower)
 * request is ever shown them: a plan never double-books a GPU. */
static void test_typed_plan_never_double_books(void **st)
{
	char err[128];
	gres_layout_t *l = gres_layout_parse("gpu:a100:2,gpu:h100:2", err,
					     sizeof(err));
	select_node_t v[8];
	bitmap_t *a = all(8), *nodes = bitmap_create(8);
	const char *types[] = { NULL, "a100", "h100" };
	unsigned seed = 7;

	for (int round = 0; round < 20; round++) {
		bf_map_t *m;

		nodes_init(v, 8);
		for (size_t i = 0; i < 8; i++) {
			v[i].gpus = 4;
			v[i].gres = l;
			v[i].gpu_used = rand_r(&seed) & 0xf;
		}
		m = bf_map_create(v, 8, T0, 60, 1440 * MIN);
		for (size_t i = 0; i < 8; i++)
			for (int g = 0; g < 4; g++)
				if (v[i].gpu_used & (1u << g))
					bf_map_release_gpus(m, (uint32_t) i,
						T0 + (rand_r(&seed) % 120 + 1) *
						MIN, 1u << g);
		bf_map_finalize(m);
		for (int j = 0; j < 40; j++) {
			bf_req_t r = { .node_cnt = 1 + rand_r(&seed) % 2,
				       .cpus = 1,
				       .gpus = 1 + rand_r(&seed) % 2,
				       .duration = (rand_r(&seed) % 90 + 1) *
					       MIN };
			const char *t = types[rand_r(&seed) % 3];
			uint32_t s0, e0;
			int before[8];
			time_t s;
			long i;

			r.gpu_type = bf_map_gpu_type(m, t);
			if (bf_map_earliest(m, a, &r, T0, &s, nodes) < 0)
				continue;
			s0 = _slot_up(m, s);
			e0 = s0 + _dur_slots(m, r.duration);

			for (i = 0; i < 8; i++) {
				before[i] = free_of_type(m, (size_t) i,
							 r.gpu_type, s0, e0);
				if (bitmap_test(nodes, (size_t) i))
					assert_true(before[i] >= r.gpus);
			}
			bf_map_reserve(m, nodes, &r, s);
			for (i = 0; i < 8; i++)
				if (bitmap_test(nodes, (size_t) i))
					assert_int_equal(free_of_type(m,
						(size_t) i, r.gpu_type, s0,
						e0), before[i] - r.gpus);
		}
		bf_map_destroy(m);
	}
	gres_layout_free(l);
	bitmap_destroy(a);
	bitmap_destroy(nodes);
}

/* A job that never fits inside the window, and one restricted to a node
 * set. */
static void test_window_and_avail(void **st)
{
	select_node_t v[3];
	bitmap_t *a = bitmap_create(3), *nodes = bitmap_create(3);
	bf_req_t one = { .node_cnt = 1, .cpus = 4, .duration = 5 * MIN };
	bf_map_t *m;
	time_t s;

	nodes_init(v, 3);
	for (int i = 0; i < 3; i++)
		v[i].alloc_cpus = 4;
	m = bf_map_create(v, 3, T0, 60, 60 * MIN);
	bf_map_release(m, 0, T0 + 5 * MIN, 4, 0);
	bf_map_release(m, 1, T0 + 90 * MIN, 4, 0);   /* past the window */
	bf_map_release(m, 2, T0 - 5, 4, 0);          /* overdue: soon */
	bf_map_finalize(m);
	bitmap_set(a, 1);
	assert_int_equal(bf_map_earliest(m, a, &one, T0, &s, nodes), -1);
	bitmap_set(a, 0);
	assert_int_equal(bf_map_earliest(m, a, &one, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 5 * MIN);
	assert_true(bitmap_test(nodes, 0));
	bitmap_set(a, 2);
	assert_int_equal(bf_map_earliest(m, a, &one, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 1 * MIN);
	assert_true(bitmap_test(nodes, 2));
	/* exclusive needs the whole node, memory included */
	one.exclusive = true;
	assert_int_equal(bf_map_earliest(m, a, &one, T0 + 2 * MIN, &s, nodes), 0);
	assert_int_equal(s, T0 + 2 * MIN);
	bf_map_destroy(m);
	bitmap_destroy(a);
	bitmap_destroy(nodes);
}

/* The k-th pick jumps straight to the start where enough nodes free. */
static void test_many_nodes(void **st)
{
	enum { N = 200 };
	select_node_t v[N];
	bitmap_t *a = all(N), *nodes = bitmap_create(N);
	bf_req_t r = { .node_cnt = 50, .cpus = 4, .duration = 30 * MIN };
	bf_map_t *m;
	time_t s;

	nodes_init(v, N);
	for (int i = 0; i < N; i++)
		v[i].alloc_cpus = 4;
	m = bf_map_create(v, N, T0, 60, 1440 * MIN);
	for (int i = 0; i < N; i++)   /* node i frees at +(i+1) min */
		bf_map_release(m, (i * 37) % N, T0 + (i + 1) * MIN, 4, 0);
	bf_map_finalize(m);
	assert_int_equal(bf_map_earliest(m, a, &r, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 50 * MIN);
	assert_int_equal(bitmap_count(nodes), 50);
	bf_map_reserve(m, nodes, &r, s);
	/* those 50 are free again at +80, before 50 others are (+100) */
	assert_int_equal(bf_map_earliest(m, a, &r, T0, &s, nodes), 0);
	assert_int_equal(s, T0 + 80 * MIN);
	bf_map_destroy(m);
	bitmap_destroy(a);
	bitmap_destroy(nodes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_requests),
		cmocka_unit_test(test_hole_in_front_of_large_job),
		cmocka_unit_test(test_gpus_in_plan),
		cmocka_unit_test(test_typed_gpus_in_plan),
		cmocka_unit_test(test_typed_plan_never_double_books),
		cmocka_unit_test(test_window_and_avail),
		cmocka_unit_test(test_many_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
