/* cli_sacctmgr_runaway.c — `sacctmgr show runawayjobs [cluster=C]`:
 * the job records slurmdbd holds without an end whose job the controller
 * no longer knows, in Slurm's table, and the question whether to fix
 * them (-i: fixed at once).  Fixing ends each at the latest of its
 * start, eligible and submit times, COMPLETED, and rolls usage up again
 * from the earliest submit (slurmdbd does that, in one transaction). */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define COMMIT_WAIT_S 30

bool cli_sacctmgr_is_runaway(int argc, char **argv)
{
	size_t n = argc >= 2 ? strlen(argv[1]) : 0;

	return argc >= 2 && (!strcasecmp(argv[0], "show") ||
			     !strcasecmp(argv[0], "list")) &&
	       n >= 4 && n <= 11 && !strncasecmp(argv[1], "runawayjobs", n);
}

/* The controller's job ids (every state); -1 after printing why not. */
static int ctld_jobs(uint32_t **ids, size_t *cnt)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32,
				       .show_flags = SHOW_ALL };
	const job_info_msg_t *m;
	slurm_msg_t resp;
	int rc = cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp);

	if (!rc && resp.type != RESPONSE_JOB_INFO) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		rc = rc ? rc : SLURM_UNEXPECTED_MSG_ERROR;
	}
	if (rc) {
		error("Unable to get the controller's jobs: %s",
		      slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		return -1;
	}
	m = resp.data;
	*ids = xcalloc(m->cnt + 1, sizeof(**ids));
	for (uint32_t i = 0; i < m->cnt; i++)
		(*ids)[i] = m->jobs[i].job_id;
	*cnt = m->cnt;
	msg_free(&resp);
	return 0;
}

