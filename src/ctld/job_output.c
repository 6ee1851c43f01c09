/* job_output.c — relaying a job's output to its owner (job_output.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/job_output.h"
#include "ctld/node_mgr.h"
#include "ctld/rpc.h"
#include "slurm/slurm_errno.h"

/* Reads waiting for a node at once: they share the agent's workers with
 * job launches, and a node that does not answer holds one for its
 * timeout; past this many a request is told to try again. */
#define RELAY_MAX 4

static unsigned relays;

/* One request in flight: what the worker needs, and the client. */
typedef struct {
	net_conn_t            *conn;
	char                  *host;
	uint16_t               port;
	char                  *node;
	uint16_t               stream;
	int                    timeout_ms;
	job_output_read_msg_t  req;
	int                    rc;       /* transport error or node's rc */
	char                  *why;      /* the node's text */
	job_output_msg_t      *resp;
} relay_t;

static const char *_stream_name(uint16_t s)
{
	return s == JOB_OUTPUT_STDERR ? "StdErr" : "StdOut";
}

/* Worker thread: ask the node, keep its answer. */
static void _relay_work(void *arg)
{
	relay_t *r = arg;
	slurm_msg_t resp = { 0 };
	int rc = net_rpc(r->host, r->port, REQUEST_JOB_OUTPUT_READ, &r->req,
			 &resp, r->timeout_ms);

	if (rc) {
		r->rc = rc;
		return;
	}
	if (resp.type == RESPONSE_JOB_OUTPUT && resp.data) {
		r->resp = resp.data;
		resp.data = NULL;
	} else if (resp.type == RESPONSE_SLURM_RC && resp.data) {
		return_code_msg_t *m = resp.data;

		r->rc = m->rc ? m->rc : SLURM_UNEXPECTED_MSG_ERROR;
		r->why = xstrdup(m->msg);
	} else {
		r->rc = SLURM_UNEXPECTED_MSG_ERROR;
	}
	msg_free(&resp);
}

/* Loop: answer the client. */
static void _relay_done(void *arg)
{
	relay_t *r = arg;

	if (r->resp) {
		r->resp->job_id = r->req.job_id;
		r->resp->stream = r->stream;
		xfree(r->resp->path);
		r->resp->path = xstrdup(r->req.path);
		xfree(r->resp->node_name);
		r->resp->node_name = xstrdup(r->node);
		net_reply(r->conn, RESPONSE_JOB_OUTPUT, r->resp);
		msg_body_free(RESPONSE_JOB_OUTPUT, r->resp);
	} else if (r->why && *r->why) {
		net_reply_rcf(r->conn, r->rc, "%s", r->why);
	} else if (r->rc > 0 && r->rc < 1000) {     /* errno from the node */
		net_reply_rcf(r->conn, r->rc, "%s of job %u on node %s: %s: %s",
		       _stream_name(r->stream), r->req.job_id, r->node,
		       r->req.path, strerror(r->rc));
	} else {
		info("job output of JobId=%u: node %s: %s", r->req.job_id,
		     r->node, slurm_strerror(r->rc));
		net_reply_rcf(r->conn, r->rc, "Node %s did not answer for job %u: %s",
		       r->node, r->req.job_id, slurm_strerror(r->rc));
	}
	relays--;
	xfree(r->req.path);
	xfree(r->why);
	xfree(r->host);
	xfree(r->node);
	xfree(r);
}

/* The request alone: 0 or a reply sent. */
static int _check(net_conn_t *c, const job_output_request_msg_t *q)
{
	if (q->stream != JOB_OUTPUT_STDOUT && q->stream != JOB_OUTPUT_STDERR) {
		net_reply_rcf(c, EINVAL, "Unknown output stream %u (stdout or stderr)",
		       q->stream);
		return -1;
	}
	if (!q->bytes || q->bytes > JOB_OUTPUT_MAX) {
		net_reply_rcf(c, EINVAL, "bytes must be 1 to %u, not %u",
		       JOB_OUTPUT_MAX, q->bytes);
		return -1;
	}
	if (q->offset != NO_VAL64 && q->offset > (uint64_t) INT64_MAX) {
		net_reply_rcf(c, EINVAL, "offset %llu is out of range",
		       (unsigned long long) q->offset);
		return -1;
	}
	return 0;
}

