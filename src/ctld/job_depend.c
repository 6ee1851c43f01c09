/* job_depend.c — dependencies of pending jobs on other jobs
 * (job_depend.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "common/depend.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_depend.h"
#include "ctld/job_mail.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

#define MAX_DEPTH 10      /* how far the cycle check follows a chain */

#define DBASE(j) ((j)->info.job_state & JOB_STATE_BASE)

void job_depend_free(job_record_t *j)
{
	if (!j->depend)
		return;
	depend_list_free(j->depend);
	xfree(j->depend);
}

/* The parsed form of j's dependency text (NULL if none or unreadable). */
static depend_list_t *_list(job_record_t *j)
{
	char err[128];

	if (j->depend || !j->info.dependency || !*j->info.dependency)
		return j->depend;
	j->depend = xmalloc(sizeof(*j->depend));
	if (depend_parse(j->info.dependency, true, j->depend, err,
			 sizeof(err)) < 0) {
		error("JobId=%u: unreadable dependency \"%s\": %s",
		      j->info.job_id, j->info.dependency, err);
		xfree(j->depend);
	}
	return j->depend;
}

/* ---- the jobs an entry names ---- */

typedef struct {
	uint32_t cnt;         /* records found */
	uint32_t pending;     /* not started yet */
	uint32_t active;      /* not finished (pending, running, completing) */
	uint32_t ok;          /* finished COMPLETED */
	time_t   started;     /* latest start (or end, for never started) */
	time_t   ended;       /* latest end */
} target_t;

static void _count(target_t *t, const job_record_t *d)
{
	const job_info_t *i = &d->info;
	time_t start = i->start_time ? i->start_time : i->end_time;

	t->cnt++;
	if (DBASE(d) == JOB_PENDING)
		t->pending++;
	if (!job_state_is_finished(i->job_state))
		t->active++;
	else if (DBASE(d) == JOB_COMPLETE)
		t->ok++;
	if (DBASE(d) != JOB_PENDING && start > t->started)
		t->started = start;
	if (i->end_time > t->ended)
		t->ended = i->end_time;
}

/* The records an entry names: a job, every record of an array ("12",
 * "12_*"), or one task ("12_3"); tasks that have not started yet count
 * as pending. */
static void _targets(const depend_t *e, target_t *t)
{
	job_array_sel_t sel;
	char id[32];

	memset(t, 0, sizeof(*t));
	if (e->task_id == DEPEND_NO_TASK || e->task_id == DEPEND_ALL_TASKS)
		snprintf(id, sizeof(id), "%u", e->job_id);
	else
		snprintf(id, sizeof(id), "%u_%u", e->job_id, e->task_id);
	if (job_array_select(id, &sel))
		return;
	for (size_t k = 0; k < sel.cnt; k++)
		_count(t, sel.recs[k]);
	if (sel.tasks) {
		uint32_t n = (uint32_t) bitmap_count(sel.tasks);

		t->cnt += n;
		t->pending += n;
		t->active += n;
	}
	job_array_sel_free(&sel);
}

static bool _after(time_t ref, uint32_t minutes, time_t now)
{
	return now >= ref + (time_t) minutes * 60;
}

/* Singleton: no other job of this user and name is running or
 * suspended, and none submitted before it still waits. */
static int _singleton(const job_record_t *j)
{
	const job_info_t *i = &j->info;
	job_record_t *x;

	for (x = job_mgr_pending_first(); x; x = x->pend_next)
		if (x != j && x->info.user_id == i->user_id &&
		    x->info.job_id < i->job_id && !xstrcmp(x->info.name, i->name))
			return DEPEND_UNFULFILLED;
	for (x = job_mgr_running_first(); x; x = x->run_next)
		if (x != j && x->info.user_id == i->user_id &&
		    (DBASE(x) == JOB_RUNNING || DBASE(x) == JOB_SUSPENDED) &&
		    !xstrcmp(x->info.name, i->name))
			return DEPEND_UNFULFILLED;
	return DEPEND_FULFILLED;
}

/* aftercorr: the task of j that would start next (or j's own task)
 * against the same task of the target array; a target that is no array
 * counts whole. */
static void _corr_targets(const job_record_t *j, const depend_t *e,
			  target_t *t)
{
	depend_t c = *e;
	job_record_t *d = job_mgr_find(e->job_id);
	long mine = j->info.array_task_id != NO_VAL32 ?
		(long) j->info.array_task_id : job_array_next_task(j);

	c.task_id = DEPEND_NO_TASK;
	if (mine >= 0 && d && d->array)
		c.task_id = (uint32_t) mine;
	_targets(&c, t);
}

