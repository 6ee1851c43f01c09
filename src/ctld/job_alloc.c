/* job_alloc.c — a job's allocation: taken at start, the end sent to its
 * nodes along the tree, given back node by node as they confirm; jobs
 * lost with a node (job_alloc.h). */
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
	job_mgr_finished_add(j);
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

void job_mgr_terminate_all(job_record_t *j)
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
		job_mgr_terminate_all(j);
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
		job_mgr_finished_add(j);
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
	uint32_t *ids;
	size_t cnt = 0;

	/* ids first: a het job's end or requeue moves its other
	 * components too */
	for (j = job_mgr_running_first(); j; j = j->run_next)
		if (bitmap_test(j->node_bitmap, n->index))
			cnt++;
	if (!cnt)
		return;
	ids = xcalloc(cnt, sizeof(*ids));
	cnt = 0;
	for (j = job_mgr_running_first(); j; j = j->run_next)
		if (bitmap_test(j->node_bitmap, n->index))
			ids[cnt++] = j->info.job_id;
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

	DL_FOREACH_SAFE2(job_mgr_running_first(), j, tmp, run_next) {
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
	DL_FOREACH2(job_mgr_running_first(), j, run_next)
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
