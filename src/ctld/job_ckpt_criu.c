/* job_ckpt_criu.c — CRIU dumps asked of the batch host (job_ckpt_criu.h). */
#include <string.h>

#include "common/log.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/controller.h"
#include "ctld/job_ckpt_criu.h"
#include "ctld/node_mgr.h"
#include "slurm/slurm_errno.h"

/* CRIU may take a while on a large process: the node is given this. */
#define CRIU_RPC_TIMEOUT_MS (120 * 1000)

typedef struct {
	char                  *host;
	uint16_t               port;
	char                  *node;
	checkpoint_tasks_msg_t req;
	int                    rc;
	char                  *why;
} ckpt_dump_t;

/* Worker thread: ask the node, keep its answer. */
static void _ck_dump_work(void *arg)
{
	ckpt_dump_t *d = arg;
	slurm_msg_t resp = { 0 };
	int rc = net_rpc(d->host, d->port, REQUEST_CHECKPOINT_TASKS, &d->req,
			 &resp, CRIU_RPC_TIMEOUT_MS);

	if (rc) {
		d->rc = rc;
		return;
	}
	if (resp.type == RESPONSE_SLURM_RC && resp.data) {
		return_code_msg_t *m = resp.data;

		d->rc = m->rc;
		d->why = xstrdup(m->msg);
	} else {
		d->rc = SLURM_UNEXPECTED_MSG_ERROR;
	}
	msg_free(&resp);
}

/* Loop: the job's checkpoint goes on either way. */
static void _ck_dump_done(void *arg)
{
	ckpt_dump_t *d = arg;

	if (!d->rc) {
		info("JobId=%u: CRIU dump into %s/criu on %s done",
		     d->req.job_id, d->req.dir, d->node);
		job_ckpt_criu_done(d->req.job_id);
	} else if (d->why && *d->why) {
		job_ckpt_criu_failed(d->req.job_id, d->why);
	} else {
		char *why = xstrdup_printf("node %s: %s", d->node,
					   slurm_strerror(d->rc));

		job_ckpt_criu_failed(d->req.job_id, why);
		xfree(why);
	}
	xfree(d->req.dir);
	xfree(d->why);
	xfree(d->host);
	xfree(d->node);
	xfree(d);
}

void job_ckpt_criu_dump(job_record_t *j, const char *dir)
{
	node_record_t *n = j->info.batch_host ?
		node_mgr_find(j->info.batch_host) : NULL;
	ckpt_dump_t *d;

	if (!n) {
		job_ckpt_criu_failed(j->info.job_id, "its batch host is not "
				     "known");
		return;
	}
	d = xmalloc(sizeof(*d));
	d->host = xstrdup(n->info.node_addr);
	d->port = n->info.port;
	d->node = xstrdup(n->info.name);
	d->req.job_id = j->info.job_id;
	d->req.dir = xstrdup(dir);
	agent_queue_work(_ck_dump_work, _ck_dump_done, d);
}
