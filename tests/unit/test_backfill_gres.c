/* test_backfill_gres.c — sched/backfill with typed GPUs over real node,
 * partition and job tables, without daemons (a world of its own: the
 * cluster's size is in test_backfill.c's priorities). */
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

static char dir[] = "/tmp/test_backfill_gres.XXXXXX";

static int setup(void **st)
{
	(void) st;
	return world_up(dir,
		"GresTypes=gpu\n"
		"NodeName=t1 NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000 "
		"Gres=gpu:a100:2,gpu:h100:2\n"
		"PartitionName=typed Nodes=t1 Default=YES MaxTime=600\n"
		"SchedulerParameters=bf_resolution=60,bf_window=240\n", true);
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

static uint32_t state(uint32_t id)
{
	return J(id)->info.job_state;
}

static uint32_t reason(uint32_t id)
{
	return J(id)->info.state_reason;
}

static void end_job(uint32_t id)
{
	job_record_t *j = J(id);
	long i;

	job_mgr_end(j, JOB_COMPLETE, WAIT_NO_REASON, 0);
	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1))
		job_mgr_node_done(j, node_mgr_at(i));
}

static uint32_t submit_gres(const char *part, const char *gres,
			    uint32_t minutes)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.partition = xstrdup(part);
	d.num_tasks = 1;
	d.min_nodes = 1;
	d.time_limit = minutes;
	d.gres = xstrdup(gres);
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	return job_mgr_find(id) ? id : 0;
}

/* Typed GPUs in the plan (t1: 4 CPUs, a100 0-1, h100 2-3).  h holds both
 * h100s for 10 min, a one a100 for 60.  A 2-a100 job plans for a's end,
 * not for +10 when two h100s free up; a lower 30-minute a100 job ends
 * before then and starts on the free a100, a 90-minute one would delay
 * it and waits; an h100 job waits only for h's end.  The plan holds
 * when the jobs end on time. */
static void test_backfill_typed_gpus(void **st)
{
	uint32_t h, a, big, a90, a30, h5;
	time_t now = time(NULL);

	h = submit_gres("typed", "gres/gpu:h100:2", 10);
	a = submit_gres("typed", "gres/gpu:a100:1", 60);
	assert_int_equal(sched_run(), 2);
	big = submit_gres("typed", "gres/gpu:a100:2", 10);
	a90 = submit_gres("typed", "gres/gpu:a100:1", 90);
	a30 = submit_gres("typed", "gres/gpu:a100:1", 30);
	h5 = submit_gres("typed", "gres/gpu:h100:1", 5);
	assert_true(big && a90 && a30 && h5);
	assert_int_equal(sched_run(), 0);
	assert_int_equal(reason(big), WAIT_RESOURCES);
	assert_int_equal(backfill_run(), 1);
	assert_int_equal(state(a30), JOB_RUNNING);
	assert_int_equal(state(a90), JOB_PENDING);
	assert_int_equal(state(big), JOB_PENDING);
	/* planned on the a100 that a frees, not on the h100s h frees */
	assert_true(J(big)->info.start_time >= J(a)->info.end_time);
	assert_true(J(big)->info.start_time <= J(a)->info.end_time + 60);
	assert_true(J(big)->info.start_time >= now + 59 * 60);
	assert_true(J(a90)->info.start_time >= J(big)->info.start_time + 600);
	/* the h100 job waits only for h */
	assert_true(J(h5)->info.start_time <= J(h)->info.end_time + 60);
	end_job(h);
	assert_int_equal(sched_run(), 0);
	assert_int_equal(backfill_run(), 1);
	assert_int_equal(state(h5), JOB_RUNNING);
	assert_int_equal(state(a90), JOB_PENDING);
	/* a and the a100 backfill end on time: the 2-a100 job goes first */
	end_job(a);
	end_job(a30);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(big), JOB_RUNNING);
	assert_int_equal(state(a90), JOB_PENDING);
	end_job(big);
	end_job(h5);
	assert_int_equal(sched_run(), 1);
	end_job(a90);
}

/* The old plan kept the highest free GPU indexes for a reservation: with
 * an a100 reserved, a lower a100 job could take it as long as an h100
 * stood in for it.  a holds a100 0 for 10 min; big (2 a100) plans for
 * then; a 30-minute a100 job must not take a100 1 now. */
static void test_backfill_typed_keeps_type(void **st)
{
	uint32_t a, big, a30, h30;

	a = submit_gres("typed", "gres/gpu:a100:1", 10);
	assert_int_equal(sched_run(), 1);
	big = submit_gres("typed", "gres/gpu:a100:2", 10);
	a30 = submit_gres("typed", "gres/gpu:a100:1", 30);
	h30 = submit_gres("typed", "gres/gpu:h100:1", 30);
	assert_int_equal(sched_run(), 0);
	assert_int_equal(backfill_run(), 1);
	assert_int_equal(state(h30), JOB_RUNNING);
	assert_int_equal(state(a30), JOB_PENDING);
	assert_true(J(big)->info.start_time <= J(a)->info.end_time + 60);
	end_job(a);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(big), JOB_RUNNING);
	end_job(big);
	end_job(h30);
	assert_int_equal(sched_run(), 1);
	end_job(a30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backfill_typed_gpus),
		cmocka_unit_test(test_backfill_typed_keeps_type),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
