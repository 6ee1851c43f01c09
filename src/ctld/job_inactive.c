/* job_inactive.c — InactiveLimit (job_inactive.h). */
#include <stdbool.h>

#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "ctld/controller.h"
#include "ctld/job_inactive.h"
#include "ctld/job_mgr.h"
#include "ctld/rpc.h"
#include "slurm/slurm_errno.h"

/* Nothing is judged on times from before this: set at the first tick
 * (the controller's start: a fresh grace period for every recovered
 * allocation) and moved by a reconfigure that changes the limit. */
static time_t grace_from;

static bool _inactive_subject(const job_record_t *j)
{
	const job_info_t *i = &j->info;

	return i->job_state == JOB_RUNNING && !i->batch_flag &&
	       (i->bitflags & JOB_ALLOC_HEARTBEAT) &&
	       !(j->part && j->part->info.root_only);
}

void job_inactive_tick(time_t now)
{
	uint16_t limit = ctld_conf()->inactive_limit;
	job_record_t *j, *next;

	if (!grace_from)
		grace_from = now;
	if (!limit)
		return;
	for (j = job_mgr_running_first(); j; j = next) {
		time_t last = grace_from;

		next = j->run_next;     /* an end may move j off the list */
		if (!_inactive_subject(j))
			continue;
		if (j->alloc_active > last)
			last = j->alloc_active;
		if (j->info.start_time > last)
			last = j->info.start_time;
		if (now - last < (time_t) limit)
			continue;
		info("job_time_limit: inactivity time limit reached for "
		     "JobId=%u", j->info.job_id);
		job_mgr_end(j, JOB_TIMEOUT, FAIL_INACTIVE_LIMIT, 0);
	}
}

void job_inactive_reconfig(uint16_t old_limit)
{
	uint16_t limit = ctld_conf()->inactive_limit;

	if (limit == old_limit)
		return;
	/* clients learn the new limit at their next heartbeat, which may
	 * be a slow one */
	grace_from = time(NULL) + HEARTBEAT_SLOW_SEC;
	if (limit)
		info("InactiveLimit changed from %u to %u sec: running "
		     "allocations get a grace period of %u sec", old_limit,
		     limit, limit + HEARTBEAT_SLOW_SEC);
}

static void _hb_reply(net_conn_t *c, uint32_t job_id, uint32_t rc)
{
	alloc_heartbeat_resp_msg_t r = {
		.job_id = job_id,
		.rc = rc,
		.inactive_limit = ctld_conf()->inactive_limit,
	};

	net_reply(c, RESPONSE_ALLOC_HEARTBEAT, &r);
}

void job_inactive_rpc_heartbeat(net_conn_t *c, slurm_msg_t *m)
{
	const alloc_heartbeat_msg_t *h = m->data;
	job_record_t *j;

	if (!h) {
		net_reply_rc(c, SLURM_ERROR);
		return;
	}
	if (!(j = job_mgr_find(h->job_id))) {
		_hb_reply(c, h->job_id, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (j->info.user_id != m->auth_uid &&
	    rpc_privilege(m->auth_uid) < RPC_PRIV_SLURM) {
		error("%s for JobId=%u from uid=%u peer=%s: not the job's "
		      "user", msg_type_name(m->type), h->job_id,
		      (unsigned) m->auth_uid, m->peer);
		_hb_reply(c, h->job_id, ESLURM_ACCESS_DENIED);
		return;
	}
	if ((j->info.job_state & JOB_STATE_BASE) > JOB_SUSPENDED ||
	    (j->info.job_state & JOB_COMPLETING)) {
		_hb_reply(c, h->job_id, ESLURM_ALREADY_DONE);
		return;
	}
	j->alloc_active = time(NULL);
	debug3("%s for JobId=%u from uid=%u", msg_type_name(m->type),
	       h->job_id, (unsigned) m->auth_uid);
	_hb_reply(c, h->job_id, SLURM_SUCCESS);
}
