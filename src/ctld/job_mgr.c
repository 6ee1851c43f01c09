/* job_mgr.c — job table and lists, allocation and release, end of jobs,
 * purge, job info and the job part of the snapshot (job_mgr.h). */
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <utlist.h>

#include "common/debug_flags.h"
#include "common/conf_params.h"
#include "common/fields.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/trigger.h"
#include "ctld/acct_job.h"
#include "ctld/agent.h"
#include "ctld/assoc_mgr.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_depend.h"
#include "ctld/job_mail.h"
#include "ctld/job_files.h"
#include "ctld/job_ckpt.h"
#include "ctld/job_inactive.h"
#include "ctld/crontab.h"
#include "ctld/gang.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/job_notify.h"
#include "ctld/lic_mgr.h"
#include "ctld/job_prolog.h"
#include "ctld/job_res.h"
#include "ctld/jobcomp.h"
#include "ctld/preempt.h"
#include "ctld/sched.h"
#include "ctld/state_save.h"
#include "ctld/stats.h"
#include "ctld/step_mgr.h"
#include "slurm/slurm_errno.h"

#define TERM_RESEND_SEC 30

static struct {
	job_record_t *by_id;
	job_record_t *pending;     /* scheduling order */
	uint64_t      pend_gen;    /* changes to the pending list */
	job_record_t *running;     /* holding nodes */
	job_record_t *finished;    /* by end time, for purge */
	/* Every record, in the order added, NULL where one was purged: what
	 * a whole-queue answer walks.  Following the hash's own chain would
	 * wait on memory at every record (one dependent load after another,
	 * 50,000 of them); from an array the CPU fetches several at once. */
	job_record_t **all;
	uint32_t      all_cnt, all_cap, all_holes;
	uint32_t      cnt;
	uint32_t      next_id;
	uint32_t     *dirty;       /* ids changed since the last commit */
	size_t        dirty_cnt, dirty_cap;
	uint32_t     *purged;      /* ids purged since the last commit */
	size_t        purged_cnt, purged_cap;
	time_t        last_change; /* of any job a client sees */
} jm;

int job_mgr_init(void)
{
	jm.next_id = ctld_conf()->first_job_id ? ctld_conf()->first_job_id : 1;
	return 0;
}

static void _push_id(uint32_t **arr, size_t *cnt, size_t *cap, uint32_t id)
{
	if (*cnt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;

		*arr = xrealloc_sz(*arr, *cap * sizeof(uint32_t),
				   ncap * sizeof(uint32_t));
		*cap = ncap;
	}
	(*arr)[(*cnt)++] = id;
}

static void _free_job(job_record_t *j)
{
	job_array_release(j);
	step_mgr_job_free(j);
	lic_mgr_job_forget(j);
	job_info_free_members(&j->info);
	job_depend_free(j);
	xstrarray_free(j->argv);
	xfree(j->ckpt_why);
	if (j->node_bitmap)
		bitmap_destroy(j->node_bitmap);
	if (j->comp_bitmap)
		bitmap_destroy(j->comp_bitmap);
	if (j->req_bitmap)
		bitmap_destroy(j->req_bitmap);
	if (j->exc_bitmap)
		bitmap_destroy(j->exc_bitmap);
	xfree(j->node_cpus);
	xfree(j->node_tasks);
	job_res_free(j);
	xfree(j->node_mem);
	xfree(j);
}

void job_mgr_changed(void)
{
	jm.last_change = time(NULL);
}

time_t job_mgr_last_change(void)
{
	return jm.last_change;
}

void job_mgr_touch(job_record_t *j)
{
	jm.last_change = time(NULL);
	if (j->jdirty)
		return;
	j->jdirty = true;
	_push_id(&jm.dirty, &jm.dirty_cnt, &jm.dirty_cap, j->info.job_id);
}

void job_mgr_free_job(job_record_t *j)
{
	_free_job(j);
}

/* The journal takes the ids changed and purged since the last call. */
void job_mgr_take_changes(uint32_t **dirty, size_t *dirty_cnt,
			  uint32_t **purged, size_t *purged_cnt)
{
	*dirty = jm.dirty;
	*dirty_cnt = jm.dirty_cnt;
	*purged = jm.purged;
	*purged_cnt = jm.purged_cnt;
	jm.dirty = jm.purged = NULL;
	jm.dirty_cnt = jm.dirty_cap = jm.purged_cnt = jm.purged_cap = 0;
}

void job_mgr_fini(void)
{
	job_record_t *j, *tmp;

	HASH_ITER(hh, jm.by_id, j, tmp) {
		HASH_DEL(jm.by_id, j);
		_free_job(j);
	}
	jm.pending = jm.running = jm.finished = NULL;
	jm.pend_gen++;
	jm.cnt = 0;
	xfree(jm.all);
	jm.all_cnt = jm.all_cap = jm.all_holes = 0;
	xfree(jm.dirty);
	xfree(jm.purged);
	jm.dirty_cnt = jm.dirty_cap = jm.purged_cnt = jm.purged_cap = 0;
}

