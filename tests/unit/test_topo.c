/* test_topo.c — topology.conf parsing (topo_conf.c) and placement in a
 * topology (topo.c) on synthetic trees and blocks.  Bad files first. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ctld/gres_sel.c"
#include "../../src/ctld/gres_bind.c"
#include "../../src/ctld/select.c"
#include "../../src/ctld/topo.c"
#include "common/topo_conf.h"

/* ---- topology.conf ---- */

static void _bad(const char *text, const char *want)
{
	topo_conf_t c;
	char err[512] = "";

	assert_int_equal(topo_conf_parse_text(text, strlen(text), "t.conf",
					      &c, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("%s: got \"%s\", want \"%s\"", text, err, want);
	assert_int_equal(c.sw_cnt, 0);
	assert_int_equal(c.blk_cnt, 0);
}

static void test_conf_bad(void **st)
{
	(void) st;
	_bad("", "t.conf:1: no SwitchName= or BlockName= line");
	_bad("Nodes=n1\n", "t.conf:1: SwitchName= or BlockName= expected");
	_bad("SwitchName=s1 Nodes=n1 Speed=3\n", "t.conf:1: unknown key Speed");
	_bad("SwitchName=s1\n", "t.conf:1: switch s1 has neither");
	_bad("SwitchName=s1 Nodes=n1 Switches=s2\n",
	     "t.conf:1: switch s1 has both");
	_bad("SwitchName=s1 Nodes=n1 LinkSpeed=fast\n",
	     "t.conf:1: LinkSpeed=fast is not a number");
	_bad("SwitchName=s1 Nodes=n[1-\n", "t.conf:1: ");
	_bad("SwitchName=s1 Nodes=n1\n\nSwitchName=s1 Nodes=n2\n",
	     "t.conf:3: switch s1 defined twice");
	_bad("SwitchName=s1 Nodes=n1\nSwitchName=t Switches=s[1-2]\n",
	     "t.conf:2: switch t: child switch s2 is not defined");
	_bad("SwitchName=a Switches=a\n", "t.conf:1: switch a is its own");
	_bad("SwitchName=a Switches=b\nSwitchName=b Switches=c\n"
	     "SwitchName=c Switches=a\n", "switch a is in a loop");
	_bad("SwitchName=s1 Nodes=n1\nSwitchName=a Switches=s1\n"
	     "SwitchName=b Switches=s1\n",
	     "t.conf:3: switch s1 is under both a (line 2) and b");
	_bad("SwitchName=s1 Nodes=n[1-2]\nSwitchName=s2 Nodes=n[2-3]\n",
	     "t.conf:2: node n2 is under leaf switches s1 (line 1) and s2");
	_bad("SwitchName=s1 Nodes=n1,n1\n", "t.conf:1: node n1 listed twice");
	_bad("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[4-7]\n",
	     "t.conf:2: node n4 is in blocks b1 (line 1) and b2");
	_bad("BlockName=b1 Nodes=n[1-4]\nBlockSizes=8\n",
	     "t.conf:1: block b1 has 4 nodes, fewer than the base block "
	     "size 8");
	_bad("BlockName=b1 Nodes=n[1-4]\nBlockSizes=4,2\n",
	     "t.conf:2: BlockSizes=4,2: ascending");
	_bad("BlockSizes=4\n", "BlockSizes= without any BlockName=");
	_bad("BlockName=b1 Nodes=n1\nSwitchName=s1 Nodes=n2\n",
	     "SwitchName= and BlockName= in one file");
	_bad("SwitchName=s1 Nodes=n1 SwitchName=s2\n",
	     "t.conf:1: a second name on one line");
	_bad("BlockName=b1 Nodes=n1 LinkSpeed=3\n",
	     "t.conf:1: block b1 takes Nodes= only");
}

static void test_conf_tree(void **st)
{
	const char *text =
		"# a 3-level tree\n"
		"switchname=l1 nodes=n[1-2] linkspeed=5   # comment\n"
		"SwitchName=l2 Nodes=n[3-4]\n"
		"SwitchName=l3 Nodes=n[5-6]\n"
		"SwitchName=m1 Switches=l[1-2]\n"
		"SwitchName=m2 Switches=l3\n"
		"\n"
		"SwitchName=top Switches=m[1-2]\n";
	topo_conf_t c;
	char err[256] = "";

	(void) st;
	assert_int_equal(topo_conf_parse_text(text, strlen(text), "t.conf",
					      &c, err, sizeof(err)), 0);
	assert_int_equal(c.sw_cnt, 6);
	assert_int_equal(c.sw[0].link_speed, 5);
	assert_int_equal(c.sw[1].link_speed, 1);
	assert_int_equal(c.sw[0].level, 0);
	assert_int_equal(c.sw[3].level, 1);
	assert_int_equal(c.sw[4].level, 1);
	assert_int_equal(c.sw[5].level, 2);
	assert_int_equal(c.sw[0].parent, 3);
	assert_int_equal(c.sw[5].parent, -1);
	assert_int_equal(c.sw[5].line, 8);
	topo_conf_free(&c);
}

static void test_conf_blocks(void **st)
{
	const char *text = "BlockName=b1 Nodes=n[1-4]\n"
			   "BlockName=b2 Nodes=n[5-9]\n";
	topo_conf_t c;
	char err[256] = "";

	(void) st;
	assert_int_equal(topo_conf_parse_text(text, strlen(text), "t.conf",
					      &c, err, sizeof(err)), 0);
	assert_int_equal(c.blk_cnt, 2);
	assert_int_equal(c.blk[1].node_cnt, 5);
	/* default BlockSizes: the smallest block, doubled while it fits */
	assert_int_equal(c.bs_cnt, 2);
	assert_int_equal(c.block_sizes[0], 4);
	assert_int_equal(c.block_sizes[1], 8);
	topo_conf_free(&c);
}

/* ---- placement ---- */

#define MAXN 64

static select_node_t cl[MAXN];
static char *names[MAXN];

static topo_t *_topo(const char *text, enum topo_kind kind, size_t n)
{
	topo_conf_t c;
	char err[256] = "", *unplaced = NULL;
	topo_t *t;

	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		if (asprintf(&names[i], "n%zu", i + 1) < 0)
			fail();
		cl[i] = (select_node_t) { .cpus = 4, .real_memory = 1000,
					  .weight = 1 };
	}
	assert_int_equal(topo_conf_parse_text(text, strlen(text), "t.conf",
					      &c, err, sizeof(err)), 0);
	t = topo_create(&c, kind, (const char *const *) names, n, "t.conf",
			&unplaced, err, sizeof(err));
	topo_conf_free(&c);
	if (!t)
		fail_msg("%s", err);
	xfree(unplaced);
	return t;
}

static bitmap_t *_all(size_t n)
{
	bitmap_t *b = bitmap_create(n);

	bitmap_set_all(b);
	return b;
}

static select_req_t _req(uint32_t nodes, bool excl)
{
	return (select_req_t) { .min_nodes = nodes, .max_nodes = nodes,
				.num_tasks = nodes, .cpus_per_task = 1,
				.exclusive = excl };
}

static char *_put(topo_t *t, size_t n, select_req_t r, topo_req_t tr,
		    uint32_t *leaves)
{
	bitmap_t *all = _all(n);
	select_result_t res;
	char *s;
	int rc = topo_job_test(t, select_job_test, cl, n, all, &r, &tr,
			       false, &res, leaves);

	bitmap_destroy(all);
	if (rc != SELECT_OK)
		return NULL;
	s = bitmap_to_str(res.nodes);
	for (long i = bitmap_first_set(res.nodes); i >= 0;
	     i = bitmap_next_set(res.nodes, i + 1))
		cl[i].alloc_cpus = cl[i].cpus;     /* taken whole */
	select_result_free(&res);
	return s;
}

static void _is(char *got, const char *want)
{
	if (!got || strcmp(got, want))
		fail_msg("placed on %s, want %s", got ? got : "(none)", want);
	xfree(got);
}

/* 3 levels: top -> m1 (l1 n1-4, l2 n5-8), m2 (l3 n9-12, l4 n13-16) */
static const char *tree =
	"SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\n"
	"SwitchName=l3 Nodes=n[9-12]\nSwitchName=l4 Nodes=n[13-16]\n"
	"SwitchName=m1 Switches=l[1-2]\nSwitchName=m2 Switches=l[3-4]\n"
	"SwitchName=top Switches=m[1-2]\n";

static void test_tree_lowest_switch(void **st)
{
	topo_t *t = _topo(tree, TOPO_TREE, 16);
	topo_req_t none = { 0 };
	uint32_t leaves;

	(void) st;
	cl[0].alloc_cpus = 4;                 /* n1 busy: l1 has 3 free */
	/* 4 nodes: l1 cannot, l2 can (lowest level, one leaf) */
	_is(_put(t, 16, _req(4, true), none, &leaves), "4-7");
	assert_int_equal(leaves, 1);
	/* 3 nodes: best fit is l1 (3 free), not an empty leaf */
	_is(_put(t, 16, _req(3, true), none, &leaves), "1-3");
	/* 8 nodes: no leaf, m2 holds it: l3 + l4 */
	_is(_put(t, 16, _req(8, true), none, &leaves), "8-15");
	assert_int_equal(leaves, 2);
	/* nothing left */
	assert_null(_put(t, 16, _req(1, true), none, NULL));
	topo_destroy(t);
}

static void test_tree_fewest_leaves(void **st)
{
	topo_t *t = _topo(tree, TOPO_TREE, 16);
	topo_req_t none = { 0 };
	uint32_t leaves;

	(void) st;
	/* l1: 1 free, l2: 3 free, l3: 4 free, l4: 2 free */
	for (int i = 0; i < 3; i++)
		cl[i].alloc_cpus = 4;
	cl[4].alloc_cpus = 4;
	cl[12].alloc_cpus = cl[13].alloc_cpus = 4;
	/* 5 nodes: m1 has 4 free, m2 has 6: under m2, l3 (4) then l4 */
	_is(_put(t, 16, _req(5, true), none, &leaves), "8-11,14");
	assert_int_equal(leaves, 2);
	/* 5 more: no mid switch has 5 free now (m1 4, m2 1): the top,
	 * the roomiest leaves first: l2 (3), then l1 (1) and l4 (1) */
	_is(_put(t, 16, _req(5, true), none, &leaves), "3,5-7,15");
	assert_int_equal(leaves, 3);
	topo_destroy(t);
}

static void test_tree_disconnected(void **st)
{
	/* two fabrics with nothing above: a job never spans them */
	topo_t *t = _topo("SwitchName=a Nodes=n[1-2]\n"
			  "SwitchName=b Nodes=n[3-4]\n", TOPO_TREE, 5);
	bitmap_t *all = _all(5);
	select_req_t r = _req(3, true);
	select_result_t res;
	topo_req_t none = { 0 };

	(void) st;
	assert_int_equal(topo_job_test(t, select_job_test, cl, 5, all, &r,
				       &none, true, &res, NULL),
			 SELECT_NEVER);
	/* n5 is under no switch: not used */
	r = _req(1, true);
	for (int i = 0; i < 4; i++)
		cl[i].alloc_cpus = 4;
	assert_int_equal(topo_job_test(t, select_job_test, cl, 5, all, &r,
				       &none, false, &res, NULL),
			 SELECT_BUSY);
	assert_false(bitmap_test(topo_nodes(t), 4));
	bitmap_destroy(all);
	topo_destroy(t);
}

static void test_tree_required_node(void **st)
{
	topo_t *t = _topo(tree, TOPO_TREE, 16);
	bitmap_t *reqd = bitmap_create(16);
	select_req_t r = _req(2, true);
	topo_req_t none = { 0 };
	uint32_t leaves;

	(void) st;
	bitmap_set(reqd, 9);                  /* -w n10: under l3 */
	r.required = reqd;
	_is(_put(t, 16, r, none, &leaves), "8-9");
	assert_int_equal(leaves, 1);
	bitmap_destroy(reqd);
	topo_destroy(t);
}

static void test_show(void **st)
{
	topo_t *t = _topo(tree, TOPO_TREE, 16);
	char *s;

	(void) st;
	s = topo_show(t, "n5", 4, bitmap_to_str);
	assert_string_equal(s,
		"SwitchName=l2 Level=0 LinkSpeed=1 Nodes=4-7\n"
		"SwitchName=m1 Level=1 LinkSpeed=1 Nodes=0-7 Switches=l[1-2]\n"
		"SwitchName=top Level=2 LinkSpeed=1 Nodes=0-15 "
		"Switches=m[1-2]\n");
	xfree(s);
	s = topo_show(t, "l4", -1, bitmap_to_str);
	assert_string_equal(s, "SwitchName=l4 Level=0 LinkSpeed=1 "
			    "Nodes=12-15\n");
	xfree(s);
	assert_null(topo_show(t, "nothing", -1, bitmap_to_str));
	topo_destroy(t);
}

/* blocks of 4, BlockSizes=4,8: b1+b2 and b3+b4 aggregate */
static const char *blocks =
	"BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\n"
	"BlockName=b3 Nodes=n[9-12]\nBlockName=b4 Nodes=n[13-16]\n"
	"BlockSizes=4,8\n";

static void test_block_fit(void **st)
{
	topo_t *t = _topo(blocks, TOPO_BLOCK, 16);
	topo_req_t none = { 0 };
	uint32_t leaves;
	char *s;

	(void) st;
	cl[0].alloc_cpus = 4;
	/* 4 nodes: b2 (b1 has 3 free) */
	_is(_put(t, 16, _req(4, true), none, &leaves), "4-7");
	assert_int_equal(leaves, 1);
	/* 6 nodes: an 8-node group: b3+b4 (b1+b2 has 3 free) */
	_is(_put(t, 16, _req(6, true), none, &leaves), "8-13");
	assert_int_equal(leaves, 2);
	/* 5 nodes: no group has 5 free; any blocks: b1 (3) + b4 (2) */
	_is(_put(t, 16, _req(5, true), none, &leaves), "1-3,14-15");
	s = topo_show(t, NULL, -1, bitmap_to_str);
	assert_string_equal(s,
		"BlockName=b1 BlockIndex=0 Nodes=0-3 BlockSize=4\n"
		"BlockName=b2 BlockIndex=1 Nodes=4-7 BlockSize=4\n"
		"BlockName=b3 BlockIndex=2 Nodes=8-11 BlockSize=4\n"
		"BlockName=b4 BlockIndex=3 Nodes=12-15 BlockSize=4\n");
	xfree(s);
	topo_destroy(t);
}

static void test_block_segments(void **st)
{
	topo_t *t = _topo(blocks, TOPO_BLOCK, 16);
	topo_req_t seg = { .segment = 2 };
	uint32_t leaves;

	(void) st;
	/* b1: 3 free, b2: 1 free, b3: 2 free, b4: 4 free */
	cl[0].alloc_cpus = cl[4].alloc_cpus = cl[5].alloc_cpus =
		cl[6].alloc_cpus = cl[8].alloc_cpus = cl[9].alloc_cpus = 4;
	/* 6 nodes in segments of 2: no block holds 3 segments; of the
	 * 8-node groups b3+b4 does (b3 1, b4 2), b1+b2 not (b1 1, b2 0) */
	_is(_put(t, 16, _req(6, true), seg, &leaves), "10-15");
	assert_int_equal(leaves, 2);
	/* 4 nodes are free (n2-n4, n8) but only one segment of 2 fits in a
	 * block: a segment is never split */
	assert_null(_put(t, 16, _req(4, true), seg, NULL));
	_is(_put(t, 16, _req(2, true), seg, &leaves), "1-2");
	/* a node count that is not a multiple: never */
	assert_null(_put(t, 16, _req(3, true), seg, NULL));
	topo_destroy(t);
}

static void test_route(void **st)
{
	topo_t *t = _topo(tree, TOPO_TREE, 17);
	uint32_t idx[] = { 0, 12, 4, 16, 1, 8 }, perm[6], *sizes = NULL, g;
	uint32_t same[] = { 0, 1, 2 };

	(void) st;
	/* all under top: one group per middle switch (m1: n1 n5 n2; m2:
	 * n13 n9), n17 (under no switch) alone */
	assert_int_equal(topo_route(t, idx, 6, perm, &sizes, &g), 0);
	assert_int_equal(g, 3);
	assert_int_equal(sizes[0], 3);
	assert_int_equal(sizes[1], 2);
	assert_int_equal(sizes[2], 1);
	assert_int_equal(perm[0], 0);
	assert_int_equal(perm[1], 2);
	assert_int_equal(perm[2], 4);
	assert_int_equal(perm[3], 1);
	assert_int_equal(perm[4], 5);
	assert_int_equal(perm[5], 3);
	xfree(sizes);
	/* one leaf switch: no split by switch */
	assert_int_equal(topo_route(t, same, 3, perm, &sizes, &g), -1);
	topo_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_bad),
		cmocka_unit_test(test_conf_tree),
		cmocka_unit_test(test_conf_blocks),
		cmocka_unit_test(test_tree_lowest_switch),
		cmocka_unit_test(test_tree_fewest_leaves),
		cmocka_unit_test(test_tree_disconnected),
		cmocka_unit_test(test_tree_required_node),
		cmocka_unit_test(test_show),
		cmocka_unit_test(test_block_fit),
		cmocka_unit_test(test_block_segments),
		cmocka_unit_test(test_route),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	for (size_t i = 0; i < MAXN; i++)
		free(names[i]);
	return rc;
}
