/* test_gang.c — gang scheduling's time slices (gang_slice.c) on
 * synthetic clusters: who runs in each slice, that every job gets its
 * turn, pinned jobs, fills after a job ends. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/ctld/gang_slice.c"

#define MAXJ 16

typedef struct {
	gang_job_t  g[MAXJ];
	uint32_t    node[MAXJ][4];
	uint16_t    cpus[MAXJ][4];
	bitmap_t   *ids[MAXJ][4];
	size_t      n;
} world_t;

static void _fini(world_t *w)
{
	for (size_t k = 0; k < w->n; k++)
		for (int i = 0; i < 4; i++)
			if (w->ids[k][i])
				bitmap_destroy(w->ids[k][i]);
}

/* Job id on one node, CPU ids "a-b" of a node of ncpu CPUs (NULL ids:
 * count only). */
static void _job(world_t *w, uint32_t id, uint32_t node, uint16_t ncpu,
		 const char *ids, uint16_t cpus, bool active)
{
	size_t k = w->n++;

	w->node[k][0] = node;
	w->cpus[k][0] = cpus;
	w->ids[k][0] = ids ? bitmap_from_str(ids, ncpu) : NULL;
	w->g[k] = (gang_job_t) { .id = id, .node_cnt = 1, .node = w->node[k],
				 .cpus = w->cpus[k],
				 .ids = ids ? w->ids[k] : NULL,
				 .active = active };
}

/* Active ids as a bit mask (id < 32). */
static uint32_t _active(const world_t *w)
{
	uint32_t m = 0;

	for (size_t k = 0; k < w->n; k++)
		if (w->g[k].active)
			m |= 1u << w->g[k].id;
	return m;
}

/* --- bad and edge inputs first --- */

static void test_empty_and_unknown_node(void **state)
{
	uint16_t cpus[1] = { 1 };
	world_t w = { 0 };

	(void) state;
	assert_int_equal(gang_slice(w.g, 0, cpus, 1, true), 0);
	/* a job on a node the table does not have never runs */
	_job(&w, 1, 5, 1, NULL, 1, false);
	assert_int_equal(gang_slice(w.g, w.n, cpus, 1, true), 0);
	assert_false(w.g[0].active);
	_fini(&w);
}

static void test_job_larger_than_node_waits(void **state)
{
	uint16_t cpus[1] = { 2 };
	world_t w = { 0 };

	(void) state;
	_job(&w, 1, 0, 2, NULL, 4, false);
	_job(&w, 2, 0, 2, NULL, 1, false);
	gang_slice(w.g, w.n, cpus, 1, true);
	assert_int_equal(_active(&w), 1u << 2);
	_fini(&w);
}

/* --- rotation --- */

/* FORCE:2 on a 1-CPU node: two jobs take turns, one slice each. */
static void test_two_jobs_alternate(void **state)
{
	uint16_t cpus[1] = { 1 };
	world_t w = { 0 };

	(void) state;
	_job(&w, 1, 0, 1, "0", 1, true);
	_job(&w, 2, 0, 1, "0", 1, false);
	for (int s = 0; s < 6; s++) {
		assert_int_equal(gang_slice(w.g, w.n, cpus, 1, true), 1);
		assert_int_equal(_active(&w), s % 2 ? 1u << 1 : 1u << 2);
	}
	_fini(&w);
}

/* Three jobs on a 1-CPU node (FORCE:3): each runs one slice in three. */
static void test_three_jobs_round_robin(void **state)
{
	uint16_t cpus[1] = { 1 };
	world_t w = { 0 };
	int runs[4] = { 0 };

	(void) state;
	_job(&w, 1, 0, 1, "0", 1, true);
	_job(&w, 2, 0, 1, "0", 1, false);
	_job(&w, 3, 0, 1, "0", 1, false);
	for (int s = 0; s < 9; s++) {
		uint32_t a;

		gang_slice(w.g, w.n, cpus, 1, true);
		a = _active(&w);
		assert_int_equal(__builtin_popcount(a), 1);
		runs[__builtin_ctz(a)]++;
	}
	assert_int_equal(runs[1], 3);
	assert_int_equal(runs[2], 3);
	assert_int_equal(runs[3], 3);
	_fini(&w);
}

/* Jobs on different CPUs of one node run together; only the ones that
 * overlap take turns. */
static void test_disjoint_cpus_run_together(void **state)
{
	uint16_t cpus[1] = { 4 };
	world_t w = { 0 };

	(void) state;
	_job(&w, 1, 0, 4, "0-1", 2, true);
	_job(&w, 2, 0, 4, "2-3", 2, true);
	_job(&w, 3, 0, 4, "0-1", 2, false);
	gang_slice(w.g, w.n, cpus, 1, true);
	/* 3 waited: it runs; 2 fits beside it (disjoint), 1 waits */
	assert_int_equal(_active(&w), (1u << 2) | (1u << 3));
	gang_slice(w.g, w.n, cpus, 1, true);
	assert_int_equal(_active(&w), (1u << 1) | (1u << 2) | 0);
	_fini(&w);
}