/* Is j an array's record of tasks not started yet?  An aftercorr entry
 * satisfied for its next task is then not satisfied for the others. */
static bool _corr_transient(const job_record_t *j)
{
	return j->info.array_task_id == NO_VAL32 && job_array_next_task(j) >= 0;
}

static int _entry_state(const job_record_t *j, const depend_t *e, time_t now)
{
	target_t t;

	if (e->type == DEPEND_SINGLETON)
		return _singleton(j);
	if (e->type == DEPEND_AFTER_CORR)
		_corr_targets(j, e, &t);
	else
		_targets(e, &t);
	if (!t.cnt)
		return DEPEND_FULFILLED;      /* purged long ago: it ended */
	switch (e->type) {
	case DEPEND_AFTER:
		if (t.pending)
			return DEPEND_UNFULFILLED;
		return _after(t.started, e->minutes, now) ? DEPEND_FULFILLED :
			DEPEND_UNFULFILLED;
	case DEPEND_AFTER_OK:
	case DEPEND_AFTER_CORR:
		if (t.active)
			return DEPEND_UNFULFILLED;
		if (t.ok != t.cnt)
			return DEPEND_FAILED;
		break;
	case DEPEND_AFTER_NOT_OK:
		if (t.active)
			return DEPEND_UNFULFILLED;
		if (t.ok == t.cnt)
			return DEPEND_FAILED;
		break;
	default:                              /* afterany */
		if (t.active)
			return DEPEND_UNFULFILLED;
		break;
	}
	return _after(t.ended, e->minutes, now) ? DEPEND_FULFILLED :
		DEPEND_UNFULFILLED;
}

/* ---- cancelling what can never run ---- */

static bool _kill_invalid(const job_record_t *j)
{
	const char *p = ctld_conf()->dependency_params;

	if (j->info.kill_inv_dep)
		return j->info.kill_inv_dep == 1;
	return p && strstr(p, "kill_invalid_depend");
}

static void _kill_cb(evutil_socket_t fd, short what, void *arg)
{
	job_record_t *j = job_mgr_find((uint32_t) (uintptr_t) arg);

	if (!j || DBASE(j) != JOB_PENDING ||
	    job_depend_reason(j, time(NULL)) != WAIT_DEP_INVALID)
		return;
	info("_kill_dependent: Job dependency can't be satisfied, cancelling "
	     "JobId=%u", j->info.job_id);
	job_mgr_end(j, JOB_CANCELLED, WAIT_DEP_INVALID, 0);
	j->info.start_time = j->info.end_time;
	commit_dirty();
	sched_trigger();
}

static void _kill_later(job_record_t *j)
{
	struct timeval now = { 0, 0 };

	event_base_once(ctld_base(), -1, EV_TIMEOUT, _kill_cb,
			(void *) (uintptr_t) j->info.job_id, &now);
}

/* As Slurm shows it: satisfied entries drop out of an all-of list. */
static void _show_changes(job_record_t *j, depend_list_t *l, bool changed)
{
	uint32_t n = 0;

	if (!changed)
		return;
	for (uint32_t k = 0; k < l->cnt; k++)
		if (l->e[k].state != DEPEND_FULFILLED)
			l->e[n++] = l->e[k];
	l->cnt = n;
	xfree(j->info.dependency);
	j->info.dependency = depend_string(l);
	job_mgr_touch(j);
	commit_dirty();
}

static uint32_t _reason_once(job_record_t *j, time_t now, bool *again);

/* An array's record of pending tasks whose next task's aftercorr partner
 * failed splits that task off (it waits DependencyNeverSatisfied on its
 * own, as in Slurm) and is evaluated again for its next task. */
uint32_t job_depend_reason(job_record_t *j, time_t now)
{
	bool again;
	uint32_t r;

	do {
		again = false;
		r = _reason_once(j, now, &again);
	} while (again);
	return r;
}

