/* test_gres_bind.c — GPUs bound to cores (gres.conf Cores=): the
 * registration string, the node's binding and how it is shown, and
 * --gres-flags=enforce-binding through select_job_test() on synthetic
 * nodes.  Bad inputs first. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/ctld/select.c"
#include "../../src/ctld/gres_sel.c"
#include "../../src/ctld/gres_bind.c"

/* 2 sockets x 4 cores x 2 threads = 16 CPUs */
static const gres_bind_shape_t shape = { .cpus = 16, .sockets = 2,
					 .cores = 4, .threads = 2 };

static gres_layout_t *_bound(const char *gres, const char *msg)
{
	char err[160];
	gres_layout_t *l = gres_layout_parse(gres, err, sizeof(err));

	assert_non_null(l);
	assert_int_equal(gres_bind_set(l, msg, &shape, err, sizeof(err)), 0);
	return l;
}

static void test_conf_cores_bad(void **st)
{
	char err[256];
	gres_conf_t *g;

	(void) st;
	/* malformed Cores= fails the parse with its line */
	assert_null(gres_conf_parse("Name=gpu File=/dev/nvidia0\n"
				    "Name=gpu File=/dev/nvidia1 Cores=x\n",
				    NULL, err, sizeof(err)));
	assert_string_equal(err, "line 2: invalid value \"x\" for Cores");
	assert_null(gres_conf_parse("Name=gpu Cores=3-1\n", NULL, err,
				    sizeof(err)));
	/* well formed, past the node's cores: the check names the line */
	g = gres_conf_parse("# two GPUs\nName=gpu Type=a100 "
			    "File=/dev/nvidia[0-1] Cores=0-3\n"
			    "Name=gpu Type=a100 File=/dev/nvidia[2-3] "
			    "Cores=4-9\n", NULL, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(gres_conf_check_cores(g, 8, err, sizeof(err)), -1);
	assert_string_equal(err, "line 3: Cores=4-9 is out of range: the "
			    "node has 8 cores (0-7)");
	assert_int_equal(gres_conf_check_cores(g, 10, err, sizeof(err)), 0);
	gres_conf_destroy(g);
}

static void test_conf_cores_msg(void **st)
{
	char err[256], *m;
	gres_conf_t *g;
	gres_gpu_cores_t e[8];

	(void) st;
	g = gres_conf_parse("Name=gpu Type=a100 File=/dev/nvidia[0-1] "
			    "Cores=0-3\nName=nic Count=4\n"
			    "Name=gpu Type=a100 File=/dev/nvidia2\n",
			    NULL, err, sizeof(err));
	assert_non_null(g);
	m = gres_conf_cores_msg(g);
	assert_string_equal(m, "a100@0-3;a100@0-3;a100@");
	assert_int_equal(gres_cores_msg_parse(m, e, 8), 3);
	assert_string_equal(e[1].type, "a100");
	assert_string_equal(e[1].cores, "0-3");
	assert_string_equal(e[2].cores, "");
	assert_int_equal(gres_cores_msg_parse(m, e, 2), -1);
	xfree(m);
	gres_conf_destroy(g);
	/* no Cores= anywhere: nothing to register */
	g = gres_conf_parse("Name=gpu File=/dev/nvidia0\n", NULL, err,
			    sizeof(err));
	assert_null(gres_conf_cores_msg(g));
	gres_conf_destroy(g);
	assert_int_equal(gres_cores_msg_parse("a100", e, 8), -1);
	assert_int_equal(gres_cores_msg_parse("1x@0", e, 8), -1);
	assert_int_equal(gres_cores_msg_parse("@0-1", e, 8), 1);
}

static void test_bind_set_show(void **st)
{
	char err[160], *s;
	gres_layout_t *l = gres_layout_parse("gpu:a100:2,gpu:h100:2,nic:4",
					     err, sizeof(err));
	bitmap_t *b;

	(void) st;
	/* bad: more a100s than Gres= has, a core past the node's, junk */
	assert_int_equal(gres_bind_set(l, "a100@0;a100@1;a100@2", &shape, err,
				       sizeof(err)), -1);
	assert_string_equal(err, "gres.conf has more gpu:a100 than Gres= in "
			    "slurm.conf");
	assert_int_equal(gres_bind_set(l, "a100@8", &shape, err,
				       sizeof(err)), -1);
	assert_int_equal(gres_bind_set(l, "a100", &shape, err, sizeof(err)),
			 -1);
	assert_null(l->gpu_cpus);
	assert_null(gres_bind_show(l));
	/* a100s on socket 0, h100s on socket 1 */
	assert_int_equal(gres_bind_set(l, "h100@4-7;h100@4-7;a100@0-3;a100@0-3",
				       &shape, err, sizeof(err)), 0);
	s = gres_bind_show(l);
	assert_string_equal(s, "gpu:a100:2(S:0),gpu:h100:2(S:1),nic:4");
	xfree(s);
	b = gres_bind_cpus(l, 0x4, 16);
	s = bitmap_to_str(b);
	assert_string_equal(s, "8-15");
	xfree(s);
	bitmap_destroy(b);
	/* unbound again */
	assert_int_equal(gres_bind_set(l, NULL, &shape, err, sizeof(err)), 0);
	assert_null(gres_bind_show(l));
	gres_layout_free(l);
	/* one GPU over both sockets */
	l = _bound("gpu:a100:2", "a100@0-7;a100@2");
	s = gres_bind_show(l);
	assert_string_equal(s, "gpu:a100:2(S:0-1)");
	xfree(s);
	gres_layout_free(l);
}

static select_req_t _req(uint32_t tasks)
{
	return (select_req_t) { .min_nodes = 1, .max_nodes = 1,
				.num_tasks = tasks, .cpus_per_task = 1,
				.cr = SELECT_CR_CORE, .gres_bind = true };
}

/* The job's CPUs land on its GPU's socket; a job that needs more
 * cores than its GPU's cores never fits; without the flag it does. */
static void test_enforce_binding(void **st)
{
	gres_layout_t *l = _bound("gpu:2", "@0-3;@4-7");
	bitmap_t *used = bitmap_create(16), *all = bitmap_create(1);
	select_node_t n = { .cpus = 16, .real_memory = 1000, .weight = 1,
			    .threads = 2, .cpu_used = used, .gpus = 2,
			    .gres = l };
	select_req_t r = _req(4);
	select_result_t res;
	char *s;

	(void) st;
	bitmap_set_all(all);
	r.gpus_per_node = 1;
	/* socket 0 partly used: GPU 1 (socket 1) has more free cores */
	bitmap_set_range(used, 0, 1);
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_int_equal(res.gpus[0], 0x2);
	s = bitmap_to_str(res.cpu_ids[0]);
	assert_string_equal(s, "8-11");
	xfree(s);
	select_result_free(&res);
	/* 10 CPUs on one GPU's 8: never, with or without load */
	r.num_tasks = 10;
	assert_int_equal(select_job_test(&n, 1, all, &r, true, &res),
			 SELECT_NEVER);
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res),
			 SELECT_BUSY);
	/* two GPUs bind all 16 CPUs: 10 fit on an empty node */
	r.gpus_per_node = 2;
	assert_int_equal(select_job_test(&n, 1, all, &r, true, &res), 0);
	select_result_free(&res);
	/* without the flag, one GPU and 10 CPUs fit (14 free) */
	r.gpus_per_node = 1;
	r.gres_bind = false;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	select_result_free(&res);
	/* socket 1 full: a bound 4-CPU job takes GPU 0 and socket 0's
	 * free cores, not a CPU of socket 1 */
	r.gres_bind = true;
	r.num_tasks = 4;
	bitmap_set_range(used, 8, 15);
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_int_equal(res.gpus[0], 0x1);
	s = bitmap_to_str(res.cpu_ids[0]);
	assert_string_equal(s, "2-5");
	xfree(s);
	select_result_free(&res);
	/* 8 CPUs wanted: socket 0 has 6 free, socket 1 none: busy */
	r.num_tasks = 8;
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res),
			 SELECT_BUSY);
	bitmap_destroy(used);
	bitmap_destroy(all);
	gres_layout_free(l);
}

