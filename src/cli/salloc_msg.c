/* salloc_msg.c — salloc's listener (salloc_msg.h). */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include <event2/event.h>

#include "cli/salloc_msg.h"
#include "cli/cli_common.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/job_info.h"
#include "common/net.h"
#include "slurm/slurm_errno.h"

#define ALLOC_MSG_CONN_TIMEOUT_MS 10000

/* Shared by the listener thread and salloc's main thread. */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t command_pid;
static int command_signal;
static bool revoked, releasing;

static void _signal_command(void)
{
	if (command_pid > 0 && command_signal > 0 &&
	    kill(command_pid, command_signal) < 0)
		debug("kill(%ld, %d): %m", (long) command_pid, command_signal);
}

static void _job_complete(const srun_job_complete_msg_t *r)
{
	pthread_mutex_lock(&state_lock);
	if (!revoked && !releasing) {
		revoked = true;
		if (r->job_state == JOB_TIMEOUT)
			info("Job %u has exceeded its time limit and its "
			     "allocation has been revoked.", r->job_id);
		else
			info("Job allocation %u has been revoked.",
			     r->job_id);
		_signal_command();
	}
	pthread_mutex_unlock(&state_lock);
}

void salloc_msg_command(pid_t pid, int kill_signal)
{
	pthread_mutex_lock(&state_lock);
	command_pid = pid;
	command_signal = kill_signal;
	if (revoked)
		_signal_command();
	pthread_mutex_unlock(&state_lock);
}

bool salloc_msg_release(void)
{
	bool r;

	pthread_mutex_lock(&state_lock);
	releasing = true;
	r = !revoked;
	pthread_mutex_unlock(&state_lock);
	return r;
}

static void _on_msg(net_conn_t *c, slurm_msg_t *m, void *arg)
{
	const job_notify_msg_t *n = m->data;
	const slurm_conf_t *conf = cli_conf();

	(void) arg;
	if (m->auth_uid != 0 && (!conf || m->auth_uid != conf->slurm_user_id)) {
		debug("%s from uid=%u refused: only root or SlurmUser",
		      msg_type_name(m->type), (unsigned) m->auth_uid);
		net_reply_rc(c, ESLURM_USER_ID_MISSING);
		return;
	}
	if (m->type == SRUN_JOB_COMPLETE && m->data) {
		net_reply_rc(c, SLURM_SUCCESS);
		_job_complete(m->data);
		return;
	}
	if (m->type != SRUN_USER_MSG || !n || !n->message) {
		net_reply_rc(c, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	info("%s", n->message);
	net_reply_rc(c, SLURM_SUCCESS);
}

static void *_serve(void *arg)
{
	event_base_dispatch(arg);
	return NULL;
}

uint16_t salloc_msg_start(void)
{
	int fd = net_listen_tcp(NULL, 0);
	struct event_base *base;
	pthread_t t;
	uint16_t port;

	if (fd < 0) {
		debug("allocation messages: cannot listen: %m");
		return 0;
	}
	port = net_local_port(fd);
	if (!(base = event_base_new()) ||
	    !net_server_create(base, fd, _on_msg, NULL,
			       ALLOC_MSG_CONN_TIMEOUT_MS) ||
	    pthread_create(&t, NULL, _serve, base)) {
		debug("allocation messages: cannot serve port %u",
		      (unsigned) port);
		return 0;               /* salloc exits soon: nothing freed */
	}
	pthread_detach(t);              /* ends with salloc */
	return port;
}
