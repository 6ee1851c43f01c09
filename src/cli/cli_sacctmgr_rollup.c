/* cli_sacctmgr_rollup.c — `sacctmgr rollup [START [END]]`: have slurmdbd
 * roll up usage now (cli_sacctmgr.h).  Slurm's sacctmgr has the same
 * undocumented command; Sluice documents it as an admin and testing aid
 * (the integration tests roll up without waiting for the hour). */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

#define COMMIT_WAIT_S 30
#define ROLLUP_TIMEOUT_MS (30 * 60 * 1000)   /* a first roll-up is long */

bool cli_sacctmgr_is_rollup(const char *word)
{
	size_t n = strlen(word);

	return n >= 2 && n <= 6 && !strncasecmp(word, "rollup", n);
}

static bool ask(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char buf[64] = "";
	bool yes = false;

	printf("Would you like to commit rollup? (You have %d seconds to "
	       "decide)\n(N/y): ", COMMIT_WAIT_S);
	fflush(stdout);
	if (poll(&p, 1, COMMIT_WAIT_S * 1000) > 0 &&
	    fgets(buf, sizeof(buf), stdin))
		yes = buf[0] == 'y' || buf[0] == 'Y';
	printf("\n");
	return yes;
}

static int send_rollup(dbd_report_msg_t *req)
{
	const slurm_conf_t *conf = cli_conf();
	const char *host = conf->accounting_storage_host ?
		conf->accounting_storage_host : "localhost";
	slurm_msg_t resp = { 0 };
	table_resp_msg_t *r;
	int rc;

	rc = net_rpc(host, conf->accounting_storage_port, REQUEST_DBD_ROLLUP,
		     req, &resp, ROLLUP_TIMEOUT_MS);
	if (rc != 0) {
		error("Problem talking to the database: %s",
		      slurm_strerror(rc));
		return 1;
	}
	r = resp.type == RESPONSE_DBD_REPORT ? resp.data : NULL;
	rc = r ? r->rc : cli_resp_rc(&resp);
	if (!r && !rc)
		rc = SLURM_UNEXPECTED_MSG_ERROR;
	fprintf(stderr, "sacctmgr: accounting_storage/slurmdbd: "
		"acct_storage_p_roll_usage: %s\n",
		rc ? slurm_strerror(rc) : "SUCCESS");
	msg_free(&resp);
	return rc ? 1 : 0;
}

int cli_sacctmgr_rollup(int argc, char **argv, bool immediate)
{
	dbd_report_msg_t req = { 0 };
	time_t t;

	if (argc > 4) {
		fprintf(stderr, "too many arguments for rollup keyword\n");
		return 1;
	}
	for (int i = 1; i < argc && i < 3; i++) {
		if (parse_time(argv[i], time(NULL), &t) < 0) {
			fprintf(stderr, "Invalid time specification (pos=0): "
				"%s\n", argv[i]);
			return 1;
		}
		if (i == 1)
			req.start = t;
		else
			req.end = t;
	}
	req.cluster = cli_conf()->cluster_name;
	if (!immediate && !ask()) {
		printf(" Rollup Discarded\n");
		return 0;
	}
	return send_rollup(&req);
}
