/* job_resize.c — shrinking a running job (job_resize.h). */
#include <string.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "slurm/slurm_errno.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/commit.h"
#include "ctld/job_res.h"
#include "ctld/job_resize.h"
#include "ctld/node_mgr.h"
#include "ctld/sched.h"
#include "ctld/step_mgr.h"

static long _batch_index(const job_record_t *j)
{
	const node_record_t *n = j->info.batch_host ?
		node_mgr_find(j->info.batch_host) : NULL;

	return n && bitmap_test(j->node_bitmap, n->index) ?
		(long) n->index : bitmap_first_set(j->node_bitmap);
}

int job_resize_check(const job_record_t *j, uint32_t min_nodes,
		     const char *req_nodes, bitmap_t **keep)
{
	uint32_t have = j->node_bitmap ? (uint32_t) bitmap_count(j->node_bitmap)
		: 0;
	long b;
	bitmap_t *k;

	*keep = NULL;
	if ((j->info.job_state & JOB_STATE_BASE) != JOB_RUNNING ||
	    (j->info.job_state & JOB_COMPLETING) || !have)
		return ESLURM_JOB_NOT_RUNNING;
	b = _batch_index(j);
	if (req_nodes && *req_nodes) {
		if (!(k = node_mgr_bitmap(req_nodes, NULL)))
			return ESLURM_INVALID_NODE_NAME;
		if (!bitmap_count(k) || !bitmap_is_subset(k, j->node_bitmap) ||
		    (b >= 0 && !bitmap_test(k, (size_t) b))) {
			bitmap_destroy(k);
			return ESLURM_INVALID_NODE_NAME;
		}
		if (min_nodes != NO_VAL32 &&
		    (uint32_t) bitmap_count(k) != min_nodes) {
			bitmap_destroy(k);
			return ESLURM_INVALID_NODE_COUNT;
		}
	} else if (min_nodes != NO_VAL32) {
		if (!min_nodes)
			return ESLURM_INVALID_NODE_COUNT;
		if (min_nodes > have)
			return ESLURM_NOT_SUPPORTED;   /* no growing */
		k = bitmap_create(bitmap_size(j->node_bitmap));
		if (b >= 0)
			bitmap_set(k, (size_t) b);
		for (long i = bitmap_first_set(j->node_bitmap);
		     i >= 0 && bitmap_count(k) < min_nodes;
		     i = bitmap_next_set(j->node_bitmap, i + 1))
			bitmap_set(k, (size_t) i);
	} else {
		return 0;
	}
	if (bitmap_equal(k, j->node_bitmap)) {
		bitmap_destroy(k);
		return 0;
	}
	*keep = k;
	return 0;
}

/* Keep entry k of a per-node array at position at. */
#define KEEP(arr, at, k) do { if (arr) (arr)[at] = (arr)[k]; } while (0)

void job_resize_apply(job_record_t *j, bitmap_t *keep)
{
	job_info_t *i = &j->info;
	bitmap_t *gone = bitmap_copy(j->node_bitmap);
	uint32_t at = 0, k = 0, cpus = 0, tasks = 0, old_cnt = j->alloc_cnt;
	uint32_t *map = xcalloc(old_cnt + 1, sizeof(*map));
	char *was = xstrdup(i->nodes);

	bitmap_and_not(gone, keep);
	for (long n = bitmap_first_set(j->node_bitmap);
	     n >= 0 && k < j->alloc_cnt;
	     n = bitmap_next_set(j->node_bitmap, n + 1), k++) {
		node_record_t *nr = node_mgr_at((size_t) n);

		map[k] = bitmap_test(keep, (size_t) n) ? at : UINT32_MAX;
		if (!bitmap_test(keep, (size_t) n)) {
			/* back to the pool */
			job_res_hold_node(j, k, nr, false);
			node_mgr_release(nr, j->node_cpus[k], j->node_mem[k]);
			if (j->node_cpu_ids && j->node_cpu_ids[k])
				bitmap_destroy(j->node_cpu_ids[k]);
			if (j->node_gres)
				xfree(j->node_gres[k]);
			continue;
		}
		KEEP(j->node_cpus, at, k);
		KEEP(j->node_tasks, at, k);
		KEEP(j->node_mem, at, k);
		KEEP(j->node_cpu_ids, at, k);
		KEEP(j->node_gpus, at, k);
		KEEP(j->node_gres, at, k);
		cpus += j->node_cpus[at];
		tasks += j->node_tasks[at];
		at++;
	}
	if (j->node_cpu_ids)
		j->node_cpu_ids[at] = NULL;
	if (j->node_gres)
		j->node_gres[at] = NULL;
	j->alloc_cnt = at;
	bitmap_destroy(j->node_bitmap);
	j->node_bitmap = keep;
	if (j->comp_bitmap)
		bitmap_and(j->comp_bitmap, keep);
	xfree(i->nodes);
	i->nodes = node_mgr_names(keep);
	i->num_nodes = at;
	i->max_nodes = at;
	i->num_cpus = cpus;
	if (i->num_tasks > tasks)
		i->num_tasks = tasks ? tasks : 1;
	xfree(i->cpus_per_node_str);
	i->cpus_per_node_str = select_compress_counts(j->node_cpus, at);
	step_mgr_job_resized(j, map, old_cnt);
	xfree(map);
	job_mgr_tres_alloc(j);
	job_res_describe(j);
	job_mgr_touch(j);
	info("%s: JobId=%u resized from %s to %s", __func__, i->job_id, was,
	     i->nodes);
	xfree(was);
	/* its processes on the released nodes end once this is on disk */
	job_mgr_send_nodes(gone, REQUEST_TERMINATE_JOB, job_mgr_term_msg(j));
	bitmap_destroy(gone);
	acct_job_changed(j);
	sched_trigger();
}
