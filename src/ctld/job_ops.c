/* job_ops.c — scontrol requeue/requeuehold, suspend/resume and top
 * (job_mgr.h). */
#include <signal.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>

#include "common/conf_params.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/agent.h"
#include "ctld/assoc_mgr.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/crontab.h"
#include "ctld/het_job.h"
#include "ctld/job_mail.h"
#include "ctld/job_mgr.h"
#include "ctld/jobcomp.h"
#include "ctld/sched.h"
#include "ctld/stats.h"
#include "slurm/slurm_errno.h"

#define OBASE(j) ((j)->info.job_state & JOB_STATE_BASE)

static const char held_desc[] = "job requeued in held state";

static bool _owner_or_op(const job_record_t *j, uid_t uid)
{
	return j->info.user_id == uid || ctld_is_operator(uid);
}

/* Every request here answers like Slurm's: one rc for one job. */
static void _reply(net_conn_t *c, int rc)
{
	if (rc) {
		net_reply_rc(c, rc);
		return;
	}
	sched_trigger();
	commit_reply_rc(c, 0, NULL);
}

/* ---- signals to a job's nodes ---- */

void job_mgr_signal_nodes(job_record_t *j, uint16_t sig, uint16_t flags)
{
	node_signal_msg_t *s;
	bitmap_t *to;
	long i;

	if (!j->node_bitmap)
		return;
	s = xmalloc(sizeof(*s));
	to = bitmap_copy(j->node_bitmap);
	/* the batch step only: its node */
	for (i = bitmap_first_set(to); (flags & KILL_JOB_BATCH) && i >= 0;
	     i = bitmap_next_set(to, i + 1))
		if (xstrcmp(node_mgr_at(i)->info.name, j->info.batch_host))
			bitmap_clear(to, i);
	s->job_id = j->info.job_id;
	s->step_id = NO_VAL32;
	s->signal = sig;
	s->flags = flags;
	s->job_state = j->info.job_state;
	s->nodes = xstrdup(j->info.nodes);
	job_mgr_send_nodes(to, REQUEST_SIGNAL_JOB, s);
	bitmap_destroy(to);
}

/* ---- requeue ---- */

static void _hold_for_requeue(job_record_t *j, uid_t uid, bool special)
{
	job_info_t *i = &j->info;
	bool user = !ctld_is_operator(uid);

	if (i->priority)
		j->prio_saved = i->priority;
	i->priority = 0;
	i->held_by_user = user;
	i->state_reason = user ? WAIT_HELD_USER : WAIT_HELD;
	xfree(i->state_desc);
	i->state_desc = xstrdup(held_desc);
	if (special)
		i->job_state |= JOB_SPECIAL_EXIT;
}

static void _free_alloc(job_record_t *j)
{
	if (j->node_bitmap)
		bitmap_destroy(j->node_bitmap);
	if (j->comp_bitmap)
		bitmap_destroy(j->comp_bitmap);
	j->node_bitmap = j->comp_bitmap = NULL;
	for (uint32_t k = 0; j->node_cpu_ids && k < j->alloc_cnt; k++)
		if (j->node_cpu_ids[k])
			bitmap_destroy(j->node_cpu_ids[k]);
	xfree(j->node_cpu_ids);
	xfree(j->node_gpus);
	xfree(j->node_cpus);
	xfree(j->node_tasks);
	xfree(j->node_mem);
	j->alloc_cnt = 0;
}

/* AuthInfo cred_expire=N (s, default 120): how long a job credential
 * lives, and so how long a requeued job waits before it starts again. */
static uint32_t _cred_expire(void)
{
	const char *a = ctld_conf()->auth_info, *p;
	uint32_t v;
	char buf[16];
	size_t n;

	p = a ? strstr(a, "cred_expire=") : NULL;
	if (!p)
		return 120;
	p += strlen("cred_expire=");
	n = strcspn(p, ",");
	if (n >= sizeof(buf))
		return 120;
	memcpy(buf, p, n);
	buf[n] = 0;
	return parse_u32(buf, &v) < 0 ? 120 : v;
}

