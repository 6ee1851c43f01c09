/* test_resv_mgr.c — reservations in the controller over real node,
 * partition and job tables (ctld_world.h): create/update/delete checks,
 * reserved nodes kept from other jobs in the main scheduler and in
 * backfill, jobs in a reservation, the end of an occurrence (jobs
 * TIMEOUT, recurring ones move on, pending jobs held), node flags, and
 * the saved table read back. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ctld_world.h"

static char dir[] = "/tmp/test_resv_mgr.XXXXXX";

static int setup(void **st)
{
	(void) st;
	return world_up(dir, 
			"NodeName=n[1-2] NodeAddr=127.0.0.1 CPUs=2 "
			"RealMemory=1000\n"
			"PartitionName=debug Nodes=n[1-2] Default=YES "
			"MaxTime=600\n"
			"SchedulerParameters=bf_resolution=60,bf_window=600\n", true);
}

static int teardown(void **st)
{
	(void) st;
	return world_down(dir);
}

/* ---- helpers ---- */

static resv_desc_t desc(const char *name, time_t start, uint32_t minutes,
			const char *nodes, const char *users, uint64_t flags)
{
	resv_desc_t d;

	resv_desc_init(&d);
	d.name = xstrdup(name);
	d.start_time = start;
	d.duration = minutes;
	d.node_list = nodes ? xstrdup(nodes) : NULL;
	d.users = users ? xstrdup(users) : NULL;
	d.flags = flags;
	return d;
}

/* Create as root (uid 0); true if it is in the table afterwards. */
static bool create(resv_desc_t d)
{
	slurm_msg_t m = { .auth_uid = 0, .data = &d };
	size_t before = resv_mgr_count();

	resv_mgr_rpc_create(NULL, &m);
	fields_free(resv_desc_fields, &d);
	return resv_mgr_count() == before + 1;
}

static void delete(const char *name)
{
	resv_name_msg_t n = { .name = (char *) name };
	slurm_msg_t m = { .auth_uid = 0, .data = &n };

	resv_mgr_rpc_delete(NULL, &m);
}

/* Update a reservation's nodes as root: 0, or 1 if refused (the
 * node list did not change). */
static int update(const char *name, const char *nodes)
{
	resv_desc_t d;
	slurm_msg_t m = { .auth_uid = 0, .data = &d };
	char *before = xstrdup(resv_find(name)->info.node_list);
	int rc;

	resv_desc_init(&d);
	d.name = xstrdup(name);
	d.node_list = xstrdup(nodes);
	resv_mgr_rpc_update(NULL, &m);
	rc = strcmp(resv_find(name)->info.node_list, nodes) ? 1 : 0;
	if (rc)
		assert_string_equal(resv_find(name)->info.node_list, before);
	xfree(before);
	fields_free(resv_desc_fields, &d);
	return rc;
}

static uint32_t submit(uint32_t tasks, uint32_t minutes, const char *resv)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.num_tasks = tasks;
	d.min_nodes = 1;
	d.time_limit = minutes;
	d.reservation = resv ? xstrdup(resv) : NULL;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	return job_mgr_find(id) ? id : 0;
}

static job_record_t *J(uint32_t id)
{
	return job_mgr_find(id);
}

static void end_job(uint32_t id)
{
	job_record_t *j = J(id);

	if ((j->info.job_state & JOB_STATE_BASE) == JOB_RUNNING)
		job_mgr_end(j, JOB_COMPLETE, WAIT_NO_REASON, 0);
	for (long i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1))
		job_mgr_node_done(j, node_mgr_at(i));
}

/* ---- tests ---- */

