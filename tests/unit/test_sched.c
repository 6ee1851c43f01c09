/* test_sched.c — the scheduler over real node, partition and job tables,
 * without daemons: the controller's modules are compiled in, the loop
 * pieces (controller, agent) are replaced by the small stubs below, and
 * replies go to a NULL connection (net_reply ignores it). */
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

/* ---- fixture ---- */

static char dir[] = "/tmp/test_sched.XXXXXX";

static int setup(void **st)
{
	(void) st;
	return world_up(dir, 
			"NodeName=n[1-2] NodeAddr=127.0.0.1 CPUs=2 "
			"RealMemory=1000\n"
			"PartitionName=debug Nodes=ALL Default=YES MaxTime=60\n"
			"PartitionName=down Nodes=n1 State=DOWN\n", false);
}

static int teardown(void **st)
{
	(void) st;
	return world_down(dir);
}

static uint32_t submit(const char *part, uint32_t tasks, uint32_t nodes,
		       uint32_t minutes, bool hold)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.partition = xstrdup(part);
	d.num_tasks = tasks;
	d.min_nodes = nodes;
	d.time_limit = minutes;
	d.hold = hold;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	return job_mgr_find(id) ? id : 0;
}

static uint32_t state(uint32_t id)
{
	return job_mgr_find(id)->info.job_state;
}

static uint32_t reason(uint32_t id)
{
	return job_mgr_find(id)->info.state_reason;
}

/* ---- tests ---- */

static void test_rejects(void **st)
{
	assert_int_equal(submit("nosuch", NO_VAL32, NO_VAL32, NO_VAL32, false), 0);
	assert_int_equal(submit("debug,nosuch", NO_VAL32, NO_VAL32, NO_VAL32,
				false), 0);
	/* 3 CPUs on one 2-CPU node can never fit (the partition has 4; more
	 * than those would wait, PartitionConfig, as in Slurm) */
	assert_int_equal(submit(NULL, 3, 1, NO_VAL32, false), 0);
}

static void test_strict_order_and_reasons(void **st)
{
	uint32_t run[4], wait1, wait2, held, toolong, wide, down;
	int i;

	for (i = 0; i < 4; i++)
		run[i] = submit(NULL, 1, NO_VAL32, NO_VAL32, false);
	wait1 = submit(NULL, 1, NO_VAL32, NO_VAL32, false);
	held = submit(NULL, 1, NO_VAL32, NO_VAL32, true);
	toolong = submit(NULL, 1, NO_VAL32, 120, false);
	wide = submit(NULL, 3, 3, NO_VAL32, false);
	down = submit("down", 1, NO_VAL32, NO_VAL32, false);
	wait2 = submit(NULL, 1, NO_VAL32, NO_VAL32, false);
	assert_int_equal(sched_run(), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(state(run[i]), JOB_RUNNING);
	/* two 1-CPU jobs per 2-CPU node, nodes in index order */
	assert_string_equal(job_mgr_find(run[0])->info.nodes, "n1");
	assert_string_equal(job_mgr_find(run[1])->info.nodes, "n1");
	assert_string_equal(job_mgr_find(run[2])->info.nodes, "n2");
	assert_int_equal(node_mgr_find("n1")->info.alloc_cpus, 2);
	assert_int_equal(state(wait1), JOB_PENDING);
	assert_int_equal(reason(wait1), WAIT_RESOURCES);
	assert_int_equal(reason(wait2), WAIT_PRIORITY);
	assert_int_equal(reason(held), WAIT_HELD_USER);
	assert_int_equal(job_mgr_find(held)->info.priority, 0);
	assert_int_equal(reason(toolong), WAIT_PART_TIME_LIMIT);
	/* 3 nodes of the partition's 2 (CPUs enough): as Slurm */
	assert_int_equal(reason(wide), WAIT_PART_NODE_LIMIT);
	assert_int_equal(reason(down), WAIT_PART_DOWN);
	/* priority/basic counts down from the top */
	assert_int_equal(job_mgr_find(run[0])->info.priority, 4294901759u);
	assert_int_equal(job_mgr_find(run[1])->info.priority, 4294901758u);

	/* run[0] ends: COMPLETING until n1 confirms, then wait1 starts */
	job_mgr_end(job_mgr_find(run[0]), JOB_COMPLETE, WAIT_NO_REASON, 0);
	assert_true(state(run[0]) & JOB_COMPLETING);
	assert_int_equal(sched_run(), 0);
	job_mgr_node_done(job_mgr_find(run[0]), node_mgr_find("n1"));
	assert_int_equal(state(run[0]), JOB_COMPLETE);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(wait1), JOB_RUNNING);
	assert_int_equal(reason(wait2), WAIT_RESOURCES);
}