/* Whose output it is, where it is: 0 or a reply sent. */
static int _locate(net_conn_t *c, const slurm_msg_t *m, job_record_t *j,
		   uint16_t stream, char **path, node_record_t **node)
{
	const job_info_t *i = &j->info;
	uint32_t base = i->job_state & JOB_STATE_BASE;

	if (i->user_id != m->auth_uid &&
	    rpc_privilege(m->auth_uid) < RPC_PRIV_OPERATOR) {
		info("job output of JobId=%u refused to uid=%u peer=%s "
		     "(not the job's user)", i->job_id,
		     (unsigned) m->auth_uid, m->peer);
		net_reply_rcf(c, ESLURM_ACCESS_DENIED, "%s",
		       slurm_strerror(ESLURM_ACCESS_DENIED));
		return -1;
	}
	if (!i->batch_flag) {
		net_reply_rcf(c, ESLURM_BATCH_ONLY, "Job %u has no batch script: its "
		       "output went to the srun or salloc that started it",
		       i->job_id);
		return -1;
	}
	if (base == JOB_PENDING || !i->batch_host || !*i->batch_host) {
		net_reply_rcf(c, base == JOB_PENDING ? ESLURM_JOB_PENDING :
		       ESLURM_ALREADY_DONE, "Job %u has not run%s: no output "
		       "yet", i->job_id, base == JOB_PENDING ? " (pending)" :
		       "");
		return -1;
	}
	*path = job_info_std_path(i, stream == JOB_OUTPUT_STDERR ? 2 : 1);
	if (!*path || !strcmp(*path, "/dev/null")) {
		net_reply_rcf(c, ENOENT, "%s of job %u is /dev/null: nothing is kept",
		       _stream_name(stream), i->job_id);
		xfree(*path);
		return -1;
	}
	if ((*path)[0] != '/') {
		net_reply_rcf(c, ENOENT, "%s of job %u is %s, relative to no working "
		       "directory", _stream_name(stream), i->job_id, *path);
		xfree(*path);
		return -1;
	}
	*node = node_mgr_find(i->batch_host);
	if (!*node || (((*node)->info.node_state & NODE_STATE_BASE) ==
		       NODE_STATE_DOWN) ||
	    ((*node)->info.node_state & NODE_STATE_NO_RESPOND)) {
		net_reply_rcf(c, ESLURM_NODE_NOT_AVAIL, "%s of job %u is on node %s, "
		       "which is down or not responding", _stream_name(stream),
		       i->job_id, i->batch_host);
		xfree(*path);
		return -1;
	}
	return 0;
}

void job_output_rpc(net_conn_t *c, slurm_msg_t *m)
{
	const job_output_request_msg_t *q = m->data;
	const slurm_conf_t *conf = ctld_conf();
	node_record_t *n = NULL;
	job_record_t *j;
	char *path = NULL;
	relay_t *r;

	if (!q) {
		net_reply_rc(c, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (_check(c, q) < 0)
		return;
	j = job_mgr_find(q->job_id);
	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (_locate(c, m, j, q->stream, &path, &n) < 0)
		return;
	if (relays >= RELAY_MAX) {
		debug("job output of JobId=%u for uid=%u: %u reads in "
		      "progress, try again", j->info.job_id,
		      (unsigned) m->auth_uid, relays);
		net_reply_rcf(c, EAGAIN, "Too many output reads in progress; try "
		       "again");
		xfree(path);
		return;
	}
	relays++;
	debug("job output of JobId=%u (%s) for uid=%u: node %s",
	      j->info.job_id, path, (unsigned) m->auth_uid, n->info.name);
	r = xmalloc(sizeof(*r));
	r->conn = c;
	r->host = xstrdup(n->info.node_addr ? n->info.node_addr :
			  n->info.name);
	r->port = n->info.port;
	r->node = xstrdup(n->info.name);
	r->stream = q->stream;
	/* the client waits MessageTimeout for us: the node gets half */
	r->timeout_ms = (conf && conf->message_timeout ?
			 conf->message_timeout : 10) * 500;
	r->req.job_id = j->info.job_id;
	r->req.uid = j->info.user_id;
	r->req.gid = j->info.group_id;
	r->req.path = path;
	r->req.bytes = q->bytes;
	r->req.offset = q->offset;
	agent_queue_work(_relay_work, _relay_done, r);
}