static uint32_t _reason_once(job_record_t *j, time_t now, bool *again)
{
	depend_list_t *l = _list(j);
	uint32_t fulfilled = 0, failed = 0, transient = 0;
	bool changed = false;

	if (!j->info.dependency || !*j->info.dependency)
		return WAIT_NO_REASON;
	if (!l)
		return WAIT_DEP_INVALID;
	for (uint32_t k = 0; k < l->cnt; k++) {
		depend_t *e = &l->e[k];

		/* a failed entry stays failed, even if its job is requeued */
		if (e->state == DEPEND_UNFULFILLED) {
			int st = _entry_state(j, e, now);

			if (st == DEPEND_FULFILLED &&
			    e->type == DEPEND_AFTER_CORR && _corr_transient(j)) {
				transient++;      /* for the next task only */
				continue;
			}
			if (st == DEPEND_FAILED &&
			    e->type == DEPEND_AFTER_CORR && _corr_transient(j)) {
				long t = job_array_next_task(j);

				if (t >= 0 && job_array_split(j, (uint32_t) t)) {
					debug("JobId=%u_%ld: aftercorr partner "
					      "failed, the task waits alone",
					      j->info.array_job_id, t);
					*again = true;
					return WAIT_DEPENDENCY;
				}
			}
			e->state = (uint16_t) st;
			changed |= e->state != DEPEND_UNFULFILLED;
		}
		fulfilled += e->state == DEPEND_FULFILLED;
		failed += e->state == DEPEND_FAILED;
	}
	if (transient && (l->any ? !fulfilled :
			  fulfilled + transient == l->cnt)) {
		_show_changes(j, l, changed);
		return WAIT_NO_REASON;
	}
	if (l->any ? fulfilled > 0 : fulfilled == l->cnt) {
		debug("JobId=%u: dependency %s satisfied", j->info.job_id,
		      j->info.dependency);
		log_flag(DEPENDENCY, "%s: JobId=%u dependency %s satisfied",
			 __func__, j->info.job_id, j->info.dependency);
		job_depend_set(j, NULL);
		return WAIT_NO_REASON;
	}
	_show_changes(j, l, changed);
	if (l->any ? failed == l->cnt : failed > 0) {
		if (changed) {   /* it just became invalid */
			log_flag(DEPENDENCY, "%s: JobId=%u dependency %s can "
				 "never be satisfied", __func__,
				 j->info.job_id, j->info.dependency);
			job_mail(j, JOB_MAIL_INVALID_DEPEND);
		}
		if (_kill_invalid(j))
			_kill_later(j);
		return WAIT_DEP_INVALID;
	}
	return WAIT_DEPENDENCY;
}

/* ---- checking and setting ---- */

/* Does following the dependencies of job id lead back to j? */
static bool _leads_to(job_record_t *j, uint32_t id, int depth)
{
	job_record_t *d = job_mgr_find(id);
	depend_list_t *l;

	if (id == j->info.job_id)
		return true;
	if (!d || depth >= MAX_DEPTH || !(l = _list(d)))
		return false;
	for (uint32_t k = 0; k < l->cnt; k++)
		if (l->e[k].job_id && l->e[k].state == DEPEND_UNFULFILLED &&
		    _leads_to(j, l->e[k].job_id, depth + 1))
			return true;
	return false;
}

static int _check_entry(job_record_t *j, const depend_t *e)
{
	target_t t;

	if (e->type == DEPEND_SINGLETON)
		return 0;
	if (e->type == DEPEND_BURST_BUFFER)
		return ESLURM_DEPENDENCY;     /* no burst buffers */
	if (e->job_id == j->info.job_id)
		return ESLURM_DEPENDENCY;
	_targets(e, &t);
	if (!t.cnt)
		return ESLURM_DEPENDENCY;
	if (_leads_to(j, e->job_id, 1))
		return ESLURM_CIRCULAR_DEPENDENCY;
	return 0;
}

int job_depend_check(job_record_t *j, const char *spec)
{
	depend_list_t l;
	char err[128];
	int rc = 0;

	if (!spec || !*spec)
		return 0;
	if (depend_parse(spec, false, &l, err, sizeof(err)) < 0) {
		info("JobId=%u: invalid dependency \"%s\": %s",
		     j->info.job_id, spec, err);
		return ESLURM_DEPENDENCY;
	}
	if (!l.cnt)
		rc = ESLURM_DEPENDENCY;
	for (uint32_t k = 0; k < l.cnt && !rc; k++)
		rc = _check_entry(j, &l.e[k]);
	if (rc)
		info("JobId=%u: dependency \"%s\": %s", j->info.job_id, spec,
		     slurm_strerror(rc));
	depend_list_free(&l);
	return rc;
}

void job_depend_set(job_record_t *j, const char *spec)
{
	job_depend_free(j);
	xfree(j->info.dependency);
	job_mgr_touch(j);
	if (!spec || !*spec)
		return;
	j->depend = xmalloc(sizeof(*j->depend));
	if (depend_parse(spec, false, j->depend, NULL, 0) < 0) {
		xfree(j->depend);     /* checked before: cannot happen */
		return;
	}
	j->info.dependency = depend_string(j->depend);
}
