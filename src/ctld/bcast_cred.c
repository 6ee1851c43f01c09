/* bcast_cred.c — credentials for sbcast and sgather (bcast_cred.h). */
#include "ctld/bcast_cred.h"

#include <time.h>

#include "common/bitmap.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/msg_types.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"
#include "ctld/rpc.h"
#include "ctld/step_mgr.h"
#include "ctld/user_groups.h"
#include "slurm/slurm_errno.h"

#define BCAST_CRED_MAX_TTL (24 * 3600)

static void _free(void *data)
{
	msg_body_free(RESPONSE_SBCAST_CRED, data);
}

/* On the credential worker: one signature per node. */
static int _sign(void *data)
{
	sbcast_cred_msg_t *r = data;

	for (uint32_t i = 0; r->node_names[i]; i++) {
		if (step_cred_sign(r->cred_payload, &r->cred_sigs[i])) {
			error("sbcast credential of JobId=%u: cannot sign it",
			      r->job_id);
			return ESLURM_INVALID_JOB_CREDENTIAL;
		}
	}
	return SLURM_SUCCESS;
}

/* The job j as asked for by m: 0, or the error to answer. */
static int _check(const slurm_msg_t *m, const sbcast_cred_request_msg_t *q,
		  job_record_t *j)
{
	uint32_t base;

	if (!j || (q->het_offset != NO_VAL32 && q->het_offset != 0))
		return ESLURM_INVALID_JOB_ID;
	if (j->info.user_id != m->auth_uid &&
	    rpc_privilege(m->auth_uid) < RPC_PRIV_OPERATOR) {
		info("sbcast credential of JobId=%u refused to uid=%u "
		     "peer=%s (not the job's user)", j->info.job_id,
		     (unsigned) m->auth_uid, m->peer);
		return ESLURM_USER_ID_MISSING;     /* Slurm's answer */
	}
	base = j->info.job_state & JOB_STATE_BASE;
	if (base == JOB_PENDING)
		return ESLURM_JOB_PENDING;
	if (base != JOB_RUNNING || (j->info.job_state & JOB_COMPLETING))
		return ESLURM_ALREADY_DONE;
	if (q->step_id != NO_VAL32 && !step_mgr_step_nodes(j, q->step_id))
		return ESLURM_INVALID_JOB_ID;
	return 0;
}

static sbcast_cred_msg_t *_build(job_record_t *j, uint32_t step_id,
				 const char *nodes)
{
	sbcast_cred_msg_t *r = xmalloc(sizeof(*r));
	step_cred_t cred = { 0 };
	char err[128];
	hostlist_t *hl = hostlist_parse(nodes, err, sizeof(err));
	size_t cnt = hl ? hostlist_count(hl) : 0, k = 0;
	time_t now = time(NULL), end = j->info.end_time;

	r->job_id = j->info.job_id;
	r->step_id = step_id;
	r->node_list = xstrdup(nodes);
	r->node_names = xcalloc(cnt + 1, sizeof(char *));
	r->node_addrs = xcalloc(cnt + 1, sizeof(char *));
	r->cred_sigs = xcalloc(cnt + 1, sizeof(char *));
	for (size_t i = 0; i < cnt; i++) {
		node_record_t *n = node_mgr_find(hostlist_nth(hl, i));

		if (!n)
			continue;
		r->node_names[k] = xstrdup(n->info.name);
		r->node_addrs[k++] = xstrdup_printf("%s:%u",
			n->info.node_addr ? n->info.node_addr : n->info.name,
			n->info.port);
	}
	hostlist_destroy(hl);
	cred.job_id = j->info.job_id;
	cred.step_id = step_id;
	cred.uid = j->info.user_id;
	cred.gid = j->info.group_id;
	cred.user_name = j->info.user_name;
	cred.node_list = r->node_list;
	cred.job_node_list = j->info.nodes;
	cred.expiry = end > now && end < now + BCAST_CRED_MAX_TTL ? end :
		      now + BCAST_CRED_MAX_TTL;
	cred.gids = user_groups_str(j->info.user_name, j->info.user_id,
				    j->info.group_id);
	r->cred_payload = step_cred_encode(&cred);
	xfree(cred.gids);
	return r;
}

void bcast_cred_rpc(net_conn_t *c, slurm_msg_t *m)
{
	const sbcast_cred_request_msg_t *q = m->data;
	job_record_t *j = q ? job_mgr_find(q->job_id) : NULL;
	sbcast_cred_msg_t *r;
	const char *nodes;
	int rc;

	if (!q) {
		net_reply_rc(c, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if ((rc = _check(m, q, j))) {
		debug("sbcast credential of JobId=%u for uid=%u: %s",
		      q->job_id, (unsigned) m->auth_uid, slurm_strerror(rc));
		net_reply_rc(c, rc);
		return;
	}
	nodes = q->step_id == NO_VAL32 ? j->info.nodes :
		step_mgr_step_nodes(j, q->step_id);
	r = _build(j, q->step_id, nodes);
	info("sbcast credential for JobId=%u%s%.0u nodes=%s uid=%u",
	     j->info.job_id, q->step_id == NO_VAL32 ? "" : ".",
	     q->step_id == NO_VAL32 ? 0 : q->step_id, r->node_list,
	     (unsigned) m->auth_uid);
	if (net_reply_prepare_finish(c, RESPONSE_SBCAST_CRED, r, _sign,
				     _free)) {
		net_reply_release(c);
		return;
	}
	rc = _sign(r);
	if (rc)
		net_reply_rc(c, rc);
	else
		net_reply(c, RESPONSE_SBCAST_CRED, r);
	_free(r);
}
