/* job_ctl.c — requests that act on existing jobs: cancel and signal,
 * hold and release, update, batch completion, epilog completion
 * (job_mgr.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/hostlist.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/agent.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/crontab.h"
#include "ctld/job_resize.h"
#include "ctld/assoc_mgr.h"
#include "ctld/job_array.h"
#include "ctld/job_depend.h"
#include "ctld/job_ckpt.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "ctld/job_prolog.h"
#include "ctld/job_submit_plugin.h"
#include "ctld/job_update_keys.h"
#include "ctld/resv_mgr.h"
#include "ctld/rpc.h"
#include "ctld/site_factor.h"
#include "ctld/sched.h"
#include "ctld/step_mgr.h"
#include "slurm/slurm_errno.h"

#define BASE(j) ((j)->info.job_state & JOB_STATE_BASE)

static bool _may_act(const job_record_t *j, uid_t uid)
{
	return j->info.user_id == uid || ctld_is_operator(uid);
}

/* Cancel, signal, hold, update: also a coordinator of the job's account
 * (or an account above it), as Slurm's. */
static bool _may_control(const job_record_t *j, uid_t uid)
{
	return _may_act(j, uid) || assoc_mgr_is_coord(uid, j->info.account);
}

static bool _done(const job_record_t *j)
{
	return BASE(j) >= JOB_COMPLETE || (j->info.job_state & JOB_COMPLETING);
}

/* ---- cancel / signal ---- */

/* How to act on each job of a cancel request. */
typedef struct {
	uint16_t  signal;         /* 0 = cancel */
	uint16_t  flags;          /* KILL_JOB_BATCH ... */
	bool      cancel;
	uint16_t  rpc;            /* names the request in the security log */
	bool      log_each;       /* one info line per cancelled job */
} kill_how_t;

static int _cancel(job_record_t *j, const kill_how_t *how, uid_t uid)
{
	bool cancel = how->cancel || !how->signal || how->signal == SIGKILL;

	if (!_may_control(j, uid)) {
		error("Security violation, %s RPC for JobId=%u from uid=%u",
		      msg_type_name(how->rpc), j->info.job_id, (unsigned) uid);
		return ESLURM_ACCESS_DENIED;
	}
	/* scrontab: under explicit_scancel only with --cron; its entry is
	 * disabled (crontab.h) */
	if (cancel && (j->info.bitflags & JOB_CRON) &&
	    BASE(j) < JOB_COMPLETE) {
		int rc = crontab_job_cancel(j, how->flags, uid);

		if (rc)
			return rc;
	}
	/* requeued, its nodes still cleaning up: the cancel wins, as in
	 * Slurm (before, it was refused and the job ran again) */
	if (cancel && BASE(j) == JOB_PENDING &&
	    (j->info.job_state & (JOB_COMPLETING | JOB_REQUEUE)) ==
	    (JOB_COMPLETING | JOB_REQUEUE)) {
		job_mgr_requeue_cancel(j, uid);
		return 0;
	}
	if (_done(j))
		return ESLURM_ALREADY_DONE;
	if (cancel && het_job_cancel_check(j))
		return het_job_cancel_check(j);
	if (BASE(j) == JOB_PENDING) {
		if (how->log_each)
			info("_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=%u "
			     "uid %u", j->info.job_id, (unsigned) uid);
		j->acct_requid = uid;
		job_mgr_end(j, JOB_CANCELLED, j->info.state_reason, 0);
		return 0;
	}
	if (!cancel) {
		job_mgr_signal_nodes(j, how->signal, how->flags);
		return 0;
	}
	if (how->log_each)
		info("_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=%u uid %u",
		     j->info.job_id, (unsigned) uid);
	j->acct_requid = uid;
	job_mgr_end(j, JOB_CANCELLED, WAIT_NO_REASON, 0);
	return 0;
}

static int _cancel_step(const char *id, const char *dot,
			const kill_how_t *how, uid_t uid);

void job_mgr_rpc_cancel(net_conn_t *c, slurm_msg_t *m)
{
	job_signal_msg_t *r = m->data;
	job_record_t *j = NULL;
	kill_how_t how = { .rpc = REQUEST_CANCEL_JOB, .log_each = true };
	const char *dot = r && r->job_id_str ? strchr(r->job_id_str, '.') :
			  NULL;
	int rc;

	if (dot) {                       /* "123.4": that step only */
		how.signal = r->signal;
		how.cancel = r->cancel;
		rc = _cancel_step(r->job_id_str, dot, &how, m->auth_uid);
		if (rc)
			net_reply_rc(c, rc);
		else
			commit_reply_rc(c, 0, NULL);
		return;
	}
	if (r)
		j = (r->job_id_str && *r->job_id_str) ?
			job_mgr_find_for(r->job_id_str, m->auth_uid) :
			job_mgr_find(r->job_id);
	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	how.signal = r->signal;
	how.flags = r->flags;
	how.cancel = r->cancel;
	rc = _cancel(j, &how, m->auth_uid);
	if (rc) {
		net_reply_rc(c, rc);
		return;
	}
	sched_trigger();
	commit_reply_rc(c, 0, NULL);
}