void job_mgr_requeue_cancel(job_record_t *j, uid_t uid)
{
	job_info_t *i = &j->info;

	info("_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=%u uid %u (being "
	     "requeued: cancelled instead)", i->job_id, (unsigned) uid);
	j->acct_requid = uid;
	i->job_state = JOB_CANCELLED | JOB_COMPLETING;
	i->state_reason = WAIT_NO_REASON;
	i->end_time = time(NULL);
	job_mgr_touch(j);
	stats_job(STATS_JOB_CANCELED);
	jobcomp_job_end(i);
	acct_job_changed(j);
	commit_dirty();
}

void job_mgr_requeue_done(job_record_t *j)
{
	job_info_t *i = &j->info;
	time_t now = time(NULL);

	job_mgr_running_del(j);
	job_mgr_finished_del(j);
	_free_alloc(j);
	i->job_state = JOB_PENDING | (i->job_state & JOB_SPECIAL_EXIT);
	xfree(i->nodes);
	xfree(i->batch_host);
	xfree(i->tres_alloc_str);
	xfree(i->cpus_per_node_str);
	i->start_time = i->end_time = 0;
	i->suspend_time = i->suspend_start = 0;
	i->pre_sus_time = 0;
	i->warn_sent = false;
	i->preempt_time = i->preemptable_time = 0;
	i->preempt_susp = false;
	/* as Slurm: a new submit (a new accounting record), and no start
	 * before the job credentials of the last run have expired */
	i->submit_time = now;
	/* scrontab: requeued another way (a node failed, scontrol
	 * requeue): its next start, not at once */
	if ((i->bitflags & JOB_CRON) && j->begin_time <= now) {
		time_t next = crontab_next_start(j, now);

		if (next)
			j->begin_time = next;
	}
	if (j->begin_time <= now) {
		j->begin_time = now + _cred_expire() + 1;
		i->eligible_time = j->begin_time;
	} else if (i->bitflags & JOB_CRON) {
		/* scrontab: waits for its next start (crontab.h) */
		i->eligible_time = j->begin_time;
		i->state_reason = WAIT_TIME;
		xfree(i->state_desc);
	}
	i->num_cpus = i->num_tasks * (i->cpus_per_task ? i->cpus_per_task : 1);
	j->term_sent = 0;
	j->launch_tries = 0;
	job_mgr_pending_add(j);
	job_mgr_touch(j);
	info("%s: JobId=%u pending again (Restarts=%u)", __func__, i->job_id,
	     i->restart_cnt);
	commit_dirty();
	sched_trigger();
}

static int _requeue(job_record_t *j, uint32_t flags, uid_t uid)
{
	job_info_t *i = &j->info;
	uint32_t base = OBASE(j);
	bool hold = flags & (REQUEUE_HOLD | REQUEUE_SPECIAL_EXIT);

	/* a coordinator of the job's account may requeue it too */
	if (!_owner_or_op(j, uid) &&
	    !assoc_mgr_is_coord(uid, j->info.account)) {
		error("Security violation, REQUEST_JOB_REQUEUE RPC for JobId=%u "
		      "from uid=%u", i->job_id, (unsigned) uid);
		return ESLURM_ACCESS_DENIED;
	}
	if (het_job_requeue_check(j))
		return het_job_requeue_check(j);
	if (!i->batch_flag)
		return ESLURM_BATCH_ONLY;
	if (i->job_state & JOB_COMPLETING)
		return ESLURM_TRANSITION_STATE_NO_UPDATE;
	if (base == JOB_PENDING) {
		if (!hold)
			return ESLURM_JOB_PENDING;
		_hold_for_requeue(j, uid, flags & REQUEUE_SPECIAL_EXIT);
		job_mgr_pending_resort(j);
		return 0;
	}
	if ((flags & REQUEUE_INCOMPLETE) && base != JOB_RUNNING &&
	    base != JOB_SUSPENDED)
		return ESLURM_JOB_FINISHED;
	if (!i->requeue)
		return ESLURM_DISABLED;
	if (base == JOB_SUSPENDED)
		hold = true;     /* a suspended job comes back held */
	info("%s: JobId=%u requeue%s by uid %u (was %s)", __func__, i->job_id,
	     hold ? "hold" : "", (unsigned) uid, job_state_string(i->job_state));
	i->restart_cnt++;
	job_mail(j, JOB_MAIL_REQUEUE);
	if (hold)
		_hold_for_requeue(j, uid, flags & REQUEUE_SPECIAL_EXIT);
	if (base == JOB_RUNNING || base == JOB_SUSPENDED) {
		/* pending once every node confirms the job is gone */
		job_mgr_end(j, JOB_PENDING | JOB_REQUEUE |
			    (i->job_state & JOB_SPECIAL_EXIT),
			    i->state_reason, i->exit_code);
		return 0;
	}
	job_mgr_requeue_done(j);
	return 0;
}