static bool known(const uint32_t *ids, size_t cnt, uint32_t id)
{
	for (size_t i = 0; i < cnt; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static void put_time(char *buf, size_t len, const char *v)
{
	long long t = v ? strtoll(v, NULL, 10) : 0;

	if (t > 0)
		fmt_time((time_t)t, buf, len);
	else
		snprintf(buf, len, "Unknown");
}

static void print_row(const mgr_opts_t *o, const char *const cells[8])
{
	static const int width[8] = { -12, 10, 10, 10, 10, 19, 19, 19 };
	const char *sep = o->parsable || o->parsable2 ? "|" : " ";

	for (int i = 0; i < 8; i++) {
		bool last = i == 7;

		if (o->parsable || o->parsable2)
			printf("%s", cells[i]);
		else if (width[i] < 0)
			printf("%-*.*s", -width[i], -width[i], cells[i]);
		else
			printf("%*.*s", width[i], width[i], cells[i]);
		if (!last || o->parsable || !o->parsable2)
			printf("%s", sep);
	}
	printf("\n");
}

static void print_table(const mgr_opts_t *o, const mgr_table_t *t,
			char **keep)
{
	static const char *const hdr[8] = {
		"ID", "Name", "Partition", "Cluster", "State", "TimeSubmit",
		"TimeStart", "TimeEnd"
	};

	printf("NOTE: Runaway jobs are jobs that don't exist in the "
	       "controller but have a start time and no end time in the "
	       "database\n");
	if (!o->noheader) {
		print_row(o, hdr);
		if (!o->parsable && !o->parsable2)
			printf("------------ ---------- ---------- ---------- "
			       "---------- ------------------- "
			       "------------------- ------------------- \n");
	}
	for (size_t r = 0; keep[r]; r++) {
		size_t i = (size_t)strtoul(keep[r], NULL, 10);
		char sub[32], st[32], en[32];
		uint32_t state = (uint32_t)strtoul(
			cli_sacctmgr_get(t, i, "state"), NULL, 10);
		const char *cells[8] = {
			cli_sacctmgr_get(t, i, "jobid"),
			cli_sacctmgr_get(t, i, "name"),
			cli_sacctmgr_get(t, i, "partition"),
			cli_sacctmgr_get(t, i, "cluster"),
			job_state_string(state), sub, st, en
		};

		put_time(sub, sizeof(sub), cli_sacctmgr_get(t, i,
							    "timesubmit"));
		put_time(st, sizeof(st), cli_sacctmgr_get(t, i, "timestart"));
		put_time(en, sizeof(en), cli_sacctmgr_get(t, i, "timeend"));
		print_row(o, cells);
	}
}

static bool ask(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char buf[64] = "";

	printf("\nWould you like to fix these runaway jobs?\n"
	       "(This will set the end time for each job to the latest out "
	       "of the start, eligible, or submit times, and set the state "
	       "to completed.\nOnce corrected, this will trigger the rollup "
	       "to reroll usage from before the earliest submit time of all "
	       "the runaway jobs.)\n\n (You have %d seconds to decide)\n"
	       "(N/y): ", COMMIT_WAIT_S);
	fflush(stdout);
	/* no answer in time, or the end of the input: discarded */
	if (poll(&p, 1, COMMIT_WAIT_S * 1000) <= 0 ||
	    !fgets(buf, sizeof(buf), stdin))
		return false;
	return buf[0] == 'y' || buf[0] == 'Y';
}

static int fix(const mgr_table_t *t, char **keep)
{
	dbd_acct_msg_t req = { .op = DBD_OP_MODIFY, .entity = DBD_ENT_JOB,
			       .flags = DBD_ACCT_COMMIT };
	char *set[] = { "fixrunaway=1", NULL }, *where[2] = { NULL, NULL };
	dbd_acct_resp_msg_t *r = NULL;
	int rc;

	where[0] = xstrdup("dbinx=");
	for (size_t k = 0; keep[k]; k++)
		xstrfmtcat(&where[0], "%s%s", k ? "," : "",
			   cli_sacctmgr_get(t, strtoul(keep[k], NULL, 10),
					    "dbinx"));
	req.where = where;
	req.set = set;
	rc = cli_sacctmgr_dbd(&req, &r);
	xfree(where[0]);
	if (rc)
		return 1;
	if (r->rc) {
		fprintf(stderr, " Error with request: %s\n",
			r->msg && *r->msg ? r->msg : slurm_strerror(r->rc));
		rc = 1;
	}
	msg_body_free(RESPONSE_DBD_ACCT, r);
	return rc;
}

int cli_sacctmgr_runaway(const mgr_opts_t *o, int argc, char **argv)
{
	const char *cluster = cli_conf()->cluster_name;
	char *where[2] = { NULL, NULL }, **keep = NULL;
	dbd_acct_msg_t req = { .op = DBD_OP_LIST, .entity = DBD_ENT_JOB };
	dbd_acct_resp_msg_t *resp = NULL;
	mgr_table_t t = { 0 };
	uint32_t *ids = NULL;
	size_t nids = 0;
	int rc = 1;

	for (int a = 2; a < argc; a++) {
		if (!strcasecmp(argv[a], "where"))
			continue;
		if (!strncasecmp(argv[a], "cluster=", 8) ||
		    !strncasecmp(argv[a], "clusters=", 9)) {
			cluster = strchr(argv[a], '=') + 1;
			continue;
		}
		fprintf(stderr, " Unknown condition: %s\n", argv[a]);
		return 1;
	}
	if (xstrcmp(cluster, cli_conf()->cluster_name)) {
		fprintf(stderr, " Runaway jobs are found by asking the "
			"cluster's controller: only the local cluster (%s) "
			"can be checked\n", cli_conf()->cluster_name);
		return 1;
	}
	where[0] = xstrdup_printf("cluster=%s", cluster);
	req.where = where;
	/* the database first: a job that ends between the two is then
	 * still known to the controller, never taken for a runaway */
	if (cli_sacctmgr_dbd(&req, &resp))
		goto out;
	t.resp = resp;
	if (resp->rc == ESLURM_ACCESS_DENIED) {
		error("You must have an AdminLevel>=Operator to fix runaway "
		      "jobs");
		goto out;
	}
	if (resp->rc) {
		fprintf(stderr, " Error with request: %s\n",
			resp->msg && *resp->msg ? resp->msg :
			slurm_strerror(resp->rc));
		goto out;
	}
	t.ncols = xstrarray_len(resp->cols);
	t.rows = t.ncols ? xstrarray_len(resp->cells) / t.ncols : 0;
	if (ctld_jobs(&ids, &nids) < 0)
		goto out;
	for (size_t i = 0; i < t.rows; i++) {
		char n[24];

		if (known(ids, nids, (uint32_t)strtoul(
				  cli_sacctmgr_get(&t, i, "jobid"), NULL, 10)))
			continue;
		snprintf(n, sizeof(n), "%zu", i);
		keep = xstrarray_append(keep, n);
	}
	rc = 0;
	if (!keep) {
		printf("Runaway Jobs: No runaway jobs found on cluster %s\n",
		       cluster);
		goto out;
	}
	print_table(o, &t, keep);
	if (o->immediate || ask())
		rc = fix(&t, keep);
	else
		printf("\nChanges Discarded\n");
out:
	xfree(where[0]);
	xfree(ids);
	xstrarray_free(keep);
	cli_sacctmgr_table_free(&t);
	return rc;
}