static void test_node_down_fails_jobs(void **st)
{
	node_record_t *n2 = node_mgr_find("n2");
	job_record_t *j;
	uint32_t on_n2 = 0;

	for (j = job_mgr_running_first(); j; j = j->run_next)
		if (!strcmp(j->info.nodes, "n2"))
			on_n2 = j->info.job_id;
	assert_int_not_equal(on_n2, 0);
	job_mgr_find(on_n2)->info.requeue = 0;   /* --no-requeue, else requeued */
	_set_down(n2, "test", 0, false);
	assert_int_equal(state(on_n2), JOB_NODE_FAIL);
	assert_int_equal(reason(on_n2), FAIL_DOWN_NODE);
	assert_int_equal(n2->info.alloc_cpus, 0);
	assert_false(node_mgr_usable(n2));
}

/* REQUEST_JOB_INFO's body for the whole queue, packed in steps of step
 * jobs, between which mid(k) runs (k: steps so far); unpacked. */
static job_info_msg_t *list_in_steps(size_t step, void (*mid)(int k))
{
	job_info_request_msg_t all = { .user_id = NO_VAL32 };
	rpc_viewer_t sees_all = { .hide = false };
	job_info_pack_t *p = job_info_pack_begin(&all, &sees_all, 0, 1);
	void *data = NULL;
	buf_t *b = NULL;

	for (int k = 0; !(b = job_info_pack_step(p, step)); k++)
		if (mid)
			mid(k);
	buf_set_offset(b, 0);
	assert_int_equal(msg_body_unpack(RESPONSE_JOB_INFO, b, &data), 0);
	buf_destroy(b);
	return data;
}

/* What squeue is sent: every live job in the order submitted, after
 * purges have left holes in (and then compacted) the controller's list. */
static void assert_listing_is_every_job(void)
{
	job_info_msg_t *m = list_in_steps(1000, NULL);
	job_record_t *j, *tmp;
	uint32_t k = 0;

	assert_int_equal(m->cnt, job_mgr_count());
	HASH_ITER(hh, jm.by_id, j, tmp)         /* the hash's own order */
		assert_int_equal(m->jobs[k++].job_id, j->info.job_id);
	msg_body_free(RESPONSE_JOB_INFO, m);
}