/* Counts where no CPU ids are known: a 4-CPU node takes 3+1 but not
 * 3+3. */
static void test_counts_without_ids(void **state)
{
	uint16_t cpus[2] = { 4, 4 };
	world_t w = { 0 };

	(void) state;
	_job(&w, 1, 0, 4, NULL, 3, true);
	_job(&w, 2, 0, 4, NULL, 3, false);
	_job(&w, 3, 0, 4, NULL, 1, false);
	_job(&w, 4, 1, 4, NULL, 4, false);
	gang_slice(w.g, w.n, cpus, 2, true);
	assert_int_equal(_active(&w), (1u << 2) | (1u << 3) | (1u << 4));
	gang_slice(w.g, w.n, cpus, 2, true);
	/* 1 waited: runs; 3 and 4 moved back but still fit */
	assert_int_equal(_active(&w), (1u << 1) | (1u << 3) | (1u << 4));
	_fini(&w);
}

/* A pinned job (its launch not confirmed) keeps running but takes no
 * turn: the job it shares CPUs with runs too, and once the launch is
 * confirmed a fill suspends the later of the two (Slurm: a new job
 * waits for the next slice). */
static void test_pinned_then_new_job_waits(void **state)
{
	uint16_t cpus[1] = { 1 };
	world_t w = { 0 };

	(void) state;
	_job(&w, 1, 0, 1, "0", 1, true);
	_job(&w, 2, 0, 1, "0", 1, true);
	w.g[1].pinned = true;
	gang_slice(w.g, w.n, cpus, 1, false);
	assert_int_equal(_active(&w), (1u << 1) | (1u << 2));
	w.g[1].pinned = false;
	gang_slice(w.g, w.n, cpus, 1, false);
	assert_int_equal(_active(&w), 1u << 1);
	/* the slice ends: the new job's turn */
	gang_slice(w.g, w.n, cpus, 1, true);
	assert_int_equal(_active(&w), 1u << 2);
	_fini(&w);
}

/* A fill (no rotation) keeps the running job and adds what fits: after
 * a job ended the waiting one runs without waiting for the slice. */
static void test_fill_after_end(void **state)
{
	uint16_t cpus[1] = { 2 };
	world_t w = { 0 };

	(void) state;
	_job(&w, 1, 0, 2, "0", 1, true);
	_job(&w, 2, 0, 2, "0", 1, false);
	_job(&w, 3, 0, 2, "1", 1, false);
	gang_slice(w.g, w.n, cpus, 1, false);
	/* 1 keeps running; 3 fits beside it; 2 waits */
	assert_int_equal(_active(&w), (1u << 1) | (1u << 3));
	/* job 1 ended: the rest, filled */
	w.g[0] = w.g[1];
	w.g[1] = w.g[2];
	w.n = 2;
	gang_slice(w.g, w.n, cpus, 1, false);
	assert_int_equal(_active(&w), (1u << 2) | (1u << 3));
	w.n = 3;   /* _fini sees every bitmap once */
	_fini(&w);
}

/* Many jobs on a larger synthetic cluster: each slice's row never
 * overlaps, every job runs within N slices. */
static void test_many_jobs_fair(void **state)
{
	enum { NODES = 8, JOBS = 16, SHARE = 2 };
	uint16_t cpus[NODES];
	gang_job_t g[JOBS];
	uint32_t node[JOBS];
	uint16_t c[JOBS];
	int runs[JOBS] = { 0 };

	(void) state;
	for (int i = 0; i < NODES; i++)
		cpus[i] = 4;
	for (int k = 0; k < JOBS; k++) {
		node[k] = (uint32_t) (k % NODES);
		c[k] = 4;   /* whole node: SHARE jobs per node */
		g[k] = (gang_job_t) { .id = (uint32_t) k, .node_cnt = 1,
				      .node = &node[k], .cpus = &c[k],
				      .active = k < NODES };
	}
	for (int s = 0; s < 2 * SHARE; s++) {
		gang_row_t *r = gang_row_create(cpus, NODES);

		assert_int_equal(gang_slice(g, JOBS, cpus, NODES, true),
				 NODES);
		for (int k = 0; k < JOBS; k++) {
			if (!g[k].active)
				continue;
			assert_true(gang_row_fits(r, &g[k]));
			gang_row_add(r, &g[k]);
			runs[g[k].id]++;
		}
		gang_row_destroy(r);
	}
	for (int k = 0; k < JOBS; k++)
		assert_int_equal(runs[k], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_unknown_node),
		cmocka_unit_test(test_job_larger_than_node_waits),
		cmocka_unit_test(test_two_jobs_alternate),
		cmocka_unit_test(test_three_jobs_round_robin),
		cmocka_unit_test(test_disjoint_cpus_run_together),
		cmocka_unit_test(test_counts_without_ids),
		cmocka_unit_test(test_pinned_then_new_job_waits),
		cmocka_unit_test(test_fill_after_end),
		cmocka_unit_test(test_many_jobs_fair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