/* ---- many jobs at once: REQUEST_KILL_JOBS ---- */

static bool _list_set(char *const *l)
{
	return l && l[0];
}

static bool _in_list(char *const *l, const char *v)
{
	if (!_list_set(l))
		return true;
	for (size_t i = 0; l[i]; i++)
		if (v && !strcmp(l[i], v))
			return true;
	return false;
}

static bool _user_match(char *const *users, const job_info_t *i)
{
	char uid[16];

	if (!_list_set(users))
		return true;
	snprintf(uid, sizeof(uid), "%u", i->user_id);
	return _in_list(users, i->user_name) || _in_list(users, uid);
}

static bool _state_match(char *const *states, uint32_t state)
{
	uint32_t base = state & JOB_STATE_BASE, want;

	if (!_list_set(states))
		return base == JOB_PENDING || base == JOB_RUNNING ||
		       base == JOB_SUSPENDED;
	for (size_t i = 0; states[i]; i++)
		if (job_state_from_string(states[i], &want) == 0 &&
		    base == (want & JOB_STATE_BASE))
			return true;
	return false;
}

static bool _nodes_match(const bitmap_t *want, const job_record_t *j)
{
	if (!want)
		return true;
	return j->node_bitmap && bitmap_overlaps(want, j->node_bitmap);
}

/* scancel -w: the known nodes the list names (unknown names match no job);
 * NULL for a malformed or oversized list. */
static bitmap_t *_kill_nodes(const char *expr)
{
	char err[256];
	hostlist_t *hl = node_mgr_parse_user(expr, err, sizeof(err));
	bitmap_t *b;

	if (!hl) {
		info("_slurm_rpc_kill_jobs: bad node list: %s", err);
		return NULL;
	}
	b = bitmap_create(node_mgr_count() ? node_mgr_count() : 1);
	for (size_t i = 0; i < hostlist_count(hl); i++) {
		node_record_t *n = node_mgr_find(hostlist_nth(hl, i));

		if (n)
			bitmap_set(b, n->index);
	}
	hostlist_destroy(hl);
	return b;
}

/* "123", "123_4", "123.0": the job or array job the id names. */
static bool _id_match(char *const *ids, const job_info_t *i)
{
	if (!_list_set(ids))
		return true;
	for (size_t k = 0; ids[k]; k++) {
		char *end;
		unsigned long v = strtoul(ids[k], &end, 10);

		if (end != ids[k] && v && (v == i->job_id ||
					   v == i->array_job_id))
			return true;
	}
	return false;
}

static bool _kill_filtered(const kill_jobs_msg_t *k)
{
	return _list_set(k->users) || _list_set(k->names) ||
	       _list_set(k->partitions) || _list_set(k->states) ||
	       (k->nodelist && *k->nodelist) || _list_set(k->accounts) ||
	       _list_set(k->qos) || _list_set(k->wckeys);
}

static bool _kill_match(const kill_jobs_msg_t *k, const bitmap_t *nodes,
			const job_record_t *j)
{
	const job_info_t *i = &j->info;

	return _user_match(k->users, i) && _in_list(k->names, i->name) &&
	       _in_list(k->partitions, i->partition) &&
	       _in_list(k->accounts, i->account) &&
	       _in_list(k->qos, i->qos) && _in_list(k->wckeys, i->wckey) &&
	       _state_match(k->states, i->job_state) &&
	       _nodes_match(nodes, j) && _id_match(k->job_ids, i);
}

static int _job_id_cmp(const void *a, const void *b)
{
	uint32_t x = (*(job_record_t *const *)a)->info.job_id;
	uint32_t y = (*(job_record_t *const *)b)->info.job_id;

	return x < y ? -1 : x > y;
}

/* Every job (pending, running, finished) matching the filters, in job id
 * order; caller frees.  NULL with *cnt 0 if none. */
static job_record_t **_kill_select(const kill_jobs_msg_t *k,
				   const bitmap_t *nodes, size_t *cnt)
{
	job_record_t *lists[3] = { job_mgr_pending_first(),
				   job_mgr_running_first(),
				   job_mgr_finished_first() };
	job_record_t **sel = xcalloc(job_mgr_count() + 1, sizeof(*sel));
	size_t n = 0, max = job_mgr_count();

	for (int l = 0; l < 3; l++) {
		for (job_record_t *j = lists[l]; j && n < max;
		     j = l ? j->run_next : j->pend_next)
			if (_kill_match(k, nodes, j))
				sel[n++] = j;
	}
	qsort(sel, n, sizeof(*sel), _job_id_cmp);
	*cnt = n;
	return sel;
}

static void _kill_entry(kill_jobs_resp_msg_t *r, char *id, int rc)
{
	kill_jobs_resp_job_t *e = &r->jobs[r->cnt++];

	e->job_id_str = id;
	e->error_code = rc;
	e->error_msg = rc ? xstrdup(slurm_strerror(rc)) : NULL;
}

