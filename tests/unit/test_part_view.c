/* test_part_view.c — the plugin partition view (common/part_view.h) and
 * its filler (ctld/part_view_fill.c): every member comes from the
 * part_info_t member it names, the view says its version and size, and
 * view 1 is still the frozen copy in tests/fixtures/part_view_v1 (a
 * change to the view that does not bump PART_VIEW_VERSION fails here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

/* the frozen view 1, renamed, then the current one */
#define part_view part_view_v1
#define part_view_t part_view_v1_t
#define part_view_state part_view_state_v1
#define PART_VIEW_INACTIVE V1_INACTIVE
#define PART_VIEW_DOWN V1_DOWN
#define PART_VIEW_DRAIN V1_DRAIN
#define PART_VIEW_UP V1_UP
#include "../fixtures/part_view_v1/common/part_view.h"
#undef part_view
#undef part_view_t
#undef part_view_state
#undef PART_VIEW_INACTIVE
#undef PART_VIEW_DOWN
#undef PART_VIEW_DRAIN
#undef PART_VIEW_UP
#undef SLUICE_PART_VIEW_H
static const unsigned fixture_version = PART_VIEW_VERSION;
#undef PART_VIEW_VERSION

#include "../../src/ctld/part_view_fill.c"

/* A part_info_t whose every integer member differs and whose strings
 * name themselves. */
static void make_info(part_info_t *p)
{
	memset(p, 0, sizeof(*p));
	p->name = "name"; p->nodes = "nodes"; p->state_up = 101;
	p->is_default = true; p->hidden = true; p->root_only = true;
	p->exclusive_user = true; p->lln = true; p->req_resv = true;
	p->disable_root_jobs = true; p->max_time = 102;
	p->default_time = 103; p->max_nodes = 104; p->min_nodes = 105;
	p->total_nodes = 106; p->total_cpus = 107; p->total_mem = 108;
	p->allow_groups = "allow_groups"; p->allow_accounts = "allow_accounts";
	p->deny_accounts = "deny_accounts"; p->allow_qos = "allow_qos";
	p->deny_qos = "deny_qos"; p->qos_char = "qos";
	p->alternate = "alternate"; p->priority_job_factor = 109;
	p->priority_tier = 110; p->oversubscribe = "oversubscribe";
	p->grace_time = 111; p->def_mem_per_cpu = 112;
	p->def_mem_per_node = 113; p->max_mem_per_cpu = 114;
	p->max_mem_per_node = 115; p->max_cpus_per_node = 116;
	p->preempt_mode = "preempt_mode"; p->tres_fmt_str = "tres";
}

static void test_fill_every_member(void **state)
{
	part_view_t v;
	part_info_t p;

	(void) state;
	make_info(&p);
	memset(&v, 0xa5, sizeof(v));
	part_view_fill(&v, &p);
	assert_int_equal(v.version, PART_VIEW_VERSION);
	assert_int_equal(v.size, sizeof(part_view_t));
	assert_ptr_equal(v.ctld, &p);
#define N(m) assert_int_equal(v.m, p.m)
#define S(m) assert_string_equal(v.m, #m)
	N(state_up); N(is_default); N(hidden); N(root_only);
	N(exclusive_user); N(lln); N(req_resv); N(disable_root_jobs);
	N(max_time); N(default_time); N(max_nodes); N(min_nodes);
	N(total_nodes); N(total_cpus); N(total_mem);
	N(priority_job_factor); N(priority_tier); N(grace_time);
	N(def_mem_per_cpu); N(def_mem_per_node); N(max_mem_per_cpu);
	N(max_mem_per_node); N(max_cpus_per_node);
	S(name); S(nodes); S(allow_groups); S(allow_accounts);
	S(deny_accounts); S(allow_qos); S(deny_qos); S(qos); S(alternate);
	S(oversubscribe); S(preempt_mode); S(tres);
#undef N
#undef S
	assert_ptr_equal(v.name, p.name);     /* not copied */
}

/* Until PART_VIEW_VERSION is bumped, view 1 is the fixture's, member by
 * member: a plugin built against the fixture reads what it expects. */
static void test_view1_is_the_fixture(void **state)
{
	(void) state;
	assert_int_equal(fixture_version, 1);
	if (PART_VIEW_VERSION != 1)
		skip();
	assert_int_equal(sizeof(part_view_v1_t), sizeof(part_view_t));
	assert_int_equal(V1_INACTIVE, PART_VIEW_INACTIVE);
	assert_int_equal(V1_DOWN, PART_VIEW_DOWN);
	assert_int_equal(V1_DRAIN, PART_VIEW_DRAIN);
	assert_int_equal(V1_UP, PART_VIEW_UP);
#define O(m) assert_int_equal(offsetof(part_view_v1_t, m), \
			      offsetof(part_view_t, m))
	O(version); O(size); O(ctld); O(name); O(nodes); O(state_up);
	O(is_default); O(hidden); O(root_only); O(exclusive_user); O(lln);
	O(req_resv); O(disable_root_jobs); O(max_time); O(default_time);
	O(max_nodes); O(min_nodes); O(total_nodes); O(total_cpus);
	O(total_mem); O(allow_groups); O(allow_accounts); O(deny_accounts);
	O(allow_qos); O(deny_qos); O(qos); O(alternate);
	O(priority_job_factor); O(priority_tier); O(oversubscribe);
	O(grace_time); O(def_mem_per_cpu); O(def_mem_per_node);
	O(max_mem_per_cpu); O(max_mem_per_node); O(max_cpus_per_node);
	O(preempt_mode); O(tres);
#undef O
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_every_member),
		cmocka_unit_test(test_view1_is_the_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