static void test_refusals_change_nothing(void **st)
{
	time_t now = time(NULL);

	assert_false(create(desc("x", now, 60, "n9", "root", 0)));
	assert_false(create(desc("x", now, 60, "n1", "no_such_user_x", 0)));
	assert_false(create(desc("x", now, 60, "n1", NULL, 0)));     /* nobody */
	assert_false(create(desc("x", now - 3600, 60, "n1", "root", 0)));
	assert_false(create(desc("x", now, 0, "n1", "root", 0)));
	assert_false(create(desc("x", now, 60, NULL, "root", 0)));   /* no nodes */
	assert_true(create(desc("a", now, 60, "n1", "root", 0)));
	assert_false(create(desc("a", now, 60, "n2", "root", 0)));   /* dup */
	/* n1 is taken then (neither MAINT nor OVERLAP) */
	assert_false(create(desc("b", now + 600, 60, "n[1-2]", "root", 0)));
	assert_true(create(desc("b", now + 600, 60, "n[1-2]", "root",
				RESV_OVERLAP)));
	assert_int_equal(resv_mgr_count(), 2);
	/* SPEC_NODES comes with Nodes= */
	assert_true(resv_find("a")->info.flags & RESV_SPEC_NODES);
	assert_string_equal(resv_find("a")->info.tres_str, "cpu=2");
	delete("a");
	delete("b");
	delete("b");
	assert_int_equal(resv_mgr_count(), 0);
}

static void test_node_count_picks_free_nodes(void **st)
{
	time_t now = time(NULL);
	resv_desc_t d = desc("c", now, 60, NULL, "root", 0);
	uint32_t busy = submit(2, 600, NULL);

	assert_int_equal(sched_run(), 1);
	d.node_cnt = 1;
	assert_true(create(d));
	/* the other node: the busy one runs past the start */
	assert_false(bitmap_test(resv_nodes(resv_find("c")),
				 J(busy)->node_bitmap ?
				 (size_t) bitmap_first_set(J(busy)->node_bitmap) :
				 0));
	assert_string_equal(resv_find("c")->info.partition, "debug");
	d = desc("d", now, 60, NULL, "root", 0);
	d.node_cnt = 1;
	assert_false(create(d));        /* nothing free is left */
	delete("c");
	end_job(busy);
}

static void test_maint_keeps_jobs_off_and_admits_members(void **st)
{
	time_t now = time(NULL);
	uint32_t other, mine;
	job_record_t *j;

	assert_true(create(desc("m", now, 60, "n1", "root", RESV_MAINT)));
	assert_int_equal(resv_mgr_node_flags(0, now),
			 NODE_STATE_RES | NODE_STATE_MAINT);
	assert_int_equal(resv_mgr_node_flags(1, now), 0);
	/* two 2-CPU jobs: only n2 is free for them */
	other = submit(2, 10, NULL);
	assert_int_not_equal(submit(2, 10, NULL), 0);
	assert_int_equal(sched_run(), 1);
	j = J(other);
	assert_int_equal(j->info.job_state, JOB_RUNNING);
	assert_string_equal(j->info.nodes, "n2");
	j = J(other + 1);
	assert_int_equal(j->info.job_state, JOB_PENDING);
	assert_int_equal(j->info.state_reason, WAIT_NODE_NOT_AVAIL);
	assert_string_equal(j->info.state_desc,
			    "ReqNodeNotAvail, May be reserved for other job");
	/* a job in the reservation gets n1; an unknown one is refused */
	mine = submit(2, 10, "m");
	assert_int_not_equal(mine, 0);
	assert_int_equal(submit(1, 10, "nope"), 0);
	assert_int_equal(sched_run(), 1);
	assert_string_equal(J(mine)->info.nodes, "n1");
	/* busy: not deleted */
	delete("m");
	assert_non_null(resv_find("m"));
	/* the occurrence ends: its job ends TIMEOUT, the reservation goes */
	resv_find("m")->info.end_time = now - 1;
	resv_mgr_tick(now);
	assert_null(resv_find("m"));
	assert_int_equal(J(mine)->info.job_state & JOB_STATE_BASE,
			 JOB_TIMEOUT);
	end_job(mine);
	end_job(other);
	assert_int_equal(sched_run(), 1);    /* the waiting one now */
	end_job(other + 1);
}