/* As Slurm: past MaxBatchRequeue automatic requeues a job comes back
 * held, JobHoldMaxRequeue, for someone to look at. */
static bool _over_max_requeue(const job_record_t *j)
{
	return j->info.restart_cnt > ctld_conf()->max_batch_requeue;
}

/* Past MaxBatchRequeue: held for someone to look at. */
static uint32_t _hold_if_over(job_record_t *j)
{
	job_info_t *i = &j->info;

	if (!_over_max_requeue(j))
		return WAIT_NO_REASON;
	if (i->priority)
		j->prio_saved = i->priority;
	i->priority = 0;
	i->held_by_user = false;
	xfree(i->state_desc);
	return WAIT_MAX_REQUEUE;
}

bool job_mgr_requeue_exit(job_record_t *j, uint32_t status)
{
	const slurm_conf_t *c = ctld_conf();
	job_info_t *i = &j->info;
	uint8_t req[32], hold[32];
	uint32_t reason = FAIL_EXIT_CODE;   /* as Slurm: NonZeroExitCode */
	char err[160];
	unsigned code;
	bool special;

	if (!i->batch_flag || !WIFEXITED(status) ||
	    (!c->requeue_exit && !c->requeue_exit_hold))
		return false;
	/* both were checked when the config was loaded */
	if (conf_parse_exit_list("RequeueExit", c->requeue_exit, req, err,
				 sizeof(err)) < 0 ||
	    conf_parse_exit_list("RequeueExitHold", c->requeue_exit_hold,
				 hold, err, sizeof(err)) < 0)
		return false;
	code = (unsigned) WEXITSTATUS(status);
	special = conf_exit_listed(hold, code);
	if (!special && !conf_exit_listed(req, code))
		return false;
	i->restart_cnt++;
	info("%s: JobId=%u exit code %u is in %s: requeued%s (Restarts=%u)",
	     __func__, i->job_id, code,
	     special ? "RequeueExitHold" : "RequeueExit",
	     special ? " held" : "", i->restart_cnt);
	job_mail(j, JOB_MAIL_REQUEUE);
	if (special) {
		if (i->priority)
			j->prio_saved = i->priority;
		i->priority = 0;
		i->held_by_user = true;
		reason = WAIT_HELD_USER;
		xfree(i->state_desc);
	} else {
		reason = _hold_if_over(j);
		if (reason == WAIT_NO_REASON)
			reason = FAIL_EXIT_CODE;
	}
	job_mgr_end(j, JOB_PENDING | JOB_REQUEUE |
		    (special ? JOB_SPECIAL_EXIT : 0), reason, status);
	return true;
}

void job_mgr_requeue_auto(job_record_t *j)
{
	job_info_t *i = &j->info;
	uint32_t reason;

	i->restart_cnt++;
	job_mail(j, JOB_MAIL_REQUEUE);
	reason = _hold_if_over(j);
	job_mgr_end(j, JOB_PENDING | JOB_REQUEUE, reason, i->exit_code);
}

