/* test_job_inactive.c — InactiveLimit (ctld/job_inactive.c) and
 * BatchStartTimeout (job_mgr_launch_check) over the controller's real
 * job tables (ctld_world.h), with the clock given to the ticks. */
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

#define LIMIT 6
#define BST   3
#define MSGT  2

static char dir[] = "/tmp/test_job_inactive.XXXXXX";

#define STR_(x) #x
#define STR(x)  STR_(x)

static int setup(void **st)
{
	(void) st;
	return world_up(dir,
			"InactiveLimit=" STR(LIMIT) "\n"
			"BatchStartTimeout=" STR(BST) "\n"
			"MessageTimeout=" STR(MSGT) "\n"
			"NodeName=n[1-4] NodeAddr=127.0.0.1 CPUs=2 "
			"RealMemory=1000\n"
			"PartitionName=debug Nodes=ALL Default=YES MaxTime=60\n"
			"PartitionName=root Nodes=ALL RootOnly=YES\n", false);
}

static int teardown(void **st)
{
	(void) st;
	return world_down(dir);
}

/* A running job: an srun/salloc allocation (heartbeat) or a batch job. */
static job_record_t *run_job(const char *part, bool heartbeat, bool batch,
			     uint16_t requeue)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();
	job_record_t *j;

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.partition = xstrdup(part);
	d.num_tasks = 1;
	d.requeue = requeue;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	sched_run();
	j = job_mgr_find(id);
	assert_non_null(j);
	assert_int_equal(j->info.job_state, JOB_RUNNING);
	/* as an allocation's record is (the submit path is the same) */
	j->info.batch_flag = batch;
	if (heartbeat)
		j->info.bitflags |= JOB_ALLOC_HEARTBEAT;
	return j;
}

static void heartbeat(job_record_t *j, uint32_t uid)
{
	alloc_heartbeat_msg_t h = { .job_id = j->info.job_id };
	slurm_msg_t m = { .type = REQUEST_ALLOC_HEARTBEAT, .data = &h,
			  .auth_uid = uid, .peer = "test" };

	job_inactive_rpc_heartbeat(NULL, &m);
}

/* ---- InactiveLimit ---- */

static void test_quiet_allocation_times_out(void **st)
{
	job_record_t *j = run_job(NULL, true, false, 0);
	/* from its start (the clock may have ticked while it started) */
	time_t now = j->info.start_time;

	job_inactive_tick(now);                 /* grace from now */
	job_inactive_tick(now + LIMIT - 1);
	assert_int_equal(j->info.job_state, JOB_RUNNING);
	job_inactive_tick(now + LIMIT);
	assert_int_equal(j->info.job_state & JOB_STATE_BASE, JOB_TIMEOUT);
	assert_int_equal(j->info.state_reason, FAIL_INACTIVE_LIMIT);
}

static void test_heartbeat_keeps_it(void **st)
{
	time_t now = time(NULL);
	job_record_t *j = run_job(NULL, true, false, 0);

	heartbeat(j, j->info.user_id);
	assert_true(j->alloc_active >= now);
	job_inactive_tick(j->alloc_active + LIMIT - 1);
	assert_int_equal(j->info.job_state, JOB_RUNNING);
	/* another user's heartbeat counts for nothing */
	j->alloc_active = now - 100;
	j->info.start_time = now - 100;
	heartbeat(j, j->info.user_id + 4242);
	assert_int_equal(j->alloc_active, now - 100);
	job_inactive_tick(now + LIMIT + 1);
	assert_int_equal(j->info.job_state & JOB_STATE_BASE, JOB_TIMEOUT);
}

static void test_exempt_jobs(void **st)
{
	time_t now = time(NULL);
	job_record_t *batch = run_job(NULL, false, true, 0);
	job_record_t *rest = run_job(NULL, false, false, 0);
	job_record_t *root = run_job("root", true, false, 0);

	job_inactive_tick(now + 10 * LIMIT);
	assert_int_equal(batch->info.job_state, JOB_RUNNING);
	assert_int_equal(rest->info.job_state, JOB_RUNNING);
	assert_int_equal(root->info.job_state, JOB_RUNNING);
	job_mgr_end(batch, JOB_CANCELLED, WAIT_NO_REASON, 0);
	job_mgr_end(rest, JOB_CANCELLED, WAIT_NO_REASON, 0);
	job_mgr_end(root, JOB_CANCELLED, WAIT_NO_REASON, 0);
}

/* ---- BatchStartTimeout ---- */

static void test_unconfirmed_launch_is_lost(void **st)
{
	time_t now = time(NULL);
	job_record_t *rq = run_job(NULL, false, true, 1);
	job_record_t *nrq = run_job(NULL, false, true, 0);
	job_record_t *ok = run_job(NULL, false, true, 1);

	rq->launch_tries = nrq->launch_tries = ok->launch_tries = 1;
	rq->launch_sent = nrq->launch_sent = ok->launch_sent = now;
	rq->launch_ok = nrq->launch_ok = false;
	ok->launch_ok = true;
	job_mgr_launch_check(now + BST + MSGT - 1);
	assert_int_equal(rq->info.job_state, JOB_RUNNING);
	assert_int_equal(nrq->info.job_state, JOB_RUNNING);
	job_mgr_launch_check(now + BST + MSGT);
	assert_int_equal(rq->info.restart_cnt, 1);
	assert_int_not_equal(rq->info.job_state & JOB_STATE_BASE, JOB_RUNNING);
	assert_int_equal(nrq->info.job_state & JOB_STATE_BASE, JOB_NODE_FAIL);
	assert_int_equal(nrq->info.state_reason, FAIL_LAUNCH);
	assert_int_equal(ok->info.job_state, JOB_RUNNING);
	assert_int_equal(ok->info.restart_cnt, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_allocation_times_out),
		cmocka_unit_test(test_heartbeat_keeps_it),
		cmocka_unit_test(test_exempt_jobs),
		cmocka_unit_test(test_unconfirmed_launch_is_lost),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
