/* cli_scontrol_write.c — scontrol write batch_script|config, errnumstr
 * (cli_scontrol.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* write batch_script <job_id> [<file>|-]: the job's script to the file
 * (default slurm-<job_id>.sh) or, for "-", standard output. */
static int write_batch_script(int argc, char **argv, bool quiet)
{
	batch_script_request_msg_t r = { 0 };
	slurm_msg_t resp;
	const char *script;
	char *path = NULL;
	FILE *f;
	int err, rc = 0;

	if (argc < 1 || argc > 2) {
		fprintf(stderr, "invalid write batch_script request: "
			"write batch_script <job_id> [<filename>]\n");
		return 1;
	}
	r.job_id = argv[0];
	err = cli_ctld_rpc(REQUEST_BATCH_SCRIPT, &r, &resp);
	if (err) {
		fprintf(stderr, "job script retrieval failed: %s\n",
			cli_comm_strerror(err));
		return 1;
	}
	if (resp.type == RESPONSE_SLURM_RC) {
		fprintf(stderr, "job script retrieval failed: %s\n",
			slurm_strerror(((return_code_msg_t *) resp.data)->rc));
		msg_free(&resp);
		return 1;
	}
	script = resp.type == RESPONSE_BATCH_SCRIPT && resp.data ?
		((batch_script_msg_t *) resp.data)->script : NULL;
	if (!script) {
		fprintf(stderr, "job script retrieval failed: %s\n",
			slurm_strerror(ESLURM_JOB_SCRIPT_MISSING));
		msg_free(&resp);
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "-")) {
		fputs(script, stdout);
		msg_free(&resp);
		return 0;
	}
	path = argc == 2 ? xstrdup(argv[1])
			 : xstrdup_printf("slurm-%s.sh", argv[0]);
	f = fopen(path, "wx");
	if (!f && errno == EEXIST)
		fprintf(stderr, "File '%s' exists, please remove it first\n",
			path);
	else if (!f)
		fprintf(stderr, "failed to open file '%s': %s\n", path,
			strerror(errno));
	if (!f) {
		rc = 1;
	} else {
		if (fputs(script, f) < 0)
			rc = 1;
		if (fclose(f) != 0)
			rc = 1;
		if (rc)
			fprintf(stderr, "failed to write file '%s'\n", path);
		else if (!quiet)
			printf("batch script for job %s written to %s\n",
			       argv[0], path);
	}
	xfree(path);
	msg_free(&resp);
	return rc;
}

int scontrol_write(int argc, char **argv, bool quiet)
{
	if (argc < 1) {
		fprintf(stderr, "too few arguments for keyword:write\n");
		return 1;
	}
	if (scontrol_kw(argv[0], "batch_script", 5))
		return write_batch_script(argc - 1, argv + 1, quiet);
	if (scontrol_kw(argv[0], "config", 1))
		return scontrol_write_config(argc - 1, argv + 1);
	fprintf(stderr, "invalid write keyword: %s\n", argv[0]);
	return 1;
}

int scontrol_errnumstr(int argc, char **argv)
{
	char *end;
	long n;

	if (argc != 1) {
		fprintf(stderr, "%s arguments for keyword:errnumstr\n",
			argc < 1 ? "too few" : "too many");
		return 1;
	}
	errno = 0;
	n = strtol(argv[0], &end, 10);
	if (errno || end == argv[0] || *end || n < 0 || n > 0x7fffffff) {
		fprintf(stderr, "invalid errno: %s\n", argv[0]);
		return 1;
	}
	printf("%s\n", slurm_strerror((int) n));
	return 0;
}
