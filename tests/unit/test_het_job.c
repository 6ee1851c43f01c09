/* test_het_job.c — heterogeneous jobs in the scheduler over real node,
 * partition and job tables (stubs as in test_sched.c): a submit makes
 * every component or none, the main scheduler and backfill start every
 * component together or none, backfill plans the job as one and never
 * delays it for a lower-priority job, the leader's end ends all, a
 * requeue (asked, or a node failure under any component) is of all. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "ctld_world.h"

static char dir[] = "/tmp/test_het_job.XXXXXX";

static int setup(void **st)
{
	(void) st;
	return world_up(dir,
		"NodeName=n[1-2] NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000\n"
		"PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=240\n"
		"SchedulerParameters=bf_resolution=60,bf_window=480\n", true);
}

static int teardown(void **st)
{
	(void) st;
	return world_down(dir);
}

static job_record_t *J(uint32_t id)
{
	return job_mgr_find(id);
}

static uint32_t submit(uint32_t tasks, uint32_t nodes, uint32_t minutes)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.num_tasks = tasks;
	d.min_nodes = nodes;
	d.time_limit = minutes;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	return J(id) ? id : 0;
}

/* Two components: tasks/nodes each, component 1 in part1 (NULL: the
 * default).  The leader's id, or 0 if refused. */
static uint32_t het_submit(uint32_t t0, uint32_t n0, uint32_t t1,
			   uint32_t n1, const char *part1, uint32_t minutes)
{
	job_desc_t d[2];
	het_job_desc_msg_t h = { .cnt = 2, .desc = d };
	slurm_msg_t m = { .auth_uid = 0, .data = &h };
	uint32_t id = job_mgr_next_id();

	for (int i = 0; i < 2; i++) {
		job_desc_init(&d[i]);
		d[i].script = xstrdup("#!/bin/sh\ntrue\n");
		d[i].time_limit = minutes;
	}
	d[0].num_tasks = t0;
	d[0].min_nodes = n0;
	d[1].num_tasks = t1;
	d[1].min_nodes = n1;
	d[1].partition = part1 ? xstrdup(part1) : NULL;
	het_job_rpc_submit(NULL, &m);
	for (int i = 0; i < 2; i++)
		job_desc_free_members(&d[i]);
	return J(id) ? id : 0;
}

static uint32_t base(uint32_t id)
{
	return J(id)->info.job_state & JOB_STATE_BASE;
}

static void end_job(uint32_t id)
{
	job_record_t *j = J(id);
	long i;

	if (base(id) == JOB_RUNNING)
		job_mgr_end(j, JOB_COMPLETE, WAIT_NO_REASON, 0);
	for (i = j->node_bitmap ? bitmap_first_set(j->node_bitmap) : -1;
	     i >= 0; i = bitmap_next_set(j->node_bitmap, i + 1))
		job_mgr_node_done(j, node_mgr_at(i));
}

static void end_all(void)
{
	job_record_t *j;

	while ((j = job_mgr_running_first()))
		end_job(j->info.job_id);
	for (j = job_mgr_pending_first(); j; j = job_mgr_pending_first())
		job_mgr_end(j, JOB_CANCELLED, WAIT_NO_REASON, 0);
}

/* ---- tests ---- */

static void test_submit_all_or_none(void **st)
{
	uint32_t next = job_mgr_next_id(), lead;
	job_record_t *c0, *c1;

	(void) st;
	/* component 1 names no partition there is: nothing is made */
	assert_int_equal(het_submit(1, 1, 1, 1, "nosuch", 10), 0);
	assert_null(J(next));
	assert_null(J(next + 1));
	lead = het_submit(1, 1, 2, 1, NULL, 10);
	assert_int_not_equal(lead, 0);
	c0 = J(lead);
	c1 = J(lead + 1);
	assert_non_null(c1);
	assert_int_equal(c0->info.het_job_id, lead);
	assert_int_equal(c1->info.het_job_id, lead);
	assert_int_equal(c0->info.het_job_offset, 0);
	assert_int_equal(c1->info.het_job_offset, 1);
	assert_string_equal(c1->info.het_job_id_set,
			    c0->info.het_job_id_set);
	assert_true(c0->info.batch_flag);     /* the script runs there */
	assert_false(c1->info.batch_flag);
	{
		char id[32];

		snprintf(id, sizeof(id), "%u+1", lead);
		assert_ptr_equal(het_job_find_str(id), c1);
		snprintf(id, sizeof(id), "%u+2", lead);
		assert_null(het_job_find_str(id));
	}
	end_all();
}

