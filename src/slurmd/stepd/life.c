/* life.c — a batch stepd's life cycle (see life.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/life.h"

#include <event2/event.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/daemon.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/prep.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/ctld_send.h"
#include "slurmd/common/job_container.h"
#include "slurmd/stepd/cgroup_stepd.h"
#include "slurmd/stepd/env.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/report.h"
#include "slurmd/stepd/spank_stepd.h"
#include "slurmd/stepd/step_profile.h"
#include "slurmd/stepd/task.h"
#include "slurmd/stepd/task_prolog.h"

#define POLL_MS          250
#define LINGER_SECS      120   /* wait this long for the terminate request */

static int spank_epilog_rc;    /* a required plugin's job_epilog failed */

static int job_procs(stepd_t *sd, int sig)
{
	return proctrack_signal(sd->task_pid, getpid(), sig);
}

static void arm(struct event *ev, long ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	evtimer_add(ev, &tv);
}

static void done(stepd_t *sd, int epilog_rc)
{
	if (sd->terminating)        /* job_container/tmpfs: the job's /tmp */
		job_container_delete(sd->conf, sd->node_name,
				     sd->job->job_id);
	if (sd->terminating && !sd->node_done)
		report_epilog_complete(sd, epilog_rc);
	info("JobId=%u: done", sd->job->job_id);
	event_base_loopexit(sd->base, NULL);
}

/* Nothing of the job is left: Epilog (if any), then done. */
static void finish(stepd_t *sd)
{
	const char *epilog = prep_program(sd->conf, PREP_EPILOG);
	script_info_t si;

	if (sd->finishing)
		return;
	sd->finishing = true;
	/* no new requests: slurmd answers for a job without a socket */
	unlink(sd->sock_path);
	if (sd->terminating) {
		/* the step's plugins end before the job's epilog ones */
		stepd_spank_fini();
		spank_epilog_rc = stepd_spank_job_script(sd, SPANK_CB_JOB_EPILOG)
				  ? 1 : 0;
	}
	if (!sd->terminating || !epilog || !*epilog) {
		done(sd, spank_epilog_rc);
		return;
	}
	stepd_script_info(sd, "epilog_slurmd", &si);
	sd->epilog_pid = script_spawn(epilog, &si);
	if (sd->epilog_pid <= 0)
		done(sd, 1);
}

static void epilog_ended(stepd_t *sd, int status)
{
	int rc = script_exit_rc(status);

	sd->epilog_pid = 0;
	if (!rc)
		rc = spank_epilog_rc;
	if (rc)
		error("JobId=%u: epilog failed with rc %d", sd->job->job_id,
		      rc);
	done(sd, rc);
}

/* Called on every tick and child exit: is the job over? */
static void check_done(stepd_t *sd)
{
	int left;

	if (!sd->task_done || sd->finishing)
		return;
	/* after the script, nothing of the job may stay; during terminate
	 * the KillWait grace applies until the kill timer fired */
	if (!sd->terminating || !evtimer_pending(sd->kill_ev, NULL))
		left = job_procs(sd, SIGKILL);
	else
		left = proctrack_count(sd->task_pid, getpid());
	if (left > 0) {
		arm(sd->poll_ev, POLL_MS);
		return;
	}
	if (sd->terminating)
		finish(sd);
}

/* The script ended: will nothing more happen here at the job's end (no
 * process of the job left, no Epilog script or SPANK plugin to run)? */
static bool ends_clean(stepd_t *sd)
{
	return !prep_program(sd->conf, PREP_EPILOG) &&
	       !stepd_spank_active() &&
	       proctrack_count(sd->task_pid, getpid()) == 0;
}

