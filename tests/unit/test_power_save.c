/* test_power_save.c — power saving (ctld/power_save.c, power_conf.c) over
 * the controller's real node, partition and job tables (ctld_world.h),
 * with the clock given to the ticks: bad keys first, then SuspendTime per
 * partition, exclusions, and a job waiting for its nodes to power up. */
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

static char dir[] = "/tmp/test_power_save.XXXXXX";

#define BASE_CONF \
	"ClusterName=t\nSlurmctldHost=localhost\nStateSaveLocation=%s/state\n" \
	"SuspendProgram=/bin/true\nResumeProgram=/bin/true\n" \
	"SuspendTimeout=2\nResumeTimeout=20\n" \
	"SlurmctldParameters=power_save_interval=1\n%s\n" \
	"NodeName=n[1-6] NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000\n" \
	"PartitionName=p1 Nodes=n[1-2] SuspendTime=10 Default=YES\n" \
	"PartitionName=p2 Nodes=n[3-4],n6 SuspendTime=NONE\n" \
	"PartitionName=p3 Nodes=n[5-6]\n"

static slurm_conf_t *load(const char *extra, char *err, size_t errlen)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	f = fopen(path, "w");
	fprintf(f, BASE_CONF, dir, extra);
	fclose(f);
	return conf_load(path, err, errlen);
}

static void register_node(node_record_t *n)
{
	node_registration_msg_t r = { .cpus = 2, .sockets = 2, .cores = 1,
				      .threads = 1, .real_memory = 1000 };
	slurm_msg_t m = { .data = &r, .peer = "127.0.0.1:1" };

	r.node_name = n->info.name;
	node_mgr_rpc_register(NULL, &m);
}

