/* test_backfill.c — sched/backfill and priority/multifactor over real
 * node, partition and job tables, without daemons (stubs as in
 * test_sched.c). */
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

static char dir[] = "/tmp/test_backfill.XXXXXX";

static int setup(void **st)
{
	(void) st;
	return world_up(dir, 
		"NodeName=n[1-2] NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000\n"
		"GresTypes=gpu\n"
		"NodeName=g1 NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 "
		"Gres=gpu:2\n"
		"PartitionName=debug Nodes=n[1-2] Default=YES MaxTime=120 "
		"PriorityJobFactor=10\n"
		"PartitionName=low Nodes=n[1-2] PriorityJobFactor=5\n"
		"PartitionName=gpu Nodes=g1\n"
		"PartitionName=tier Nodes=n[1-2] PriorityJobFactor=1 "
		"PriorityTier=2\n"
		"PriorityType=priority/multifactor\n"
		"PriorityWeightAge=1000\nPriorityWeightJobSize=2000\n"
		"PriorityWeightPartition=10000\nPriorityWeightFairshare=500\n"
		"PriorityMaxAge=1:00:00\n"
		"PreemptType=preempt/qos\nPreemptMode=CANCEL\n"
		"Licenses=lic:3,alt:1\n"
		"SchedulerParameters=bf_resolution=60,bf_window=240,"
		"bf_licenses\n", true);
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

static job_record_t *J(uint32_t id)
{
	return job_mgr_find(id);
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

static void test_params(void **st)
{
	sched_params_t p;
	char err[128];

	assert_int_equal(sched_params_parse("bf_window=0", 10, &p, err,
					    sizeof(err)), -1);
	assert_int_equal(sched_params_parse("bf_interval=x", 10, &p, err,
					    sizeof(err)), -1);
	assert_int_equal(sched_params_parse("bf_continue,default_queue_depth=7,"
					    "other_key=1", 10, &p, err,
					    sizeof(err)), 0);
	assert_true(p.bf_continue);
	assert_int_equal(p.default_queue_depth, 7);
	assert_int_equal(p.bf_interval, 30);
	assert_int_equal(p.bf_window, 1440);
	assert_int_equal(p.max_sched_time, 5);
	/* what the fixture configured */
	assert_true(sched_params()->backfill);
	assert_int_equal(sched_params()->bf_window, 240);
}

/* SelectType, SchedulerType and PriorityType are plugins: a reconfigure
 * to select/linear, sched/builtin and priority/basic switches each, and
 * back. */
static void test_plugin_switch(void **st)
{
	slurm_conf_t *save = conf;
	char path[256], err[512];
	FILE *f;

	assert_true(sched_params()->backfill);
	assert_true(priority_is_multifactor());
	assert_false(job_res_cr() & SELECT_LINEAR);
	snprintf(path, sizeof(path), "%s/alt.conf", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "ClusterName=t\nSlurmctldHost=localhost\n"
		"StateSaveLocation=%s/state\n"
		"NodeName=n[1-2] NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000\n"
		"PartitionName=debug Nodes=n[1-2] Default=YES\n"
		"SelectType=select/linear\nSchedulerType=sched/builtin\n"
		"PriorityType=priority/basic\n", dir);
	fclose(f);
	conf = conf_load(path, err, sizeof(err));
	assert_non_null(conf);
	sched_reconfig();
	assert_true(job_res_cr() & SELECT_LINEAR);
	assert_false(sched_params()->backfill);
	assert_int_equal(sched_plugin_run(), 0);
	assert_false(priority_is_multifactor());
	conf_destroy(conf);
	conf = save;
	sched_reconfig();
	assert_true(sched_params()->backfill);
	assert_true(priority_is_multifactor());
	assert_false(job_res_cr() & SELECT_LINEAR);
}

/* n1 full for 10 min, n2 half full for 30 min.  A 2-node job plans for
 * +30; a 20-minute 1-CPU job is started in front of it; a 100-minute one
 * would delay it and waits.  When the running jobs end on time the large
 * job starts before the long one. */
static void test_backfill_hole(void **st)
{
	uint32_t r1, r2, big, longj, shortj;
	time_t now = time(NULL);

	r1 = submit(NULL, 2, 1, 10, false);
	r2 = submit(NULL, 1, 1, 30, false);
	assert_int_equal(sched_run(), 2);
	assert_string_equal(J(r1)->info.nodes, "n1");
	assert_string_equal(J(r2)->info.nodes, "n2");
	big = submit(NULL, 4, 2, 10, false);
	longj = submit(NULL, 1, 1, 100, false);
	shortj = submit(NULL, 1, 1, 20, false);
	assert_int_equal(sched_run(), 0);
	assert_int_equal(reason(big), WAIT_RESOURCES);
	assert_int_equal(reason(longj), WAIT_PRIORITY);
	assert_int_equal(reason(shortj), WAIT_PRIORITY);

	assert_int_equal(backfill_run(), 1);
	assert_int_equal(state(shortj), JOB_RUNNING);
	assert_string_equal(J(shortj)->info.sched_name, "Backfill");
	assert_string_equal(J(shortj)->info.nodes, "n2");
	assert_int_equal(state(longj), JOB_PENDING);
	assert_int_equal(state(big), JOB_PENDING);
	/* planned starts: big when r2 ends, long when big ends */
	assert_true(J(big)->info.start_time >= J(r2)->info.end_time);
	assert_true(J(big)->info.start_time <= J(r2)->info.end_time + 60);
	assert_true(J(longj)->info.start_time >= J(big)->info.start_time + 600);
	assert_true(J(big)->info.start_time >= now + 29 * 60);
	assert_string_equal(J(big)->info.sched_nodes, "n[1-2]");
	/* a second pass starts nothing more and keeps the plan */
	assert_int_equal(backfill_run(), 0);
	assert_int_equal(state(longj), JOB_PENDING);

	/* the running jobs end on time: the large job starts, then the
	 * long job waits for it */
	end_job(r1);
	end_job(shortj);
	assert_int_equal(sched_run(), 0);   /* r2 still holds a CPU of n2 */
	assert_int_equal(backfill_run(), 0);
	assert_int_equal(state(longj), JOB_PENDING);
	end_job(r2);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(big), JOB_RUNNING);
	assert_int_equal(state(longj), JOB_PENDING);
	assert_int_equal(reason(longj), WAIT_RESOURCES);
	end_job(big);
	assert_int_equal(sched_run(), 1);
	end_job(longj);
}

static uint32_t submit_gpu(uint32_t gpus, uint32_t minutes)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.partition = xstrdup("gpu");
	d.num_tasks = 1;
	d.min_nodes = 1;
	d.time_limit = minutes;
	d.gres = xstrdup_printf("gres/gpu:%u", gpus);
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	return job_mgr_find(id) ? id : 0;
}