static char *_job_id_str(const job_info_t *i)
{
	if (i->array_job_id && i->array_task_id != NO_VAL32)
		return xstrdup_printf("%u_%u", i->array_job_id,
				      i->array_task_id);
	return xstrdup_printf("%u", i->job_id);
}

/* "0", "batch", "extern" -> step id; -1 if malformed. */
static int _step_id(const char *s, uint32_t *step_id)
{
	char *end;
	unsigned long v;

	if (!strcmp(s, "batch"))
		*step_id = SLURM_BATCH_SCRIPT;
	else if (!strcmp(s, "extern"))
		*step_id = SLURM_EXTERN_CONT;
	else if (*s < '0' || *s > '9' ||
		 (v = strtoul(s, &end, 10), *end) || v >= SLURM_BATCH_SCRIPT)
		return -1;
	else
		*step_id = (uint32_t) v;
	return 0;
}

/* "123.4", "123_7.4", "123.batch": signal (cancel: SIGKILL) that step's
 * tasks only.  A job that is gone answers ESLURM_ALREADY_DONE, a running
 * job without the step ESLURM_INVALID_JOB_ID, a pending one (no steps
 * yet) ESLURM_JOB_PENDING; another user's, ESLURM_ACCESS_DENIED. */
static int _cancel_step(const char *id, const char *dot,
			const kill_how_t *how, uid_t uid)
{
	char *job = xstrndup(id, (size_t) (dot - id));
	uint16_t sig = how->cancel || !how->signal ? SIGKILL : how->signal;
	job_array_sel_t sel;
	job_record_t *j = NULL;
	uint32_t step_id;
	int rc;

	if (_step_id(dot + 1, &step_id)) {
		xfree(job);
		return ESLURM_INVALID_JOB_ID;
	}
	if (strchr(job, '+')) {          /* "123+1.0": a hetjob component's */
		memset(&sel, 0, sizeof(sel));
		if (!(j = het_job_find_str(job))) {
			xfree(job);
			return ESLURM_ALREADY_DONE;
		}
	} else if (job_array_select(job, &sel)) {
		job_array_sel_free(&sel);
		xfree(job);
		return ESLURM_ALREADY_DONE;      /* no such job (any more) */
	}
	if (j)
		;                         /* the hetjob component */
	else if (sel.cnt == 1)
		j = sel.recs[0];
	else if (!sel.cnt && sel.meta)
		j = sel.meta;             /* tasks not started: pending */
	if (!j)
		rc = sel.cnt ? ESLURM_INVALID_JOB_ID : ESLURM_ALREADY_DONE;
	else if (!_may_control(j, uid)) {
		error("Security violation, %s RPC for StepId=%s from uid=%u",
		      msg_type_name(how->rpc), id, (unsigned) uid);
		rc = ESLURM_ACCESS_DENIED;
	} else if (_done(j))
		rc = ESLURM_ALREADY_DONE;
	else if (BASE(j) == JOB_PENDING || sel.tasks)
		rc = ESLURM_JOB_PENDING;
	else if (!(rc = step_mgr_signal(j, step_id, sig)))
		info("_slurm_rpc_kill_job_step: signal %u to StepId=%s uid %u",
		     (unsigned) sig, id, (unsigned) uid);
	job_array_sel_free(&sel);
	xfree(job);
	return rc;
}

/* Every job an id names ("123" may be a whole array, "123_[1-3]" some of
 * its tasks): 0 if any was signalled, else the first error.  "123.4"
 * names a step. */
static int _cancel_id(const char *id, const kill_how_t *how, uid_t uid)
{
	const char *dot = strchr(id, '.');
	job_array_sel_t sel;
	int rc, first = 0, ok = 0;

	if (dot)
		return _cancel_step(id, dot, how, uid);
	if (strchr(id, '+')) {           /* "123+1": a hetjob component */
		job_record_t *j = het_job_find_str(id);

		return j ? _cancel(j, how, uid) : ESLURM_INVALID_JOB_ID;
	}
	rc = job_array_select(id, &sel);

	for (size_t i = 0; !rc && i < sel.cnt; i++) {
		int r = _cancel(sel.recs[i], how, uid);

		ok += !r;
		if (r && !first)
			first = r;
	}
	if (!rc && sel.tasks) {
		int r = 0;

		if (!_may_control(sel.meta, uid)) {
			error("Security violation, %s RPC for JobId=%s from "
			      "uid=%u", msg_type_name(how->rpc), id, (unsigned) uid);
			r = ESLURM_ACCESS_DENIED;
		} else if (_done(sel.meta)) {
			r = ESLURM_ALREADY_DONE;
		} else if (!how->cancel && how->signal && how->signal != SIGKILL) {
			r = ESLURM_JOB_PENDING;
		} else if (job_array_sel_all_pending(&sel)) {
			r = _cancel(sel.meta, how, uid);
		} else {
			info("_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=%s "
			     "uid %u", id, (unsigned) uid);
			job_array_drop(sel.meta, sel.tasks);
		}
		ok += !r;
		if (r && !first)
			first = r;
	}
	job_array_sel_free(&sel);
	return rc ? rc : ok ? 0 : first;
}

