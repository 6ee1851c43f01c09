/* test_gres_sel.c — node GRES layouts and placement: typed GPUs, counted
 * GRES past 64, shards sharing a GPU, MPS percentages, through
 * select_job_test() on synthetic nodes. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/ctld/select.c"
#include "../../src/ctld/gres_sel.c"
#include "../../src/ctld/gres_bind.c"

static gres_layout_t *_layout(const char *g)
{
	char err[128];
	gres_layout_t *l = gres_layout_parse(g, err, sizeof(err));

	assert_non_null(l);
	return l;
}

static select_req_t _req(void)
{
	return (select_req_t) { .min_nodes = 1, .max_nodes = 1,
				.num_tasks = 1, .cpus_per_task = 1 };
}

static void test_layout(void **st)
{
	char err[128];
	gres_layout_t *l = _layout("gpu:a100:4,gpu:h100:2,nic:128,shard:12");

	(void) st;
	assert_int_equal(l->gpus, 6);
	assert_int_equal(gres_gpu_mask(l, "a100"), 0x0f);
	assert_int_equal(gres_gpu_mask(l, "h100"), 0x30);
	assert_int_equal(gres_gpu_mask(l, NULL), 0x3f);
	assert_int_equal(gres_gpu_mask(l, "k80"), 0);
	assert_int_equal(l->per_gpu[GRES_SHARE_SHARD], 2);
	assert_true(gres_layout_has(l, "nic", NULL));
	assert_true(gres_layout_has(l, "gpu", "h100"));
	assert_false(gres_layout_has(l, "gpu", "k80"));
	assert_false(gres_layout_has(l, "fpga", NULL));
	gres_layout_free(l);
	/* more than 64 GPUs, shards without GPUs: refused with a reason */
	assert_null(gres_layout_parse("gpu:65", err, sizeof(err)));
	assert_string_equal(err, "more than 64 GPUs on one node");
	assert_null(gres_layout_parse("shard:4", err, sizeof(err)));
}

/* --gres=gpu:h100:1 takes an h100; untyped takes any; the node shows
 * both types in GresUsed. */
static void test_typed_gpus(void **st)
{
	gres_layout_t *l = _layout("gpu:a100:2,gpu:h100:2");
	gres_use_t *u = gres_use_create(l);
	select_node_t n = { .cpus = 8, .real_memory = 1000, .weight = 1,
			    .gpus = 4, .gres = l, .gres_use = u };
	bitmap_t *all = bitmap_create(1);
	select_req_t r = _req();
	select_result_t res;
	char *s;

	(void) st;
	bitmap_set_all(all);
	r.gpus_per_node = 1;
	r.gpu_type = "h100";
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_int_equal(res.gpus[0], 0x4);
	n.gpu_used |= res.gpus[0];
	select_result_free(&res);
	/* two h100 wanted, one left: busy now, fits an empty node */
	r.gpus_per_node = 2;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res),
			 SELECT_BUSY);
	assert_int_equal(select_job_test(&n, 1, all, &r, true, &res), 0);
	select_result_free(&res);
	r.gpus_per_node = 3;
	assert_int_equal(select_job_test(&n, 1, all, &r, true, &res),
			 SELECT_NEVER);
	/* untyped: any type, lowest free index */
	r.gpus_per_node = 3;
	r.gpu_type = NULL;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_int_equal(res.gpus[0], 0xb);
	n.gpu_used |= res.gpus[0];
	select_result_free(&res);
	s = gres_used_str(l, u, n.gpu_used);
	assert_string_equal(s, "gpu:a100:2(IDX:0-1),gpu:h100:2(IDX:2-3)");
	xfree(s);
	s = gres_gpu_detail(l, 0x5, NULL);
	assert_string_equal(s, "gpu:a100:1(IDX:0),gpu:h100:1(IDX:2)");
	xfree(s);
	gres_use_free(u);
	gres_layout_free(l);
	bitmap_destroy(all);
}

/* nic:200 per node: counts past 64, typed counted GRES, held and given
 * back through allocation strings. */
static void test_counted(void **st)
{
	gres_layout_t *l = _layout("nic:ib:150,nic:eth:50");
	gres_use_t *u = gres_use_create(l);
	gres_spec_t want[1] = { { .name = "nic", .count = 180 } };
	char *a, *s;

	(void) st;
	assert_true(gres_sel_fits(l, u, 0, want, 1));
	a = gres_sel_pick(l, u, 0, want, 1);
	assert_string_equal(a, "nic:ib:150,nic:eth:30");
	assert_int_equal(gres_use_apply(l, u, a, true), 0);
	assert_false(gres_sel_fits(l, u, 0, want, 1));
	want[0].count = 20;
	want[0].type = "eth";
	assert_true(gres_sel_fits(l, u, 0, want, 1));
	want[0].type = "ib";
	want[0].count = 1;
	assert_false(gres_sel_fits(l, u, 0, want, 1));
	s = gres_used_str(l, u, 0);
	assert_string_equal(s, "nic:ib:150,nic:eth:30");
	xfree(s);
	assert_int_equal(gres_use_apply(l, u, a, false), 0);
	assert_true(gres_sel_fits(l, u, 0, want, 1));
	assert_int_equal(gres_use_apply(l, u, "nic:x", true), -1);
	xfree(a);
	gres_use_free(u);
	gres_layout_free(l);
}