static void test_costart_both_or_none(void **st)
{
	uint32_t block, lead;

	(void) st;
	block = submit(2, 1, 60);               /* n1, whole */
	lead = het_submit(1, 1, 2, 1, NULL, 60);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(base(block), JOB_RUNNING);
	/* component 0 fits on n2, component 1 (2 CPUs on one node) does not
	 * beside it: neither starts, nothing is held */
	assert_int_equal(base(lead), JOB_PENDING);
	assert_int_equal(base(lead + 1), JOB_PENDING);
	assert_int_equal(J(lead)->info.state_reason, WAIT_RESOURCES);
	assert_int_equal(J(lead + 1)->info.state_reason, WAIT_RESOURCES);
	assert_int_equal(node_mgr_find("n2")->info.alloc_cpus, 0);
	/* nor does backfill start a part of it */
	backfill_run();
	assert_int_equal(base(lead), JOB_PENDING);
	assert_int_equal(base(lead + 1), JOB_PENDING);
	assert_int_equal(node_mgr_find("n2")->info.alloc_cpus, 0);
	/* planned as one: the same start for both */
	assert_true(J(lead)->info.start_time > time(NULL));
	assert_int_equal(J(lead)->info.start_time,
			 J(lead + 1)->info.start_time);
	end_job(block);
	assert_int_equal(sched_run(), 1);     /* one job, two components */
	assert_int_equal(base(lead), JOB_RUNNING);
	assert_int_equal(base(lead + 1), JOB_RUNNING);
	assert_int_equal(J(lead)->info.start_time,
			 J(lead + 1)->info.start_time);
	assert_int_equal(node_mgr_find("n1")->info.alloc_cpus +
			 node_mgr_find("n2")->info.alloc_cpus, 3);
	/* the leader's end ends component 1 too */
	end_job(lead);
	assert_int_equal(base(lead + 1), JOB_COMPLETE);
	end_job(lead + 1);
	assert_int_equal(node_mgr_find("n1")->info.alloc_cpus, 0);
	assert_int_equal(node_mgr_find("n2")->info.alloc_cpus, 0);
	end_all();
}

/* Two components on one node take different CPUs. */
static void test_costart_same_node(void **st)
{
	uint32_t lead;
	job_record_t *c0, *c1;

	(void) st;
	lead = het_submit(1, 1, 1, 1, NULL, 10);
	sched_run();
	assert_int_equal(base(lead), JOB_RUNNING);
	assert_int_equal(base(lead + 1), JOB_RUNNING);
	c0 = J(lead);
	c1 = J(lead + 1);
	assert_string_equal(c0->info.nodes, c1->info.nodes);
	assert_int_equal(node_mgr_find(c0->info.nodes)->info.alloc_cpus, 2);
	if (c0->node_cpu_ids && c0->node_cpu_ids[0] && c1->node_cpu_ids &&
	    c1->node_cpu_ids[0])
		assert_false(bitmap_overlaps(c0->node_cpu_ids[0],
					     c1->node_cpu_ids[0]));
	end_all();
}

/* A pending component is cancelled only with its leader; the leader's
 * cancel takes every component. */
static void test_cancel_rules(void **st)
{
	uint32_t block, lead;

	(void) st;
	block = submit(4, 2, 60);
	lead = het_submit(1, 1, 1, 1, NULL, 10);
	sched_run();
	assert_int_equal(base(block), JOB_RUNNING);
	assert_int_equal(het_job_cancel_check(J(lead + 1)),
			 ESLURM_NOT_WHOLE_HET_JOB);
	assert_int_equal(het_job_cancel_check(J(lead)), 0);
	job_mgr_end(J(lead), JOB_CANCELLED, WAIT_NO_REASON, 0);
	assert_int_equal(base(lead + 1), JOB_CANCELLED);
	assert_null(het_job_find_str("999+0"));
	end_all();
}

/* The nodes confirm the job is gone (a requeue's or an end's). */
static void nodes_done(uint32_t id)
{
	job_record_t *j = J(id);
	long idx[8], n = 0, i;

	/* the last one frees the bitmap (pending again) */
	for (i = j->node_bitmap ? bitmap_first_set(j->node_bitmap) : -1;
	     i >= 0 && n < 8; i = bitmap_next_set(j->node_bitmap, i + 1))
		idx[n++] = i;
	for (i = 0; i < n; i++)
		job_mgr_node_done(j, node_mgr_at(idx[i]));
}