static int setup(void **st)
{
	char err[512];

	(void) st;
	if (!mkdtemp(dir))
		return -1;
	conf = load("SuspendTime=100\nSuspendExcNodes=n4", err, sizeof(err));
	if (!conf) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	if (state_save_init(conf->state_save_location, "t", err, sizeof(err)))
		return -1;
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	if (power_save_configure(conf, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	job_mgr_init();
	for (size_t i = 0; i < node_mgr_count(); i++)
		register_node(node_mgr_at(i));
	return 0;
}

static int teardown(void **st)
{
	char cmd[300];

	(void) st;
	power_save_fini();
	job_mgr_fini();
	part_mgr_fini();
	node_mgr_fini();
	conf_destroy(conf);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A bad key: an error naming it, and nothing changes. */
static void bad_key(const char *extra, const char *want)
{
	char err[512] = "";
	slurm_conf_t *c = load(extra, err, sizeof(err));
	power_conf_t pc;

	assert_non_null(c);
	assert_int_equal(power_conf_parse(c, &pc, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("%s: got \"%s\", want \"%s\"", extra, err, want);
	assert_int_equal(power_save_check(c, err, sizeof(err)), -1);
	conf_destroy(c);
}

static void test_exc_states(void **st)
{
	char err[512] = "";
	slurm_conf_t *c;
	power_conf_t pc;

	(void) st;
	bad_key("SuspendExcStates=DOWN,SLEEPY", "Invalid SuspendExcStates");
	bad_key("SuspendExcNodes=n[1-2],zz9", "node zz9 does not exist");
	bad_key("SuspendExcNodes=n[1-2]:x", "Invalid SuspendExcNodes");
	bad_key("SuspendExcParts=p1,nopart", "partition nopart does not exist");
	bad_key("SlurmctldParameters=power_save_interval=soon",
		"invalid power_save_interval");

	c = load("SuspendExcStates=down,DRAIN,Cloud\n"
		 "SuspendExcNodes=n[1-3]:2,n6", err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(power_conf_parse(c, &pc, err, sizeof(err)), 0);
	assert_true(pc.exc_down);
	assert_int_equal(pc.exc_flags, NODE_STATE_DRAIN | NODE_STATE_CLOUD);
	assert_int_equal(pc.exc_cnt, 2);
	assert_string_equal(pc.exc[0].nodes, "n[1-3]");
	assert_int_equal(pc.exc[0].keep_up, 2);
	assert_string_equal(pc.exc[1].nodes, "n6");
	assert_int_equal(pc.exc[1].keep_up, 0);
	assert_true(pc.enabled);
	assert_int_equal(pc.interval, 1);
	power_conf_free(&pc);
	conf_destroy(c);
}

static uint32_t flags(const char *name)
{
	return node_mgr_find(name)->info.node_state & POWER_STATE_FLAGS;
}

/* p1 (n1, n2) 10 s; p2 (n3, n4, n6) never; p3 (n5, n6) the global 100 s:
 * n6 is in both, the larger wins (never).  n4 is excluded anyway. */
static void test_partition_suspend_time(void **st)
{
	time_t now = time(NULL);

	(void) st;
	for (size_t i = 0; i < node_mgr_count(); i++)
		node_mgr_at(i)->info.last_busy = now;
	power_save_tick(now + 5);
	assert_int_equal(flags("n1"), 0);
	power_save_tick(now + 11);
	assert_int_equal(flags("n1"), NODE_STATE_POWERING_DOWN);
	assert_int_equal(flags("n2"), NODE_STATE_POWERING_DOWN);
	assert_int_equal(flags("n5"), 0);
	assert_false(node_mgr_usable(node_mgr_find("n1")));
	power_save_tick(now + 14);               /* SuspendTimeout=2 */
	assert_int_equal(flags("n1"), NODE_STATE_POWERED_DOWN);
	assert_true(node_mgr_usable(node_mgr_find("n1")));
	power_save_tick(now + 101);
	assert_int_equal(flags("n5"), NODE_STATE_POWERING_DOWN);
	assert_int_equal(flags("n3"), 0);
	assert_int_equal(flags("n4"), 0);
	assert_int_equal(flags("n6"), 0);
	power_save_tick(now + 104);
	assert_int_equal(flags("n5"), NODE_STATE_POWERED_DOWN);
}

/* A job on powered-down nodes: CONFIGURING, its nodes POWERING_UP; it
 * goes (CONFIGURING cleared, clock restarted) when they registered; a
 * node that never does is DOWN after ResumeTimeout. */
static void test_job_waits_for_nodes(void **st)
{
	job_desc_t d;
	slurm_msg_t m = { .auth_uid = 0 };
	uint32_t id = job_mgr_next_id();
	job_record_t *j;
	time_t now = time(NULL);

	(void) st;
	job_desc_init(&d);
	d.script = xstrdup("#!/bin/sh\ntrue\n");
	d.partition = xstrdup("p1");
	d.min_nodes = 2;
	d.num_tasks = 2;
	m.data = &d;
	job_mgr_rpc_submit(NULL, &m);
	job_desc_free_members(&d);
	sched_run();
	j = job_mgr_find(id);
	assert_non_null(j);
	assert_int_equal(j->info.job_state, JOB_RUNNING | JOB_CONFIGURING);
	assert_int_equal(flags("n1"), NODE_STATE_POWERING_UP);
	assert_int_equal(flags("n2"), NODE_STATE_POWERING_UP);
	assert_true(power_save_job_waiting(j));
	register_node(node_mgr_find("n1"));
	assert_int_equal(flags("n1"), 0);
	assert_int_equal(j->info.job_state, JOB_RUNNING | JOB_CONFIGURING);
	register_node(node_mgr_find("n2"));
	assert_int_equal(j->info.job_state, JOB_RUNNING);
	assert_false(power_save_job_waiting(j));

	/* n5 is powered down (above): power it up and never register */
	node_mgr_find("n5")->info.node_state |= NODE_STATE_POWER_UP;
	power_save_tick(now + 1);
	assert_int_equal(flags("n5"), NODE_STATE_POWERING_UP);
	power_save_tick(now + 25);                /* ResumeTimeout=20 */
	assert_int_equal(flags("n5"), NODE_STATE_POWERED_DOWN);
	assert_int_equal(node_mgr_find("n5")->info.node_state & NODE_STATE_BASE,
			 NODE_STATE_DOWN);
	assert_string_equal(node_mgr_find("n5")->info.reason,
			    "ResumeTimeout reached");
}

static int power_rpc(const char *nodes, uint16_t how)
{
	power_msg_t r = { .node_list = (char *) nodes, .flags = how };
	slurm_msg_t m = { .data = &r, .auth_uid = 0, .peer = "test" };

	power_save_rpc(NULL, &m);
	return 0;
}

/* SlurmctldParameters: power_save_min_interval (no pass outside the
 * tick within it), idle_on_node_suspend (a DOWN, drained node powered
 * down is IDLE), cloud_dns (a cloud node keeps its NodeAddr). */
static void test_ctld_params(void **st)
{
	char err[512] = "";
	slurm_conf_t *c = load("SuspendTime=100\nSlurmctldParameters="
			       "power_save_interval=1,power_save_min_interval=30,"
			       "idle_on_node_suspend,cloud_dns", err,
			       sizeof(err));
	node_record_t *n3 = node_mgr_find("n3"), *n6 = node_mgr_find("n6");
	time_t now = time(NULL);

	(void) st;
	assert_non_null(c);
	assert_int_equal(power_save_configure(c, err, sizeof(err)), 0);
	conf_destroy(c);
	node_state_set_down(n3, "broken", 0);
	node_state_set_drain(n3, true);
	n6->info.node_state |= NODE_STATE_CLOUD;
	node_mgr_set_addr(n6, "10.9.9.9", NULL);
	power_rpc("n6", POWER_FLAGS_DOWN);
	power_rpc("n3", POWER_FLAGS_DOWN);
	/* within power_save_min_interval of the last pass: asked only */
	assert_int_equal(flags("n3"), NODE_STATE_POWER_DOWN);
	power_save_tick(now + 200);
	assert_int_equal(flags("n3"), NODE_STATE_POWERING_DOWN);
	assert_int_equal(n3->info.node_state & NODE_STATE_BASE,
			 NODE_STATE_IDLE);
	assert_false(n3->info.node_state & NODE_STATE_DRAIN);
	assert_null(n3->info.reason);
	power_save_tick(now + 203);
	assert_int_equal(flags("n6"), NODE_STATE_POWERED_DOWN);
	assert_string_equal(n6->info.node_addr, "10.9.9.9");
	n6->info.node_state &= ~NODE_STATE_CLOUD;
	assert_int_equal(power_save_configure(conf, err, sizeof(err)), 0);
}

/* sinfo's suffixes and scontrol's flags. */
static void test_state_strings(void **st)
{
	char *s;

	(void) st;
	s = node_state_string_sinfo(NODE_STATE_IDLE | NODE_STATE_POWERED_DOWN,
				    true);
	assert_string_equal(s, "idle~");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_ALLOCATED |
				    NODE_STATE_POWERING_UP, false);
	assert_string_equal(s, "allocated#");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_IDLE | NODE_STATE_POWERING_DOWN,
				    true);
	assert_string_equal(s, "idle%");
	xfree(s);
	s = node_state_string_sinfo(NODE_STATE_IDLE | NODE_STATE_POWER_DOWN,
				    true);
	assert_string_equal(s, "idle!");
	xfree(s);
	s = node_state_string_long(NODE_STATE_IDLE | NODE_STATE_CLOUD |
				   NODE_STATE_POWERED_DOWN);
	assert_string_equal(s, "IDLE+CLOUD+POWERED_DOWN");
	xfree(s);
	s = node_state_string_long(NODE_STATE_MIXED | NODE_STATE_POWER_DRAIN |
				   NODE_STATE_POWER_DOWN);
	assert_string_equal(s, "MIXED+DRAIN+POWER_DOWN");
	xfree(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exc_states),
		cmocka_unit_test(test_partition_suspend_time),
		cmocka_unit_test(test_job_waits_for_nodes),
		cmocka_unit_test(test_ctld_params),
		cmocka_unit_test(test_state_strings),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
