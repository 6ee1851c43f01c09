/* test_sim_engine.c — sluice-sim's engine on tiny clusters and traces
 * whose outcome is known by hand: FIFO start times, a small job
 * backfilled, a job over its time limit ending TIMEOUT, priority
 * weights changing the order.  The controller's modules run for real,
 * on the virtual clock. */
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

#include "common/conf.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "sim/sim_engine.h"
#include "sim/trace.h"

#define T0 1767225600           /* the SWF epoch: 2026-01-01T00:00:00Z */

/* 4 nodes x 4 CPUs, one partition. */
#define CLUSTER "NodeName=n[1-4] CPUs=4 RealMemory=4000\n" \
	"PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE\n"

/* One SWF line: id, submit, run time, processors, requested time (s),
 * status (1 completed, 0 failed). */
#define JOB(id, sub, run, procs, req) \
	#id " " #sub " -1 " #run " " #procs " -1 -1 " #procs " " #req \
	" -1 1 " #id " 1 -1 1 -1 -1 -1\n"

static sim_result_t res;
static trace_t tr;
static slurm_conf_t *cf;
/* The last run's configuration, freed once the next is loaded: modules
 * that cache what they derived from a configuration know it by its
 * address (as across a reconfigure, the new one is loaded while the old
 * one still exists). */
static slurm_conf_t *cf_old;

static void _sim_parts(const char *conf_text, const char *swf,
		       const char *part2);

static void _sim(const char *conf_text, const char *swf)
{
	_sim_parts(conf_text, swf, NULL);
}

