/* job_req.c — what the scheduler asks of a pending job (declared in
 * job_mgr.h): its required and excluded node bitmaps, its select request,
 * and why its partition cannot run it. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "common/parse_util.h"
#include "ctld/job_mgr.h"
#include "ctld/job_res.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"

static void _refresh_bitmaps(job_record_t *j)
{
	if (j->bitmap_gen == node_mgr_generation() && j->bitmap_gen)
		return;
	if (j->req_bitmap)
		bitmap_destroy(j->req_bitmap);
	if (j->exc_bitmap)
		bitmap_destroy(j->exc_bitmap);
	j->req_bitmap = j->exc_bitmap = NULL;
	if (j->info.req_nodes && *j->info.req_nodes)
		j->req_bitmap = node_mgr_bitmap(j->info.req_nodes, NULL);
	if (j->info.exc_nodes && *j->info.exc_nodes)
		j->exc_bitmap = node_mgr_bitmap(j->info.exc_nodes, NULL);
	j->bitmap_gen = node_mgr_generation();
}

const bitmap_t *job_mgr_req_nodes(job_record_t *j)
{
	_refresh_bitmaps(j);
	return j->req_bitmap;
}

const bitmap_t *job_mgr_exc_nodes(job_record_t *j)
{
	_refresh_bitmaps(j);
	return j->exc_bitmap;
}

void job_mgr_select_req(job_record_t *j, select_req_t *r)
{
	const job_info_t *i = &j->info;

	memset(r, 0, sizeof(*r));
	r->min_nodes = i->num_nodes ? i->num_nodes : 1;
	r->max_nodes = i->max_nodes ? i->max_nodes : UINT32_MAX;
	r->num_tasks = i->num_tasks ? i->num_tasks : 1;
	r->cpus_per_task = i->cpus_per_task ? i->cpus_per_task : 1;
	r->ntasks_per_node = i->ntasks_per_node == NO_VAL16 ? 0 :
		i->ntasks_per_node;
	if (i->bitflags & JOB_OVERCOMMIT) {
		r->num_tasks = r->min_nodes;     /* a task per node (-O) */
		r->ntasks_per_node = 0;
	}
	if (i->pn_min_memory && i->pn_min_memory != NO_VAL64) {
		if (i->mem_per_cpu)
			r->mem_per_cpu = i->pn_min_memory;
		else
			r->mem_per_node = i->pn_min_memory;
	}
	r->exclusive = j->exclusive;
	r->required = job_mgr_req_nodes(j);
	job_res_fill_req(j, r);
}

/* The fewest CPUs the job can run on: a CPU per node, per task (times
 * -c) and its --mincpus. */
static uint64_t _cpus_wanted(const job_info_t *i)
{
	uint64_t cpus = i->num_nodes;
	uint32_t tasks = (i->bitflags & JOB_OVERCOMMIT) ? i->num_nodes :
			 i->num_tasks;
	uint64_t per_task = (uint64_t) (tasks ? tasks : 1) *
			    (i->cpus_per_task ? i->cpus_per_task : 1);

	if (per_task > cpus)
		cpus = per_task;
	if (i->num_cpus != NO_VAL32 && i->num_cpus > cpus)
		cpus = i->num_cpus;
	return cpus;
}

uint32_t job_mgr_part_reason_in(job_record_t *j, const part_record_t *part,
				time_t now)
{
	const part_info_t *p;

	if (!part)
		return WAIT_PART_CONFIG;
	p = &part->info;
	if (p->state_up == PARTITION_DOWN)
		return WAIT_PART_DOWN;
	if (p->state_up == PARTITION_INACTIVE)
		return WAIT_PART_INACTIVE;
	if (part_mgr_time_exceeds(part, j->info.time_limit))
		return WAIT_PART_TIME_LIMIT;
	/* as Slurm: more CPUs than the partition has is its configuration,
	 * more nodes than it has (with CPUs enough) its node limit */
	if (_cpus_wanted(&j->info) > p->total_cpus)
		return WAIT_PART_CONFIG;
	if ((p->max_nodes != INFINITE32 && j->info.num_nodes > p->max_nodes) ||
	    j->info.num_nodes < p->min_nodes ||
	    j->info.num_nodes > p->total_nodes)
		return WAIT_PART_NODE_LIMIT;
	return WAIT_NO_REASON;
}

/* -p a,b: no reason if one of them may run the job, else the first's. */
uint32_t job_mgr_part_reason(job_record_t *j, time_t now)
{
	uint32_t first = WAIT_NO_REASON, r;

	if (j->part_cnt <= 1)
		return job_mgr_part_reason_in(j, j->part, now);
	for (uint32_t k = 0; k < j->part_cnt; k++) {
		r = job_mgr_part_reason_in(j, j->part_list[k], now);
		if (r == WAIT_NO_REASON)
			return r;
		if (!k)
			first = r;
	}
	return first;
}