static void on_task_exit(stepd_t *sd, int status, const struct rusage *ru)
{
	sd->task_done = true;
	sd->task_status = stepd_cgroup_exit_status(sd, status);
	if (sd->err_fd >= 0) {
		close(sd->err_fd);
		sd->err_fd = -1;
	}
	sd->task_ru = *ru;
	if (sd->conf->task_epilog && *sd->conf->task_epilog) {
		char **env = env_build_batch(sd);

		task_epilog_run(sd->conf->task_epilog, env, sd->job->uid,
				sd->job->gid, sd->job->work_dir, TASK_EPILOG_WAIT);
		xstrarray_free(env);
	}
	if (WIFSIGNALED(status))
		info("JobId=%u: batch script killed by signal %d",
		     sd->job->job_id, WTERMSIG(status));
	else
		info("JobId=%u: batch script exited with status %d",
		     sd->job->job_id, WEXITSTATUS(status));
	stepd_spank_task_exit(sd->task_pid, status);
	/* the profile's last rows go ahead of the completion */
	step_profile_batch_end(sd->prof, ru);
	report_batch_complete(sd, sd->ack_pipe[1], ends_clean(sd));
}

static void reap(stepd_t *sd)
{
	struct rusage ru;
	int status;
	pid_t pid;

	while ((pid = wait4(-1, &status, WNOHANG, &ru)) > 0) {
		if (pid == sd->task_pid && !sd->task_done)
			on_task_exit(sd, status, &ru);
		else if (sd->epilog_pid > 0 && pid == sd->epilog_pid)
			epilog_ended(sd, status);
		else
			debug2("JobId=%u: reaped pid %d", sd->job->job_id,
			       (int) pid);
	}
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	stepd_t *sd = arg;

	if (sig == SIGCHLD) {
		reap(sd);
		check_done(sd);
	} else if (sig == SIGTERM) {
		info("JobId=%u: slurmstepd got SIGTERM, ending the job",
		     sd->job->job_id);
		stepd_terminate(sd, 0, JOB_PENDING);
	}
}

static void on_kill_timer(evutil_socket_t fd, short what, void *arg)
{
	stepd_t *sd = arg;
	int n = job_procs(sd, SIGKILL);

	if (n)
		info("JobId=%u: sent SIGKILL to %d process(es) after KillWait",
		     sd->job->job_id, n);
	check_done(sd);
}

static void on_poll(evutil_socket_t fd, short what, void *arg)
{
	stepd_t *sd = arg;

	reap(sd);
	check_done(sd);
}

static void on_linger(evutil_socket_t fd, short what, void *arg)
{
	stepd_t *sd = arg;

	info("JobId=%u: no terminate request came, exiting", sd->job->job_id);
	if (proctrack_count(sd->task_pid, getpid()) == 0)
		finish(sd);
	else
		arm(sd->linger_ev, 1000);
}

static void on_ack(evutil_socket_t fd, short what, void *arg)
{
	stepd_t *sd = arg;
	char buf[16];
	struct timeval tv = { LINGER_SECS, 0 };
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n <= 0)
		return;
	if (memchr(buf, CTLD_SEND_DONE, (size_t) n) ||
	    memchr(buf, CTLD_SEND_ENDED, (size_t) n)) {
		/* the answer was the terminate slurmd would have passed on */
		sd->node_done = memchr(buf, CTLD_SEND_DONE, (size_t) n);
		debug("JobId=%u: controller acknowledged completion and ended "
		      "the job%s", sd->job->job_id,
		      sd->node_done ? " (node done)" : "");
		stepd_terminate(sd, 0, JOB_COMPLETE);
		return;
	}
	debug("JobId=%u: controller acknowledged completion", sd->job->job_id);
	if (!sd->terminating)
		evtimer_add(sd->linger_ev, &tv);
}