/* GPUs in the plan (g1: 2 CPUs, 2 GPUs).  One GPU is busy for 10 min; a
 * 2-GPU job plans for then; a 1-GPU 30-minute job would take the GPU it
 * waits for and is not started (a CPU is free); a 1-GPU 5-minute job is. */
static void test_backfill_gpus(void **st)
{
	uint32_t r1, big, g30, g5;
	time_t now = time(NULL);

	r1 = submit_gpu(1, 10);
	assert_true(r1);
	assert_int_equal(sched_run(), 1);
	assert_string_equal(J(r1)->info.nodes, "g1");
	big = submit_gpu(2, 10);
	g30 = submit_gpu(1, 30);
	g5 = submit_gpu(1, 5);
	assert_int_equal(sched_run(), 0);
	assert_int_equal(reason(big), WAIT_RESOURCES);
	assert_int_equal(backfill_run(), 1);
	assert_int_equal(state(g5), JOB_RUNNING);
	assert_int_equal(state(g30), JOB_PENDING);
	assert_int_equal(state(big), JOB_PENDING);
	assert_true(J(big)->info.start_time >= now + 9 * 60);
	assert_true(J(big)->info.start_time <= J(r1)->info.end_time + 60);
	assert_string_equal(J(big)->info.sched_nodes, "g1");
	assert_true(J(g30)->info.start_time >= J(big)->info.start_time + 600);
	/* the GPU holders end on time: the 2-GPU job goes first */
	end_job(r1);
	end_job(g5);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(big), JOB_RUNNING);
	assert_int_equal(state(g30), JOB_PENDING);
	end_job(big);
	assert_int_equal(sched_run(), 1);
	end_job(g30);
}

