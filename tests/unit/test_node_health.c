/* test_node_health.c — which nodes the controller asks to run
 * HealthCheckProgram, and when (ctld/node_health.c): HealthCheckNodeState
 * words, the state filter, CYCLE spreading a round over the interval. */
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

#include "../../src/ctld/node_health.c"

#define NODES 10

static slurm_conf_t *conf;
static node_record_t nodes[NODES];
static char names[NODES][8];
static int asked[NODES];

const slurm_conf_t *ctld_conf(void) { return conf; }
size_t node_mgr_count(void) { return NODES; }
node_record_t *node_mgr_at(size_t i) { return i < NODES ? &nodes[i] : NULL; }

void agent_send_rc(const char *host, uint16_t port, uint16_t type, void *req,
		   int timeout_ms, agent_rpc_done_f done, void *arg)
{
	(void) host; (void) req; (void) timeout_ms; (void) done; (void) arg;
	assert_int_equal(type, REQUEST_HEALTH_CHECK);
	assert_true(port < NODES);
	asked[port]++;
}

static void _conf(const char *extra)
{
	char dir[] = "/tmp/test_node_health.XXXXXX", path[64], err[256];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	f = fopen(path, "w");
	fprintf(f, "ClusterName=t\nSlurmctldHost=localhost\n%s"
		"NodeName=n[0-9] NodeAddr=127.0.0.1 CPUs=2\n"
		"PartitionName=p Nodes=ALL\n", extra);
	fclose(f);
	if (conf)
		conf_destroy(conf);
	conf = conf_load(path, err, sizeof(err));
	if (!conf)
		fail_msg("%s", err);
	unlink(path);
	rmdir(dir);
	memset(&hc, 0, sizeof(hc));
	memset(asked, 0, sizeof(asked));
	for (int i = 0; i < NODES; i++) {
		snprintf(names[i], sizeof(names[i]), "n%d", i);
		nodes[i].info.name = names[i];
		nodes[i].info.port = (uint16_t) i;    /* who was asked */
		nodes[i].info.node_state = NODE_STATE_IDLE;
		nodes[i].index = (uint32_t) i;
	}
}

static void test_parse(void **st)
{
	uint32_t f;
	char err[128];

	(void) st;
	assert_int_equal(node_health_parse_state("ANY", &f, err, sizeof(err)), 0);
	assert_int_equal(f, HC_NODE_ANY);
	assert_int_equal(node_health_parse_state("idle,Mixed", &f, err,
						 sizeof(err)), 0);
	assert_int_equal(f, HC_NODE_IDLE | HC_NODE_MIXED);
	assert_int_equal(node_health_parse_state("CYCLE", &f, err, sizeof(err)),
			 0);
	assert_int_equal(f, HC_NODE_ANY | HC_NODE_CYCLE);
	assert_int_equal(node_health_parse_state("ALLOC,CYCLE", &f, err,
						 sizeof(err)), 0);
	assert_int_equal(f, HC_NODE_ALLOC | HC_NODE_CYCLE);
	assert_int_equal(node_health_parse_state("IDLE,BUSY", &f, err,
						 sizeof(err)), -1);
	assert_string_equal(err, "Invalid HealthCheckNodeState value BUSY "
			    "ignored");
	assert_int_equal(f, HC_NODE_IDLE);
	assert_int_equal(node_health_parse_state("BUSY", &f, err, sizeof(err)),
			 -1);
	assert_int_equal(f, HC_NODE_ANY);
}

static void test_all_at_once_filtered(void **st)
{
	time_t t = 1000;

	(void) st;
	_conf("HealthCheckProgram=/bin/true\nHealthCheckInterval=5\n"
	      "HealthCheckNodeState=IDLE,MIXED\n");
	nodes[1].info.node_state = NODE_STATE_ALLOCATED;
	nodes[2].info.node_state = NODE_STATE_MIXED;
	nodes[3].info.node_state = NODE_STATE_IDLE | NODE_STATE_NO_RESPOND;
	nodes[4].info.node_state = NODE_STATE_DOWN;
	for (; t < 1005; t++)
		node_health_tick(t);          /* the first round after 5 s */
	for (int i = 0; i < NODES; i++)
		assert_int_equal(asked[i], 0);
	node_health_tick(t);
	for (int i = 0; i < NODES; i++)
		assert_int_equal(asked[i], i == 1 || i == 3 || i == 4 ? 0 : 1);
	node_health_tick(t + 4);
	assert_int_equal(asked[0], 1);
	node_health_tick(t + 5);
	assert_int_equal(asked[0], 2);
}

static void test_cycle(void **st)
{
	time_t t = 2000;

	(void) st;
	_conf("HealthCheckProgram=/bin/true\nHealthCheckInterval=5\n"
	      "HealthCheckNodeState=CYCLE\n");
	int before = 0;

	node_health_tick(t++);               /* starts the clock */
	for (int s = 0; s < 9; s++) {
		int total = 0;

		node_health_tick(t++);
		for (int i = 0; i < NODES; i++)
			total += asked[i];
		/* a share each second, not all at once */
		assert_true(total - before > 0 && total - before < NODES);
		before = total;
	}
	/* two whole intervals: each node exactly twice */
	for (int i = 0; i < NODES; i++)
		assert_int_equal(asked[i], 2);
}

static void test_off(void **st)
{
	(void) st;
	_conf("HealthCheckInterval=5\n");            /* no program */
	for (time_t t = 0; t < 20; t++)
		node_health_tick(t);
	_conf("HealthCheckProgram=/bin/true\n");     /* no interval */
	for (time_t t = 0; t < 20; t++)
		node_health_tick(t);
	for (int i = 0; i < NODES; i++)
		assert_int_equal(asked[i], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_all_at_once_filtered),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_off),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	if (conf)
		conf_destroy(conf);
	return rc;
}
