/* cli_show_step.c — scontrol show step (cli_show_step.h). */
#include "cli/cli_show_step.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static int _parse_id(const char *id, uint32_t *job, uint32_t *step)
{
	char *end;
	unsigned long v;

	*job = *step = NO_VAL32;
	if (!id)
		return 0;
	v = strtoul(id, &end, 10);
	if (end == id || !v || v > 0xfffffff0ul)
		return -1;
	*job = (uint32_t) v;
	if (!*end)
		return 0;
	if (*end != '.')
		return -1;
	if (!strcmp(end + 1, "batch")) {
		*step = SLURM_BATCH_SCRIPT;
		return 0;
	}
	if (!strcmp(end + 1, "extern")) {
		*step = SLURM_EXTERN_CONT;
		return 0;
	}
	v = strtoul(end + 1, &end, 10);
	if (*end || v > 0xfffffff0ul)
		return -1;
	*step = (uint32_t) v;
	return 0;
}

static void _print(const job_step_info_t *s, int one_liner)
{
	const char *sep = one_liner ? " " : "\n   ";
	char start[64], limit[64], *id;
	bool special;

	fmt_time(s->start_time, start, sizeof(start));
	fmt_time_limit(s->time_limit, limit, sizeof(limit));
	if (s->step_id == SLURM_BATCH_SCRIPT)
		id = xstrdup_printf("%u.batch", s->job_id);
	else if (s->step_id == SLURM_EXTERN_CONT)
		id = xstrdup_printf("%u.extern", s->job_id);
	else
		id = xstrdup_printf("%u.%u", s->job_id, s->step_id);
	printf("StepId=%s UserId=%u StartTime=%s TimeLimit=%s%s", id,
	       s->user_id, start, limit, sep);
	printf("State=RUNNING Partition=%s NodeList=%s%s",
	       s->partition ? s->partition : "(null)",
	       s->nodes ? s->nodes : "(null)", sep);
	/* as Slurm 22.05: its batch and extern steps hold no CPUs of
	 * their own, no TRES, no distribution */
	special = s->step_id == SLURM_EXTERN_CONT ||
		  s->step_id == SLURM_BATCH_SCRIPT;
	printf("Nodes=%u CPUs=%u Tasks=%u Name=%s Network=(null)%s",
	       s->node_cnt, special ? 0 : s->num_cpus, s->num_tasks,
	       s->name ? s->name : "(null)", sep);
	if (special) {
		printf("TRES=(null)%sResvPorts=(null)%sCPUFreqReq=Default%s",
		       sep, sep, sep);
	} else {
		printf("TRES=cpu=%u,node=%u%s", s->num_cpus, s->node_cnt,
		       sep);
		printf("ResvPorts=(null)%s", sep);
		printf("CPUFreqReq=Default Dist=%s%s",
		       s->task_dist == STEP_DIST_CYCLIC ? "Cyclic" :
		       s->task_dist == STEP_DIST_PLANE ? "Plane" : "Block",
		       sep);
	}
	if (s->srun_host)
		printf("SrunHost:Pid=%s:%u", s->srun_host, s->srun_pid);
	else
		printf("SrunHost:Pid=(null):0");
	printf("\n\n");
	xfree(id);
}

int cli_show_steps(const char *id, int one_liner)
{
	job_step_info_request_msg_t req = { .user_id = NO_VAL32 };
	const job_step_info_msg_t *m;
	slurm_msg_t resp;
	uint32_t shown = 0;
	int rc;

	if (_parse_id(id, &req.job_id, &req.step_id) < 0) {
		fprintf(stderr, "Invalid job step id: %s\n", id);
		return 1;
	}
	rc = cli_ctld_rpc(REQUEST_JOB_STEP_INFO, &req, &resp);
	if (rc) {
		fprintf(stderr, "slurm_get_job_steps error: %s\n",
			cli_comm_strerror(rc));
		return 1;
	}
	if (resp.type != RESPONSE_JOB_STEP_INFO || !resp.data) {
		rc = cli_resp_rc(&resp);
		fprintf(stderr, "slurm_get_job_steps error: %s\n",
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return 1;
	}
	m = resp.data;
	for (uint32_t i = 0; i < m->cnt; i++, shown++)
		_print(&m->steps[i], one_liner);
	if (!shown) {
		if (id)
			printf("Job step %s not found\n", id);
		else
			printf("No job steps in the system\n");
	}
	msg_free(&resp);
	return 0;
}