job_record_t *job_mgr_find(uint32_t job_id)
{
	job_record_t *j = NULL;

	HASH_FIND(hh, jm.by_id, &job_id, sizeof(uint32_t), j);
	return j;
}

job_record_t *job_mgr_find_str(const char *id)
{
	uint32_t v;

	if (!id || parse_u32(id, &v) < 0)
		return NULL;
	return job_mgr_find(v);
}

job_record_t *job_mgr_find_for(const char *id, uid_t uid)
{
	job_array_sel_t sel;
	job_record_t *j = NULL;

	if (id && strchr(id, '+'))        /* "123+1": a hetjob component */
		return het_job_find_str(id);
	if (!id || !strchr(id, '_'))
		return job_mgr_find_str(id);
	if (job_array_select(id, &sel))
		return NULL;
	if (sel.cnt == 1 && !sel.tasks)
		j = sel.recs[0];
	else if (!sel.cnt && bitmap_count(sel.tasks) == 1 &&
		 (sel.meta->info.user_id == uid || ctld_is_operator(uid)))
		j = job_array_split(sel.meta,
				    (uint32_t)bitmap_first_set(sel.tasks));
	else if (!sel.cnt)
		j = sel.meta;          /* the caller refuses on the owner */
	job_array_sel_free(&sel);
	return j;
}

job_record_t *const *job_mgr_all(uint32_t *cnt)
{
	*cnt = jm.all_cnt;
	return jm.all;
}

uint32_t job_mgr_count(void)
{
	return jm.cnt;
}

uint32_t job_mgr_next_id(void)
{
	return jm.next_id;
}

void job_mgr_set_next_id(uint32_t id)
{
	if (id)
		jm.next_id = id;
}

job_record_t *job_mgr_create(uint32_t job_id)
{
	job_record_t *j = xmalloc(sizeof(*j));

	j->info.job_id = job_id;
	j->info.array_task_id = NO_VAL32;
	j->info.nice = NICE_OFFSET;
	j->acct_requid = NO_VAL32;
	return j;
}

/* Close the holes purges left once they are half of jm.all. */
static void _all_compact(void)
{
	uint32_t n = 0;

	if (jm.all_holes < 1024 || jm.all_holes < jm.all_cnt / 2)
		return;
	for (uint32_t i = 0; i < jm.all_cnt; i++) {
		if (!jm.all[i])
			continue;
		jm.all[i]->all_idx = n;
		jm.all[n++] = jm.all[i];
	}
	jm.all_cnt = n;
	jm.all_holes = 0;
}

static void _all_remove(job_record_t *j)
{
	jm.all[j->all_idx] = NULL;
	jm.all_holes++;
	_all_compact();
}

void job_mgr_add(job_record_t *j)
{
	if (jm.all_cnt == jm.all_cap) {
		uint32_t ncap = jm.all_cap ? jm.all_cap * 2 : 1024;

		jm.all = xrealloc_sz(jm.all, jm.all_cap * sizeof(*jm.all),
				     ncap * sizeof(*jm.all));
		jm.all_cap = ncap;
	}
	j->all_idx = jm.all_cnt;
	jm.all[jm.all_cnt++] = j;
	HASH_ADD(hh, jm.by_id, info.job_id, sizeof(uint32_t), j);
	jm.cnt++;
	j->jdirty = false;
	job_mgr_touch(j);
	if (j->info.job_id >= jm.next_id) {
		jm.next_id = j->info.job_id + 1;
		if (jm.next_id > ctld_conf()->max_job_id)
			jm.next_id = ctld_conf()->first_job_id;
	}
}

/* ---- lists ---- */

/* Partition PriorityTier first, then priority, then job id. */
static int _prio_cmp(const job_record_t *a, const job_record_t *b)
{
	uint16_t ta = a->part ? a->part->info.priority_tier : 0;
	uint16_t tb = b->part ? b->part->info.priority_tier : 0;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->info.priority != b->info.priority)
		return a->info.priority > b->info.priority ? -1 : 1;
	return a->info.job_id < b->info.job_id ? -1 : 1;
}

job_record_t *job_mgr_pending_first(void)
{
	return jm.pending;
}

int job_mgr_pending_cmp(const job_record_t *a, const job_record_t *b)
{
	return a == b ? 0 : _prio_cmp(a, b);
}

uint64_t job_mgr_pending_gen(void)
{
	return jm.pend_gen;
}

/* Insert in order, searching from the tail: new jobs have the lowest
 * priority of all, so a submit costs O(1). */