int stepd_signal(stepd_t *sd, int sig, uint16_t flags)
{
	const uint32_t id = sd->job->job_id;
	int n;

	if (sd->task_done)
		return ESLURM_ALREADY_DONE;
	if (flags & KILL_JOB_BATCH) {
		info("JobId=%u: signal %d to the batch shell", id, sig);
		return kill(sd->task_pid, sig) < 0 ? ESLURMD_KILL_TASK_FAILED
						   : SLURM_SUCCESS;
	}
	if (!(flags & KILL_FULL_JOB) && sig != SIGKILL) {
		/* as in Slurm: without --batch/--full only steps get it */
		debug("JobId=%u: signal %d not for the batch step", id, sig);
		return SLURM_SUCCESS;
	}
	n = job_procs(sd, sig);
	info("JobId=%u: signal %d sent to %d process(es)", id, sig, n);
	return SLURM_SUCCESS;
}

/* "*** JOB 12 ON n1 CANCELLED AT 2026-11-23T10:00:00 DUE TO TIME LIMIT ***" */
static void note_cancel(stepd_t *sd, uint32_t job_state)
{
	const char *why;
	char when[32], *line;
	time_t now = time(NULL);
	struct tm tm;

	switch (job_state & JOB_STATE_BASE) {
	case JOB_PENDING:
		if (!(job_state & JOB_REQUEUE))
			return;
		why = " DUE TO JOB REQUEUE";
		break;
	case JOB_CANCELLED: why = ""; break;
	case JOB_TIMEOUT:   why = " DUE TO TIME LIMIT"; break;
	case JOB_NODE_FAIL: why = " DUE TO NODE FAILURE"; break;
	case JOB_PREEMPTED: why = " DUE TO PREEMPTION"; break;
	default: return;
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	line = xstrdup_printf("slurmstepd: error: *** JOB %u ON %s CANCELLED AT %s%s ***\n",
			      sd->job->job_id, sd->node_name, when, why);
	task_note(sd, line);
	xfree(line);
}

void stepd_terminate(stepd_t *sd, uint16_t kill_wait, uint32_t job_state)
{
	int n;

	if (sd->terminating) {
		check_done(sd);
		return;
	}
	sd->terminating = true;
	if (!sd->task_done)
		note_cancel(sd, job_state);
	if (sd->linger_ev)
		evtimer_del(sd->linger_ev);
	sd->kill_wait = kill_wait ? kill_wait : sd->conf->kill_wait;
	job_procs(sd, SIGCONT);
	n = job_procs(sd, SIGTERM);
	info("JobId=%u: terminating, SIGTERM to %d process(es), KillWait %u s",
	     sd->job->job_id, n, sd->kill_wait);
	arm(sd->kill_ev, (long) sd->kill_wait * 1000);
	if (sd->task_done)
		check_done(sd);   /* finishes now when nothing is left */
	else
		arm(sd->poll_ev, POLL_MS);
}

int life_init(stepd_t *sd)
{
	static const int sigs[] = { SIGCHLD, SIGTERM };

	daemon_ignore_signals();
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	for (int i = 0; i < 2; i++) {
		sd->sig_ev[i] = evsignal_new(sd->base, sigs[i], on_signal, sd);
		if (!sd->sig_ev[i] || evsignal_add(sd->sig_ev[i], NULL) < 0)
			return -1;
	}
	sd->kill_ev = evtimer_new(sd->base, on_kill_timer, sd);
	sd->poll_ev = evtimer_new(sd->base, on_poll, sd);
	sd->linger_ev = evtimer_new(sd->base, on_linger, sd);
	if (pipe2(sd->ack_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

int life_watch_acks(stepd_t *sd)
{
	sd->ack_ev = event_new(sd->base, sd->ack_pipe[0], EV_READ | EV_PERSIST,
			       on_ack, sd);
	return sd->ack_ev ? event_add(sd->ack_ev, NULL) : -1;
}

void life_fini(stepd_t *sd)
{
	for (int i = 0; i < 2; i++) {
		if (sd->sig_ev[i])
			event_free(sd->sig_ev[i]);
	}
	if (sd->ack_ev)
		event_free(sd->ack_ev);
	if (sd->kill_ev)
		event_free(sd->kill_ev);
	if (sd->poll_ev)
		event_free(sd->poll_ev);
	if (sd->linger_ev)
		event_free(sd->linger_ev);
}