static void test_listing_after_purge(void **st)
{
	uint32_t first = 0, last = 0, id, slots, holes;
	time_t age = (time_t)ctld_conf()->min_job_age;

	for (int i = 0; i < 2500; i++) {
		id = submit(NULL, 1, NO_VAL32, NO_VAL32, true);
		assert_int_not_equal(id, 0);
		if (!first)
			first = id;
		last = id;
	}
	/* three jobs in four of the first 2,400 end: holes spread out, more
	 * than half the list */
	for (id = first; id < first + 2400; id++)
		if ((id - first) % 4 != 3)
			job_mgr_end(job_mgr_find(id), JOB_CANCELLED,
				    WAIT_NO_REASON, 0);
	slots = jm.all_cnt;
	_purge(time(NULL) + age + 1);      /* past MinJobAge of every end */
	assert_null(job_mgr_find(first));
	assert_non_null(job_mgr_find(first + 3));
	assert_true(jm.all_cnt < slots - 1024);        /* compacted */
	assert_int_equal(jm.all_cnt, job_mgr_count() + jm.all_holes);
	assert_listing_is_every_job();
	holes = jm.all_holes;

	/* a few more: holes left in place */
	for (id = first + 3; id < first + 83; id += 4)
		job_mgr_end(job_mgr_find(id), JOB_CANCELLED, WAIT_NO_REASON, 0);
	_purge(time(NULL) + age + 1);
	assert_int_equal(jm.all_holes, holes + 20);
	assert_listing_is_every_job();
	id = submit(NULL, 1, NO_VAL32, NO_VAL32, true);
	assert_int_equal(id, last + 1);
	assert_ptr_equal(jm.all[jm.all_cnt - 1], job_mgr_find(id));
	assert_listing_is_every_job();
}

/* Between two slices of a whole-queue answer, jobs end and are purged
 * (ahead of the slice, behind it, enough to compact the list) and one is
 * submitted: the answer is the jobs of the request's time still there
 * when their slice came, each once, in order; the list is compacted only
 * once the answer is packed. */
static uint32_t slice_first, slice_new;
static size_t slice_slots;

static void purge_between(int k)
{
	time_t age = (time_t)ctld_conf()->min_job_age;

	if (k != 0)
		return;
	slice_slots = jm.all_cnt;
	for (uint32_t id = slice_first; id < slice_first + 2400; id++)
		if (id % 4 != 1)
			job_mgr_end(job_mgr_find(id), JOB_CANCELLED,
				    WAIT_NO_REASON, 0);
	_purge(time(NULL) + age + 1);
	assert_int_equal(jm.all_cnt, slice_slots);      /* held: no compaction */
	slice_new = submit(NULL, 1, NO_VAL32, NO_VAL32, true);
	assert_int_not_equal(slice_new, 0);
}

static void test_listing_in_slices(void **st)
{
	uint32_t before = job_mgr_count(), seen_first = 0, id;
	job_info_msg_t *m;

	slice_first = 0;
	for (int i = 0; i < 2500; i++) {
		id = submit(NULL, 1, NO_VAL32, NO_VAL32, true);
		assert_int_not_equal(id, 0);
		if (!slice_first)
			slice_first = id;
	}
	before += 2500;
	m = list_in_steps(before - 2000, purge_between);
	for (uint32_t k = 0; k < m->cnt; k++) {
		assert_int_not_equal(m->jobs[k].job_id, slice_new);
		if (k)
			assert_true(m->jobs[k].job_id > m->jobs[k - 1].job_id);
		if (m->jobs[k].job_id >= slice_first &&
		    m->jobs[k].job_id < slice_first + 2400)
			seen_first++;
	}
	/* the first slice had all but 2,000 of them; the rest, purged ahead
	 * of it, are left out (every fourth stayed) */
	assert_true(seen_first < 2400);
	assert_true(seen_first >= 600);
	msg_body_free(RESPONSE_JOB_INFO, m);
	assert_true(jm.all_cnt < slice_slots);          /* compacted after */
	assert_listing_is_every_job();
}

static void test_snapshot_roundtrip(void **st)
{
	buf_t *b = state_save_pack(0, 1);   /* every record packed, cached */
	job_record_t *p = job_mgr_pending_first();
	uint32_t cnt = job_mgr_count(), next = job_mgr_next_id(), pid;
	char err[256];

	/* a change after the first pack must reach the next snapshot */
	buf_destroy(b);
	assert_non_null(p);
	pid = p->info.job_id;
	job_mgr_end(p, JOB_CANCELLED, WAIT_NO_REASON, 0);
	b = state_save_pack(0, 1);

	assert_int_equal(state_save_write(conf->state_save_location, b), 0);
	buf_destroy(b);
	job_mgr_fini();
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	job_mgr_init();
	recover_t r;

	assert_int_equal(recover_state(conf->state_save_location, &r, err,
				       sizeof(err)), 0);
	assert_int_equal(job_mgr_count(), cnt);
	assert_int_equal(job_mgr_next_id(), next);
	assert_int_equal((node_mgr_find("n2")->info.node_state & NODE_STATE_BASE),
			 NODE_STATE_DOWN);
	assert_int_equal(state(pid), JOB_CANCELLED);
	/* running jobs hold their CPUs again */
	assert_int_equal(node_mgr_find("n1")->info.alloc_cpus, 2);
}