void job_mgr_pending_add(job_record_t *j)
{
	job_record_t *pos = jm.pending ? jm.pending->pend_prev : NULL;

	if (j->on_pend)
		return;
	while (pos && _prio_cmp(j, pos) < 0)
		pos = pos == jm.pending ? NULL : pos->pend_prev;
	if (!pos) {
		DL_PREPEND2(jm.pending, j, pend_prev, pend_next);
	} else if (!pos->pend_next) {
		DL_APPEND2(jm.pending, j, pend_prev, pend_next);
	} else {
		j->pend_next = pos->pend_next;
		j->pend_prev = pos;
		pos->pend_next->pend_prev = j;
		pos->pend_next = j;
	}
	j->on_pend = true;
	jm.pend_gen++;
	assoc_mgr_job_pending(j, 1);
}

void job_mgr_pending_del(job_record_t *j)
{
	if (!j->on_pend)
		return;
	DL_DELETE2(jm.pending, j, pend_prev, pend_next);
	j->on_pend = false;
	jm.pend_gen++;
	assoc_mgr_job_pending(j, -1);
}

void job_mgr_pending_resort(job_record_t *j)
{
	job_mgr_touch(j);
	job_mgr_pending_del(j);
	job_mgr_pending_add(j);
}

static int _prio_qcmp(const void *a, const void *b)
{
	return _prio_cmp(*(job_record_t * const *) a,
			 *(job_record_t * const *) b);
}

void job_mgr_pending_sort(void)
{
	job_record_t *j, **v;
	size_t n = 0, k;

	for (j = jm.pending; j; j = j->pend_next)
		n++;
	if (n < 2)
		return;
	v = xcalloc(n, sizeof(*v));
	for (j = jm.pending, k = 0; j; j = j->pend_next)
		v[k++] = j;
	qsort(v, n, sizeof(*v), _prio_qcmp);
	jm.pend_gen++;
	jm.pending = NULL;
	for (k = 0; k < n; k++)
		DL_APPEND2(jm.pending, v[k], pend_prev, pend_next);
	xfree(v);
}

void job_mgr_running_add(job_record_t *j)
{
	if (j->on_run)
		return;
	DL_APPEND2(jm.running, j, run_prev, run_next);
	j->on_run = true;
	assoc_mgr_job_running(j, 1);
}

void job_mgr_running_del(job_record_t *j)
{
	if (!j->on_run)
		return;
	DL_DELETE2(jm.running, j, run_prev, run_next);
	j->on_run = false;
	assoc_mgr_job_running(j, -1);
}

job_record_t *job_mgr_running_first(void)
{
	return jm.running;
}

job_record_t *job_mgr_finished_first(void)
{
	return jm.finished;
}

/* The finished list reuses the run links: a job is on one or the other. */
static void _finished_add(job_record_t *j)
{
	job_mgr_running_del(j);
	job_mgr_pending_del(j);
	if (j->on_fin)
		return;
	DL_APPEND2(jm.finished, j, run_prev, run_next);
	j->on_fin = true;
}

void job_mgr_finished_del(job_record_t *j)
{
	if (!j->on_fin)
		return;
	DL_DELETE2(jm.finished, j, run_prev, run_next);
	j->on_fin = false;
}

/* ---- allocation ---- */

static long _alloc_pos(const job_record_t *j, uint32_t index)
{
	long i, k = 0;

	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++)
		if ((uint32_t) i == index)
			return k;
	return -1;
}

static void _apply_alloc(job_record_t *j)
{
	long i, k = 0;

	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++)
		node_mgr_alloc(node_mgr_at(i), j->node_cpus[k], j->node_mem[k]);
}

void job_mgr_tres_alloc(job_record_t *j)
{
	uint64_t mem = 0, gpus = 0;
	char m[32];
	uint32_t k;

	for (k = 0; k < j->alloc_cnt; k++)
		mem += j->node_mem[k];
	xfree(j->info.tres_alloc_str);
	j->info.tres_alloc_str = xstrdup_printf("cpu=%u", j->info.num_cpus);
	if (mem) {
		fmt_mem_mb(mem, m, sizeof(m));
		xstrfmtcat(&j->info.tres_alloc_str, ",mem=%s", m);
	}
	for (k = 0; j->node_gpus && k < j->alloc_cnt; k++)
		gpus += (uint64_t) __builtin_popcountll(j->node_gpus[k]);
	xstrfmtcat(&j->info.tres_alloc_str, ",node=%u,billing=%" PRIu64,
		   j->info.num_nodes,
		   billing_of(j->part ? &j->part->billing : NULL,
			      j->info.num_cpus, mem, j->info.num_nodes, gpus));
	lic_mgr_tres(j, &j->info.tres_alloc_str);
}

