/* cli_scontrol_jobctl.c — scontrol requeue, requeuehold, suspend, resume,
 * top and checkpoint (Sluice): one request per job id, errors as Slurm
 * prints them ("Job is pending execution for job 12"); checkpoint's with
 * the controller's reason ("job 12 was not submitted with --checkpoint:
 * ..."). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static int _report(int err, int remote, const char *id, bool quiet)
{
	if (err) {
		if (!quiet)
			fprintf(stderr, "%s for job %s\n",
				cli_comm_strerror(err), id);
		return 1;
	}
	if (remote) {
		if (!quiet)
			fprintf(stderr, "%s for job %s\n",
				slurm_strerror(remote), id);
		return 1;
	}
	return 0;
}

/* checkpoint: the controller says why it refuses. */
static int _checkpoint(const char *id, bool quiet)
{
	checkpoint_msg_t r = { .job_id_str = (char *) id };
	slurm_msg_t resp = { 0 };
	const return_code_msg_t *m;
	int err = cli_ctld_rpc(REQUEST_CHECKPOINT, &r, &resp), rc = 0;

	if (err)
		return _report(err, 0, id, quiet);
	m = resp.type == RESPONSE_SLURM_RC ? resp.data : NULL;
	if (!m) {
		rc = _report(0, SLURM_UNEXPECTED_MSG_ERROR, id, quiet);
	} else if (m->rc && m->msg && *m->msg) {
		if (!quiet)
			fprintf(stderr, "scontrol: error: checkpoint of job "
				"%s: %s\n", id, m->msg);
		rc = 1;
	} else {
		rc = _report(0, (int) m->rc, id, quiet);
	}
	msg_free(&resp);
	return rc;
}

static int _one(const char *op, uint32_t flags, const char *id, bool quiet)
{
	int remote = 0, err;

	if (!strcmp(op, "checkpoint"))
		return _checkpoint(id, quiet);
	if (!strcmp(op, "suspend") || !strcmp(op, "resume")) {
		suspend_msg_t s = {
			.job_id_str = (char *) id,
			.op = strcmp(op, "resume") ? SUSPEND_JOB : RESUME_JOB,
		};

		err = cli_ctld_rpc_rc(REQUEST_SUSPEND, &s, &remote);
	} else if (!strcmp(op, "top")) {
		top_job_msg_t t = { .job_id_str = (char *) id };

		err = cli_ctld_rpc_rc(REQUEST_TOP_JOB, &t, &remote);
	} else {
		requeue_msg_t r = { .job_id_str = (char *) id, .flags = flags };

		err = cli_ctld_rpc_rc(REQUEST_JOB_REQUEUE, &r, &remote);
	}
	return _report(err, remote, id, quiet);
}

/* requeue [Incomplete] ids, requeuehold [Incomplete] [State=SpecialExit]
 * ids: the options come before the job list. */
static int _options(const char *op, int *argc, char ***argv, uint32_t *flags)
{
	if (!strcmp(op, "requeuehold"))
		*flags |= REQUEUE_HOLD;
	while (*argc > 0) {
		const char *w = (*argv)[0];

		if (!strcasecmp(w, "Incomplete")) {
			*flags |= REQUEUE_INCOMPLETE;
		} else if (!strcasecmp(w, "State=SpecialExit") &&
			   (*flags & REQUEUE_HOLD)) {
			*flags |= REQUEUE_SPECIAL_EXIT;
		} else if (!strncasecmp(w, "State=", 6)) {
			fprintf(stderr, "Invalid state specification %s\n",
				w + 6);
			return -1;
		} else {
			break;
		}
		(*argc)--;
		(*argv)++;
	}
	return 0;
}

int scontrol_jobctl(const char *op, int argc, char **argv, bool quiet)
{
	uint32_t flags = 0;
	int rc = 0;

	if (!strncmp(op, "requeue", 7) && _options(op, &argc, &argv, &flags))
		return 1;
	if (argc == 0) {
		fprintf(stderr, "too few arguments for keyword:%s\n", op);
		return 1;
	}
	for (int i = 0; i < argc; i++) {
		const char *list = argv[i];
		char **ids;

		if (!strncasecmp(list, "JobId=", 6))
			list += 6;
		ids = xstrsplit(list, ",", NULL);
		for (size_t k = 0; ids[k]; k++)
			if (_one(op, flags, ids[k], quiet))
				rc = 1;
		xstrarray_free(ids);
	}
	return rc;
}
