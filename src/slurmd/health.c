/* health.c — HealthCheckProgram (health.h). */
#define _GNU_SOURCE
#include "slurmd/health.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <event2/event.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "slurmd/common/script.h"

static pid_t hc_pid;               /* running, or 0 */
static struct event *hc_timer;     /* kills it after HEALTH_TIMEOUT_SEC */

static const char *_program(const slurmd_t *sd)
{
	const char *p = conf_get(sd->conf, "HealthCheckProgram");

	/* conf_get gives what scontrol show config prints */
	return p && *p && strcmp(p, "(null)") ? p : NULL;
}

static pid_t _spawn(slurmd_t *sd, const char *path)
{
	script_info_t info = {
		.context = "health_check", .job_id = NO_VAL32,
		.uid = NO_VAL32, .gid = NO_VAL32,
		.node_name = sd->node->name,
		.cluster_name = sd->conf->cluster_name,
		.conf_path = sd->conf_path,
	};

	return script_spawn(path, &info);
}

static void _log_end(const char *path, int status)
{
	int rc = script_exit_rc(status);

	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		error("health_check %s killed after %d seconds", path,
		      HEALTH_TIMEOUT_SEC);
	else if (rc)
		error("health_check failed: rc:%d program:%s", rc, path);
	else
		debug("health_check %s: success", path);
}

void health_run_sync(slurmd_t *sd)
{
	const char *path = _program(sd);
	time_t end = time(NULL) + HEALTH_TIMEOUT_SEC;
	pid_t pid;
	int status = 0;

	if (!path)
		return;
	pid = _spawn(sd, path);
	if (pid < 0)
		return;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return;
		if (time(NULL) >= end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		usleep(20000);
	}
	_log_end(path, status);
}

static void _timeout(evutil_socket_t fd, short what, void *arg)
{
	(void) fd;
	(void) what;
	(void) arg;
	if (hc_pid > 0) {
		kill(-hc_pid, SIGKILL);
		kill(hc_pid, SIGKILL);
	}
}

void health_start(slurmd_t *sd)
{
	const char *path = _program(sd);
	struct timeval tv = { HEALTH_TIMEOUT_SEC, 0 };

	if (!path)
		return;
	if (hc_pid > 0) {
		debug("health_check still running (pid %d), not started again",
		      (int) hc_pid);
		return;
	}
	hc_pid = _spawn(sd, path);
	if (hc_pid < 0) {
		hc_pid = 0;
		return;
	}
	if (!hc_timer)
		hc_timer = evtimer_new(sd->base, _timeout, NULL);
	if (hc_timer)
		evtimer_add(hc_timer, &tv);
}

bool health_reaped(slurmd_t *sd, pid_t pid, int status)
{
	const char *path = _program(sd);

	if (!hc_pid || pid != hc_pid)
		return false;
	hc_pid = 0;
	if (hc_timer)
		evtimer_del(hc_timer);
	_log_end(path ? path : "HealthCheckProgram", status);
	return true;
}

void health_fini(slurmd_t *sd)
{
	(void) sd;
	if (hc_timer)
		event_free(hc_timer);
	hc_timer = NULL;
}