static uint32_t submit_lic(const char *lic, uint32_t minutes)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();

	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.num_tasks = 1;
	d.min_nodes = 1;
	d.time_limit = minutes;
	d.licenses = xstrdup(lic);
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	return job_mgr_find(id) ? id : 0;
}

static uint32_t lic_used(const char *name)
{
	return lm.lics[_lm_find(name)].used;
}

/* Licenses in the plan (Licenses=lic:3,alt:1, bf_licenses; CPUs are
 * plenty).  a holds lic:2 for 10 min; hi needs all 3 and plans for a's
 * end; a 30-minute lic:1 job would still hold its license then and is
 * not started although one is free now; a 5-minute one is; a job without
 * licenses starts.  The plan holds when the jobs end on time. */
static void test_backfill_licenses_planned(void **st)
{
	uint32_t a, hi, lo_long, lo_short, plain;
	time_t now = time(NULL);

	assert_int_equal(submit_lic("nosuch:1", 10), 0);
	assert_int_equal(submit_lic("lic:4", 10), 0);
	a = submit_lic("lic:2", 10);
	assert_true(a);
	assert_int_equal(sched_run(), 1);
	assert_string_equal(J(a)->info.licenses_alloc, "lic:2");
	assert_int_equal(lic_used("lic"), 2);
	hi = submit_lic("lic:3", 10);
	lo_long = submit_lic("lic:1", 30);
	lo_short = submit_lic("lic", 5);
	plain = submit(NULL, 1, 1, 30, false);
	assert_int_equal(backfill_run(), 2);
	assert_int_equal(state(lo_short), JOB_RUNNING);
	assert_int_equal(state(plain), JOB_RUNNING);
	assert_int_equal(state(hi), JOB_PENDING);
	assert_int_equal(state(lo_long), JOB_PENDING);
	assert_int_equal(lic_used("lic"), 3);
	/* hi when a ends; lo_long after hi */
	assert_true(J(hi)->info.start_time >= J(a)->info.end_time);
	assert_true(J(hi)->info.start_time <= J(a)->info.end_time + 60);
	assert_true(J(hi)->info.start_time >= now + 9 * 60);
	assert_true(J(lo_long)->info.start_time >=
		    J(hi)->info.start_time + 600);
	/* a second pass keeps the plan */
	assert_int_equal(backfill_run(), 0);
	assert_int_equal(state(lo_long), JOB_PENDING);

	/* on time: hi first (the main scheduler in priority order), then
	 * lo_long waits on its licenses */
	end_job(a);
	end_job(lo_short);
	assert_int_equal(lic_used("lic"), 0);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(hi), JOB_RUNNING);
	assert_int_equal(state(lo_long), JOB_PENDING);
	assert_int_equal(reason(lo_long), WAIT_LICENSES);
	assert_int_equal(backfill_run(), 0);
	end_job(hi);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(lo_long), JOB_RUNNING);
	end_job(lo_long);
	end_job(plain);
	assert_int_equal(lic_used("lic"), 0);
}

/* '|': alt:1 is held for 10 min; a job asking for alt or lic:1 takes lic
 * now; with lic all held too, an '|' job plans on the first to be free. */
static void test_backfill_licenses_any(void **st)
{
	uint32_t a, b, c, d;

	a = submit_lic("alt", 10);
	assert_int_equal(sched_run(), 1);
	b = submit_lic("alt:1|lic:1", 60);
	assert_int_equal(backfill_run(), 1);
	assert_int_equal(state(b), JOB_RUNNING);
	assert_string_equal(J(b)->info.licenses_alloc, "lic:1");
	c = submit_lic("lic:2", 60);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(lic_used("lic"), 3);
	d = submit_lic("lic:1|alt:1", 10);
	assert_int_equal(sched_run(), 0);
	assert_int_equal(reason(d), WAIT_LICENSES);
	assert_int_equal(backfill_run(), 0);
	/* alt comes back when a ends (10 min), lic in an hour */
	assert_true(J(d)->info.start_time >= J(a)->info.end_time);
	assert_true(J(d)->info.start_time <= J(a)->info.end_time + 60);
	end_job(a);
	assert_int_equal(backfill_run(), 1);
	assert_int_equal(state(d), JOB_RUNNING);
	assert_string_equal(J(d)->info.licenses_alloc, "alt:1");
	end_job(b);
	end_job(c);
	end_job(d);
	assert_int_equal(lic_used("lic"), 0);
	assert_int_equal(lic_used("alt"), 0);
}