/* Snapshot, then changes as journal records, then recovery: the last
 * record of a job wins, a purge drops it, node states are replaced, and
 * a torn record at the end is cut without losing what came before. */
static void test_journal_replay(void **st)
{
	const char *d = conf->state_save_location;
	uint64_t seq = 100;
	journal_file_t *f;
	buf_t *b, *recs;
	uint32_t held, cnt, next;
	job_record_t *j;
	char err[256];
	recover_t r;
	size_t full;

	state_save_changes_reset();
	b = state_save_pack(seq, 5);
	assert_int_equal(state_save_write(d, b), 0);
	buf_destroy(b);
	f = journal_create(d, 5, true);
	assert_non_null(f);

	recs = buf_create(4096);
	state_save_pack_changes(recs, &seq);
	assert_int_equal(buf_len(recs), 0);           /* nothing changed */
	held = submit("debug", 1, 1, 5, true);
	assert_int_not_equal(held, 0);
	j = job_mgr_pending_first();
	while (j && j->info.job_id == held)
		j = j->pend_next;
	assert_non_null(j);
	job_mgr_end(j, JOB_CANCELLED, WAIT_NO_REASON, 0);
	node_mgr_find("n2")->info.node_state |= NODE_STATE_DRAIN;
	node_mgr_saved_touch();
	state_save_pack_changes(recs, &seq);
	assert_true(seq > 100);
	assert_int_equal(journal_append(f, buf_data(recs), buf_len(recs)), 0);
	cnt = job_mgr_count();
	next = job_mgr_next_id();
	uint32_t cancelled = j->info.job_id;

	/* one more change, torn while being written */
	buf_set_offset(recs, 0);
	buf_destroy(recs);
	recs = buf_create(4096);
	job_mgr_find(held)->info.priority = 7;
	job_mgr_touch(job_mgr_find(held));
	state_save_pack_changes(recs, &seq);
	full = buf_len(recs);
	assert_int_equal(journal_append(f, buf_data(recs), full / 2), 0);
	buf_destroy(recs);
	journal_close(f);

	job_mgr_fini();
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	job_mgr_init();
	assert_int_equal(recover_state(d, &r, err, sizeof(err)), 0);
	assert_int_equal(job_mgr_count(), cnt);
	assert_int_equal(job_mgr_next_id(), next);
	assert_int_equal(state(held), JOB_PENDING);
	assert_int_equal(job_mgr_find(held)->info.priority, 0);   /* torn */
	assert_int_equal(reason(held), WAIT_HELD_USER);
	assert_int_equal(state(cancelled), JOB_CANCELLED);
	assert_true(node_mgr_find("n2")->info.node_state & NODE_STATE_DRAIN);
	assert_true(r.seq > 100 && r.seq < seq);
	assert_int_equal(r.next_gen, 6);
	assert_int_equal(r.damaged_gen, 0);     /* a torn end is no damage */
}

/* A snapshot packed in slices while the queue changes (a rotation at a
 * million jobs): a job ended after the start is packed as it is then,
 * one purged meanwhile is left out, one submitted meanwhile is not in it
 * (its record is after the snapshot's seq); recovery from the snapshot
 * and the journal after it is the state in memory. */