/* -O: the job was placed as a task per node; its tasks go round the
 * nodes in blocks (SLURM_TASKS_PER_NODE "3,2"), sharing the CPUs. */
static void _overcommit_tasks(job_record_t *j, uint32_t tasks)
{
	uint32_t n = j->alloc_cnt;

	if (!tasks || tasks == NO_VAL32)
		tasks = n;
	for (uint32_t k = 0; k < n; k++)
		j->node_tasks[k] = (uint16_t) (tasks / n + (k < tasks % n));
}

void job_mgr_start(job_record_t *j, const select_result_t *res)
{
	job_info_t *i;
	time_t now = time(NULL);

	j = job_array_take_task(j);
	i = &j->info;
	log_flag(TRACE_JOBS, "%s: enter JobId=%u", __func__, i->job_id);

	j->node_bitmap = bitmap_copy(res->nodes);
	j->alloc_cnt = res->node_cnt;
	j->node_cpus = xcalloc(res->node_cnt + 1, sizeof(uint16_t));
	j->node_tasks = xcalloc(res->node_cnt + 1, sizeof(uint16_t));
	j->node_mem = xcalloc(res->node_cnt + 1, sizeof(uint64_t));
	memcpy(j->node_cpus, res->cpus, res->node_cnt * sizeof(uint16_t));
	memcpy(j->node_tasks, res->tasks, res->node_cnt * sizeof(uint16_t));
	if ((i->bitflags & JOB_OVERCOMMIT) && res->node_cnt)
		_overcommit_tasks(j, i->num_tasks);
	memcpy(j->node_mem, res->mem, res->node_cnt * sizeof(uint64_t));
	_apply_alloc(j);
	lic_mgr_job_get(j);
	job_mgr_pending_del(j);
	job_mgr_running_add(j);
	i->job_state = JOB_RUNNING;
	i->state_reason = WAIT_NO_REASON;
	i->start_time = now;
	j->started_here = true;
	i->end_time = (i->time_limit == INFINITE32 || i->time_limit == NO_VAL32) ?
		0 : now + (time_t) i->time_limit * 60;
	/* --deadline with --time-min: run shorter to end in time */
	if (i->deadline && (!i->end_time || i->end_time > i->deadline) &&
	    i->time_min && i->time_min != NO_VAL32 &&
	    now + (time_t) i->time_min * 60 <= i->deadline) {
		i->time_limit = (uint32_t) ((i->deadline - now) / 60);
		i->end_time = now + (time_t) i->time_limit * 60;
	}
	if (!i->eligible_time)
		i->eligible_time = now;
	i->last_sched_eval = now;
	xfree(i->nodes);
	i->nodes = node_mgr_names(j->node_bitmap);
	xfree(i->batch_host);
	i->batch_host = xstrdup(node_mgr_at(bitmap_first_set(j->node_bitmap))->info.name);
	i->num_nodes = res->node_cnt;
	i->num_cpus = res->cpu_cnt;
	xfree(i->cpus_per_node_str);
	i->cpus_per_node_str = select_compress_counts(res->cpus, res->node_cnt);
	xfree(i->sched_name);
	i->sched_name = xstrdup("Main");
	job_mgr_tres_alloc(j);
	job_res_start(j, res);
	preempt_job_started(j);
	job_ckpt_started(j);
	job_mgr_touch(j);
	info("sched: Allocate JobId=%u NodeList=%s #CPUs=%u Partition=%s",
	     i->job_id, i->nodes, i->num_cpus, i->partition);
	job_mail(j, JOB_MAIL_BEGIN);
	commit_dirty();
	acct_job_changed(j);
	acct_job_batch_started(j);
	job_mgr_launch(j);
}

/* Give back node n's share of j. */
static void _release_node(job_record_t *j, node_record_t *n)
{
	long k = _alloc_pos(j, n->index);

	if (k < 0)
		return;
	job_res_hold_node(j, (uint32_t) k, n, false);
	node_mgr_release(n, j->node_cpus[k], j->node_mem[k]);
}

static void _finish(job_record_t *j)
{
	job_mgr_touch(j);
	j->info.job_state &= ~JOB_COMPLETING;
	if (j->info.job_state & JOB_REQUEUE) {
		job_mgr_requeue_done(j);
		return;
	}
	_finished_add(j);
	debug("JobId=%u completing done", j->info.job_id);
	commit_dirty();
	sched_trigger();
}

/* A request to these nodes of the job, along the TreeWidth tree. */
static void _send_nodes_now(const bitmap_t *nodes, uint16_t type, void *req);

typedef struct {
	bitmap_t *nodes;
	uint16_t  type;
	void     *req;
} send_later_t;

static void _send_saved(void *arg)
{
	send_later_t *l = arg;

	_send_nodes_now(l->nodes, l->type, l->req);
	bitmap_destroy(l->nodes);
	xfree(l);
}