/* The same, the second job of the trace in partition part2. */
static void _sim_parts(const char *conf_text, const char *swf,
		       const char *part2)
{
	char dir[] = "/tmp/test_sim_engine.XXXXXX", path[256], err[512];
	trace_opts_t o;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	f = fopen(path, "w");
	fprintf(f, "ClusterName=t\nSlurmctldHost=localhost\n%s", conf_text);
	fclose(f);
	cf = conf_load(path, err, sizeof(err));
	if (!cf)
		fail_msg("%s", err);
	conf_destroy(cf_old);
	cf_old = NULL;
	unlink(path);
	rmdir(dir);
	trace_opts_init(&o);
	assert_int_equal(trace_swf_read(swf, strlen(swf), "t.swf", &o, &tr,
					err, sizeof(err)), 0);
	if (part2)
		tr.jobs[1].partition = xstrdup(part2);
	if (sim_engine_run(cf, &tr, &res, err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

static int _teardown(void **st)
{
	(void) st;
	sim_result_free(&res);
	sim_engine_fini();
	trace_free(&tr);
	cf_old = cf;
	cf = NULL;
	return 0;
}

static void _check(size_t i, time_t start, time_t end, const char *state,
		   bool bf)
{
	if (res.jobs[i].start != start || res.jobs[i].end != end ||
	    strcmp(res.jobs[i].state, state) || res.jobs[i].backfilled != bf)
		fail_msg("job %zu: start +%ld end +%ld %s bf %d; expected "
			 "+%ld +%ld %s %d", i, (long) (res.jobs[i].start - T0),
			 (long) (res.jobs[i].end - T0), res.jobs[i].state,
			 res.jobs[i].backfilled, (long) (start - T0),
			 (long) (end - T0), state, bf);
}

/* Strict FIFO (no backfill): the small job waits behind the wide one. */
static void test_fifo(void **st)
{
	(void) st;
	_sim("SchedulerType=sched/builtin\n" CLUSTER,
	     JOB(1, 0, 100, 16, 600) JOB(2, 10, 100, 16, 600)
	     JOB(3, 20, 50, 4, 600));
	_check(0, T0, T0 + 100, "COMPLETED", false);
	_check(1, T0 + 100, T0 + 200, "COMPLETED", false);
	_check(2, T0 + 200, T0 + 250, "COMPLETED", false);
	assert_int_equal(res.jobs[0].nnodes, 4);
	assert_int_equal(res.jobs[2].nnodes, 1);
}

/* Backfill (bf_interval=30): the 4-CPU job fits before the wide job's
 * planned start and starts at the first backfill pass. */
static void test_backfill(void **st)
{
	(void) st;
	_sim("SchedulerParameters=bf_interval=30\n" CLUSTER,
	     JOB(1, 0, 1000, 12, 1020) JOB(2, 1, 100, 16, 1020)
	     JOB(3, 2, 100, 4, 240));
	_check(0, T0, T0 + 1000, "COMPLETED", false);
	_check(1, T0 + 1000, T0 + 1100, "COMPLETED", false);
	_check(2, T0 + 30, T0 + 130, "COMPLETED", true);
}

/* On 1-CPU nodes a 2-processor job needs 2 nodes: backfill plans it
 * so (it once planned 1 node of 2 CPUs, which never fits, and left it
 * waiting behind the wide job). */
static void test_backfill_tasks_over_nodes(void **st)
{
	(void) st;
	_sim("SchedulerParameters=bf_interval=30\n"
	     "NodeName=n[1-8] CPUs=1 RealMemory=1000\n"
	     "PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE\n",
	     JOB(1, 0, 1000, 6, 1020) JOB(2, 1, 100, 8, 1020)
	     JOB(3, 2, 100, 2, 240));
	_check(0, T0, T0 + 1000, "COMPLETED", false);
	_check(1, T0 + 1000, T0 + 1100, "COMPLETED", false);
	_check(2, T0 + 30, T0 + 130, "COMPLETED", true);
	assert_int_equal(res.jobs[2].nnodes, 2);
}

/* MaxJobCount=2: the third job submitted while two are held is refused
 * (EAGAIN, as sbatch is told) and counted; the fourth, after the first
 * two ended and were purged (MinJobAge=10), runs. */
static void test_max_job_count(void **st)
{
	(void) st;
	_sim("MaxJobCount=2\nMinJobAge=10\n" CLUSTER,
	     JOB(1, 0, 100, 16, 600) JOB(2, 1, 100, 16, 600)
	     JOB(3, 2, 100, 4, 600) JOB(4, 500, 100, 4, 600));
	assert_string_equal(res.jobs[2].state, "REFUSED");
	assert_int_equal(res.full_refused, 1);
	assert_int_equal(res.full_first, T0 + 2);
	_check(3, T0 + 500, T0 + 600, "COMPLETED", false);
}

/* A run past the time limit ends TIMEOUT at the limit (+ OverTimeLimit);
 * a failed run ends FAILED. */
static void test_timeout(void **st)
{
	(void) st;
	_sim("OverTimeLimit=1\n" CLUSTER,
	     JOB(1, 0, 500, 4, 120) JOB(2, 0, 100, 4, 120)
	     "3 0 -1 30 4 -1 -1 4 120 -1 0 3 1 -1 1 -1 -1 -1\n");
	_check(0, T0, T0 + 180, "TIMEOUT", false);
	_check(1, T0, T0 + 100, "COMPLETED", false);
	_check(2, T0, T0 + 30, "FAILED", false);
}

/* Two jobs wait for the whole cluster: by age the older 1-node job goes
 * first; with a heavy job size weight the 4-node one does. */
static void test_priority_weights(void **st)
{
	const char *swf = JOB(1, 0, 1000, 16, 1020) JOB(2, 10, 100, 4, 1020)
		JOB(3, 20, 100, 16, 1020);

	(void) st;
	_sim("SchedulerType=sched/builtin\nPriorityType=priority/multifactor\n"
	     "PriorityWeightAge=1000\n" CLUSTER, swf);
	_check(1, T0 + 1000, T0 + 1100, "COMPLETED", false);
	_check(2, T0 + 1100, T0 + 1200, "COMPLETED", false);
	_teardown(NULL);
	_sim("SchedulerType=sched/builtin\nPriorityType=priority/multifactor\n"
	     "PriorityWeightJobSize=100000\n" CLUSTER, swf);
	_check(2, T0 + 1000, T0 + 1100, "COMPLETED", false);
	_check(1, T0 + 1100, T0 + 1200, "COMPLETED", false);
}

/* A job of a higher PriorityTier partition preempts: with REQUEUE the
 * preempted job runs again, whole, once its old credentials expired
 * (121 s, then the next 5 s trigger); with CANCEL it ends PREEMPTED. */
static void test_preemption(void **st)
{
	const char *conf = "PreemptType=preempt/partition_prio\n"
		"NodeName=n[1-4] CPUs=4 RealMemory=4000\n"
		"PartitionName=low Nodes=ALL Default=YES PriorityTier=1\n"
		"PartitionName=high Nodes=ALL PriorityTier=10\n";
	const char *swf = JOB(1, 0, 1000, 16, 2000)
		"2 100 -1 100 16 -1 -1 16 2000 -1 1 2 1 -1 -1 -1 -1 -1\n";
	char text[1024];

	(void) st;
	/* job 2 in partition high (sluice-sim's --swf-partitions) */
	snprintf(text, sizeof(text), "PreemptMode=REQUEUE\n%s", conf);
	_sim_parts(text, swf, "high");
	_check(1, T0 + 100, T0 + 200, "COMPLETED", false);
	_check(0, T0 + 225, T0 + 1225, "COMPLETED", false);
	_teardown(NULL);
	snprintf(text, sizeof(text), "PreemptMode=CANCEL\n%s", conf);
	_sim_parts(text, swf, "high");
	_check(0, T0, T0 + 100, "PREEMPTED", false);
	_check(1, T0 + 100, T0 + 200, "COMPLETED", false);
}

int main(void)
{
	log_options_t lo = { .stderr_level = LOG_LEVEL_QUIET,
			     .file_level = LOG_LEVEL_QUIET };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_fifo, _teardown),
		cmocka_unit_test_teardown(test_backfill, _teardown),
		cmocka_unit_test_teardown(test_backfill_tasks_over_nodes,
					  _teardown),
		cmocka_unit_test_teardown(test_max_job_count, _teardown),
		cmocka_unit_test_teardown(test_timeout, _teardown),
		cmocka_unit_test_teardown(test_priority_weights, _teardown),
		cmocka_unit_test_teardown(test_preemption, _teardown),
	};

	int rc;

	log_init("test_sim_engine", lo, NULL);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	conf_destroy(cf_old);
	return rc;
}
