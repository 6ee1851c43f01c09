/* req.c — slurmd's request handlers (see req.h). */
#include "slurmd/req.h"
#include "slurmd/step_list.h"
#include "slurmd/bcast.h"

#include <stdbool.h>
#include <time.h>
#include <stddef.h>
#include <unistd.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"
#include "slurmd/energy_rapl.h"
#include "slurmd/epilog.h"
#include "slurmd/forward_req.h"
#include "slurmd/health.h"
#include "slurmd/reboot.h"
#include "slurmd/job_output.h"
#include "slurmd/launch.h"
#include "slurmd/launch_prolog.h"
#include "slurmd/step_prolog.h"
#include "slurmd/launch_step.h"
#include "slurmd/configless.h"
#include "slurmd/slurmd.h"
#include "slurmd/status.h"
#include "slurmd/unkillable.h"

#define STEPD_RPC_TIMEOUT_MS 5000

typedef void (*req_f)(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);

static void req_ping(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	net_reply_rc(conn, SLURM_SUCCESS);
}

/* The controller's node ping, with acct_gather_energy/rapl. */
static void req_energy(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	acct_gather_energy_msg_t e;

	energy_node_sample(sd->energy, &e);
	net_reply(conn, RESPONSE_ACCT_GATHER_UPDATE, &e);
}

static void req_health_check(slurmd_t *sd, net_conn_t *conn,
			     slurm_msg_t *msg)
{
	net_reply_rc(conn, SLURM_SUCCESS);
	health_start(sd);
}

static void req_reg_status(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	net_reply_rc(conn, SLURM_SUCCESS);
	slurmd_register(sd, false);
}

static void req_shutdown(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	info("shutdown requested by uid %u from %s", (unsigned) msg->auth_uid,
	     msg->peer);
	net_reply_rc(conn, SLURM_SUCCESS);
	slurmd_shutdown(sd);
}

static void req_reconfigure(slurmd_t *sd, net_conn_t *conn,
			    slurm_msg_t *msg)
{
	info("Reconfigure request from uid %u", (unsigned) msg->auth_uid);
	net_reply_rc(conn, slurmd_reconfigure(sd));
}

/* scontrol reconfigure with configless on: the files come along.  A
 * slurmd reading its own slurm.conf ignores them. */
