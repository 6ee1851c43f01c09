/* step_list.c — the processes of this node's steps (step_list.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"
#include "slurmd/common/step_pids.h"
#include "slurmd/launch_step.h"
#include "slurmd/step_list.h"

#define STEP_LIST_TIMEOUT_MS 5000

/* "<node>_<job>.batch" or "<node>_<job>.<step>": the job id, 0 if the
 * name is not a step socket of node. */
static uint32_t _sock_job(const char *name, const char *node)
{
	size_t nl = strlen(node);
	unsigned long job;
	char *end;

	if (strncmp(name, node, nl) || name[nl] != '_')
		return 0;
	job = strtoul(name + nl + 1, &end, 10);
	if (*end != '.' || !job || job >= NO_VAL32)
		return 0;
	if (strcmp(end + 1, "batch")) {
		char *e2;

		strtoul(end + 1, &e2, 10);
		if (*e2 || e2 == end + 1)
			return 0;
	}
	return (uint32_t) job;
}

static void _ask(const char *path, const step_pids_request_msg_t *req,
		 step_pids_msg_t *out, uint32_t uid, bool all)
{
	slurm_msg_t resp = { 0 };
	const step_pids_msg_t *m;
	int rc = net_rpc_unix(path, REQUEST_STEP_PIDS, req, &resp,
			      STEP_LIST_TIMEOUT_MS);

	if (rc || resp.type != RESPONSE_STEP_PIDS || !(m = resp.data)) {
		debug("listpids: stepd at %s: %s", path,
		      slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return;
	}
	for (uint32_t i = 0; i < m->cnt; i++)
		if (all || m->uids[i] == uid)
			step_pids_add(out, m->job_ids[i], m->step_ids[i],
				      m->pids[i], m->lids[i], m->gtids[i],
				      m->uids[i]);
	msg_free(&resp);
}

void step_list_req(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const step_pids_request_msg_t *req = msg->data;
	step_pids_request_msg_t all_jobs = { 0 };
	step_pids_msg_t out = { 0 };
	bool all = msg->auth_uid == 0 ||
		   msg->auth_uid == sd->conf->slurm_user_id;
	DIR *d = opendir(sd->spool_dir);
	struct dirent *e;

	if (!req)
		req = &all_jobs;
	while (d && (e = readdir(d))) {
		uint32_t job = _sock_job(e->d_name, sd->node->name);
		char *path;

		if (!job || (req->job_id && req->job_id != job))
			continue;
		path = xstrdup_printf("%s/%s", sd->spool_dir, e->d_name);
		_ask(path, req, &out, msg->auth_uid, all);
		xfree(path);
	}
	if (d)
		closedir(d);
	net_reply(conn, RESPONSE_STEP_PIDS, &out);
	xfree(out.job_ids); xfree(out.step_ids); xfree(out.pids);
	xfree(out.lids); xfree(out.gtids); xfree(out.uids);
}

/* scontrol notify (ctld/job_notify.h): to the job's batch stepd and
 * step stepds here; SLURM_SUCCESS if one took it. */
void step_list_notify(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const job_notify_msg_t *r = msg->data;
	char **socks, *batch;
	int rc = ESLURM_INVALID_JOB_ID;

	if (!r || !r->message) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	batch = spool_step_socket(sd->spool_dir, sd->node->name, r->job_id);
	socks = launch_step_sockets(sd, r->job_id);
	if (spool_step_alive(batch))
		socks = xstrarray_append(socks, batch);
	for (size_t i = 0; socks[i]; i++) {
		slurm_msg_t resp = { 0 };

		if (!net_rpc_unix(socks[i], REQUEST_JOB_NOTIFY, r, &resp,
				  STEP_LIST_TIMEOUT_MS) &&
		    resp.type == RESPONSE_SLURM_RC && resp.data &&
		    !((return_code_msg_t *) resp.data)->rc)
			rc = SLURM_SUCCESS;
		msg_free(&resp);
	}
	if (rc)
		info("JobId=%u: notify: no step of the job here", r->job_id);
	xstrarray_free(socks);
	xfree(batch);
	net_reply_rc(conn, rc);
}
