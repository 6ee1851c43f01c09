/* cli_show_step.c — scontrol show step (cli_show_step.h). */
#include "cli/cli_show_step.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_show.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
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

int cli_show_steps(const char *id, bool one_liner, cli_doc_t doc)
{
	job_step_info_request_msg_t req = { .user_id = NO_VAL32 };
	const job_step_info_msg_t *m;
	slurm_msg_t resp;
	uint32_t shown = 0;
	char het_id[64];
	int rc;

	if (id && strchr(id, '+')) {   /* "J+K.S": the component's own */
		const char *rest;
		uint32_t comp;

		if (cli_het_comp(id, &comp, &rest) < 0) {
			fprintf(stderr, "Invalid job step id: %s\n", id);
			return 1;
		}
		snprintf(het_id, sizeof(het_id), "%u%s", comp, rest);
		id = het_id;
	}
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
	if (doc != CLI_DOC_NONE) {
		cli_print_steps_json(stdout, m, doc == CLI_DOC_YAML);
		msg_free(&resp);
		return 0;
	}
	for (uint32_t i = 0; i < m->cnt; i++, shown++)
		cli_show_step(stdout, &m->steps[i], one_liner);
	if (!shown) {
		if (id)
			printf("Job step %s not found\n", id);
		else
			printf("No job steps in the system\n");
	}
	msg_free(&resp);
	return 0;
}
