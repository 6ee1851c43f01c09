/* job_profile.c — profiled steps' usage samples (job_profile.h). */
#include <stdio.h>

#include "common/acct_rec.h"
#include "common/log.h"
#include "common/profile.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/acct_outbox.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/job_profile.h"
#include "slurm/slurm_errno.h"

static void reply(net_conn_t *c, int rc, const char *msg)
{
	return_code_msg_t r = { .rc = rc, .msg = (char *)msg };

	net_reply(c, RESPONSE_SLURM_RC, &r);
}

void job_profile_rpc(net_conn_t *c, slurm_msg_t *m)
{
	const job_profile_msg_t *p = m->data;
	const char *type = ctld_conf()->acct_gather_profile_type;
	job_record_t *j;
	char why[256];
	int rc = ESLURM_NOT_SUPPORTED;

	if (!p || !p->node_name) {
		reply(c, SLURM_ERROR, "empty request");
		return;
	}
	if (!(j = job_mgr_find(p->job_id))) {
		rc = ESLURM_INVALID_JOB_ID;
		snprintf(why, sizeof(why), "job %u: no such job", p->job_id);
		goto refuse;
	}
	if (!(j->info.profile & PROFILE_TASK) ||
	    (j->info.profile & PROFILE_NONE)) {
		snprintf(why, sizeof(why), "job %u did not ask for "
			 "--profile=task", p->job_id);
		goto refuse;
	}
	if (xstrcmp(type, PROFILE_TYPE_DBD) || !acct_enabled()) {
		snprintf(why, sizeof(why), "job profiles need "
			 "AcctGatherProfileType=%s and "
			 "AccountingStorageType=accounting_storage/slurmdbd",
			 PROFILE_TYPE_DBD);
		goto refuse;
	}
	for (uint32_t i = 0; i < p->cnt; i++) {
		acct_profile_rec_t r = p->recs[i];

		r.job_id = p->job_id;
		r.submit = j->info.submit_time;
		r.step_id = p->step_id;
		r.node = p->node_name;
		r.array_job_id = 0;
		r.array_task_id = 0;
		r.cluster = NULL;
		acct_outbox_append(ACCT_REC_PROFILE, &r);
	}
	debug2("REQUEST_JOB_PROFILE: StepId=%u.%u on %s: %u samples",
	       p->job_id, p->step_id, p->node_name, p->cnt);
	/* acknowledged once on disk: the outbox is the only copy */
	acct_outbox_want_sync();
	commit_dirty();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
	return;
refuse:
	info("REQUEST_JOB_PROFILE for StepId=%u.%u from %s refused: %s",
	     p->job_id, p->step_id, p->node_name, why);
	reply(c, rc, why);
}