static void _kill_resp_free(void *data)
{
	msg_body_free(RESPONSE_KILL_JOBS, data);
}

void job_mgr_rpc_kill_jobs(net_conn_t *c, slurm_msg_t *m)
{
	kill_jobs_msg_t *k = m->data;
	kill_how_t how = { .rpc = REQUEST_KILL_JOBS };
	kill_jobs_resp_msg_t *resp = xmalloc(sizeof(*resp));
	job_record_t **sel = NULL;
	bitmap_t *nodes = NULL;
	size_t n_sel = 0, n_ids = 0, done = 0;
	bool by_filter;

	if (!k) {
		net_reply_rc(c, SLURM_UNEXPECTED_MSG_ERROR);
		goto cleanup;
	}
	by_filter = _kill_filtered(k);
	while (k->job_ids && k->job_ids[n_ids])
		n_ids++;
	if (k->nodelist && *k->nodelist &&
	    !(nodes = _kill_nodes(k->nodelist))) {
		net_reply_rc(c, ESLURM_INVALID_NODE_NAME);
		goto cleanup;
	}
	how.signal = k->signal;
	how.flags = k->flags;
	how.cancel = k->cancel;
	if (by_filter) {
		sel = _kill_select(k, nodes, &n_sel);
		resp->jobs = xcalloc(n_sel + 1, sizeof(*resp->jobs));
		for (size_t i = 0; i < n_sel; i++) {
			int rc = _cancel(sel[i], &how, m->auth_uid);

			done += !rc;
			if (rc || k->verbose)
				_kill_entry(resp, _job_id_str(&sel[i]->info), rc);
		}
	} else {
		resp->jobs = xcalloc(n_ids + 1, sizeof(*resp->jobs));
		for (size_t i = 0; i < n_ids; i++) {
			int rc = _cancel_id(k->job_ids[i], &how, m->auth_uid);

			done += !rc;
			if (rc || k->verbose)
				_kill_entry(resp, xstrdup(k->job_ids[i]), rc);
		}
		n_sel = n_ids;
	}
	info("_slurm_rpc_kill_jobs: REQUEST_KILL_JOBS uid=%u %s=%zu "
	     "signalled=%zu errors=%zu", (unsigned) m->auth_uid,
	     by_filter ? "matched" : "ids", n_sel, done, n_sel - done);
	if (done) {
		sched_trigger();
		commit_reply(c, RESPONSE_KILL_JOBS, resp, _kill_resp_free);
		resp = NULL;
	} else {
		net_reply(c, RESPONSE_KILL_JOBS, resp);
	}
cleanup:
	if (resp)
		_kill_resp_free(resp);
	xfree(sel);
	bitmap_destroy(nodes);
}

/* ---- hold / release ---- */

static int _hold(job_record_t *j, const job_hold_msg_t *h, uid_t uid)
{
	bool op = ctld_is_operator(uid);
	job_info_t *i = &j->info;

	if (!_may_control(j, uid)) {
		error("Security violation, JOB_UPDATE RPC for JobId=%u from "
		      "uid=%u", i->job_id, (unsigned) uid);
		return ESLURM_USER_ID_MISSING;
	}
	/* as Slurm: a running job may be held (it comes back held if it is
	 * requeued); a finished one may not */
	if (BASE(j) != JOB_PENDING &&
	    (BASE(j) != JOB_RUNNING || (i->job_state & JOB_COMPLETING)))
		return ESLURM_JOB_NOT_PENDING;
	job_mgr_touch(j);
	if (h->hold) {
		bool user = h->user_hold || !op;

		if (i->priority)
			j->prio_saved = i->priority;
		i->priority = 0;
		i->state_reason = user ? WAIT_HELD_USER : WAIT_HELD;
		i->held_by_user = user;
		info("hold_job: JobId=%u held by uid %u", i->job_id,
		     (unsigned) uid);
	} else {
		if (i->state_reason == WAIT_HELD && !op)
			return ESLURM_ACCESS_DENIED;
		if (i->priority == 0) {
			i->priority = j->prio_saved ? j->prio_saved :
				job_mgr_new_priority();
			i->state_reason = WAIT_NO_REASON;
			xfree(i->state_desc);
			i->job_state &= ~(JOB_SPECIAL_EXIT | JOB_REQUEUE_HOLD);
			i->held_by_user = false;
			if (!i->eligible_time)
				i->eligible_time = time(NULL);
			if (!i->accrue_time)
				i->accrue_time = i->eligible_time;
			info("release_job: JobId=%u released by uid %u",
			     i->job_id, (unsigned) uid);
		}
	}
	if (j->on_pend)
		job_mgr_pending_resort(j);
	return 0;
}

