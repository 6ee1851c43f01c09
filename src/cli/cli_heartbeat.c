/* cli_heartbeat.c — the allocating command's heartbeat (cli_heartbeat.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_heartbeat.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "slurm/slurm_errno.h"

/* as the controller's (ctld/job_inactive.h) */
#define HEARTBEAT_SLOW_SEC 60

static struct {
	pthread_t       thread;
	pthread_mutex_t lock;
	pthread_cond_t  cond;
	bool            started, stop;
	uint32_t        job_id;
} hb = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static unsigned _period(unsigned limit)
{
	if (!limit)
		return HEARTBEAT_SLOW_SEC;
	return limit >= 3 ? limit / 3 : 1;
}

/* One heartbeat: the next period, or 0 when the job is gone. */
static unsigned _beat(unsigned period)
{
	alloc_heartbeat_msg_t req = { .job_id = hb.job_id };
	const alloc_heartbeat_resp_msg_t *r;
	slurm_msg_t resp;
	int rc = cli_ctld_rpc(REQUEST_ALLOC_HEARTBEAT, &req, &resp);

	if (rc) {
		debug("heartbeat of job %u: %s", hb.job_id,
		      cli_comm_strerror(rc));
		return period;          /* the controller may be restarting */
	}
	if (resp.type != RESPONSE_ALLOC_HEARTBEAT || !(r = resp.data)) {
		debug("heartbeat of job %u: %s", hb.job_id,
		      slurm_strerror(cli_resp_rc(&resp)));
		msg_free(&resp);
		return period;
	}
	debug2("heartbeat of job %u: %s; InactiveLimit=%u", hb.job_id,
	       slurm_strerror((int) r->rc), r->inactive_limit);
	period = _period(r->inactive_limit);
	if (r->rc == ESLURM_INVALID_JOB_ID || r->rc == ESLURM_ALREADY_DONE)
		period = 0;
	else if (r->rc)
		debug("heartbeat of job %u: %s", hb.job_id,
		      slurm_strerror((int) r->rc));
	msg_free(&resp);
	return period;
}

static void *_run(void *arg)
{
	unsigned period = _period(cli_conf() ? cli_conf()->inactive_limit : 0);
	struct timespec until;

	pthread_mutex_lock(&hb.lock);
	while (!hb.stop && period) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += period;
		while (!hb.stop &&
		       pthread_cond_timedwait(&hb.cond, &hb.lock, &until) !=
		       ETIMEDOUT)
			;
		if (hb.stop)
			break;
		pthread_mutex_unlock(&hb.lock);
		period = _beat(period);
		pthread_mutex_lock(&hb.lock);
	}
	pthread_mutex_unlock(&hb.lock);
	return NULL;
}

void cli_heartbeat_mark(job_desc_t *d)
{
	d->bitflags |= JOB_ALLOC_HEARTBEAT;
}

void cli_heartbeat_start(uint32_t job_id)
{
	sigset_t all, old;

	if (hb.started)
		return;
	hb.job_id = job_id;
	hb.stop = false;
	/* signals stay with the command's main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&hb.thread, NULL, _run, NULL) == 0)
		hb.started = true;
	else
		error("job %u: cannot start the InactiveLimit heartbeat: %m",
		      job_id);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void cli_heartbeat_stop(void)
{
	if (!hb.started)
		return;
	pthread_mutex_lock(&hb.lock);
	hb.stop = true;
	pthread_cond_signal(&hb.cond);
	pthread_mutex_unlock(&hb.lock);
	pthread_join(hb.thread, NULL);
	hb.started = false;
}