/* --gpus-per-task with binding: each task's GPU brings its cores. */
static void test_bind_per_task(void **st)
{
	gres_layout_t *l = _bound("gpu:4", "@0-1;@2-3;@4-5;@6-7");
	bitmap_t *used = bitmap_create(16), *all = bitmap_create(1);
	select_node_t n = { .cpus = 16, .real_memory = 1000, .weight = 1,
			    .threads = 2, .cpu_used = used, .gpus = 4,
			    .gres = l };
	select_req_t r = _req(2);
	select_result_t res;

	(void) st;
	bitmap_set_all(all);
	r.gpus_per_task = 1;
	r.cpus_per_task = 4;          /* 2 cores = one GPU's */
	assert_int_equal(select_job_test(&n, 1, all, &r, false, &res), 0);
	assert_int_equal(__builtin_popcountll(res.gpus[0]), 2);
	assert_int_equal(bitmap_count(res.cpu_ids[0]), 8);
	select_result_free(&res);
	r.cpus_per_task = 6;          /* 3 cores a task: 2 GPUs bind 4 */
	assert_int_equal(select_job_test(&n, 1, all, &r, true, &res),
			 SELECT_NEVER);
	bitmap_destroy(used);
	bitmap_destroy(all);
	gres_layout_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_cores_bad),
		cmocka_unit_test(test_conf_cores_msg),
		cmocka_unit_test(test_bind_set_show),
		cmocka_unit_test(test_enforce_binding),
		cmocka_unit_test(test_bind_per_task),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