/* An array's id holds (releases) every pending record of the array. */
static int _hold_id(job_record_t *j, const job_hold_msg_t *h, uid_t uid)
{
	job_array_sel_t sel;
	int ok = 0, first = 0;

	if (!j->array || strchr(h->job_id_str, '_') ||
	    job_array_select(h->job_id_str, &sel))
		return _hold(j, h, uid);
	for (size_t i = 0; i < sel.cnt; i++) {
		int rc;

		if (BASE(sel.recs[i]) != JOB_PENDING)
			continue;
		rc = _hold(sel.recs[i], h, uid);
		ok += !rc;
		if (rc && !first)
			first = rc;
	}
	job_array_sel_free(&sel);
	return ok ? 0 : first ? first : ESLURM_JOB_NOT_PENDING;
}

void job_mgr_rpc_hold(net_conn_t *c, slurm_msg_t *m)
{
	job_hold_msg_t *h = m->data;
	job_record_t *j = h ? job_mgr_find_for(h->job_id_str, m->auth_uid) :
		NULL;
	int rc;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	rc = _hold_id(j, h, m->auth_uid);
	if (rc) {
		net_reply_rc(c, rc);
		return;
	}
	sched_trigger();
	commit_reply_rc(c, 0, NULL);
}

/* ---- update ---- */

/* Would a user's new limit be a raise?  A pending job may be raised up
 * to its partition's MaxTime; a running one never. */
static bool _time_raised(const job_record_t *j, uint32_t limit)
{
	uint32_t cur = j->info.time_limit;
	const part_info_t *p = j->part ? &j->part->info : NULL;

	if (limit <= cur)               /* INFINITE32 is the largest */
		return false;
	if (BASE(j) != JOB_PENDING || !p)
		return true;
	return part_mgr_time_exceeds(j->part, limit);
}

static int _check_update(job_record_t *j, const job_update_msg_t *u, bool op)
{
	bool pending = BASE(j) == JOB_PENDING;
	bitmap_t *b;
	int rc;

	if (_done(j))
		return ESLURM_JOB_FINISHED;
	if (u->time_limit != NO_VAL32 && !op && _time_raised(j, u->time_limit))
		return ESLURM_ACCESS_DENIED;
	if (u->priority != NO_VAL32 && !op && !j->info.priority)
		return ESLURM_JOB_HELD;
	if (u->priority != NO_VAL32 && !op && u->priority > j->info.priority)
		return ESLURM_ACCESS_DENIED;
	if (u->nice != NO_VAL32 && !op && u->nice < NICE_OFFSET)
		return ESLURM_ACCESS_DENIED;
	if (!pending && (u->min_nodes != NO_VAL32 || u->req_nodes)) {
		/* a running job may shrink (job_resize.h) */
		if ((rc = job_resize_check(j, u->min_nodes, u->req_nodes, &b)))
			return rc;
		if (b)
			bitmap_destroy(b);
	}
	if (((u->partition && xstrcmp(u->partition, j->info.partition)) ||
	     u->features ||
	     u->exc_nodes || u->begin_time ||
	     u->dependency) && !pending)
		return ESLURM_JOB_NOT_PENDING;
	if (u->dependency && (rc = job_depend_check(j, u->dependency)))
		return rc;
	if (u->reservation && !pending)
		return ESLURM_JOB_NOT_PENDING;
	if (u->licenses && !pending)
		return ESLURM_JOB_NOT_PENDING;
	if (u->licenses && *u->licenses) {
		char *norm;

		if ((rc = lic_mgr_validate(u->licenses, &norm)))
			return rc;
		xfree(norm);
	}
	if (u->reservation && *u->reservation &&
	    (rc = resv_mgr_job_check(u->reservation, j->info.user_id,
				     j->info.account)))
		return rc;
	if (u->partition && !part_mgr_find(u->partition))
		return ESLURM_INVALID_PARTITION_NAME;
	if (u->array_max_tasks != NO_VAL32 && u->array_max_tasks && !j->array)
		return ESLURM_INVALID_ARRAY;
	if (pending && u->min_nodes != NO_VAL32 && (u->min_nodes == 0 ||
	    (u->max_nodes != NO_VAL32 && u->max_nodes &&
	     u->max_nodes < u->min_nodes)))
		return ESLURM_INVALID_NODE_COUNT;
	if (u->exc_nodes && *u->exc_nodes) {
		if (!(b = node_mgr_bitmap(u->exc_nodes, NULL)))
			return ESLURM_INVALID_NODE_NAME;
		bitmap_destroy(b);
	}
	if (pending && u->req_nodes && *u->req_nodes) {
		if (!(b = node_mgr_bitmap(u->req_nodes, NULL)))
			return ESLURM_INVALID_NODE_NAME;
		bitmap_destroy(b);
	}
	return job_update_keys_check(j, u, op);
}

static void _set_str(char **dst, const char *src)
{
	xfree(*dst);
	*dst = *src ? xstrdup(src) : NULL;
}

