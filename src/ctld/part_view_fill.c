/* part_view_fill.c — see part_view_fill.h.  Members copied by hand, as
 * job_view_fill.c does: tests/unit/test_part_view.c checks each one. */
#include "ctld/part_view_fill.h"

_Static_assert((int) PART_VIEW_INACTIVE == (int) PARTITION_INACTIVE &&
	       (int) PART_VIEW_DOWN == (int) PARTITION_DOWN &&
	       (int) PART_VIEW_DRAIN == (int) PARTITION_DRAIN &&
	       (int) PART_VIEW_UP == (int) PARTITION_UP,
	       "part_view_t's states are part_info_t's: map them");

void part_view_fill(part_view_t *v, const part_info_t *p)
{
	*v = (part_view_t) {
		.version = PART_VIEW_VERSION, .size = sizeof(*v), .ctld = p,
		.name = p->name, .nodes = p->nodes, .state_up = p->state_up,
		.is_default = p->is_default, .hidden = p->hidden,
		.root_only = p->root_only,
		.exclusive_user = p->exclusive_user, .lln = p->lln,
		.req_resv = p->req_resv,
		.disable_root_jobs = p->disable_root_jobs,
		.max_time = p->max_time, .default_time = p->default_time,
		.max_nodes = p->max_nodes, .min_nodes = p->min_nodes,
		.total_nodes = p->total_nodes, .total_cpus = p->total_cpus,
		.total_mem = p->total_mem, .allow_groups = p->allow_groups,
		.allow_accounts = p->allow_accounts,
		.deny_accounts = p->deny_accounts,
		.allow_qos = p->allow_qos, .deny_qos = p->deny_qos,
		.qos = p->qos_char, .alternate = p->alternate,
		.priority_job_factor = p->priority_job_factor,
		.priority_tier = p->priority_tier,
		.oversubscribe = p->oversubscribe,
		.grace_time = p->grace_time,
		.def_mem_per_cpu = p->def_mem_per_cpu,
		.def_mem_per_node = p->def_mem_per_node,
		.max_mem_per_cpu = p->max_mem_per_cpu,
		.max_mem_per_node = p->max_mem_per_node,
		.max_cpus_per_node = p->max_cpus_per_node,
		.preempt_mode = p->preempt_mode, .tres = p->tres_fmt_str,
	};
}