/* TIME_LIMIT_* mails: each step once, when reached (all reached steps
 * at one check). */
static void test_mail_time_steps(void **st)
{
	uint32_t id = submit(NULL, 1, 1, 10, false);
	job_record_t *j = J(id);
	time_t s;

	xfree(j->info.mail_type);
	j->info.mail_type = xstrdup("TIME_LIMIT_50,TIME_LIMIT_90,TIME_LIMIT");
	assert_int_equal(sched_run(), 1);
	s = j->info.start_time;
	job_mail_time_check(s + 60);
	assert_int_equal(j->mail_time_sent, 0);
	job_mail_time_check(s + 300);                 /* 50 % */
	assert_int_equal(j->mail_time_sent, 0x8);
	job_mail_time_check(s + 301);
	assert_int_equal(j->mail_time_sent, 0x8);
	job_mail_time_check(s + 600);                 /* 80, 90, 100 % */
	assert_int_equal(j->mail_time_sent, 0xf);
	end_job(id);
}

static dbd_acct_resp_msg_t *acct_list(const char *const *cols)
{
	dbd_acct_resp_msg_t *r = xmalloc(sizeof(*r));

	for (size_t i = 0; cols[i]; i++)
		r->cols = xstrarray_append(r->cols, cols[i]);
	return r;
}

static void acct_row(dbd_acct_resp_msg_t *r, const char *const *cells)
{
	for (size_t i = 0; cells[i]; i++)
		r->cells = xstrarray_append(r->cells, cells[i]);
}

/* preempt/qos: QOS high may preempt QOS low.  The node pair is full of
 * two low jobs; a high job needing one node cancels exactly one of them
 * (the younger) and starts once its node is clean; a second low-QOS job
 * preempts nothing. */
static void test_preempt_qos(void **st)
{
	static const char *const qcols[] = { "id", "name", "priority",
					     "preempt", NULL };
	static const char *const ucols[] = { "user", "defacct", "admin", NULL };
	static const char *const acols[] = { "id", "account", "user",
					     "parentname", NULL };
	static const char *const ccols[] = { "user", "account", NULL };
	static const char *const low[] = { "1", "low", "10", "", NULL };
	static const char *const high[] = { "2", "high", "100", "low", NULL };
	dbd_acct_resp_msg_t *l[AM_LIST_CNT] = {
		acct_list(qcols), acct_list(ucols), acct_list(acols),
		acct_list(ccols) };
	uint32_t a, b, h, x;
	job_record_t *v;
	long i;

	acct_row(l[0], low);
	acct_row(l[0], high);
	assert_int_equal(am_install_lists(l), 0);
	for (int k = 0; k < AM_LIST_CNT; k++)
		msg_body_free(RESPONSE_DBD_ACCT, l[k]);
	a = submit(NULL, 2, 1, 60, false);
	b = submit(NULL, 2, 1, 60, false);
	xfree(J(a)->info.qos);
	J(a)->info.qos = xstrdup("low");
	xfree(J(b)->info.qos);
	J(b)->info.qos = xstrdup("low");
	assert_int_equal(sched_run(), 2);
	J(b)->info.start_time += 1;              /* b is the younger */
	x = submit(NULL, 2, 1, 10, false);
	xfree(J(x)->info.qos);
	J(x)->info.qos = xstrdup("low");
	assert_int_equal(sched_run(), 0);
	assert_int_equal(state(a), JOB_RUNNING);
	assert_int_equal(state(b), JOB_RUNNING);  /* low preempts no low */
	job_mgr_end(J(x), JOB_CANCELLED, WAIT_NO_REASON, 0);
	h = submit(NULL, 2, 1, 10, false);
	xfree(J(h)->info.qos);
	J(h)->info.qos = xstrdup("high");
	assert_int_equal(sched_run(), 0);         /* b's node is completing */
	assert_int_equal(state(a), JOB_RUNNING);
	assert_int_equal(state(b), JOB_PREEMPTED | JOB_COMPLETING);
	assert_true(J(b)->info.preempt_time > 0);
	assert_int_equal(reason(h), WAIT_RESOURCES);
	assert_int_equal(sched_run(), 0);         /* nothing more preempted */
	assert_int_equal(state(a), JOB_RUNNING);
	v = J(b);
	for (i = bitmap_first_set(v->node_bitmap); i >= 0;
	     i = bitmap_next_set(v->node_bitmap, i + 1))
		job_mgr_node_done(v, node_mgr_at(i));
	assert_int_equal(state(b), JOB_PREEMPTED);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(h), JOB_RUNNING);
	end_job(h);
	end_job(a);
}

