/* job_will_run.c — sbatch --test-only (job_will_run.h). */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/job_res.h"
#include "ctld/job_will_run.h"
#include "ctld/node_mgr.h"
#include "slurm/slurm_errno.h"

/* Without an end in sight (running jobs without a time limit). */
#define WILL_RUN_FAR (365L * 24 * 3600)

typedef struct {
	select_node_t *view;
	size_t         cnt;
	bitmap_t      *usable;
} will_view_t;

static void _view_init(will_view_t *v)
{
	v->cnt = node_mgr_count();
	v->view = xcalloc(v->cnt + 1, sizeof(*v->view));
	node_mgr_select_view(v->view);
	v->usable = bitmap_create(v->cnt ? v->cnt : 1);
	for (size_t i = 0; i < v->cnt; i++)
		if (node_mgr_usable(node_mgr_at(i)))
			bitmap_set(v->usable, i);
}

static void _view_fini(will_view_t *v)
{
	xfree(v->view);
	bitmap_destroy(v->usable);
}

/* Give back what running job r holds (counts only: CPU ids and GPU
 * indexes are not tracked in the estimate). */
static void _release(will_view_t *v, const job_record_t *r)
{
	long i;
	uint32_t k = 0;

	for (i = bitmap_first_set(r->node_bitmap); i >= 0 && k < r->alloc_cnt;
	     i = bitmap_next_set(r->node_bitmap, (size_t) i + 1), k++) {
		select_node_t *n = &v->view[i];

		n->alloc_cpus -= n->alloc_cpus < r->node_cpus[k] ?
			n->alloc_cpus : r->node_cpus[k];
		n->alloc_memory -= n->alloc_memory < r->node_mem[k] ?
			n->alloc_memory : r->node_mem[k];
	}
}

/* By end time; no end (no time limit) last. */
static int _end_cmp(const void *a, const void *b)
{
	time_t x = (*(job_record_t *const *) a)->info.end_time;
	time_t y = (*(job_record_t *const *) b)->info.end_time;

	if (!x || !y)
		return !x - !y;
	return x < y ? -1 : x > y;
}

/* When j would start: now, or as running jobs end.  0 with res filled,
 * or a select_rc. */
static int _estimate(job_record_t *j, time_t now, time_t *start,
		     select_result_t *res)
{
	will_view_t v;
	job_record_t **run = NULL;
	size_t n = 0;
	int rc;

	_view_init(&v);
	*start = now;
	rc = job_res_select(j, v.view, v.cnt, v.usable, false, res);
	if (rc == SELECT_OK)
		goto out;
	for (job_record_t *r = job_mgr_running_first(); r; r = r->run_next) {
		if (!r->node_bitmap)
			continue;
		run = xrealloc_sz(run, n * sizeof(*run), (n + 1) * sizeof(*run));
		run[n++] = r;
	}
	if (n)
		qsort(run, n, sizeof(*run), _end_cmp);
	for (size_t i = 0; i < v.cnt; i++) {
		v.view[i].cpu_used = NULL;
		v.view[i].gpu_used = 0;
	}
	for (size_t k = 0; k < n && rc != SELECT_OK; k++) {
		_release(&v, run[k]);
		rc = job_res_select(j, v.view, v.cnt, v.usable, false, res);
		if (rc == SELECT_OK)
			*start = run[k]->info.end_time > now ?
				run[k]->info.end_time : now;
		if (rc == SELECT_OK && !run[k]->info.end_time)
			*start = now + WILL_RUN_FAR;
	}
out:
	xfree(run);
	_view_fini(&v);
	return rc;
}

static void _free_resp(void *data)
{
	msg_body_free(RESPONSE_JOB_WILL_RUN, data);
}

void job_mgr_rpc_will_run(net_conn_t *c, slurm_msg_t *m)
{
	will_run_response_msg_t *w;
	select_result_t res = { 0 };
	char *msg = NULL;
	int rc = 0;
	time_t start = 0;
	job_record_t *j = job_mgr_trial(m->data, m, &rc, &msg);

	if (j && (rc = _estimate(j, time(NULL), &start, &res)) != SELECT_OK)
		rc = ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
	if (rc) {
		return_code_msg_t r = { .rc = rc, .msg = msg };

		info("_slurm_rpc_job_will_run: uid=%u: %s", m->auth_uid,
		     slurm_strerror(rc));
		net_reply(c, RESPONSE_SLURM_RC, &r);
		xfree(msg);
		job_mgr_trial_free(j);
		return;
	}
	w = xmalloc(sizeof(*w));
	w->job_id = j->info.job_id;
	w->start_time = start;
	w->proc_cnt = res.cpu_cnt;
	w->node_list = node_mgr_names(res.nodes);
	w->part_name = xstrdup(j->part ? j->part->info.name : j->info.partition);
	select_result_free(&res);
	/* As Slurm: the id is used up. */
	job_mgr_set_next_id(j->info.job_id + 1 > ctld_conf()->max_job_id ?
			    ctld_conf()->first_job_id : j->info.job_id + 1);
	info("_slurm_rpc_job_will_run: JobId=%u uid=%u start=%ld nodes=%s",
	     w->job_id, m->auth_uid, (long) start, w->node_list);
	job_mgr_trial_free(j);
	net_reply(c, RESPONSE_JOB_WILL_RUN, w);
	_free_resp(w);
}