/* Sent once the change that asks for it is on disk: a signal (suspend's
 * SIGSTOP, resume's SIGCONT, scancel --signal) for a change the journal
 * refused must not reach the job. */
void job_mgr_send_nodes(const bitmap_t *nodes, uint16_t type, void *req)
{
	send_later_t *l = xmalloc(sizeof(*l));

	l->nodes = bitmap_copy(nodes);
	l->type = type;
	l->req = req;
	commit_after(_send_saved, l);
}

static void _send_nodes_now(const bitmap_t *nodes, uint16_t type, void *req)
{
	char **names = NULL, **addrs = NULL;
	uint32_t cnt = 0;
	long i;

	for (i = bitmap_first_set(nodes); i >= 0;
	     i = bitmap_next_set(nodes, i + 1)) {
		node_record_t *n = node_mgr_at(i);

		names = xrealloc(names, (cnt + 2) * sizeof(char *));
		addrs = xrealloc(addrs, (cnt + 2) * sizeof(char *));
		names[cnt] = n->info.name;
		addrs[cnt++] = xstrdup_printf("%s:%u", n->info.node_addr,
					      n->info.port);
	}
	if (cnt)
		agent_send_tree(names, addrs, cnt, type, req,
				ctld_conf()->tree_width,
				ctld_conf()->message_timeout * 1000);
	else
		msg_body_free(type, req);
	for (uint32_t k = 0; k < cnt; k++)
		xfree(addrs[k]);
	xfree(addrs);
	xfree(names);
}

/* The terminate request for j's nodes. */
node_signal_msg_t *job_mgr_term_msg(job_record_t *j)
{
	node_signal_msg_t *s = xmalloc(sizeof(*s));

	s->job_id = j->info.job_id;
	s->step_id = NO_VAL32;
	s->signal = 9;
	s->kill_wait = ctld_conf()->kill_wait;
	/* the base state says why (stepd's "DUE TO ..."); REQUEUE kept */
	s->job_state = j->info.job_state & (JOB_STATE_BASE | JOB_REQUEUE);
	s->nodes = xstrdup(j->info.nodes);
	s->uid = j->info.user_id;
	s->gid = j->info.group_id;
	s->user_name = xstrdup(j->info.user_name);
	return s;
}

static void _terminate_all(job_record_t *j)
{
	j->term_sent = time(NULL);
	_send_nodes_now(j->comp_bitmap, REQUEST_TERMINATE_JOB, job_mgr_term_msg(j));
}

/* The end is on disk: now tell the nodes.  Sent earlier, a node could
 * clean the job up and a controller restarted from before the end would
 * launch it a second time.  A node told in a reply (job_mgr_term_reply,
 * sent after the same save) is left out; a resend includes it. */
static void _terminate_saved(void *arg)
{
	job_record_t *j = job_mgr_find((uint32_t) (uintptr_t) arg);
	bitmap_t *rest;

	if (!j || !(j->info.job_state & JOB_COMPLETING) || !j->comp_bitmap)
		return;
	if (!j->term_reply_idx) {
		_terminate_all(j);
		return;
	}
	rest = bitmap_copy(j->comp_bitmap);
	bitmap_clear(rest, j->term_reply_idx - 1);
	j->term_sent = time(NULL);
	_send_nodes_now(rest, REQUEST_TERMINATE_JOB, job_mgr_term_msg(j));
	bitmap_destroy(rest);
}

bool job_mgr_batch_alone(const job_record_t *j)
{
	/* j->steps: a step ran (or runs) this run, or the extern step;
	 * freed when the job ends, so asked before */
	uint32_t flags = 0;

	if (j->steps || !j->launch_acked || j->relaunched)
		return false;
	return conf_parse_prolog_flags(ctld_conf()->prolog_flags, &flags,
				       NULL, 0) == 0 &&
	       !(flags & PROLOG_FLAG_CONTAIN);
}

node_signal_msg_t *job_mgr_term_reply(job_record_t *j, const char *node,
				      bool clean)
{
	node_record_t *n = node ? node_mgr_find(node) : NULL;
	node_signal_msg_t *s;

	if (!n || !(j->info.job_state & JOB_COMPLETING) || !j->comp_bitmap ||
	    !bitmap_test(j->comp_bitmap, n->index))
		return NULL;
	j->term_reply_idx = n->index + 1;
	j->term_reply_done = clean;
	s = job_mgr_term_msg(j);
	if (clean) {
		s->flags |= TERM_NODE_DONE;
		job_mgr_node_done(j, n);
	}
	return s;
}