static void test_snapshot_in_slices(void **st)
{
	const char *d = conf->state_save_location;
	time_t age = (time_t)ctld_conf()->min_job_age;
	uint64_t seq = 200;
	uint32_t ended, purged, added, cnt, next;
	journal_file_t *f;
	job_record_t *last;
	state_pack_t *sp;
	buf_t *b, *recs;
	char err[256];
	recover_t r;
	int steps = 1;

	for (int i = 0; i < 40; i++)
		assert_int_not_equal(submit(NULL, 1, NO_VAL32, NO_VAL32, true), 0);
	state_save_changes_reset();
	sp = state_save_pack_begin(seq, 7);
	assert_null(state_save_pack_step(sp, 5));
	last = job_mgr_pending_first()->pend_prev;  /* packed last of all */
	purged = last->info.job_id;
	ended = last->pend_prev->info.job_id;
	job_mgr_end(last, JOB_CANCELLED, WAIT_NO_REASON, 0);
	_purge(time(NULL) + age + 1);
	assert_null(job_mgr_find(purged));
	job_mgr_end(job_mgr_find(ended), JOB_CANCELLED, WAIT_NO_REASON, 0);
	added = submit(NULL, 1, NO_VAL32, NO_VAL32, true);
	assert_int_not_equal(added, 0);
	while (!(b = state_save_pack_step(sp, 5)))
		steps++;
	assert_true(steps > 5);
	state_save_pack_seal(b);
	assert_int_equal(state_save_write(d, b), 0);
	buf_destroy(b);

	f = journal_create(d, 7, true);
	assert_non_null(f);
	recs = buf_create(4096);
	state_save_pack_changes(recs, &seq);
	assert_true(seq > 200);
	assert_int_equal(journal_append(f, buf_data(recs), buf_len(recs)), 0);
	buf_destroy(recs);
	journal_close(f);
	cnt = job_mgr_count();
	next = job_mgr_next_id();

	job_mgr_fini();
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	job_mgr_init();
	assert_int_equal(recover_state(d, &r, err, sizeof(err)), 0);
	assert_int_equal(job_mgr_count(), cnt);
	assert_int_equal(job_mgr_next_id(), next);
	assert_null(job_mgr_find(purged));
	assert_int_equal(state(ended), JOB_CANCELLED);
	assert_int_equal(state(added), JOB_PENDING);
	assert_int_equal(r.seq, seq);
}

/* ---- the incremental pass ---- */

static void fresh_world(void)
{
	char err[256];

	job_mgr_fini();
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	job_mgr_init();
	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_registration_msg_t r = { .cpus = 2, .sockets = 2,
					      .cores = 1, .threads = 1,
					      .real_memory = 1000 };
		slurm_msg_t m = { .data = &r };

		r.node_name = node_mgr_at(i)->info.name;
		node_mgr_rpc_register(NULL, &m);
	}
}

/* A job as sbatch would send it, with the fields the tests vary. */
static uint32_t submit_x(uint32_t tasks, uint32_t prio, time_t begin,
			 const char *nodelist, bool hold)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.num_tasks = tasks;
	d.priority = prio;
	d.begin_time = begin;
	d.req_nodes = nodelist ? xstrdup(nodelist) : NULL;
	d.hold = hold;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	assert_non_null(job_mgr_find(id));
	return id;
}

typedef struct {
	uint32_t id, state, reason;
} seen_t;

static size_t look(seen_t *v, size_t max)
{
	job_record_t *j, *tmp;
	size_t n = 0;

	HASH_ITER(hh, jm.by_id, j, tmp) {
		assert_true(n < max);
		v[n].id = j->info.job_id;
		v[n].state = j->info.job_state;
		v[n++].reason = j->info.state_reason;
	}
	return n;
}

/* What the passes since the last full one left is what a full pass
 * gives: it starts nothing and changes no reason. */
static void assert_full_agrees(void)
{
	seen_t a[64], b[64];
	size_t n = look(a, 64);

	assert_int_equal(sched_run(), 0);
	assert_int_equal(look(b, 64), n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(a[i].id, b[i].id);
		assert_int_equal(a[i].state, b[i].state);
		assert_int_equal(a[i].reason, b[i].reason);
	}
}