static void test_job_waits_for_its_reservation(void **st)
{
	time_t now = time(NULL);
	uint32_t id;

	assert_true(create(desc("later", now + 3600, 60, "n2", "root", 0)));
	id = submit(1, 10, "later");
	assert_int_equal(sched_run(), 0);
	assert_int_equal(J(id)->info.state_reason, WAIT_RESERVATION);
	assert_int_equal(J(id)->info.start_time, 0);
	/* deleted: held, out of it */
	delete("later");
	assert_int_equal(J(id)->info.priority, 0);
	assert_int_equal(J(id)->info.state_reason, WAIT_RESV_DELETED);
	assert_null(J(id)->info.reservation);
}

static void test_future_reservation_in_both_schedulers(void **st)
{
	time_t now = time(NULL);
	uint32_t long_job, short_job;

	/* every node reserved from 30 minutes on, for an hour */
	assert_true(create(desc("fut", now + 1800, 60, "n[1-2]", "root", 0)));
	long_job = submit(2, 60, NULL);   /* would run into it */
	short_job = submit(2, 20, NULL);  /* ends before it */
	assert_int_equal(sched_run(), 1);
	assert_int_equal(J(short_job)->info.job_state, JOB_RUNNING);
	assert_int_equal(J(long_job)->info.job_state, JOB_PENDING);
	assert_string_equal(J(long_job)->info.state_desc,
			    "ReqNodeNotAvail, Reserved for maintenance");
	/* the nodes in two reservations: "May be reserved" (22.05) */
	assert_int_equal(update("fut", "n2"), 0);
	assert_string_equal(resv_find("fut")->info.node_list, "n2");
	assert_true(create(desc("fut2", now + 1800, 60, "n1", "root", 0)));
	assert_int_equal(sched_run(), 0);
	assert_string_equal(J(long_job)->info.state_desc,
			    "ReqNodeNotAvail, May be reserved for other job");
	/* an update that would overlap fut2 is refused, nothing changes */
	assert_int_not_equal(update("fut", "n[1-2]"), 0);
	assert_string_equal(resv_find("fut")->info.node_list, "n2");
	delete("fut2");
	assert_int_equal(update("fut", "n[1-2]"), 0);
	assert_int_equal(sched_run(), 0);
	assert_string_equal(J(long_job)->info.state_desc,
			    "ReqNodeNotAvail, Reserved for maintenance");
	/* backfill plans it after the reservation, never inside */
	assert_int_equal(backfill_run(), 0);
	assert_true(J(long_job)->info.start_time >= now + 1800 + 3600);
	end_job(short_job);
	delete("fut");
	assert_int_equal(sched_run(), 1);
	end_job(long_job);
}

static void test_recurring_moves_on(void **st)
{
	time_t now = time(NULL);
	resv_t *r;
	time_t s;

	assert_true(create(desc("daily", now + 60, 30, "n1", "root",
				RESV_DAILY)));
	r = resv_find("daily");
	s = r->info.start_time;
	/* its occurrence is over: the next one, a day later */
	r->info.start_time -= 86400;
	r->info.end_time -= 86400;
	resv_mgr_tick(now);
	r = resv_find("daily");
	assert_non_null(r);
	assert_true(r->info.start_time == s);
	assert_true(r->info.end_time == s + 1800);
	/* a job that would run over tomorrow's occurrence may not use n1,
	 * a 1-minute one now may */
	{
		bitmap_t *out = NULL;
		uint32_t removed;
		uint32_t id = submit(1, 24 * 60, NULL);

		resv_mgr_job_nodes(J(id), part_mgr_default()->node_bitmap, now,
				   &out, &removed);
		assert_true(removed == 1 && out && !bitmap_test(out, 0));
		bitmap_destroy(out);
		J(id)->info.time_limit = 1;
		out = NULL;
		resv_mgr_job_nodes(J(id), part_mgr_default()->node_bitmap, now,
				   &out, &removed);
		assert_int_equal(removed, 0);
		if (out)
			bitmap_destroy(out);
		job_mgr_end(J(id), JOB_CANCELLED, WAIT_NO_REASON, 0);
	}
	delete("daily");
}