static void _update_prio(job_record_t *j, const job_update_msg_t *u)
{
	job_info_t *i = &j->info;

	if (u->nice != NO_VAL32) {
		int64_t p = (int64_t) (i->priority ? i->priority : j->prio_saved) +
			((int64_t) i->nice - NICE_OFFSET) -
			((int64_t) u->nice - NICE_OFFSET);

		i->nice = u->nice;
		p = p < 1 ? 1 : p;
		if (i->priority)
			i->priority = (uint32_t) p;
		j->prio_saved = (uint32_t) p;
	}
	if (u->priority != NO_VAL32) {
		i->priority = u->priority;
		j->prio_fixed = u->priority != 0;
		if (u->priority) {
			j->prio_saved = u->priority;
			if (i->state_reason == WAIT_HELD ||
			    i->state_reason == WAIT_HELD_USER)
				i->state_reason = WAIT_NO_REASON;
		} else {
			i->state_reason = WAIT_HELD;
		}
	}
	if (j->on_pend)
		job_mgr_pending_resort(j);
}

/* NumNodes= / NodeList= of a running job: it shrinks (checked). */
static void _apply_resize(job_record_t *j, const job_update_msg_t *u)
{
	bitmap_t *keep = NULL;

	if (!job_resize_check(j, u->min_nodes, u->req_nodes, &keep) && keep)
		job_resize_apply(j, keep);
}

static void _apply_update(job_record_t *j, const job_update_msg_t *u)
{
	job_info_t *i = &j->info;
	bool pending = BASE(j) == JOB_PENDING;

	job_mgr_touch(j);
	if (!pending && (u->min_nodes != NO_VAL32 || u->req_nodes))
		_apply_resize(j, u);
	if (u->time_limit != NO_VAL32) {
		i->time_limit = u->time_limit;
		if (BASE(j) == JOB_RUNNING)
			i->end_time = u->time_limit == INFINITE32 ? 0 :
				i->start_time + (time_t) u->time_limit * 60;
	}
	if (u->name)
		_set_str(&i->name, u->name);
	if (u->comment)
		_set_str(&i->comment, u->comment);
	if (u->account)
		_set_str(&i->account, u->account);
	if (u->qos)
		_set_str(&i->qos, u->qos);
	if (u->reservation)
		_set_str(&i->reservation, u->reservation);
	if (u->dependency)
		job_depend_set(j, u->dependency);
	if (u->features)
		_set_str(&i->features, u->features);
	if (u->licenses) {
		xfree(i->licenses);
		if (*u->licenses &&
		    lic_mgr_validate(u->licenses, &i->licenses))
			i->licenses = NULL;   /* checked by _check_update */
		lic_mgr_job_forget(j);
	}
	if (u->exc_nodes)
		_set_str(&i->exc_nodes, u->exc_nodes);
	if (u->req_nodes && pending)
		_set_str(&i->req_nodes, u->req_nodes);
	if (u->exc_nodes || (u->req_nodes && pending))
		j->bitmap_gen = 0;
	if (u->partition) {
		_set_str(&i->partition, u->partition);
		j->part = part_mgr_find(u->partition);
	}
	if (u->min_nodes != NO_VAL32 && pending) {
		i->num_nodes = u->min_nodes;
		i->max_nodes = u->max_nodes != NO_VAL32 ? u->max_nodes :
			u->min_nodes;
		if (i->num_tasks < i->num_nodes)
			i->num_tasks = i->num_nodes;
		i->num_cpus = i->num_tasks * (i->cpus_per_task ? i->cpus_per_task : 1);
	}
	if (u->begin_time) {
		j->begin_time = u->begin_time;
		i->eligible_time = u->begin_time;
	}
	if (u->requeue != NO_VAL16)
		i->requeue = u->requeue;
	if (u->array_max_tasks != NO_VAL32)
		job_array_set_throttle(j, u->array_max_tasks);
	job_update_keys_apply(j, u);
	site_factor_set(j);
	_update_prio(j, u);
}

/* JobSubmitPlugins see the update as a job_desc of the fields being
 * changed, and may change them (or refuse). */
static int _plugin_modify(job_record_t *j, job_update_msg_t *u, uid_t uid,
			  uint16_t version, char **user_msg)
{
	static const size_t strs[] = {
		offsetof(job_update_msg_t, name), offsetof(job_update_msg_t, comment),
		offsetof(job_update_msg_t, partition),
		offsetof(job_update_msg_t, features),
		offsetof(job_update_msg_t, exc_nodes),
		offsetof(job_update_msg_t, req_nodes),
		offsetof(job_update_msg_t, dependency),
		offsetof(job_update_msg_t, account), offsetof(job_update_msg_t, qos),
		offsetof(job_update_msg_t, reservation),
		offsetof(job_update_msg_t, licenses),
	};
	static const size_t dstrs[] = {
		offsetof(job_desc_t, name), offsetof(job_desc_t, comment),
		offsetof(job_desc_t, partition), offsetof(job_desc_t, features),
		offsetof(job_desc_t, exc_nodes), offsetof(job_desc_t, req_nodes),
		offsetof(job_desc_t, dependency), offsetof(job_desc_t, account),
		offsetof(job_desc_t, qos), offsetof(job_desc_t, reservation),
		offsetof(job_desc_t, licenses),
	};
	job_desc_t d;
	int rc;

	job_desc_init(&d);
	d.time_limit = u->time_limit;
	d.priority = u->priority;
	d.nice = u->nice;
	d.min_nodes = u->min_nodes;
	d.max_nodes = u->max_nodes;
	d.begin_time = u->begin_time;
	d.requeue = u->requeue;
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		char *v = *(char **)((char *) u + strs[i]);

		*(char **)((char *) &d + dstrs[i]) = v ? xstrdup(v) : NULL;
	}
	rc = job_submit_plugin_modify(&d, &j->info, uid, version, user_msg);
	if (!rc) {
		u->time_limit = d.time_limit;
		u->priority = d.priority;
		u->nice = d.nice;
		u->min_nodes = d.min_nodes;
		u->max_nodes = d.max_nodes;
		u->begin_time = d.begin_time;
		u->requeue = d.requeue;
		for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
			char **to = (char **)((char *) u + strs[i]);
			char **from = (char **)((char *) &d + dstrs[i]);

			xfree(*to);
			*to = *from;
			*from = NULL;
		}
	}
	job_desc_free_members(&d);
	return rc;
}

