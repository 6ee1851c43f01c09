/* test_job_view.c — the plugin job view (common/job_view.h) and its
 * filler (ctld/job_view_fill.c): every member comes from the job_info_t
 * member of its name, the view says its version and size, and view 1 is
 * still the frozen copy in tests/fixtures/job_view_v1 (a change to the
 * view that does not bump JOB_VIEW_VERSION fails here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

/* the frozen view 1, renamed, then the current one */
#define job_view job_view_v1
#define job_view_t job_view_v1_t
#include "../fixtures/job_view_v1/common/job_view.h"
#undef job_view
#undef job_view_t
#undef SLUICE_JOB_VIEW_H
static const unsigned fixture_version = JOB_VIEW_VERSION;
#undef JOB_VIEW_VERSION

#include "../../src/ctld/job_view_fill.c"

/* A job_info_t whose every integer member differs and whose strings
 * name themselves. */
static void make_info(job_info_t *i)
{
	memset(i, 0, sizeof(*i));
	i->job_id = 101; i->array_job_id = 102; i->array_task_id = 103;
	i->het_job_id = 104; i->name = "name"; i->user_id = 105;
	i->user_name = "user_name"; i->group_id = 106;
	i->group_name = "group_name"; i->partition = "partition";
	i->account = "account"; i->qos = "qos"; i->wckey = "wckey";
	i->reservation = "reservation"; i->comment = "comment";
	i->job_state = 107; i->state_reason = 108; i->priority = 109;
	i->nice = 110; i->nodes = "nodes"; i->num_nodes = 111;
	i->max_nodes = 112; i->num_cpus = 113; i->num_tasks = 114;
	i->cpus_per_task = 115; i->mem_per_cpu = true;
	i->pn_min_memory = 116; i->time_limit = 117; i->time_min = 118;
	i->submit_time = 119; i->eligible_time = 120; i->start_time = 121;
	i->end_time = 122; i->work_dir = "work_dir"; i->std_in = "std_in";
	i->std_out = "std_out"; i->std_err = "std_err"; i->exit_code = 123;
	i->derived_ec = 124; i->features = "features";
	i->dependency = "dependency"; i->gres = "gres";
	i->licenses = "licenses"; i->tres_req_str = "tres_req_str";
	i->tres_alloc_str = "tres_alloc_str"; i->batch_flag = true;
}

static void test_fill_every_member(void **state)
{
	job_view_t v;
	job_info_t i;
	int rec = 0;

	(void) state;
	make_info(&i);
	memset(&v, 0xa5, sizeof(v));
	job_view_fill(&v, &i, &rec);
	assert_int_equal(v.version, JOB_VIEW_VERSION);
	assert_int_equal(v.size, sizeof(job_view_t));
	assert_ptr_equal(v.ctld, &rec);
#define N(m) assert_int_equal(v.m, i.m)
#define S(m) assert_string_equal(v.m, #m)
	N(job_id); N(array_job_id); N(array_task_id); N(het_job_id);
	N(user_id); N(group_id); N(job_state); N(state_reason);
	N(priority); N(nice); N(num_nodes); N(max_nodes); N(num_cpus);
	N(num_tasks); N(cpus_per_task); N(mem_per_cpu); N(pn_min_memory);
	N(time_limit); N(time_min); N(submit_time); N(eligible_time);
	N(start_time); N(end_time); N(exit_code); N(derived_ec);
	N(batch_flag);
	S(name); S(user_name); S(group_name); S(partition); S(account);
	S(qos); S(wckey); S(reservation); S(comment); S(nodes);
	S(work_dir); S(std_in); S(std_out); S(std_err); S(features);
	S(dependency); S(gres); S(licenses); S(tres_req_str);
	S(tres_alloc_str);
#undef N
#undef S
}

/* strings are the record's own: a view holds no copies */
static void test_strings_not_copied(void **state)
{
	job_view_t v;
	job_info_t i;

	(void) state;
	make_info(&i);
	job_view_fill(&v, &i, NULL);
	assert_ptr_equal(v.name, i.name);
	assert_ptr_equal(v.tres_alloc_str, i.tres_alloc_str);
	assert_null(v.ctld);
}

/* a built-in's view: the header and the id, nothing else */
static void test_builtin_view(void **state)
{
	job_view_t v;
	job_info_t i;
	int rec = 0;

	(void) state;
	make_info(&i);
	memset(&v, 0, sizeof(v));
	job_view_fill_builtin(&v, &i, &rec);
	assert_int_equal(v.version, JOB_VIEW_VERSION);
	assert_int_equal(v.size, sizeof(job_view_t));
	assert_ptr_equal(v.ctld, &rec);
	assert_int_equal(v.job_id, 101);
	assert_null(v.name);
	assert_int_equal(v.num_cpus, 0);
	assert_null(v.tres_alloc_str);
	assert_false(v.batch_flag);
}

/* Until JOB_VIEW_VERSION is bumped, view 1 is the fixture's, member by
 * member: a plugin built against the fixture reads what it expects. */
static void test_view1_is_the_fixture(void **state)
{
	(void) state;
	assert_int_equal(fixture_version, 1);
	if (JOB_VIEW_VERSION != 1)
		skip();
	assert_int_equal(sizeof(job_view_v1_t), sizeof(job_view_t));
#define O(m) assert_int_equal(offsetof(job_view_v1_t, m), \
			      offsetof(job_view_t, m))
	O(version); O(size); O(ctld); O(job_id); O(array_task_id);
	O(het_job_id); O(name); O(user_id); O(partition); O(account);
	O(qos); O(comment); O(job_state); O(priority); O(nice); O(nodes);
	O(num_cpus); O(cpus_per_task); O(mem_per_cpu); O(pn_min_memory);
	O(time_limit); O(submit_time); O(end_time); O(std_err);
	O(exit_code); O(derived_ec); O(tres_alloc_str); O(batch_flag);
#undef O
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_every_member),
		cmocka_unit_test(test_strings_not_copied),
		cmocka_unit_test(test_builtin_view),
		cmocka_unit_test(test_view1_is_the_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
