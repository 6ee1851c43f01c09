/* job_ckpt.c — resumable jobs: checkpoint and restart (job_ckpt.h).
 *
 * A checkpoint is a requeue announced in advance: the job is told (a
 * signal, and with checkpoint/criu a CRIU dump by its batch host), given
 * until ckpt_deadline to save its state, and requeued when its script
 * ends or the time is up.  The deadline is in the job's record (saved),
 * so a controller restart in between still requeues it.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "common/acct_rec.h"
#include "common/conf.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/acct_outbox.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_ckpt.h"
#include "ctld/job_ckpt_criu.h"
#include "ctld/job_mail.h"
#include "ctld/sched.h"
#include "slurm/slurm_errno.h"

#define CKPT_SUBDIR ".sluice-checkpoint"
#define CKPT_SIGNAL SIGUSR2

static bool _ck_able(const job_record_t *j)
{
	return (j->info.bitflags & JOB_CHECKPOINT) && j->info.batch_flag;
}

static bool _ck_running(const job_record_t *j)
{
	return (j->info.job_state & JOB_STATE_BASE) == JOB_RUNNING &&
	       !(j->info.job_state & JOB_COMPLETING);
}

char *job_ckpt_dir(const job_record_t *j)
{
	const char *root = ctld_conf()->job_checkpoint_dir;

	if (!(j->info.bitflags & JOB_CHECKPOINT))
		return NULL;
	if (root && *root)
		return xstrdup_printf("%s/%u", root, j->info.job_id);
	return xstrdup_printf("%s/%s/%u", j->info.work_dir ? j->info.work_dir :
			      "/tmp", CKPT_SUBDIR, j->info.job_id);
}

char **job_ckpt_env(const job_record_t *j, char **env)
{
	static const char key[] = "SLURM_CHECKPOINT_DIR=";
	char *dir = job_ckpt_dir(j), *e;
	size_t k, n = 0;

	/* one of its own only (not one of the job it was submitted from) */
	for (k = 0; env && env[k]; k++) {
		if (!strncmp(env[k], key, sizeof(key) - 1))
			xfree(env[k]);
		else
			env[n++] = env[k];
	}
	if (env)
		env[n] = NULL;
	if (!dir)
		return env;
	e = xstrdup_printf("SLURM_CHECKPOINT_DIR=%s", dir);
	env = xstrarray_append(env, e);
	xfree(e);
	xfree(dir);
	return env;
}

/* An event of the job in accounting (sacct --events). */
static void _ck_event(const job_record_t *j, const char *what, const char *why)
{
	if (!acct_enabled())
		return;
	acct_outbox_append(ACCT_REC_TRACK, &(acct_track_rec_t){
		.job_id = j->info.job_id, .submit = j->info.submit_time,
		.kind = TRACK_EVENT, .name = (char *)what,
		.text = (char *)why, .time = time(NULL),
	});
}

/* The signal that tells the job to save: its --signal's, else SIGUSR2;
 * --signal B: reaches the batch shell alone. */
static void _ck_signal(job_record_t *j)
{
	const job_info_t *i = &j->info;
	uint16_t sig = CKPT_SIGNAL, flags = KILL_FULL_JOB;

	if (i->warn_signal && i->warn_signal != NO_VAL16) {
		sig = i->warn_signal;
		if (i->warn_flags & KILL_JOB_BATCH)
			flags = KILL_JOB_BATCH;
	}
	job_mgr_signal_nodes(j, sig, flags);
}

static bool _ck_criu(void)
{
	const char *t = ctld_conf()->checkpoint_type;

	return t && !strcasecmp(t, "checkpoint/criu");
}

/* Begin: tell the job, give it wait seconds. */
static void _ck_begin(job_record_t *j, uint32_t wait, const char *why)
{
	time_t now = time(NULL);
	char *dir;

	if (!wait)
		wait = ctld_conf()->checkpoint_wait;
	j->ckpt_deadline = now + (time_t)wait;
	xfree(j->ckpt_why);
	j->ckpt_why = xstrdup(why);
	info("%s: JobId=%u checkpoint (%s): requeued within %u s",
	     __func__, j->info.job_id, why, wait);
	job_mgr_touch(j);
	/* with CRIU the signal follows the dump (job_ckpt_criu_done/
	 * _failed), so that the image is of the job at work */
	if (_ck_criu() && (dir = job_ckpt_dir(j))) {
		job_ckpt_criu_dump(j, dir);
		xfree(dir);
		return;
	}
	_ck_signal(j);
}

/* Requeue j now, its checkpoint taken ("why" says what happened). */
static void _ck_requeue(job_record_t *j, uint32_t status, const char *how)
{
	job_info_t *i = &j->info;
	char *text = xstrdup_printf("%s%s%s", j->ckpt_why ? j->ckpt_why :
				    "checkpoint", how ? ": " : "",
				    how ? how : "");

	j->ckpt_deadline = 0;
	j->ckpt_cnt++;
	i->restart_cnt++;
	info("%s: JobId=%u checkpointed (%s): requeued (Restarts=%u)",
	     __func__, i->job_id, text, i->restart_cnt);
	_ck_event(j, "checkpoint", text);
	xfree(text);
	xfree(j->ckpt_why);
	job_mail(j, JOB_MAIL_REQUEUE);
	job_mgr_end(j, JOB_PENDING | JOB_REQUEUE, WAIT_NO_REASON, status);
	acct_outbox_want_sync();
	commit_dirty();
	sched_trigger();
}

