/* cli_scontrol_notify.c — scontrol notify <job_id> <message>: the words
 * of the message to the job's stderr or its sruns' (ctld/job_notify.h;
 * cli_scontrol.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

int scontrol_notify(int argc, char **argv)
{
	job_notify_msg_t req = { 0 };
	char *end;
	long id;
	int rc = 0, err;

	if (argc < 2) {
		fprintf(stderr, "too few arguments for keyword:notify\n");
		return 1;
	}
	id = strtol(argv[0], &end, 10);
	if (*end || id <= 0 || id >= (long) NO_VAL32) {
		fprintf(stderr, "Invalid job_id %s\n", argv[0]);
		return 1;
	}
	req.job_id = (uint32_t) id;
	for (int i = 1; i < argc; i++)
		xstrfmtcat(&req.message, "%s%s", i > 1 ? " " : "", argv[i]);
	err = cli_ctld_rpc_rc(REQUEST_JOB_NOTIFY, &req, &rc);
	xfree(req.message);
	if (err || rc) {
		fprintf(stderr, "job notify failure: %s\n",
			err ? cli_comm_strerror(err) : slurm_strerror(rc));
		return 1;
	}
	return 0;
}
