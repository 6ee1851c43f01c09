/* server.c — the stepd's Unix socket (see server.h). */
#include "slurmd/stepd/server.h"

#include <unistd.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/step_pids.h"
#include "common/xstring.h"
#include "slurmd/stepd/criu.h"
#include "slurmd/stepd/task.h"

#define STEPD_CONN_TIMEOUT_MS 10000

/* scontrol listpids & co. (step_pids.h): the batch script (task 0)
 * while it runs, and whatever else of the job lives below us. */
static void _pids(stepd_t *sd, net_conn_t *conn)
{
	step_pids_msg_t m = { 0 };
	uint32_t job = sd->job->job_id, uid = sd->job->uid;

	step_pids_add_step(&m, job, SLURM_BATCH_SCRIPT, uid);
	if (sd->task_pid > 0 && !sd->task_done)
		step_pids_add(&m, job, SLURM_BATCH_SCRIPT,
			      (uint32_t) sd->task_pid, 0, 0, uid);
	step_pids_add_descendants(&m, job, SLURM_BATCH_SCRIPT, uid);
	net_reply(conn, RESPONSE_STEP_PIDS, &m);
	xfree(m.job_ids); xfree(m.step_ids); xfree(m.pids);
	xfree(m.lids); xfree(m.gtids); xfree(m.uids);
}

static void handle(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	stepd_t *sd = arg;
	const node_signal_msg_t *m = msg->data;

	if (msg->auth_uid != 0 && msg->auth_uid != sd->conf->slurm_user_id) {
		error("JobId=%u: %s from uid %u refused", sd->job->job_id,
		      msg_type_name(msg->type), (unsigned) msg->auth_uid);
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	if (msg->type == REQUEST_STEP_PIDS) {
		_pids(sd, conn);
		return;
	}
	if (msg->type == REQUEST_JOB_NOTIFY) {
		const job_notify_msg_t *n = msg->data;
		char *line;

		if (!n || !n->message || n->job_id != sd->job->job_id) {
			net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
			return;
		}
		/* scontrol notify: in the job's stderr, as Slurm's */
		line = xstrdup_printf("slurmstepd: error: %s\n", n->message);
		task_note(sd, line);
		xfree(line);
		net_reply_rc(conn, SLURM_SUCCESS);
		return;
	}
	if (msg->type == REQUEST_CHECKPOINT_TASKS) {
		const checkpoint_tasks_msg_t *ck = msg->data;
		char why[512];

		if (!ck || ck->job_id != sd->job->job_id) {
			net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
			return;
		}
		if (stepd_criu_dump(sd, ck->dir, why, sizeof(why)) < 0)
			net_reply_rcf(conn, SLURM_ERROR, "%s", why);
		else
			net_reply_rc(conn, SLURM_SUCCESS);
		return;
	}
	if (!m || (msg->type != REQUEST_SIGNAL_JOB &&
		   msg->type != REQUEST_TERMINATE_JOB)) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (m->job_id != sd->job->job_id) {
		net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (msg->type == REQUEST_SIGNAL_JOB) {
		net_reply_rc(conn, stepd_signal(sd, m->signal, m->flags));
		return;
	}
	net_reply_rc(conn, SLURM_SUCCESS);
	stepd_terminate(sd, m->kill_wait, m->job_state);
}

int server_start(stepd_t *sd)
{
	int fd;

	unlink(sd->sock_path);
	fd = net_listen_unix(sd->sock_path, 0600);
	if (fd < 0) {
		error("JobId=%u: cannot listen on %s: %m", sd->job->job_id,
		      sd->sock_path);
		return -1;
	}
	sd->server = net_server_create(sd->base, fd, handle, sd,
				       STEPD_CONN_TIMEOUT_MS);
	net_server_set_workers(sd->server, 0);
	if (!sd->server) {
		close(fd);
		unlink(sd->sock_path);
		return -1;
	}
	return 0;
}

void server_stop(stepd_t *sd)
{
	if (!sd->server)
		return;
	net_server_destroy(sd->server);
	sd->server = NULL;
	unlink(sd->sock_path);
}
