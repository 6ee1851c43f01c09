/* test_gang_world.c — OverSubscribe=FORCE:2 and PreemptMode=GANG over the
 * controller's real node, partition and job tables (ctld_world.h): two
 * jobs share a node's CPUs, a third waits, a partition that does not
 * share sees the CPUs busy, the gang's slices suspend and resume them
 * with their CPUs kept, and a job's end leaves the other's CPUs held. */
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

static char dir[] = "/tmp/test_gang_world.XXXXXX";

static int setup(void **st)
{
	(void) st;
	return world_up(dir,
			"PreemptMode=GANG\nSchedulerTimeSlice=10\n"
			"NodeName=n1 NodeAddr=127.0.0.1 CPUs=2 "
			"RealMemory=1000\n"
			"PartitionName=force Nodes=n1 OverSubscribe=FORCE:2 "
			"Default=YES\n"
			"PartitionName=plain Nodes=n1\n", false);
}

static int teardown(void **st)
{
	(void) st;
	return world_down(dir);
}

static uint32_t submit(const char *part, uint32_t tasks)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.partition = xstrdup(part);
	d.num_tasks = tasks;
	d.time_limit = 10;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	return job_mgr_find(id) ? id : 0;
}

static uint32_t base(uint32_t id)
{
	return job_mgr_find(id)->info.job_state & JOB_STATE_BASE;
}

static void test_share_and_slices(void **st)
{
	uint32_t a, b, c, p;
	node_record_t *n = node_mgr_find("n1");
	time_t now = time(NULL);

	(void) st;
	assert_true(gang_enabled());
	a = submit("force", 2);
	b = submit("force", 2);
	c = submit("force", 2);
	p = submit("plain", 1);
	assert_true(a && b && c && p);
	sched_run();
	/* two jobs per CPU: a and b run on the same CPUs, c and p wait */
	assert_int_equal(base(a), JOB_RUNNING);
	assert_int_equal(base(b), JOB_RUNNING);
	assert_int_equal(base(c), JOB_PENDING);
	assert_int_equal(job_mgr_find(c)->info.state_reason, WAIT_RESOURCES);
	assert_int_equal(base(p), JOB_PENDING);
	assert_true(job_mgr_find(a)->share && job_mgr_find(b)->share);
	assert_int_equal(n->info.alloc_cpus, 2);   /* not 4 */
	assert_int_equal(n->cpu_share[0], 2);
	/* launches on their way: both run until confirmed */
	gang_tick(now);
	assert_int_equal(base(b), JOB_RUNNING);
	job_mgr_find(a)->launch_ok = job_mgr_find(b)->launch_ok = true;
	/* the new job waits for the next slice, keeping its CPUs */
	gang_tick(now + 1);
	assert_int_equal(base(a), JOB_RUNNING);
	assert_int_equal(base(b), JOB_SUSPENDED);
	assert_true(job_mgr_find(b)->gang_susp);
	assert_int_equal(n->cpu_share[0], 2);
	assert_int_equal(bitmap_count(n->cpu_used), 2);
	/* a slice later they swap, and back */
	gang_tick(now + 11);
	assert_int_equal(base(a), JOB_SUSPENDED);
	assert_int_equal(base(b), JOB_RUNNING);
	gang_tick(now + 21);
	assert_int_equal(base(a), JOB_RUNNING);
	assert_int_equal(base(b), JOB_SUSPENDED);
	job_mgr_end(job_mgr_find(a), JOB_COMPLETE, WAIT_NO_REASON, 0);
	job_mgr_node_done(job_mgr_find(a), n);
	/* a ended: b's CPUs stay held by b, and c may share them */
	assert_int_equal(n->cpu_share[0], 1);
	assert_int_equal(bitmap_count(n->cpu_used), 2);
	gang_tick(now + 22);
	assert_int_equal(base(b), JOB_RUNNING);   /* at once, no slice */
	sched_run();
	assert_int_equal(base(c), JOB_RUNNING);
	assert_int_equal(base(p), JOB_PENDING);
	job_mgr_find(c)->launch_ok = true;
	gang_tick(now + 23);
	assert_int_equal(base(b), JOB_RUNNING);
	assert_int_equal(base(c), JOB_SUSPENDED);
	/* all ended: the node is free for a job that does not share */
	job_mgr_end(job_mgr_find(b), JOB_COMPLETE, WAIT_NO_REASON, 0);
	job_mgr_node_done(job_mgr_find(b), n);
	job_mgr_end(job_mgr_find(c), JOB_COMPLETE, WAIT_NO_REASON, 0);
	job_mgr_node_done(job_mgr_find(c), n);
	assert_int_equal(n->cpu_share[0], 0);
	assert_int_equal(bitmap_count(n->cpu_used), 0);
	assert_int_equal(n->info.alloc_cpus, 0);
	sched_run();
	assert_int_equal(base(p), JOB_RUNNING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_share_and_slices, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