node_signal_msg_t *job_mgr_term_again(job_record_t *j, const char *node)
{
	node_record_t *n = node ? node_mgr_find(node) : NULL;
	node_signal_msg_t *s;

	if (!n || j->term_reply_idx != n->index + 1)
		return NULL;
	if (!j->term_reply_done && (!(j->info.job_state & JOB_COMPLETING) ||
				    !j->comp_bitmap ||
				    !bitmap_test(j->comp_bitmap, n->index)))
		return NULL;
	s = job_mgr_term_msg(j);
	if (j->term_reply_done)
		s->flags |= TERM_NODE_DONE;
	return s;
}

node_signal_msg_t *job_mgr_term_stale(job_record_t *j)
{
	node_signal_msg_t *s = job_mgr_term_msg(j);

	s->flags |= TERM_NODE_DONE;     /* nothing of it is counted */
	return s;
}

static bool reending;        /* job_mgr_reend: no news */

void job_mgr_reend(job_record_t *j)
{
	reending = true;
	job_mgr_end(j, j->info.job_state, j->info.state_reason,
		    j->info.exit_code);
	reending = false;
}

void job_mgr_end(job_record_t *j, uint32_t state, uint32_t reason,
		 uint32_t exit_code)
{
	job_info_t *i = &j->info;
	uint32_t was = i->job_state & JOB_STATE_BASE;
	long b;

	if (!reending)          /* a cron job: requeued for its next start */
		state = crontab_job_end(j, state);
	if (was == JOB_SUSPENDED)
		job_mgr_suspend_res(j, true);   /* its CPUs, released below */
	j->gang_susp = false;           /* a gang's suspension kept them */
	lic_mgr_job_return(j);          /* as it begins completing */
	log_flag(TRACE_JOBS, "%s: JobId=%u %s -> %s", __func__, i->job_id,
		 job_state_string(i->job_state), job_state_string(state));
	i->job_state = state;
	i->state_reason = reason;
	i->exit_code = exit_code;
	i->end_time = time(NULL);
	j->term_reply_idx = 0;
	j->term_reply_done = false;
	job_mgr_touch(j);
	if (!reending) {
		stats_job((state & JOB_STATE_BASE) == JOB_COMPLETE ?
			  STATS_JOB_COMPLETED :
			  (state & JOB_STATE_BASE) == JOB_CANCELLED ?
			  STATS_JOB_CANCELED : STATS_JOB_FAILED);
		jobcomp_job_end(i);
	}
	step_mgr_job_end(j);
	if (!reending) {        /* it ran when the job ended, before a restart */
		job_epilog_start(j);
		trigger_job_end(j);
	}
	/* only a live job's end is news (a restart re-ends finished ones) */
	if ((was == JOB_PENDING || was == JOB_RUNNING ||
	     was == JOB_SUSPENDED) && (state & JOB_STATE_BASE) != JOB_PENDING &&
	    !(state & JOB_REQUEUE))
		job_mail(j, JOB_MAIL_END);
	acct_job_changed(j);
	if (!reending) {
		job_notify_alloc_end(j, was);   /* salloc's, if it listens */
		het_job_ended(j);        /* the leader takes every component */
	}
	if (!j->node_bitmap || !j->on_run) {
		_finished_add(j);
		commit_dirty();
		return;
	}
	i->job_state |= JOB_COMPLETING;
	if (j->comp_bitmap)
		bitmap_destroy(j->comp_bitmap);
	j->comp_bitmap = bitmap_copy(j->node_bitmap);
	for (b = bitmap_first_set(j->node_bitmap); b >= 0;
	     b = bitmap_next_set(j->node_bitmap, b + 1)) {
		node_record_t *n = node_mgr_at(b);

		if ((n->info.node_state & NODE_STATE_BASE) == NODE_STATE_DOWN) {
			bitmap_clear(j->comp_bitmap, b);
			_release_node(j, n);
		} else {
			node_mgr_completing(n, true);
		}
	}
	j->term_sent = time(NULL);
	commit_after(_terminate_saved, (void *) (uintptr_t) i->job_id);
	if (!bitmap_count(j->comp_bitmap))
		_finish(j);
	commit_dirty();
}

void job_mgr_node_done(job_record_t *j, node_record_t *n)
{
	if (!j->comp_bitmap || !bitmap_test(j->comp_bitmap, n->index))
		return;
	bitmap_clear(j->comp_bitmap, n->index);
	job_mgr_touch(j);
	node_mgr_completing(n, false);
	_release_node(j, n);
	if (!bitmap_count(j->comp_bitmap))
		_finish(j);
	commit_dirty();
	sched_trigger();
}

