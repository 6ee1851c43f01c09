/* test_job_submit_stock.c — the stock job_submit plugins built into
 * slurmctld (job_submit_stock.h): bad requests first, then good ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../src/ctld/job_submit_stock.c"
#include "../../src/ctld/js_view.c"

/* The plugins see the current view; the controller fills it from an
 * unset request (js_view.h), as here. */
static void view_init(job_submit_view_t *v)
{
	job_desc_t d;

	job_desc_init(&d);
	js_view_fill(JOB_SUBMIT_VIEW_VERSION, v, &d, PROTO_OWN);
}

static void view_free(job_submit_view_t *v)
{
	job_desc_t d;

	job_desc_init(&d);
	js_view_take(JOB_SUBMIT_VIEW_VERSION, v, &d);
	job_desc_free_members(&d);
}

static const job_submit_ops_t *ops_of(const struct sluice_plugin *p)
{
	assert_string_equal(p->type, "job_submit");
	assert_int_equal(p->ops_version, JOB_SUBMIT_OPS_VERSION);
	return p->ops;
}

static void test_require_timelimit(void **state)
{
	const job_submit_ops_t *o = ops_of(&job_submit_require_timelimit_plugin);
	job_view_t job = { .job_id = 7 };
	job_submit_view_t d;
	char *msg = NULL;

	(void) state;
	view_init(&d);
	assert_int_equal(o->submit(&d, NULL, 0, 1001, &msg),
			 ESLURM_MISSING_TIME_LIMIT);
	assert_string_equal(slurm_strerror(ESLURM_MISSING_TIME_LIMIT),
		"Time limit specification required, but not provided");
	d.time_limit = INFINITE32;
	assert_int_equal(o->submit(&d, NULL, 0, 1001, &msg),
			 ESLURM_INVALID_TIME_LIMIT);
	assert_int_equal(o->modify(&d, &job, NULL, 0, 0, &msg),
			 ESLURM_INVALID_TIME_LIMIT);
	d.time_limit = 10;
	assert_int_equal(o->submit(&d, NULL, 0, 1001, &msg), 0);
	d.time_limit = NO_VAL32;        /* an update that leaves it */
	assert_int_equal(o->modify(&d, &job, NULL, 0, 0, &msg), 0);
	assert_null(msg);
	view_free(&d);
}

static void test_all_partitions(void **state)
{
	const job_submit_ops_t *o = ops_of(&job_submit_all_partitions_plugin);
	part_view_t pv[4] = {
		{ .name = "debug", .state_up = PART_VIEW_UP },
		{ .name = "drained", .state_up = PART_VIEW_DRAIN },
		{ .name = "down", .state_up = PART_VIEW_DOWN },
		{ .name = "off", .state_up = PART_VIEW_INACTIVE },
	};
	const part_view_t *const parts[4] = { &pv[0], &pv[1], &pv[2], &pv[3] };
	job_submit_view_t d;
	char *msg = NULL;

	(void) state;
	view_init(&d);
	assert_int_equal(o->submit(&d, parts, 4, 1001, &msg), 0);
	assert_string_equal(d.partition, "debug,down");
	xfree(d.partition);
	d.partition = xstrdup("mine");  /* given: kept */
	assert_int_equal(o->submit(&d, parts, 4, 1001, &msg), 0);
	assert_string_equal(d.partition, "mine");
	view_free(&d);
}

static void test_throttle_drain(void **state)
{
	time_t last = 1000;

	(void) state;
	/* nothing drains within a minute, or from an empty count */
	assert_int_equal(job_submit_throttle_drain(5, 60, &last, 1059), 5);
	assert_int_equal(last, 1000);
	assert_int_equal(job_submit_throttle_drain(0, 60, &last, 5000), 0);
	assert_int_equal(last, 5000);
	/* 60 an hour: one a minute */
	last = 1000;
	assert_int_equal(job_submit_throttle_drain(5, 60, &last, 1000 + 120),
			 3);
	assert_int_equal(last, 1120);
	/* 2 an hour: the first one drains after half an hour */
	last = 0;
	assert_int_equal(job_submit_throttle_drain(2, 2, &last, 1799), 2);
	assert_int_equal(job_submit_throttle_drain(2, 2, &last, 1800), 1);
	assert_int_equal(last, 1800);
	assert_int_equal(job_submit_throttle_drain(1, 2, &last, 7200), 0);
}

static void test_throttle_limit(void **state)
{
	const job_submit_ops_t *o = ops_of(&job_submit_throttle_plugin);
	slurm_conf_t conf = { .scheduler_parameters =
		(char *) "bf_interval=30,jobs_per_user_per_hour=2" };
	job_submit_view_t d;
	char *msg = NULL, err[256] = "";

	(void) state;
	view_init(&d);
	conf.scheduler_parameters = (char *) "jobs_per_user_per_hour=two";
	assert_int_equal(o->init(&conf, err, sizeof(err)), -1);
	assert_string_equal(err, "Invalid SchedulerParameters "
			    "jobs_per_user_per_hour=two");
	conf.scheduler_parameters =
		(char *) "bf_interval=30,jobs_per_user_per_hour=2";
	assert_int_equal(o->init(&conf, err, sizeof(err)), 0);
	assert_int_equal(o->submit(&d, NULL, 0, 1001, &msg), 0);
	assert_int_equal(o->submit(&d, NULL, 0, 1001, &msg), 0);
	assert_int_equal(o->submit(&d, NULL, 0, 1002, &msg), 0);
	assert_null(msg);
	assert_int_equal(o->submit(&d, NULL, 0, 1001, &msg),
			 ESLURM_ACCOUNTING_POLICY);
	assert_string_equal(msg, "Reached jobs per hour limit");
	xfree(msg);
	/* no limit configured: no count */
	conf.scheduler_parameters = NULL;
	assert_int_equal(o->init(&conf, err, sizeof(err)), 0);
	assert_int_equal(o->submit(&d, NULL, 0, 1001, &msg), 0);
	view_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_require_timelimit),
		cmocka_unit_test(test_all_partitions),
		cmocka_unit_test(test_throttle_drain),
		cmocka_unit_test(test_throttle_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