/* Shards: two jobs share GPU 0; a GPU holding shards is not given whole;
 * a GPU held whole gives no shards. */
static void test_shards_share_a_gpu(void **st)
{
	gres_layout_t *l = _layout("gpu:2,shard:8");
	gres_use_t *u = gres_use_create(l);
	select_node_t n = { .cpus = 8, .real_memory = 1000, .weight = 1,
			    .gpus = 2, .gres = l, .gres_use = u };
	gres_spec_t sh = { .name = "shard", .count = 2 };
	bitmap_t *all = bitmap_create(1);
	select_req_t r = _req();
	select_result_t res;
	char *s;

	(void) st;
	bitmap_set_all(all);
	r.gres = &sh;
	r.gres_cnt = 1;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_string_equal(res.gres_alloc[0], "shard:2@0/4");
	gres_use_apply(l, u, res.gres_alloc[0], true);
	select_result_free(&res);
	/* the second job fills the same GPU (the fullest that fits) */
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_string_equal(res.gres_alloc[0], "shard:2@0/4");
	gres_use_apply(l, u, res.gres_alloc[0], true);
	select_result_free(&res);
	/* whole GPUs: only GPU 1 is free */
	r.gres = NULL;
	r.gres_cnt = 0;
	r.gpus_per_node = 2;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res),
			 SELECT_BUSY);
	r.gpus_per_node = 1;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_int_equal(res.gpus[0], 0x2);
	n.gpu_used |= res.gpus[0];
	select_result_free(&res);
	/* GPU 1 held whole, GPU 0 full of shards: no shard left */
	r.gpus_per_node = 0;
	r.gres = &sh;
	r.gres_cnt = 1;
	sh.count = 1;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res),
			 SELECT_BUSY);
	s = gres_used_str(l, u, n.gpu_used);
	assert_string_equal(s, "gpu:1(IDX:1),shard:4");
	xfree(s);
	/* never: more shards than the node has */
	sh.count = 9;
	assert_int_equal(select_job_test(&n, 1, all, &r, true, &res),
			 SELECT_NEVER);
	/* 6 shards on an empty node: spread over both GPUs */
	sh.count = 6;
	assert_int_equal(select_job_test(&n, 1, all, &r, true, &res), 0);
	assert_string_equal(res.gres_alloc[0], "shard:4@0/4,shard:2@1/4");
	select_result_free(&res);
	gres_use_free(u);
	gres_layout_free(l);
	bitmap_destroy(all);
}

/* MPS: percent of one GPU (mps:100 a GPU here), never spread; a GPU
 * running MPS takes no shards and is not given whole. */
static void test_mps_percent(void **st)
{
	gres_layout_t *l = _layout("gpu:2,mps:200,shard:4");
	gres_use_t *u = gres_use_create(l);
	gres_spec_t m = { .name = "mps", .count = 50 };
	gres_spec_t sh = { .name = "shard", .count = 2 };
	gres_alloc_item_t it[4];
	char *a;

	(void) st;
	a = gres_sel_pick(l, u, 0, &m, 1);
	assert_string_equal(a, "mps:50@0/100");
	assert_int_equal(gres_alloc_parse(a, it, 4), 1);
	assert_int_equal(it[0].count * 100 / it[0].per_gpu, 50);
	gres_use_apply(l, u, a, true);
	xfree(a);
	/* GPU 0 runs MPS: shards go to GPU 1, whole GPUs too */
	a = gres_sel_pick(l, u, 0, &sh, 1);
	assert_string_equal(a, "shard:2@1/2");
	xfree(a);
	assert_int_equal(gres_shared_busy(l, u), 0x1);
	/* 120% of a GPU never fits, even though 150 units are free */
	m.count = 120;
	assert_false(gres_sel_fits(l, u, 0, &m, 1));
	m.count = 50;
	assert_true(gres_sel_fits(l, u, 0, &m, 1));
	/* GPU 1 held whole: MPS only on GPU 0 */
	m.count = 60;
	assert_false(gres_sel_fits(l, u, 0x2, &m, 1));
	gres_use_free(u);
	gres_layout_free(l);
}

static void test_alloc_strings(void **st)
{
	gres_alloc_item_t it[4];
	char *s;

	(void) st;
	assert_int_equal(gres_alloc_parse("nic:ib:2,mps:25@3/100", it, 4), 2);
	assert_string_equal(it[0].name, "nic");
	assert_string_equal(it[0].type, "ib");
	assert_int_equal(it[0].gpu, -1);
	assert_int_equal(it[1].gpu, 3);
	assert_int_equal(gres_alloc_parse("", it, 4), 0);
	assert_int_equal(gres_alloc_parse("mps:1@99/100", it, 4), -1);
	assert_int_equal(gres_alloc_parse("mps:1@1/0", it, 4), -1);
	assert_int_equal(gres_alloc_parse("a:1,b:2,c:3,d:4,e:5", it, 4), -1);
	s = gres_alloc_detail("nic:2,shard:3@0/4");
	assert_string_equal(s, "nic:2,shard:3(IDX:0)");
	xfree(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_typed_gpus),
		cmocka_unit_test(test_counted),
		cmocka_unit_test(test_shards_share_a_gpu),
		cmocka_unit_test(test_mps_percent),
		cmocka_unit_test(test_alloc_strings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