void job_mgr_node_fail(node_record_t *n)
{
	job_record_t *j;
	uint32_t *ids = NULL;
	size_t cnt = 0, cap = 0;

	/* ids first: a het job's end or requeue moves its other
	 * components too */
	for (j = jm.running; j; j = j->run_next)
		if (bitmap_test(j->node_bitmap, n->index))
			_push_id(&ids, &cnt, &cap, j->info.job_id);
	for (size_t k = 0; k < cnt; k++) {
		uint32_t base;
		bool live;

		if (!(j = job_mgr_find(ids[k])) || !j->node_bitmap ||
		    !bitmap_test(j->node_bitmap, n->index))
			continue;
		base = j->info.job_state & JOB_STATE_BASE;
		live = (base == JOB_RUNNING || base == JOB_SUSPENDED) &&
		       !(j->info.job_state & JOB_COMPLETING);
		if (live && het_job_node_fail(j, n->info.name)) {
			continue;
		} else if (live && j->info.batch_flag && j->info.requeue) {
			/* --requeue / JobRequeue: run it again elsewhere */
			info("%s: requeue JobId=%u due to failure of node %s",
			     __func__, j->info.job_id, n->info.name);
			job_mgr_requeue_auto(j);
		} else if (live) {
			info("Killing JobId=%u on failed node %s",
			     j->info.job_id, n->info.name);
			job_mgr_end(j, JOB_NODE_FAIL, FAIL_DOWN_NODE, 0);
		} else {
			job_mgr_node_done(j, n);
		}
	}
	xfree(ids);
}

static bool _listed(uint32_t id, const uint32_t *ids, uint32_t cnt)
{
	for (uint32_t k = 0; k < cnt; k++)
		if (ids[k] == id)
			return true;
	return false;
}

void job_mgr_check_missing(node_record_t *n, const uint32_t *ids,
			   uint32_t cnt)
{
	/* BatchStartTimeout (and 5 s for the registration on its way):
	 * a job that recent may still be being launched */
	time_t grace = time(NULL) - ctld_conf()->batch_start_timeout - 5;
	job_record_t *j, *tmp;

	DL_FOREACH_SAFE2(jm.running, j, tmp, run_next) {
		if (j->recovered_sig && bitmap_test(j->node_bitmap, n->index)) {
			/* again: the suspend's SIGSTOP or the resume's SIGCONT
			 * may have been lost with the controller (they wait
			 * for the journal write); a second one does nothing */
			int sig = j->recovered_sig;

			j->recovered_sig = 0;
			if ((sig == SIGSTOP &&
			     j->info.job_state == JOB_SUSPENDED) ||
			    (sig == SIGCONT && j->info.job_state == JOB_RUNNING))
				job_mgr_signal_nodes(j, sig, KILL_FULL_JOB);
			if (sig == SIGSTOP)
				continue;
		}
		if (j->info.job_state != JOB_RUNNING || !j->info.batch_flag ||
		    xstrcmp(j->info.batch_host, n->info.name))
			continue;
		if (j->recovered_run) {
			j->recovered_run = false;
			if (_listed(j->info.job_id, ids, cnt))
				continue;
			info("Batch JobId=%u is not running on %s after the "
			     "controller's restart: launching it",
			     j->info.job_id, n->info.name);
			job_mgr_relaunch(j);
			continue;
		}
		if (j->info.start_time > grace ||
		    _listed(j->info.job_id, ids, cnt))
			continue;
		if (j->info.requeue) {
			error("Batch JobId=%u missing from batch node %s, "
			      "requeuing it", j->info.job_id, n->info.name);
			job_mgr_requeue_auto(j);
			continue;
		}
		error("Batch JobId=%u missing from batch node %s, killing it",
		      j->info.job_id, n->info.name);
		job_mgr_end(j, JOB_NODE_FAIL, FAIL_DOWN_NODE, 0);
	}
}

bool job_mgr_complete_wait(time_t now)
{
	time_t recent = now - ctld_conf()->complete_wait;
	job_record_t *j;

	if (!ctld_conf()->complete_wait)
		return false;
	DL_FOREACH2(jm.running, j, run_next)
		if ((j->info.job_state & JOB_COMPLETING) &&
		    j->info.end_time >= recent)
			return true;
	return false;
}

bool job_mgr_on_node(uint32_t job_id, const node_record_t *n)
{
	job_record_t *j = job_mgr_find(job_id);

	return j && j->on_run && j->node_bitmap &&
	       bitmap_test(j->node_bitmap, n->index) &&
	       !(j->comp_bitmap && !bitmap_test(j->comp_bitmap, n->index) &&
		 (j->info.job_state & JOB_COMPLETING));
}

/* ---- once a second ---- */

/* OverTimeLimit: how long past its end a job may run (s). */
static time_t _over_time(const job_info_t *i)
{
	uint16_t m = ctld_conf()->over_time_limit;

	if (m == INFINITE16)
		return (time_t) 1 << 40;
	return m == NO_VAL16 ? 0 : (time_t) m * 60;
}

