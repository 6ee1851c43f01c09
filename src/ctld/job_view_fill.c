/* job_view_fill.c — see job_view_fill.h.  A member is copied by hand
 * (no table walk): the priority plugins see every pending job on each
 * PriorityCalcPeriod and this is their whole cost of the view. */
#include "ctld/job_view_fill.h"

void job_view_fill_builtin(job_view_t *v, const job_info_t *i,
			   const void *ctld)
{
	v->version = JOB_VIEW_VERSION;
	v->size = sizeof(*v);
	v->ctld = ctld;
	v->job_id = i->job_id;
}

void job_view_fill(job_view_t *v, const job_info_t *i, const void *ctld)
{
	*v = (job_view_t) {
		.version = JOB_VIEW_VERSION, .size = sizeof(*v), .ctld = ctld,
		.job_id = i->job_id, .array_job_id = i->array_job_id,
		.array_task_id = i->array_task_id,
		.het_job_id = i->het_job_id, .name = i->name,
		.user_id = i->user_id, .user_name = i->user_name,
		.group_id = i->group_id, .group_name = i->group_name,
		.partition = i->partition, .account = i->account,
		.qos = i->qos, .wckey = i->wckey,
		.reservation = i->reservation, .comment = i->comment,
		.job_state = i->job_state, .state_reason = i->state_reason,
		.priority = i->priority, .nice = i->nice, .nodes = i->nodes,
		.num_nodes = i->num_nodes, .max_nodes = i->max_nodes,
		.num_cpus = i->num_cpus, .num_tasks = i->num_tasks,
		.cpus_per_task = i->cpus_per_task,
		.mem_per_cpu = i->mem_per_cpu,
		.pn_min_memory = i->pn_min_memory,
		.time_limit = i->time_limit, .time_min = i->time_min,
		.submit_time = i->submit_time,
		.eligible_time = i->eligible_time,
		.start_time = i->start_time, .end_time = i->end_time,
		.work_dir = i->work_dir, .std_in = i->std_in,
		.std_out = i->std_out, .std_err = i->std_err,
		.exit_code = i->exit_code, .derived_ec = i->derived_ec,
		.features = i->features, .dependency = i->dependency,
		.gres = i->gres, .licenses = i->licenses,
		.tres_req_str = i->tres_req_str,
		.tres_alloc_str = i->tres_alloc_str,
		.batch_flag = i->batch_flag,
	};
}