void job_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m)
{
	job_update_msg_t *u = m->data;
	job_record_t *j = u ? job_mgr_find_for(u->job_id_str, m->auth_uid) :
		NULL;
	char *user_msg = NULL;
	int rc;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (!_may_control(j, m->auth_uid)) {
		error("Security violation, JOB_UPDATE RPC for JobId=%u from "
		      "uid=%u", j->info.job_id, (unsigned) m->auth_uid);
		net_reply_rc(c, ESLURM_USER_ID_MISSING);
		return;
	}
	/* as Slurm: a scrontab job changes with its crontab only */
	if (j->info.bitflags & JOB_CRON) {
		info("_update_job: JobId=%u: %s", j->info.job_id,
		     slurm_strerror(ESLURM_CANNOT_MODIFY_CRON_JOB));
		net_reply_rc(c, ESLURM_CANNOT_MODIFY_CRON_JOB);
		return;
	}
	if ((rc = _plugin_modify(j, u, m->auth_uid, m->version, &user_msg))) {
		return_code_msg_t r = { .rc = rc, .msg = user_msg };

		info("_update_job: JobId=%u: refused by job_submit plugin: %s",
		     j->info.job_id, slurm_strerror(rc));
		net_reply(c, RESPONSE_SLURM_RC, &r);
		xfree(user_msg);
		return;
	}
	xfree(user_msg);
	rc = _check_update(j, u, ctld_is_operator(m->auth_uid));
	if (!rc && u->admin_comment && rpc_privilege(m->auth_uid) < RPC_PRIV_ADMIN)
		rc = ESLURM_ACCESS_DENIED;      /* as Slurm: administrators */
	if (rc) {
		info("_update_job: JobId=%u: %s", j->info.job_id,
		     slurm_strerror(rc));
		net_reply_rc(c, rc);
		return;
	}
	/* a user's lower priority is set, but Slurm warns it will not last */
	rc = u->priority != NO_VAL32 && !ctld_is_operator(m->auth_uid) ?
		ESLURM_PRIO_RESET_FAIL : 0;
	_apply_update(j, u);
	acct_job_changed(j);
	info("_slurm_rpc_update_job: complete JobId=%u uid=%u",
	     j->info.job_id, (unsigned) m->auth_uid);
	sched_trigger();
	commit_reply_rc(c, rc, NULL);
}

/* ---- completion from slurmd ---- */

static void _batch_ended(job_record_t *j, const batch_complete_msg_t *b)
{
	uint32_t st = b->job_rc;

	if (b->slurm_rc == ESLURMD_PROLOG_FAILED) {
		job_prolog_node_failed(j, b->node_name);
		return;
	}
	if (b->slurm_rc) {
		error("Batch JobId=%u launch failed on %s: %s", j->info.job_id,
		      b->node_name ? b->node_name : "?",
		      slurm_strerror(b->slurm_rc));
		job_mgr_end(j, JOB_FAILED, FAIL_LAUNCH, st);
		return;
	}
	if (job_ckpt_ended(j, st))
		return;
	if (job_mgr_requeue_exit(j, st))
		return;
	if (st == SIG_OOM) {
		info("_job_complete: JobId=%u OOM failure", j->info.job_id);
		job_mgr_end(j, JOB_OOM, FAIL_OOM, st);
	} else if (WIFSIGNALED(st)) {
		info("_job_complete: JobId=%u WTERMSIG %d", j->info.job_id,
		     WTERMSIG(st));
		job_mgr_end(j, JOB_FAILED, FAIL_SIGNAL, st);
	} else if (WEXITSTATUS(st)) {
		info("_job_complete: JobId=%u WEXITSTATUS %d", j->info.job_id,
		     WEXITSTATUS(st));
		job_mgr_end(j, JOB_FAILED, FAIL_EXIT_CODE, st);
	} else {
		info("_job_complete: JobId=%u WEXITSTATUS 0", j->info.job_id);
		job_mgr_end(j, JOB_COMPLETE, WAIT_NO_REASON, st);
	}
	info("_job_complete: JobId=%u done", j->info.job_id);
}