/* A job that can never start in the window is not planned. */
static void test_backfill_window(void **st)
{
	uint32_t r1, r2, wide;

	r1 = submit(NULL, 2, 1, 120, false);
	r2 = submit(NULL, 2, 1, 120, false);
	assert_int_equal(sched_run(), 2);
	wide = submit(NULL, 4, 2, 120, false);
	assert_int_equal(backfill_run(), 0);
	assert_true(J(wide)->info.start_time > 0);   /* +120 < 240 window */
	end_job(r1);
	end_job(r2);
	assert_int_equal(sched_run(), 1);
	end_job(wide);
}

static void test_multifactor(void **st)
{
	priority_conf_t pc;
	priority_totals_t t = { .nodes = 2, .cpus = 4, .mem = 2000,
				.max_part_factor = 10 };
	priority_factors_t f = { 0 };
	job_record_t j = { 0 };
	part_record_t part = { 0 };
	time_t now = 1000000;
	uint32_t p;
	char err[128];

	assert_int_equal(priority_conf_load(conf, &pc, err, sizeof(err)), 0);
	assert_true(priority_is_multifactor());
	assert_int_equal(pc.w_age, 1000);
	assert_int_equal(pc.max_age, 3600);
	part.info.priority_job_factor = 5;
	j.part = &part;
	j.info.nice = NICE_OFFSET;
	j.info.num_nodes = 1;
	j.info.num_cpus = 2;
	j.info.eligible_time = now - 1800;   /* half of PriorityMaxAge */
	p = priority_compute(&pc, &t, &j, now, &f);
	assert_true(f.norm_age > 0.4999 && f.norm_age < 0.5001);
	assert_true(f.age > 499.9 && f.age < 500.1);
	/* (1/2 nodes + 2/4 CPUs) / 2 */
	assert_true(f.norm_job_size > 0.4999 && f.norm_job_size < 0.5001);
	assert_true(f.norm_part > 0.4999 && f.norm_part < 0.5001);
	assert_true(f.norm_fairshare > 0.9999);   /* no accounting: neutral */
	/* 500 + 500 (fair-share) + 1000 + 5000 */
	assert_int_equal(p, 7000);
	/* nice subtracts; never below 1 */
	j.info.nice = NICE_OFFSET + 100;
	assert_int_equal(priority_compute(&pc, &t, &j, now, NULL), 6900);
	j.info.nice = NICE_OFFSET + 100000;
	assert_int_equal(priority_compute(&pc, &t, &j, now, NULL), 1);
	/* age is capped at PriorityMaxAge */
	j.info.nice = NICE_OFFSET;
	j.info.eligible_time = now - 100000;
	assert_int_equal(priority_compute(&pc, &t, &j, now, NULL), 7500);
	/* PriorityFavorSmall turns the job size factor around */
	pc.favor_small = true;
	assert_int_equal(priority_compute(&pc, &t, &j, now, NULL), 7500);
	j.info.num_cpus = 4;
	j.info.num_nodes = 2;
	assert_int_equal(priority_compute(&pc, &t, &j, now, NULL), 6500);
	xfree(f.tres);
	xfree(f.norm_tres);
	priority_conf_free(&pc);
}

/* Submitted jobs get multifactor priorities: the higher partition
 * factor sorts first, an operator's priority stays as set. */