static void req_reconfigure_files(slurmd_t *sd, net_conn_t *conn,
				  slurm_msg_t *msg)
{
	char err[512];

	info("Reconfigure request (with the configuration files) from uid %u",
	     (unsigned) msg->auth_uid);
	if (sd->cache_dir && (!msg->data ||
	    configless_update(sd->cache_dir, msg->data, err, sizeof(err)) < 0)) {
		error("Reconfigure failed, keeping the old config: %s",
		      msg->data ? err : "no files");
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	net_reply_rc(conn, slurmd_reconfigure(sd));
}

static void req_launch(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const batch_launch_msg_t *m = msg->data;
	int rc;

	if (!m) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	rc = launch_batch(sd, m);
	if (rc)
		error("JobId=%u: batch launch failed: %s", m->job_id,
		      slurm_strerror(rc));
	net_reply_rc(conn, rc);
}

static void req_launch_tasks(slurmd_t *sd, net_conn_t *conn,
			     slurm_msg_t *msg)
{
	const launch_tasks_request_msg_t *m = msg->data;
	int rc;

	if (!m) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	rc = launch_step(sd, msg->auth_uid, m);
	if (rc)
		error("StepId=%u.%u: launch failed: %s", m->job_id, m->step_id,
		      slurm_strerror(rc));
	net_reply_rc(conn, rc);
}

static void req_launch_prolog(slurmd_t *sd, net_conn_t *conn,
			      slurm_msg_t *msg)
{
	const prolog_launch_msg_t *m = msg->data;

	net_reply_rc(conn, m ? launch_prolog(sd, m)
			     : SLURM_UNEXPECTED_MSG_ERROR);
}

/* Pass the request on to every step stepd of the job here. */
static void forward_to_steps(slurmd_t *sd, uint16_t type,
			     const node_signal_msg_t *m)
{
	char **socks = launch_step_sockets(sd, m->job_id);

	for (size_t i = 0; socks[i]; i++) {
		slurm_msg_t resp = { 0 };

		if (net_rpc_unix(socks[i], type, m, &resp,
				 STEPD_RPC_TIMEOUT_MS) == 0)
			msg_free(&resp);
	}
	xstrarray_free(socks);
}

/* Pass a signal/terminate request on to the job's stepd.  Returns
 * ESLURM_INVALID_JOB_ID if no stepd for the job lives here. */
static int forward_to_stepd(slurmd_t *sd, uint16_t type,
			    const node_signal_msg_t *m)
{
	char *path = spool_step_socket(sd->spool_dir, sd->node->name,
				       m->job_id);
	slurm_msg_t resp = { 0 };
	int rc;

	if (access(path, F_OK) < 0) {
		rc = ESLURM_INVALID_JOB_ID;
		goto out;
	}
	rc = net_rpc_unix(path, type, m, &resp, STEPD_RPC_TIMEOUT_MS);
	if (rc) {
		debug("JobId=%u: stepd at %s: %s", m->job_id, path,
		      slurm_strerror(rc));
		/* it read the request and ended before answering: a batch
		 * stepd runs the Epilog and exits at once; not again here */
		if (type == REQUEST_TERMINATE_JOB &&
		    rc == SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT) {
			rc = SLURM_SUCCESS;
			goto out;
		}
		if (!spool_step_alive(path)) {
			unlink(path);
			rc = ESLURM_INVALID_JOB_ID;
		}
		goto out;
	}
	if (resp.type == RESPONSE_SLURM_RC && resp.data)
		rc = ((return_code_msg_t *) resp.data)->rc;
	msg_free(&resp);
out:
	xfree(path);
	return rc;
}

/* scancel JOB.STEP: only that step's stepd, which signals only its
 * tasks.  ESLURM_INVALID_JOB_ID if the step does not run here. */
static int signal_one_step(slurmd_t *sd, const node_signal_msg_t *m)
{
	char *path = launch_step_socket(sd->spool_dir, sd->node->name,
					m->job_id, m->step_id);
	slurm_msg_t resp = { 0 };
	int rc = ESLURM_INVALID_JOB_ID;

	debug("StepId=%u.%u: signal %u", m->job_id, m->step_id, m->signal);
	if (access(path, F_OK) == 0 &&
	    net_rpc_unix(path, REQUEST_SIGNAL_JOB, m, &resp,
			 STEPD_RPC_TIMEOUT_MS) == 0) {
		rc = resp.type == RESPONSE_SLURM_RC && resp.data ?
		     ((return_code_msg_t *) resp.data)->rc : SLURM_SUCCESS;
		msg_free(&resp);
	}
	xfree(path);
	return rc;
}

static void req_signal(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const node_signal_msg_t *m = msg->data;
	int rc;

	if (!m) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (m->step_id != NO_VAL32 && m->step_id != SLURM_BATCH_SCRIPT) {
		net_reply_rc(conn, signal_one_step(sd, m));
		return;
	}
	debug("JobId=%u: signal %u flags 0x%x", m->job_id, m->signal,
	      m->flags);
	if (!(m->flags & KILL_JOB_BATCH))
		forward_to_steps(sd, REQUEST_SIGNAL_JOB, m);
	rc = forward_to_stepd(sd, REQUEST_SIGNAL_JOB, m);
	if (rc == ESLURM_INVALID_JOB_ID && !(m->flags & KILL_JOB_BATCH))
		rc = SLURM_SUCCESS;
	net_reply_rc(conn, rc);
}

static void req_terminate(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const node_signal_msg_t *m = msg->data;
	uint32_t uid, gid;
	char *dir, *user;

	if (!m) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	net_reply_rc(conn, SLURM_SUCCESS);
	debug("JobId=%u: terminate (kill_wait %u s)", m->job_id, m->kill_wait);
	forward_to_steps(sd, REQUEST_TERMINATE_JOB, m);
	unkillable_watch(sd, m->job_id, m->kill_wait);
	launch_ended(sd, m->job_id);
	step_prolog_forget(m->job_id, &uid, &gid, &user);
	if (!user && m->user_name && *m->user_name) {
		/* no step ran here: the controller names the user */
		uid = m->uid;
		gid = m->gid;
		user = xstrdup(m->user_name);
	}
	if (forward_to_stepd(sd, REQUEST_TERMINATE_JOB, m) !=
	    ESLURM_INVALID_JOB_ID) {
		xfree(user);
		return;
	}
	/* Nothing of the job runs here (any more). */
	dir = spool_job_dir(sd->spool_dir, m->job_id);
	spool_remove_tree(dir);
	xfree(dir);
	launch_prolog_epilog(sd, m->job_id, m->nodes, m->kill_wait, uid, gid,
			     user);
	xfree(user);
}

/* sstat: the step stepd here answers with its usage now; it checks that
 * the asking user owns the step (user_id is the sender's uid). */
static void req_step_stat(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	job_step_info_request_msg_t r;
	slurm_msg_t resp = { 0 };
	char *path;
	int rc;

	if (!msg->data) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	r = *(job_step_info_request_msg_t *) msg->data;
	r.user_id = msg->auth_uid;
	path = launch_step_socket(sd->spool_dir, sd->node->name, r.job_id,
				  r.step_id);
	if (access(path, F_OK) < 0) {
		xfree(path);
		net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
		return;
	}
	rc = net_rpc_unix(path, REQUEST_JOB_STEP_STAT, &r, &resp,
			  STEPD_RPC_TIMEOUT_MS);
	xfree(path);
	if (rc) {
		net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (resp.type == RESPONSE_JOB_STEP_STAT && resp.data)
		net_reply(conn, RESPONSE_JOB_STEP_STAT, resp.data);
	else
		net_reply_rc(conn, resp.type == RESPONSE_SLURM_RC && resp.data ?
			     ((return_code_msg_t *) resp.data)->rc :
			     SLURM_UNEXPECTED_MSG_ERROR);
	msg_free(&resp);
}

/* sattach: the step stepd here connects to sattach as another I/O
 * client if the asking user (user_id = the sender's uid) owns the step,
 * or is root or SlurmUser; it checks that itself. */
static void req_reattach(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	reattach_tasks_msg_t r;
	slurm_msg_t resp = { 0 };
	char *path;
	int rc;

	if (!msg->data) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	r = *(reattach_tasks_msg_t *) msg->data;
	r.user_id = msg->auth_uid;
	path = launch_step_socket(sd->spool_dir, sd->node->name, r.job_id,
				  r.step_id);
	if (access(path, F_OK) < 0) {
		xfree(path);
		net_reply_rc(conn, ESLURM_INVALID_JOB_ID);
		return;
	}
	rc = net_rpc_unix(path, REQUEST_REATTACH_TASKS, &r, &resp,
			  STEPD_RPC_TIMEOUT_MS);
	xfree(path);
	if (!rc)
		rc = resp.type == RESPONSE_SLURM_RC && resp.data ?
		     ((return_code_msg_t *) resp.data)->rc :
		     SLURM_UNEXPECTED_MSG_ERROR;
	else
		rc = ESLURM_INVALID_JOB_ID;
	msg_free(&resp);
	net_reply_rc(conn, rc);
}

/* CheckpointType=checkpoint/criu: the job's batch stepd dumps its
 * processes; its answer (with CRIU's reason) goes back as it is.  CRIU
 * may take a while: this waits up to CRIU_TIMEOUT_MS. */
#define CRIU_TIMEOUT_MS (110 * 1000)
static void req_checkpoint_tasks(slurmd_t *sd, net_conn_t *conn,
				 slurm_msg_t *msg)
{
	const checkpoint_tasks_msg_t *m = msg->data;
	const return_code_msg_t *r;
	slurm_msg_t resp = { 0 };
	char *path;
	int rc;

	if (!m) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	path = spool_step_socket(sd->spool_dir, sd->node->name, m->job_id);
	if (access(path, F_OK) < 0) {
		net_reply_rcf(conn, ESLURM_INVALID_JOB_ID, "the batch script "
			      "of job %u does not run on %s", m->job_id,
			      sd->node->name);
		xfree(path);
		return;
	}
	info("JobId=%u: CRIU checkpoint into %s", m->job_id, m->dir);
	rc = net_rpc_unix(path, REQUEST_CHECKPOINT_TASKS, m, &resp,
			  CRIU_TIMEOUT_MS);
	xfree(path);
	if (rc) {
		net_reply_rcf(conn, rc, "the batch stepd of job %u on %s did "
			      "not answer: %s", m->job_id, sd->node->name,
			      slurm_strerror(rc));
		return;
	}
	r = resp.type == RESPONSE_SLURM_RC ? resp.data : NULL;
	if (!r)
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
	else if (r->rc && r->msg && *r->msg)
		net_reply_rcf(conn, (int) r->rc, "%s: %s", sd->node->name,
			      r->msg);
	else
		net_reply_rc(conn, (int) r->rc);
	msg_free(&resp);
}

static void req_status(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	status_reply(sd, conn);
}

static const struct {
	uint16_t type;
	req_f    handler;
} handlers[] = {
	{ REQUEST_DAEMON_STATUS, req_status },
	{ REQUEST_PING, req_ping },
	{ REQUEST_NODE_REGISTRATION_STATUS, req_reg_status },
	{ REQUEST_HEALTH_CHECK, req_health_check },
	{ REQUEST_REBOOT_NODES, reboot_req },
	{ REQUEST_ACCT_GATHER_UPDATE, req_energy },
	{ REQUEST_SHUTDOWN, req_shutdown },
	{ REQUEST_RECONFIGURE, req_reconfigure },
	{ REQUEST_RECONFIGURE_WITH_CONFIG, req_reconfigure_files },
	{ REQUEST_BATCH_JOB_LAUNCH, req_launch },
	{ REQUEST_SIGNAL_JOB, req_signal },
	{ REQUEST_TERMINATE_JOB, req_terminate },
	{ REQUEST_LAUNCH_TASKS, req_launch_tasks },
	{ REQUEST_JOB_STEP_STAT, req_step_stat },
	{ REQUEST_REATTACH_TASKS, req_reattach },
	{ REQUEST_FORWARD, forward_req },
	{ REQUEST_LAUNCH_PROLOG, req_launch_prolog },
	/* from the controller only (authorized()): it checked the asker */
	{ REQUEST_JOB_OUTPUT_READ, job_output_read },
	{ REQUEST_CHECKPOINT_TASKS, req_checkpoint_tasks },
	/* sbcast, sgather: the job's credential is checked (bcast.h) */
	{ REQUEST_FILE_BCAST, bcast_req_block },
	{ REQUEST_FILE_GATHER, bcast_req_gather },
	/* scontrol listpids & co.: any user, his own rows (step_list.h) */
	{ REQUEST_STEP_PIDS, step_list_req },
	{ REQUEST_JOB_NOTIFY, step_list_notify },
};

/* Users may only launch tasks (their step credential is checked), ask
 * about their steps' usage and attach to them (the stepd checks the
 * owner), and send or gather files with their job's sbcast credential. */
static bool authorized(const slurmd_t *sd, const slurm_msg_t *msg)
{
	if (msg->type == REQUEST_LAUNCH_TASKS ||
	    msg->type == REQUEST_JOB_STEP_STAT ||
	    msg->type == REQUEST_REATTACH_TASKS ||
	    msg->type == REQUEST_FILE_BCAST ||    /* bcast.c checks */
	    msg->type == REQUEST_FILE_GATHER ||
	    msg->type == REQUEST_FORWARD ||       /* forward_req checks */
	    msg->type == REQUEST_DAEMON_STATUS ||
	    msg->type == REQUEST_STEP_PIDS)       /* rows filtered by uid */
		return true;
	return msg->auth_uid == 0 || msg->auth_uid == sd->conf->slurm_user_id;
}

void req_handle(net_conn_t *conn, slurm_msg_t *msg, void *arg)
{
	slurmd_t *sd = arg;

	if (!authorized(sd, msg)) {
		error("security violation: %s from uid %u at %s",
		      msg_type_name(msg->type), (unsigned) msg->auth_uid,
		      msg->peer);
		net_reply_rc(conn, ESLURM_ACCESS_DENIED);
		return;
	}
	debug2("%s from %s", msg_type_name(msg->type), msg->peer);
	if (msg->type != REQUEST_DAEMON_STATUS &&
	    (msg->auth_uid == 0 ||
	     msg->auth_uid == sd->conf->slurm_user_id))
		sd->last_ctld_msg = time(NULL);
	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++) {
		if (handlers[i].type == msg->type) {
			handlers[i].handler(sd, conn, msg);
			return;
		}
	}
	error("unexpected %s from %s", msg_type_name(msg->type), msg->peer);
	net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
}
