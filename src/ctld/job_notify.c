/* job_notify.c — scontrol notify (job_notify.h). */
#include <string.h>

#include "common/bitmap.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/controller.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/job_notify.h"
#include "ctld/node_mgr.h"
#include "slurm/slurm_errno.h"

static void _done(int rc, void *arg)
{
	uint32_t *job_id = arg;

	if (rc)
		error("JobId=%u: notify message not delivered: %s", *job_id,
		      slurm_strerror(rc));
	xfree(job_id);
}

/* An allocation salloc made: the message goes to salloc's stderr, as
 * in Slurm (steps or none). */
static bool _to_salloc(const job_record_t *j)
{
	return !j->info.batch_flag && j->info.resp_host &&
	       j->info.alloc_resp_port;
}

/* The node whose slurmd takes the message. */
static const node_record_t *_target(const job_record_t *j)
{
	long first;

	if (j->info.batch_flag && j->info.batch_host)
		return node_mgr_find(j->info.batch_host);
	if (!j->node_bitmap || (first = bitmap_first_set(j->node_bitmap)) < 0)
		return NULL;
	return node_mgr_at((size_t) first);
}

void job_notify_rpc(net_conn_t *c, slurm_msg_t *m)
{
	const job_notify_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find(r->job_id) : NULL;
	const node_record_t *n = NULL;
	job_notify_msg_t *out;
	uint32_t *arg;

	if (!r || !r->message || !*r->message ||
	    strlen(r->message) > JOB_NOTIFY_MAX) {
		net_reply_rc(c, SLURM_ERROR);
		return;
	}
	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (j->info.user_id != m->auth_uid && !ctld_is_operator(m->auth_uid)) {
		error("Security violation, REQUEST_JOB_NOTIFY for JobId=%u "
		      "from uid=%u", r->job_id, (unsigned) m->auth_uid);
		net_reply_rc(c, ESLURM_USER_ID_MISSING);
		return;
	}
	if ((j->info.job_state & JOB_STATE_BASE) != JOB_RUNNING ||
	    (!_to_salloc(j) && !(n = _target(j)))) {
		net_reply_rc(c, ESLURM_DISABLED);
		return;
	}
	out = xmalloc(sizeof(*out));
	out->job_id = r->job_id;
	out->message = xstrdup(r->message);
	arg = xmalloc(sizeof(*arg));
	*arg = r->job_id;
	if (_to_salloc(j)) {
		info("JobId=%u: notify from uid=%u to salloc at %s:%u",
		     r->job_id, (unsigned) m->auth_uid, j->info.resp_host,
		     (unsigned) j->info.alloc_resp_port);
		agent_send_rc(j->info.resp_host, j->info.alloc_resp_port,
			      SRUN_USER_MSG, out,
			      ctld_conf()->message_timeout * 1000, _done, arg);
	} else {
		info("JobId=%u: notify from uid=%u to node %s", r->job_id,
		     (unsigned) m->auth_uid, n->info.name);
		agent_send_rc(n->info.node_addr ? n->info.node_addr :
			      n->info.name, n->info.port, REQUEST_JOB_NOTIFY,
			      out, ctld_conf()->message_timeout * 1000, _done,
			      arg);
	}
	net_reply_rc(c, SLURM_SUCCESS);
}

/* A salloc gone before its allocation ended is no error. */
static void _end_done(int rc, void *arg)
{
	uint32_t *job_id = arg;

	if (rc)
		debug("JobId=%u: salloc not told of its allocation's end: %s",
		      *job_id, slurm_strerror(rc));
	xfree(job_id);
}

void job_notify_alloc_end(const job_record_t *j, uint32_t was)
{
	srun_job_complete_msg_t *out;
	uint32_t *arg;

	if (!_to_salloc(j) || (was != JOB_RUNNING && was != JOB_SUSPENDED) ||
	    (het_job_is_comp(j) && j->info.het_job_offset != 0))
		return;
	out = xmalloc(sizeof(*out));
	out->job_id = j->info.job_id;
	out->job_state = j->info.job_state & JOB_STATE_BASE;
	arg = xmalloc(sizeof(*arg));
	*arg = j->info.job_id;
	debug("JobId=%u: allocation revoked: telling salloc at %s:%u",
	      j->info.job_id, j->info.resp_host,
	      (unsigned) j->info.alloc_resp_port);
	agent_send_rc(j->info.resp_host, j->info.alloc_resp_port,
		      SRUN_JOB_COMPLETE, out,
		      ctld_conf()->message_timeout * 1000, _end_done, arg);
}