static void _check_time_limits(time_t now)
{
	job_record_t *j, *tmp;

	DL_FOREACH_SAFE2(jm.running, j, tmp, run_next) {
		job_info_t *i = &j->info;

		if (i->job_state & JOB_COMPLETING) {
			/* not while the end may not be on disk yet */
			if (now - j->term_sent >= TERM_RESEND_SEC &&
			    !commit_broken())
				_terminate_all(j);
			continue;
		}
		if (i->job_state != JOB_RUNNING || !i->end_time)
			continue;
		if (i->warn_signal && !i->warn_sent &&
		    now >= i->end_time - (time_t) i->warn_time) {
			info("%s: warning signal %u to JobId=%u", __func__,
			     i->warn_signal, i->job_id);
			job_mgr_signal_nodes(j, i->warn_signal, i->warn_flags);
			i->warn_sent = true;
			job_mgr_touch(j);
		}
		if (i->deadline && now >= i->deadline) {
			info("%s: JobId=%u reached its deadline", __func__,
			     i->job_id);
			job_mgr_end(j, JOB_DEADLINE, FAIL_DEADLINE, 0);
			continue;
		}
		if (assoc_mgr_job_time_out(j, now)) {
			job_mgr_end(j, JOB_TIMEOUT, FAIL_TIMEOUT, 0);
			continue;
		}
		if (now < i->end_time + _over_time(i))
			continue;
		info("Time limit exhausted for JobId=%u", i->job_id);
		job_mgr_end(j, JOB_TIMEOUT, FAIL_TIMEOUT, 0);
	}
}

static void _purge(time_t now)
{
	uint32_t age = ctld_conf()->min_job_age;
	job_record_t *j;
	bool any = false;

	if (!age)
		return;
	while ((j = jm.finished) && j->info.end_time + (time_t) age <= now) {
		DL_DELETE2(jm.finished, j, run_prev, run_next);
		HASH_DEL(jm.by_id, j);
		_all_remove(j);
		jm.cnt--;
		if (job_array_last_ref(j))
			job_files_remove(ctld_conf()->state_save_location,
					 job_array_files_id(j));
		debug2("Purging old records of JobId=%u", j->info.job_id);
		_push_id(&jm.purged, &jm.purged_cnt, &jm.purged_cap,
			 j->info.job_id);
		_free_job(j);
		jm.last_change = time(NULL);
		any = true;
	}
	if (any)
		commit_dirty();
}

/* The shortest run a pending job accepts (s): --time-min, else its
 * limit; 0 if unlimited. */
static time_t _min_run(const job_info_t *i)
{
	if (i->time_min && i->time_min != NO_VAL32 && i->time_min != INFINITE32)
		return (time_t) i->time_min * 60;
	if (i->time_limit == NO_VAL32 || i->time_limit == INFINITE32)
		return 0;
	return (time_t) i->time_limit * 60;
}

bool job_mgr_deadline_end(job_record_t *j, time_t now)
{
	job_info_t *i = &j->info;

	if (!i->deadline || !j->on_pend ||
	    (now < i->deadline && now + _min_run(i) <= i->deadline))
		return false;
	info("%s: JobId=%u cannot end before its deadline, ending it",
	     __func__, i->job_id);
	job_mgr_end(j, JOB_DEADLINE, FAIL_DEADLINE, 1 << 8);  /* 1:0 */
	return true;
}

static void _check_deadlines(time_t now)
{
	job_record_t *j, *next;

	for (j = jm.pending; j; j = next) {
		next = j->pend_next;
		if (job_mgr_deadline_end(j, now))
			sched_trigger();
	}
}

void job_mgr_tick(time_t now)
{
	preempt_tick(now);      /* GraceTime over: before the time limits */
	gang_tick(now);         /* SchedulerTimeSlice */
	job_ckpt_tick(now);     /* CheckpointWait over: requeued */
	job_mail_time_check(now);
	_check_time_limits(now);
	job_inactive_tick(now);
	job_mgr_launch_check(now);
	if (now % 5 == 0)
		_check_deadlines(now);
	_purge(now);
}

void job_mgr_reattach_parts(void)
{
	job_record_t *j, *tmp;

	HASH_ITER(hh, jm.by_id, j, tmp) {
		job_res_attach_parts(j);
		/* a partition's QOS may have changed at the same address */
		j->assoc_cache.gen = UINT64_MAX;
	}
}

bool job_mgr_part_in_use(const part_record_t *p)
{
	job_record_t *j, *tmp;

	HASH_ITER(hh, jm.by_id, j, tmp) {
		if (job_state_is_finished(j->info.job_state))
			continue;
		for (uint32_t k = 0; k < j->part_cnt; k++)
			if (j->part_list[k] == p)
				return true;
		if (j->part == p)
			return true;
	}
	return false;
}