int job_mgr_preempt_requeue(job_record_t *j)
{
	job_info_t *i = &j->info;

	if (!i->batch_flag || !i->requeue ||
	    (OBASE(j) != JOB_RUNNING && OBASE(j) != JOB_SUSPENDED))
		return -1;
	i->restart_cnt++;
	job_mail(j, JOB_MAIL_REQUEUE);
	/* PREEMPTED for accounting and the nodes ("DUE TO PREEMPTION"),
	 * pending again once they are clean */
	job_mgr_end(j, JOB_PREEMPTED | JOB_REQUEUE, WAIT_NO_REASON, SIGKILL);
	return 0;
}

void job_mgr_rpc_requeue(net_conn_t *c, slurm_msg_t *m)
{
	requeue_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find_for(r->job_id_str, m->auth_uid) : NULL;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	_reply(c, _requeue(j, r->flags, m->auth_uid));
}

/* ---- suspend / resume ---- */

void job_mgr_suspend_res(job_record_t *j, bool on)
{
	long i, k = 0;

	/* the gang scheduler's suspensions keep the CPUs */
	if (!j->on_run || !j->node_bitmap || j->gang_susp)
		return;
	for (i = bitmap_first_set(j->node_bitmap); i >= 0 &&
	     (uint32_t) k < j->alloc_cnt;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
		if (j->comp_bitmap && (j->info.job_state & JOB_COMPLETING) &&
		    !bitmap_test(j->comp_bitmap, i))
			continue;
		node_mgr_suspend_cpus(node_mgr_at(i), j->node_cpus[k],
				      j->node_cpu_ids ? j->node_cpu_ids[k] :
				      NULL, on);
		if (j->share)
			node_mgr_share(node_mgr_at(i), j->node_cpu_ids ?
				       j->node_cpu_ids[k] : NULL, on);
	}
}

void job_mgr_suspend_job(job_record_t *j, bool suspend, time_t now)
{
	job_info_t *i = &j->info;

	if (suspend) {
		i->pre_sus_time += now - (i->suspend_time ? i->suspend_time :
					  i->start_time);
		i->suspend_time = i->suspend_start = now;
		i->job_state = (i->job_state & ~JOB_STATE_BASE) | JOB_SUSPENDED;
		job_mgr_signal_nodes(j, SIGSTOP, KILL_FULL_JOB);
		/* as Slurm: a suspended job's CPUs may be given to others
		 * (its memory and GPUs stay held) */
		job_mgr_suspend_res(j, false);
	} else {
		/* suspended time does not count against the limit */
		if (i->end_time)
			i->end_time += now - i->suspend_start;
		i->suspend_time = now;
		i->suspend_start = 0;
		i->preempt_susp = false;
		i->job_state = (i->job_state & ~JOB_STATE_BASE) | JOB_RUNNING;
		job_mgr_suspend_res(j, true);
		job_mgr_signal_nodes(j, SIGCONT, KILL_FULL_JOB);
	}
	job_mgr_touch(j);
	acct_job_changed(j);    /* the suspended time (sacct Suspended) */
}