static void test_multifactor_queue(void **st)
{
	uint32_t r1, r2, low, high, fixed;

	r1 = submit(NULL, 2, 1, 120, false);
	r2 = submit(NULL, 2, 1, 120, false);
	assert_int_equal(sched_run(), 2);
	low = submit("low", 1, 1, 10, false);
	high = submit("debug", 1, 1, 10, false);
	assert_true(J(high)->info.priority > J(low)->info.priority);
	assert_int_equal(job_mgr_pending_first()->info.job_id, high);
	/* 5000 partition + 500 fair-share + (1/3 + 1/6) / 2 x 2000 size
	 * (3 nodes, 6 CPUs) */
	assert_int_equal(J(low)->info.priority, 6000);
	assert_int_equal(J(high)->info.priority, 11000);
	/* an hour later low has the whole age factor; an operator set
	 * high's priority to 100 and it stays there */
	J(low)->info.eligible_time -= 3600;
	J(low)->info.accrue_time = J(low)->info.eligible_time;
	J(high)->prio_fixed = true;
	J(high)->info.priority = fixed = 100;
	priority_recalc(time(NULL));
	assert_int_equal(J(high)->info.priority, fixed);
	assert_int_equal(J(low)->info.priority, 7000);
	assert_int_equal(job_mgr_pending_first()->info.job_id, low);
	end_job(r1);
	end_job(r2);
	assert_int_equal(sched_run(), 2);
	end_job(low);
	end_job(high);
}

/* A higher PriorityTier is scheduled first whatever the priorities. */
static void test_priority_tier(void **st)
{
	uint32_t r1, r2, hi, tiered;

	r1 = submit(NULL, 2, 1, 120, false);
	r2 = submit(NULL, 2, 1, 120, false);
	assert_int_equal(sched_run(), 2);
	hi = submit("debug", 2, 1, 10, false);
	tiered = submit("tier", 2, 1, 10, false);
	assert_true(J(hi)->info.priority > J(tiered)->info.priority);
	assert_int_equal(job_mgr_pending_first()->info.job_id, tiered);
	end_job(r1);
	assert_int_equal(sched_run(), 1);
	assert_int_equal(state(tiered), JOB_RUNNING);
	assert_int_equal(state(hi), JOB_PENDING);
	end_job(r2);
	end_job(tiered);
	assert_int_equal(sched_run(), 1);
	end_job(hi);
}

/* With a tiny bf_yield_interval a pass gives the loop back many times;
 * a change meanwhile ends it early unless bf_continue. */
static void test_backfill_yields(void **st)
{
	uint32_t r1, r2, ids[40];
	sched_params_t save = sc.params;
	int calls = 0;

	r1 = submit(NULL, 2, 1, 120, false);
	r2 = submit(NULL, 2, 1, 120, false);
	assert_int_equal(sched_run(), 2);
	for (int i = 0; i < 40; i++)
		ids[i] = submit(NULL, 1, 1, 10 + i, false);
	sc.params.bf_yield_interval = 1;
	sc.params.bf_continue = false;
	_bf_on_event(-1, 0, NULL);
	assert_true(backfill_active());
	assert_true(bf.pos < bf.cnt);
	sched_trigger();                 /* something changed meanwhile */
	_bf_on_event(-1, 0, NULL);
	assert_false(backfill_active()); /* the pass ended there */
	assert_int_equal(J(ids[39])->info.start_time, 0);

	sc.params.bf_continue = true;
	do {
		_bf_on_event(-1, 0, NULL);
		calls++;
		if (calls == 2)
			sched_trigger();
	} while (backfill_active() && calls < 1000);
	assert_false(backfill_active());
	assert_true(calls > 2);
	/* the first four are planned when r1 and r2 end; none before */
	for (int i = 0; i < 4; i++)
		assert_true(J(ids[i])->info.start_time >=
			    J(r1)->info.end_time);
	for (int i = 4; i < 40; i++)
		assert_true(!J(ids[i])->info.start_time ||
			    J(ids[i])->info.start_time >= J(r1)->info.end_time);
	sc.params = save;
	end_job(r1);
	end_job(r2);
	for (int i = 0; i < 40; i++)
		job_mgr_end(J(ids[i]), JOB_CANCELLED, WAIT_NO_REASON, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_plugin_switch),
		cmocka_unit_test(test_backfill_hole),
		cmocka_unit_test(test_backfill_window),
		cmocka_unit_test(test_backfill_gpus),
		cmocka_unit_test(test_backfill_licenses_planned),
		cmocka_unit_test(test_backfill_licenses_any),
		cmocka_unit_test(test_mail_time_steps),
		cmocka_unit_test(test_preempt_qos),
		cmocka_unit_test(test_multifactor),
		cmocka_unit_test(test_multifactor_queue),
		cmocka_unit_test(test_backfill_yields),
		cmocka_unit_test(test_priority_tier),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