static void _term_free(void *data)
{
	msg_body_free(REQUEST_TERMINATE_JOB, data);
}

/* The batch script ended.  The reply goes once that is saved; when it
 * ended the job and only the batch stepd is left on its node, the reply
 * is the terminate for that node, and with BATCH_END_CLEAN the node is
 * done already (job_mgr_term_reply). */
void job_mgr_rpc_complete(net_conn_t *c, slurm_msg_t *m)
{
	batch_complete_msg_t *b = m->data;
	job_record_t *j = b ? job_mgr_find(b->job_id) : NULL;
	node_signal_msg_t *term = NULL;

	if (!j) {
		info("REQUEST_COMPLETE_BATCH_SCRIPT for unknown JobId=%u",
		     b ? b->job_id : 0);
		net_reply_rc(c, 0);
		return;
	}
	/* The .batch step's end (with its usage) goes to accounting before
	 * the job's: slurmdbd closes a finished job's open steps with no
	 * usage, and sacct would show that until the step's record came. */
	acct_job_batch_done(j, b);
	if (BASE(j) == JOB_RUNNING && !(j->info.job_state & JOB_COMPLETING)) {
		bool alone = job_mgr_batch_alone(j);

		_batch_ended(j, b);
		if (alone && !b->slurm_rc)
			term = job_mgr_term_reply(j, b->node_name,
						  b->flags & BATCH_END_CLEAN);
	} else {
		if (!j->info.exit_code && BASE(j) >= JOB_COMPLETE) {
			/* keep CANCELLED/TIMEOUT */
			j->info.exit_code = b->job_rc;
			job_mgr_touch(j);
			commit_dirty();
			acct_job_changed(j);
		}
		term = job_mgr_term_again(j, b->node_name);
		/* requeued and cleaned up already: a stale run's stepd
		 * (a requeue still completing waits for its epilog) */
		if (!term && BASE(j) == JOB_PENDING &&
		    !(j->info.job_state & JOB_COMPLETING))
			term = job_mgr_term_stale(j);
	}
	sched_trigger();
	if (term)
		commit_reply(c, REQUEST_TERMINATE_JOB, term, _term_free);
	else
		commit_reply_rc(c, 0, NULL);
}

void job_mgr_rpc_epilog(net_conn_t *c, slurm_msg_t *m)
{
	epilog_complete_msg_t *e = m->data;
	job_record_t *j = e ? job_mgr_find(e->job_id) : NULL;
	node_record_t *n = e ? node_mgr_find(e->node_name) : NULL;

	if (!j || !n) {
		debug("MESSAGE_EPILOG_COMPLETE for JobId=%u on %s: nothing to do",
		      e ? e->job_id : 0, e && e->node_name ? e->node_name : "?");
		net_reply_rc(c, 0);
		return;
	}
	if (e->rc == ESLURMD_KILL_TASK_FAILED) {
		/* slurmd's UnkillableStepTimeout passed (unkillable.h) */
		error("JobId=%u: steps on node %s not ended: draining it (%s)",
		      j->info.job_id, n->info.name,
		      slurm_strerror(ESLURMD_KILL_TASK_FAILED));
		node_mgr_drain(n, "Kill task failed",
			       ctld_conf()->slurm_user_id);
	} else if (e->rc) {
		error("Epilog of JobId=%u on node %s failed (rc=%d)",
		      j->info.job_id, n->info.name, e->rc);
	}
	job_mgr_node_done(j, n);
	commit_reply_rc(c, 0, NULL);
}

/* ---- srun/salloc release their allocation ---- */

void job_mgr_rpc_complete_alloc(net_conn_t *c, slurm_msg_t *m)
{
	complete_job_alloc_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find(r->job_id) : NULL;
	uint32_t st;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (!_may_act(j, m->auth_uid)) {
		error("Security violation, REQUEST_COMPLETE_JOB_ALLOCATION RPC "
		      "for JobId=%u from uid=%u", j->info.job_id,
		      (unsigned) m->auth_uid);
		net_reply_rc(c, ESLURM_USER_ID_MISSING);
		return;
	}
	if (_done(j)) {
		net_reply_rc(c, ESLURM_ALREADY_DONE);
		return;
	}
	st = r->job_rc;
	info("_slurm_rpc_complete_job_allocation: JobId=%u rc=%u",
	     j->info.job_id, st);
	j->info.alloc_resp_port = 0;    /* salloc knows: no SRUN_JOB_COMPLETE */
	if (BASE(j) == JOB_PENDING)
		job_mgr_end(j, JOB_CANCELLED, j->info.state_reason, 0);
	else if (WIFSIGNALED(st))
		job_mgr_end(j, JOB_FAILED, FAIL_SIGNAL, st);
	else if (WEXITSTATUS(st))
		job_mgr_end(j, JOB_FAILED, FAIL_EXIT_CODE, st);
	else
		job_mgr_end(j, JOB_COMPLETE, WAIT_NO_REASON, st);
	sched_trigger();
	commit_reply_rc(c, 0, NULL);
}