bool job_ckpt_pending(const job_record_t *r)
{
	return r->ckpt_deadline != 0;
}

void job_ckpt_requeue_now(job_record_t *r)
{
	_ck_requeue(r, r->info.exit_code, "time up");
}

bool job_ckpt_ended(job_record_t *j, uint32_t status)
{
	char how[64];

	if (!j->ckpt_deadline)
		return false;
	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "script ended by signal %d",
			 WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "script exited %d",
			 WEXITSTATUS(status));
	_ck_requeue(j, status, how);
	return true;
}

void job_ckpt_tick(time_t now)
{
	job_record_t *r, *next;

	for (r = job_mgr_running_first(); r; r = next) {
		next = r->run_next;
		if (!r->ckpt_deadline || now < r->ckpt_deadline)
			continue;
		if (!_ck_running(r)) {       /* ended otherwise meanwhile */
			r->ckpt_deadline = 0;
			continue;
		}
		job_ckpt_requeue_now(r);
	}
}

void job_ckpt_started(job_record_t *j)
{
	char *text;

	j->ckpt_deadline = 0;
	if (!j->ckpt_cnt || !(j->info.bitflags & JOB_CHECKPOINT))
		return;
	text = xstrdup_printf("from checkpoint %u on %s", j->ckpt_cnt,
			      j->info.nodes ? j->info.nodes : "?");
	_ck_event(j, "restart", text);
	xfree(text);
}

bool job_ckpt_preempt(job_record_t *r, uint32_t grace, uint32_t by)
{
	char why[64];

	if (!_ck_able(r))
		return false;
	if (r->ckpt_deadline)
		return true;
	snprintf(why, sizeof(why), "preempted by JobId=%u", by);
	_ck_begin(r, grace, why);
	return true;
}

/* Why uid may not checkpoint j now (0 if it may). */
static int _ck_refuse(const job_record_t *j, uid_t uid, char *why, size_t len)
{
	const job_info_t *i = &j->info;
	uint32_t base = i->job_state & JOB_STATE_BASE;

	if (i->user_id != uid && !ctld_is_operator(uid)) {
		snprintf(why, len, "job %u is not yours: only its user, "
			 "operators and root may checkpoint it", i->job_id);
		return ESLURM_ACCESS_DENIED;
	}
	if (!(i->bitflags & JOB_CHECKPOINT)) {
		snprintf(why, len, "job %u was not submitted with "
			 "--checkpoint: it cannot be checkpointed", i->job_id);
		return ESLURM_NOT_SUPPORTED;
	}
	if (!i->batch_flag) {
		snprintf(why, len, "job %u is not a batch job", i->job_id);
		return ESLURM_BATCH_ONLY;
	}
	if (base == JOB_PENDING) {
		snprintf(why, len, "job %u is pending", i->job_id);
		return ESLURM_JOB_PENDING;
	}
	if (base != JOB_RUNNING || (i->job_state & JOB_COMPLETING)) {
		snprintf(why, len, "job %u is not running", i->job_id);
		return ESLURM_JOB_NOT_RUNNING;
	}
	if (j->ckpt_deadline) {
		snprintf(why, len, "job %u is being checkpointed already",
			 i->job_id);
		return ESLURM_TRANSITION_STATE_NO_UPDATE;
	}
	return 0;
}

void job_ckpt_rpc(net_conn_t *c, slurm_msg_t *m)
{
	const checkpoint_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find_for(r->job_id_str, m->auth_uid) :
		NULL;
	char why[256], by[48];
	int rc;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (j->array && j->info.array_task_id == NO_VAL32) {
		rc = ESLURM_NOT_SUPPORTED;
		snprintf(why, sizeof(why), "give one task of array job %u "
			 "(%u_N)", j->info.array_job_id, j->info.array_job_id);
		goto refuse;
	}
	if ((rc = _ck_refuse(j, m->auth_uid, why, sizeof(why))))
		goto refuse;
	snprintf(by, sizeof(by), "scontrol checkpoint by uid %u",
		 (unsigned) m->auth_uid);
	_ck_begin(j, 0, by);
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
	return;
refuse:
	info("REQUEST_CHECKPOINT JobId=%s uid=%u refused: %s",
	     r->job_id_str, (unsigned) m->auth_uid, why);
	net_reply_rcf(c, rc, "%s", why);
}

void job_ckpt_criu_failed(uint32_t job_id, const char *why)
{
	job_record_t *j = job_mgr_find(job_id);
	char *text;

	if (!j)
		return;
	if (j->ckpt_deadline && _ck_running(j))
		_ck_signal(j);
	text = xstrdup_printf("CRIU could not checkpoint the job's processes "
			      "(%s): requeued as a plain requeue, restarting "
			      "from what the application saved", why);
	error("JobId=%u: %s", job_id, text);
	_ck_event(j, "checkpoint_failed", text);
	xfree(text);
	acct_outbox_want_sync();
	commit_dirty();
}

void job_ckpt_criu_done(uint32_t job_id)
{
	job_record_t *j = job_mgr_find(job_id);
	char *dir, *text;

	if (!j || !(dir = job_ckpt_dir(j)))
		return;
	if (j->ckpt_deadline && _ck_running(j))
		_ck_signal(j);
	text = xstrdup_printf("CRIU image of the job's processes in %s/criu",
			      dir);
	_ck_event(j, "criu_dump", text);
	xfree(text);
	xfree(dir);
	acct_outbox_want_sync();
	commit_dirty();
}
