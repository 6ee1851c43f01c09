/* job_tick.c — once a second: time limits and the end resent to nodes
 * that did not confirm, deadlines, purge of old records (job_tick.h). */
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

	DL_FOREACH_SAFE2(job_mgr_running_first(), j, tmp, run_next) {
		job_info_t *i = &j->info;

		if (i->job_state & JOB_COMPLETING) {
			/* not while the end may not be on disk yet */
			if (now - j->term_sent >= TERM_RESEND_SEC &&
			    !commit_broken())
				job_mgr_terminate_all(j);
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
	while ((j = job_mgr_finished_first()) &&
	       j->info.end_time + (time_t) age <= now) {
		job_mgr_remove(j);
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

	for (j = job_mgr_pending_first(); j; j = next) {
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