/* A requeue is of the whole het job: refused for another component,
 * the leader's takes every component back to pending. */
static void test_requeue_whole(void **st)
{
	uint32_t lead;

	(void) st;
	lead = het_submit(1, 1, 1, 1, NULL, 10);
	sched_run();
	assert_int_equal(base(lead), JOB_RUNNING);
	assert_int_equal(base(lead + 1), JOB_RUNNING);
	assert_int_equal(het_job_requeue_check(J(lead + 1)),
			 ESLURM_NOT_HET_JOB_LEADER);
	assert_int_equal(het_job_requeue_check(J(lead)), 0);
	assert_ptr_equal(het_job_leader(J(lead + 1)), J(lead));
	assert_ptr_equal(het_job_leader(J(lead)), J(lead));
	job_mgr_requeue_auto(J(lead));
	assert_true(J(lead + 1)->info.job_state & JOB_REQUEUE);
	nodes_done(lead);
	nodes_done(lead + 1);
	assert_int_equal(J(lead)->info.job_state, JOB_PENDING);
	assert_int_equal(J(lead + 1)->info.job_state, JOB_PENDING);
	assert_int_equal(J(lead)->info.restart_cnt, 1);
	assert_int_equal(J(lead + 1)->info.restart_cnt, 1);
	assert_int_equal(node_mgr_find("n1")->info.alloc_cpus +
			 node_mgr_find("n2")->info.alloc_cpus, 0);
	end_all();
}

/* A failed node under component 1 alone: the whole het job is requeued
 * when the leader may be, else it ends NODE_FAIL. */
static void test_node_fail_of_component(void **st)
{
	for (int requeue = 1; requeue >= 0; requeue--) {
		uint32_t lead;
		node_record_t *n;

		(void) st;
		lead = het_submit(2, 1, 2, 1, NULL, 10);   /* a node each */
		sched_run();
		assert_int_equal(base(lead + 1), JOB_RUNNING);
		assert_string_not_equal(J(lead)->info.nodes,
					J(lead + 1)->info.nodes);
		J(lead)->info.requeue = requeue;
		n = node_mgr_find(J(lead + 1)->info.nodes);
		job_mgr_node_fail(n);
		nodes_done(lead);
		nodes_done(lead + 1);
		if (requeue) {
			assert_int_equal(base(lead), JOB_PENDING);
			assert_int_equal(base(lead + 1), JOB_PENDING);
			assert_int_equal(J(lead + 1)->info.restart_cnt, 1);
		} else {
			assert_int_equal(base(lead), JOB_NODE_FAIL);
			assert_int_equal(base(lead + 1), JOB_NODE_FAIL);
		}
		end_all();
	}
}

/* Backfill: a higher-priority hetjob needing both nodes waits for the
 * running job; a lower-priority job that would run past that start is
 * not started (it would delay the hetjob), a shorter one is. */
static void test_backfill_never_delays_hetjob(void **st)
{
	uint32_t block, lead, longer, shorter;
	time_t planned;

	(void) st;
	block = submit(2, 1, 60);                /* n1 for an hour */
	lead = het_submit(2, 1, 2, 1, NULL, 60); /* both nodes whole */
	longer = submit(2, 1, 120);
	shorter = submit(2, 1, 30);
	sched_run();
	assert_int_equal(base(block), JOB_RUNNING);
	assert_int_equal(base(lead), JOB_PENDING);
	backfill_run();
	assert_int_equal(base(lead), JOB_PENDING);
	assert_int_equal(base(lead + 1), JOB_PENDING);
	planned = J(lead)->info.start_time;
	assert_true(planned >= J(block)->info.end_time - 60);
	assert_int_equal(J(lead + 1)->info.start_time, planned);
	assert_int_equal(base(longer), JOB_PENDING);
	assert_int_equal(base(shorter), JOB_RUNNING);
	assert_string_equal(J(shorter)->info.nodes, "n2");
	assert_true(J(shorter)->info.end_time <= planned);
	/* the planned start stays where it was */
	backfill_run();
	assert_int_equal(J(lead)->info.start_time, planned);
	assert_int_equal(base(longer), JOB_PENDING);
	end_all();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_submit_all_or_none),
		cmocka_unit_test(test_costart_both_or_none),
		cmocka_unit_test(test_costart_same_node),
		cmocka_unit_test(test_cancel_rules),
		cmocka_unit_test(test_backfill_never_delays_hetjob),
		cmocka_unit_test(test_requeue_whole),
		cmocka_unit_test(test_node_fail_of_component),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
