/* fuzz_topo_conf.c — arbitrary text as topology.conf, then as a tree and
 * as blocks over a few nodes with a placement on each.  A parse either
 * fails with "t.conf:LINE: ..." and returns nothing, or gives a tree whose
 * parents and levels agree and blocks whose sizes ascend.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/topo_conf.h"
#include "common/xmalloc.h"
#include "ctld/select.h"
#include "ctld/topo.h"

#define N 16

static void _check(const topo_conf_t *c)
{
	for (size_t i = 0; i < c->sw_cnt; i++) {
		const topo_switch_conf_t *s = &c->sw[i];

		if (s->parent >= 0 && (size_t) s->parent >= c->sw_cnt)
			abort();
		if (s->parent >= 0 && c->sw[s->parent].level <= s->level)
			abort();
		if (!s->child_cnt != !!s->nodes)
			abort();
	}
	for (size_t k = 1; k < c->bs_cnt; k++)
		if (c->block_sizes[k] <= c->block_sizes[k - 1])
			abort();
}

static void _place(const topo_conf_t *c, enum topo_kind kind)
{
	static const char *names[N] = { "n1", "n2", "n3", "n4", "n5", "n6",
		"n7", "n8", "tux0", "tux1", "tux2", "tux3", "tux4", "tux5",
		"tux6", "tux7" };
	select_node_t nodes[N];
	char err[512], *unplaced = NULL;
	topo_t *t = topo_create(c, kind, names, N, "t.conf", &unplaced, err,
				sizeof(err));
	bitmap_t *all = bitmap_create(N);
	select_req_t r = { .min_nodes = 3, .max_nodes = 3, .num_tasks = 3,
			   .cpus_per_task = 1, .exclusive = true };
	topo_req_t tr = { .max_leaves = 1, .segment = kind == TOPO_BLOCK };
	select_result_t res;

	xfree(unplaced);
	bitmap_set_all(all);
	for (int i = 0; i < N; i++)
		nodes[i] = (select_node_t) { .cpus = 2, .real_memory = 100,
					     .weight = 1 };
	if (t && topo_job_test(t, select_job_test, nodes, N, all, &r, &tr,
			       false, &res, NULL) == SELECT_OK) {
		if (bitmap_count(res.nodes) != 3)
			abort();
		select_result_free(&res);
	}
	bitmap_destroy(all);
	topo_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	topo_conf_t c;

	if (size > 65536)
		return 0;
	if (topo_conf_parse_text((const char *) data, size, "t.conf", &c,
				 err, sizeof(err)) < 0) {
		if (strncmp(err, "t.conf:", 7) || c.sw_cnt || c.blk_cnt)
			abort();
		return 0;
	}
	_check(&c);
	_place(&c, c.blk_cnt ? TOPO_BLOCK : TOPO_TREE);
	topo_conf_free(&c);
	return 0;
}