/* Who may use one: Users= (or "-user" deny lists), Accounts=, both. */
static void test_admission(void **st)
{
	time_t now = time(NULL);
	resv_desc_t d;

	assert_true(create(desc("u", now + 600, 10, "n1", "root,bin",
				RESV_OVERLAP)));
	assert_int_equal(resv_mgr_job_check("u", 0, NULL), 0);
	assert_int_equal(resv_mgr_job_check("u", 2, NULL), 0);     /* bin */
	assert_int_equal(resv_mgr_job_check("u", 1, NULL),         /* daemon */
			 ESLURM_RESERVATION_ACCESS);
	assert_int_equal(resv_mgr_job_check("nope", 0, NULL),
			 ESLURM_RESERVATION_INVALID);
	assert_int_equal(resv_mgr_job_check(NULL, 1, NULL), 0);
	assert_true(create(desc("deny", now + 600, 10, "n1", "-root",
				RESV_OVERLAP)));
	assert_int_equal(resv_mgr_job_check("deny", 0, NULL),
			 ESLURM_RESERVATION_ACCESS);
	assert_int_equal(resv_mgr_job_check("deny", 1, NULL), 0);
	/* allow and deny in one list: refused */
	assert_false(create(desc("mixed", now + 600, 10, "n1", "root,-bin",
				 RESV_OVERLAP)));
	d = desc("both", now + 600, 10, "n1", "root", RESV_OVERLAP);
	d.accounts = xstrdup("physics");
	assert_true(create(d));
	assert_int_equal(resv_mgr_job_check("both", 0, "physics"), 0);
	assert_int_equal(resv_mgr_job_check("both", 0, "chem"),
			 ESLURM_RESERVATION_ACCESS);
	assert_int_equal(resv_mgr_job_check("both", 1, "physics"),
			 ESLURM_RESERVATION_ACCESS);
	delete("u");
	delete("deny");
	delete("both");
}

static void test_state_round_trip(void **st)
{
	time_t now = time(NULL);
	buf_t *b = buf_create(256), *r;
	resv_t *x;

	assert_true(create(desc("s1", now + 600, 90, "n[1-2]", "root",
				RESV_MAINT | RESV_WEEKLY)));
	assert_true(create(desc("s2", now + 7200, 10, "n1", "root,bin",
				RESV_OVERLAP)));
	resv_mgr_pack_state(b);
	resv_mgr_fini();
	assert_int_equal(resv_mgr_count(), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(resv_mgr_unpack_state(r, RESV_STATE_VERSION), 0);
	buf_destroy(r);
	assert_int_equal(resv_mgr_count(), 2);
	x = resv_find("s1");
	assert_non_null(x);
	assert_string_equal(x->info.node_list, "n[1-2]");
	assert_true(x->info.flags & RESV_WEEKLY);
	assert_true(x->info.end_time - x->info.start_time == 90 * 60);
	assert_string_equal(resv_find("s2")->info.users, "root,bin");
	/* a newer format, or a cut record: refused, the table unchanged */
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(resv_mgr_unpack_state(r, RESV_STATE_VERSION + 1), -1);
	buf_destroy(r);
	for (size_t cut = 0; cut + 1 < buf_len(b); cut += 7) {
		r = buf_view(buf_data(b), cut);
		assert_int_equal(resv_mgr_unpack_state(r, RESV_STATE_VERSION),
				 -1);
		buf_destroy(r);
		assert_int_equal(resv_mgr_count(), 2);
	}
	/* a new create after the reload takes a new id */
	assert_true(create(desc("s3", now + 600, 10, "n1", "root",
				RESV_OVERLAP)));
	assert_true(resv_find("s3")->info.resv_id >
		    resv_find("s2")->info.resv_id);
	buf_destroy(b);
	delete("s1");
	delete("s2");
	delete("s3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals_change_nothing),
		cmocka_unit_test(test_node_count_picks_free_nodes),
		cmocka_unit_test(test_maint_keeps_jobs_off_and_admits_members),
		cmocka_unit_test(test_job_waits_for_its_reservation),
		cmocka_unit_test(test_future_reservation_in_both_schedulers),
		cmocka_unit_test(test_recurring_moves_on),
		cmocka_unit_test(test_admission),
		cmocka_unit_test(test_state_round_trip),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
