/* step_abort.c — REQUEST_STEP_ABORT (step_mgr.h): srun created a step
 * but could not launch it (--bcast failed, its prolog failed, no node
 * took the launch).  Without this the step stayed in the job, holding
 * its CPUs, until the job ended. */
#include <signal.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/step_mgr.h"
#include "ctld/step_mgr_int.h"
#include "slurm/slurm_errno.h"

void step_mgr_rpc_abort(net_conn_t *c, slurm_msg_t *m)
{
	const step_abort_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find(r->job_id) : NULL;
	sm_step_t *s = NULL;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (j->info.user_id != m->auth_uid && !ctld_is_operator(m->auth_uid)) {
		error("%s: StepId=%u.%u: uid %u may not abort it", __func__,
		      r->job_id, r->step_id, m->auth_uid);
		net_reply_rc(c, ESLURM_ACCESS_DENIED);
		return;
	}
	if (j->steps)
		for (s = j->steps->list; s && s->step_id != r->step_id;
		     s = s->next)
			;
	if (!s) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	info("%s: StepId=%u.%u aborted by srun before its launch", __func__,
	     r->job_id, r->step_id);
	/* whatever a node may have started of it goes too */
	step_mgr_signal(j, s->step_id, SIGKILL);
	s->rc = r->rc ? r->rc : 1 << 8;
	sm_step_done(j, s);
	job_mgr_touch(j);
	commit_reply_rc(c, 0, NULL);
}
