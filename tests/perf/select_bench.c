/* select_bench — select_job_test() placement speed on synthetic clusters
 * (a benchmark: prints figures, never fails on them).
 *
 * A cluster of N nodes x 64 CPUs (32 cores x 2 threads) x 256 GB x 4 GPUs
 * is filled with a stream of mixed requests (1-16 CPUs, a quarter with
 * 1-2 GPUs, some with memory per CPU, one in twenty on 2-4 nodes), each
 * placement taken as the controller takes it, until a request no longer
 * fits.  Printed for two views of the same cluster: counts only (what the
 * backfill planner gives select) and the full cons_tres detail (CPU ids
 * tracked per node, whole cores, GPU indexes).
 *
 * Usage: select_bench [nodes]...   (default: 1000 10000)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/xmalloc.h"
#include "ctld/select.h"

#define CPUS 64
#define GPUS 4

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static select_req_t _req(unsigned i, bool detail)
{
	select_req_t r = { .min_nodes = 1, .max_nodes = 1, .num_tasks = 1,
			   .cpus_per_task = 1 };

	r.num_tasks = 1 + (i * 7) % 16;
	if (i % 20 == 0) {
		r.min_nodes = r.max_nodes = 2 + i % 3;
		r.num_tasks = r.min_nodes * 8;
	}
	if (i % 3 == 0)
		r.mem_per_cpu = 2048;
	if (detail) {
		r.cr = SELECT_CR_CORE;
		if (i % 4 == 0)
			r.gpus_per_node = 1 + i % 2;
	}
	return r;
}

static void _run(size_t n, bool detail)
{
	select_node_t *nodes = xcalloc(n, sizeof(*nodes));
	bitmap_t **used = xcalloc(n, sizeof(*used));
	bitmap_t *avail = bitmap_create(n);
	unsigned placed = 0, tries = 0, i;
	double t0, t;

	for (size_t k = 0; k < n; k++) {
		nodes[k] = (select_node_t) { .cpus = CPUS,
					     .real_memory = 256 * 1024,
					     .weight = 1 };
		if (detail) {
			used[k] = bitmap_create(CPUS);
			nodes[k].threads = 2;
			nodes[k].cpu_used = used[k];
			nodes[k].gpus = GPUS;
		}
	}
	bitmap_set_all(avail);
	t0 = _now();
	for (i = 0; ; i++) {
		select_req_t r = _req(i, detail);
		select_result_t res;
		long b;
		uint32_t k = 0;

		tries++;
		if (select_job_test(nodes, n, avail, &r, false, &res) != SELECT_OK)
			break;
		for (b = bitmap_first_set(res.nodes); b >= 0;
		     b = bitmap_next_set(res.nodes, b + 1), k++) {
			nodes[b].alloc_cpus += res.cpus[k];
			nodes[b].alloc_memory += res.mem[k];
			nodes[b].gpu_used |= res.gpus[k];
			if (res.cpu_ids && res.cpu_ids[k])
				bitmap_or(used[b], res.cpu_ids[k]);
			if (nodes[b].alloc_cpus >= CPUS)
				bitmap_clear(avail, b);   /* full: as sched's usable set */
		}
		select_result_free(&res);
		placed++;
	}
	t = _now() - t0;
	printf("  %-28s %8u jobs placed in %7.1f ms: %6.1f us per placement\n",
	       detail ? "cons_tres detail (ids, GPUs):" : "counts only:",
	       placed, t * 1e3, t * 1e6 / tries);
	for (size_t k = 0; k < n; k++)
		if (used[k])
			bitmap_destroy(used[k]);
	xfree(used);
	xfree(nodes);
	bitmap_destroy(avail);
}

int main(int argc, char **argv)
{
	size_t sizes[8] = { 1000, 10000 };
	int cnt = 2;

	if (argc > 1) {
		cnt = 0;
		for (int a = 1; a < argc && cnt < 8; a++)
			sizes[cnt++] = strtoul(argv[a], NULL, 10);
	}
	for (int s = 0; s < cnt; s++) {
		printf("%zu nodes x %d CPUs x %d GPUs, filled to the first "
		       "request that does not fit:\n", sizes[s], CPUS, GPUS);
		_run(sizes[s], false);
		_run(sizes[s], true);
	}
	return 0;
}