static int _suspend(job_record_t *j, uint16_t op, uid_t uid, time_t now)
{
	job_info_t *i = &j->info;
	uint32_t base = OBASE(j);

	if (!ctld_is_operator(uid)) {
		error("SECURITY VIOLATION: Attempt to suspend/resume JobId=%u "
		      "from uid=%u", i->job_id, (unsigned) uid);
		return ESLURM_ACCESS_DENIED;
	}
	if (base == JOB_PENDING)
		return ESLURM_JOB_PENDING;
	if (base >= JOB_COMPLETE || (i->job_state & JOB_COMPLETING))
		return ESLURM_ALREADY_DONE;
	if (op == SUSPEND_JOB) {
		if (base == JOB_SUSPENDED && j->gang_susp) {
			/* out of the gang's turns: its CPUs are lent */
			j->gang_susp = false;
			job_mgr_suspend_res(j, false);
			job_mgr_touch(j);
			info("%s: JobId=%u suspended by uid %u (was waiting "
			     "for its gang time slice)", __func__, i->job_id,
			     (unsigned) uid);
			return 0;
		}
		if (base == JOB_SUSPENDED)
			return 0;
		job_mgr_suspend_job(j, true, now);
		info("%s: JobId=%u suspended by uid %u", __func__, i->job_id,
		     (unsigned) uid);
	} else {
		if (base != JOB_SUSPENDED)
			return ESLURM_JOB_NOT_SUSPENDED;
		if (j->gang_susp) {
			info("%s: JobId=%u waits for its gang time slice: "
			     "resume refused (uid %u)", __func__, i->job_id,
			     (unsigned) uid);
			return ESLURM_DISABLED;
		}
		job_mgr_suspend_job(j, false, now);
		info("%s: JobId=%u resumed by uid %u", __func__, i->job_id,
		     (unsigned) uid);
	}
	return 0;
}

void job_mgr_rpc_suspend(net_conn_t *c, slurm_msg_t *m)
{
	suspend_msg_t *s = m->data;
	job_record_t *j = s ? job_mgr_find_for(s->job_id_str, m->auth_uid) : NULL;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	_reply(c, _suspend(j, s->op, m->auth_uid, time(NULL)));
}

/* ---- top ---- */

static bool _same_queue(const job_record_t *a, const job_record_t *b)
{
	return a->info.user_id == b->info.user_id && a->info.priority &&
	       !xstrcmp(a->info.partition, b->info.partition) &&
	       !xstrcmp(a->info.account, b->info.account) &&
	       !xstrcmp(a->info.qos, b->info.qos);
}

/* j takes the highest priority of its user's jobs in the same
 * partition, account and QOS; those that were ahead of it move down one
 * place each, so the user's share of priorities stays the same. */
static void _to_top(job_record_t *j)
{
	job_record_t **ahead = NULL, *x;
	size_t n = 0, cap = 0;
	uint32_t prio = j->info.priority, next;

	for (x = job_mgr_pending_first(); x && x != j; x = x->pend_next) {
		if (!_same_queue(x, j) || x->info.priority <= prio)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;

			ahead = xrealloc_sz(ahead, cap * sizeof(*ahead),
					    ncap * sizeof(*ahead));
			cap = ncap;
		}
		ahead[n++] = x;
	}
	if (!n)
		return;
	next = ahead[0]->info.priority;
	for (size_t k = 0; k < n; k++) {
		uint32_t p = k + 1 < n ? ahead[k + 1]->info.priority : prio;

		ahead[k]->info.priority = ahead[k]->prio_saved = p;
		job_mgr_pending_resort(ahead[k]);
	}
	j->info.priority = j->prio_saved = next;
	job_mgr_pending_resort(j);
	xfree(ahead);
}

static bool _user_top_enabled(void)
{
	const char *p = ctld_conf()->scheduler_parameters;

	return p && strstr(p, "enable_user_top");
}

static int _top(job_record_t *j, uid_t uid)
{
	if (!_owner_or_op(j, uid) ||
	    (!ctld_is_operator(uid) && !_user_top_enabled()))
		return ESLURM_ACCESS_DENIED;
	if (OBASE(j) != JOB_PENDING)
		return ESLURM_JOB_NOT_PENDING;
	if (!j->info.priority)
		return ESLURM_JOB_HELD;
	_to_top(j);
	info("%s: JobId=%u moved to the top by uid %u (Priority=%u)",
	     __func__, j->info.job_id, (unsigned) uid, j->info.priority);
	return 0;
}

void job_mgr_rpc_top(net_conn_t *c, slurm_msg_t *m)
{
	top_job_msg_t *t = m->data;
	job_record_t *j = t ? job_mgr_find_for(t->job_id_str, m->auth_uid) : NULL;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	_reply(c, _top(j, m->auth_uid));
}