static void test_incremental_pass(void **st)
{
	unsigned long inc;
	uint32_t big, small, top, top2, mid, later, w, begin;
	job_record_t *t;

	fresh_world();
	_pass(false);                       /* the base: an empty queue */
	inc = sc.inc_passes;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(state(submit_x(1, NO_VAL32, 0, NULL, false)),
				 JOB_PENDING);
		assert_int_equal(_pass(false), 1);
	}
	assert_int_equal(sc.inc_passes, inc + 3);
	big = submit_x(2, NO_VAL32, 0, NULL, false);     /* 1 CPU is free */
	_pass(false);
	assert_int_equal(reason(big), WAIT_RESOURCES);
	small = submit_x(1, NO_VAL32, 0, NULL, false);   /* fits, but behind */
	_pass(false);
	assert_int_equal(reason(small), WAIT_PRIORITY);
	submit_x(1, NO_VAL32, 0, NULL, true);
	begin = submit_x(1, NO_VAL32, time(NULL) + 3600, NULL, false);
	w = submit_x(1, NO_VAL32, 0, "n2", false);
	_pass(false);
	assert_int_equal(reason(w), WAIT_PRIORITY);
	assert_int_equal(reason(begin), WAIT_TIME);
	assert_int_equal(sc.inc_passes, inc + 6);
	assert_full_agrees();
	/* a job waiting on the clock makes the next second's pass a whole
	 * one; without it the counts below do not depend on the clock */
	job_mgr_end(job_mgr_find(begin), JOB_CANCELLED, WAIT_NO_REASON, 0);
	sched_run();

	/* a new job ahead of the blocker: it takes the free CPU */
	top = submit_x(1, 4294901759u + 10, 0, NULL, false);
	inc = sc.inc_passes;
	_pass(false);
	assert_int_equal(sc.inc_passes, inc + 1);
	assert_int_equal(state(top), JOB_RUNNING);
	assert_int_equal(reason(big), WAIT_RESOURCES);
	assert_full_agrees();

	/* two ahead of it that cannot start: the first of them blocks the
	 * partition, the old blocker waits on Priority, as in a full pass */
	top2 = submit_x(2, 4294901759u + 5, 0, NULL, false);
	mid = submit_x(1, 4294901759u + 4, 0, NULL, false);
	later = submit_x(1, NO_VAL32, 0, NULL, false);
	inc = sc.inc_passes;
	_pass(false);
	assert_int_equal(sc.inc_passes, inc + 1);
	assert_int_equal(reason(top2), WAIT_RESOURCES);
	assert_int_equal(reason(mid), WAIT_PRIORITY);
	assert_int_equal(reason(big), WAIT_PRIORITY);
	assert_int_equal(reason(later), WAIT_PRIORITY);
	assert_full_agrees();

	/* a job ends: the next pass is a whole one (top2 still needs 2) */
	t = job_mgr_find(top);
	job_mgr_end(t, JOB_COMPLETE, WAIT_NO_REASON, 0);
	job_mgr_node_done(t, node_mgr_find(t->info.nodes));
	assert_int_equal(state(top), JOB_COMPLETE);
	sched_trigger();
	inc = sc.inc_passes;
	_pass(false);
	assert_int_equal(sc.inc_passes, inc);
	assert_int_equal(reason(mid), WAIT_PRIORITY);
	assert_full_agrees();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_strict_order_and_reasons),
		cmocka_unit_test(test_node_down_fails_jobs),
		cmocka_unit_test(test_snapshot_roundtrip),
		cmocka_unit_test(test_journal_replay),
		cmocka_unit_test(test_snapshot_in_slices),
		cmocka_unit_test(test_incremental_pass),
		cmocka_unit_test(test_listing_after_purge),
		cmocka_unit_test(test_listing_in_slices),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
