/* cli_sacctmgr_dump.c — "sacctmgr dump <cluster> [file=F]": the cluster's
 * associations as Slurm's flat file (acct_flatfile.h), in Slurm 22.05's
 * layout: the Cluster line (root's settings), then for each account that
 * has children, depth first, "Parent - 'a'", its users and its accounts
 * by name.  Also the slurmdbd request helpers dump and load share.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/log.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* ---- slurmdbd ---- */

int cli_sacctmgr_dbd(const dbd_acct_msg_t *req, dbd_acct_resp_msg_t **out)
{
	const slurm_conf_t *conf = cli_conf();
	const char *host = conf->accounting_storage_host ?
		conf->accounting_storage_host : "localhost";
	slurm_msg_t resp = { 0 };
	int rc;

	rc = net_rpc(host, conf->accounting_storage_port, REQUEST_DBD_ACCT,
		     req, &resp, conf->message_timeout * 1000 * 3);
	if (rc != 0) {
		error("slurmdbd: Sending message to %s:%u failed: %s", host,
		      conf->accounting_storage_port, slurm_strerror(rc));
		error("Problem talking to the database: %s",
		      slurm_strerror(rc));
		return 1;
	}
	if (resp.type != RESPONSE_DBD_ACCT) {
		rc = cli_resp_rc(&resp);
		fprintf(stderr, " Error with request: %s\n",
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return 1;
	}
	*out = resp.data;
	resp.data = NULL;
	return 0;
}

void cli_sacctmgr_table_free(mgr_table_t *t)
{
	if (t->resp)
		msg_body_free(RESPONSE_DBD_ACCT, t->resp);
	memset(t, 0, sizeof(*t));
}

int cli_sacctmgr_list(uint16_t entity, char **where, mgr_table_t *t)
{
	dbd_acct_msg_t req = { .op = DBD_OP_LIST, .entity = entity,
			       .where = where };

	memset(t, 0, sizeof(*t));
	if (cli_sacctmgr_dbd(&req, &t->resp))
		return 1;
	if (t->resp->rc) {
		fprintf(stderr, "%s\n", t->resp->msg && *t->resp->msg ?
			t->resp->msg : slurm_strerror(t->resp->rc));
		cli_sacctmgr_table_free(t);
		return 1;
	}
	t->ncols = xstrarray_len(t->resp->cols);
	t->rows = t->ncols ? xstrarray_len(t->resp->cells) / t->ncols : 0;
	return 0;
}

const char *cli_sacctmgr_get(const mgr_table_t *t, size_t row,
			     const char *col)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->resp->cols[c], col))
			return t->resp->cells[row * t->ncols + c];
	return "";
}

/* The caller's AdminLevel may dump/load (root and SlurmUser always);
 * else Slurm's message, and false. */
bool cli_sacctmgr_may(const char *what)
{
	uid_t uid = getuid();
	struct passwd *pw;
	mgr_table_t t;
	char *w[2] = { NULL, NULL };
	bool ok = false;

	if (uid == 0 || uid == cli_conf()->slurm_user_id)
		return true;
	pw = getpwuid(uid);
	if (pw) {
		w[0] = xstrdup_printf("name=%s", pw->pw_name);
		if (cli_sacctmgr_list(DBD_ENT_USER, w, &t) == 0) {
			if (!t.rows) {
				fprintf(stderr, " Your uid (%u) is not in the "
					"accounting system, can't %s.\n",
					(unsigned)uid, !strcmp(what, "dump") ?
					"dump cluster" : "load files");
			} else if (!strcmp(cli_sacctmgr_get(&t, 0, "admin"),
					   "Administrator")) {
				ok = true;
			} else {
				fprintf(stderr, " Your user does not have "
					"sufficient privileges to %s.\n",
					!strcmp(what, "dump") ? "dump clusters" :
					"load files");
			}
			cli_sacctmgr_table_free(&t);
		}
		xfree(w[0]);
	}
	return ok;
}

/* ---- the file ---- */

static const char header[] =
"# To edit this file start with a cluster line for the new cluster\n"
"# Cluster - 'cluster_name':MaxTRESPerJob=node=50\n"
"# Followed by Accounts you want in this fashion (root is created by "
"default)...\n"
"# Parent - 'root'\n"
"# Account - 'cs':MaxTRESPerJob=node=5:MaxJobs=4:MaxTRESMinsPerJob=cpu=20:"
"FairShare=399:MaxWallDurationPerJob=40:Description='Computer Science':"
"Organization='LC'\n"
"# Any of the options after a ':' can be left out and they can be in any "
"order.\n"
"# If you want to add any sub accounts just list the Parent THAT HAS "
"ALREADY\n"
"# BEEN CREATED before the account line in this fashion...\n"
"# Parent - 'cs'\n"
"# Account - 'test':MaxTRESPerJob=node=1:MaxJobs=1:MaxTRESMinsPerJob=cpu=1:"
"FairShare=1:MaxWallDurationPerJob=1:Description='Test Account':"
"Organization='Test'\n"
"# To add users to a account add a line like this after a Parent - 'line'\n"
"# User - 'lipari':MaxTRESPerJob=node=2:MaxJobs=3:MaxTRESMinsPerJob=cpu=4:"
"FairShare=1:MaxWallDurationPerJob=1\n";

typedef struct {
	mgr_table_t assoc, accts, users;
	char       *out;
} dump_t;

/* Row of the association (acct, user) or -1. */
static long assoc_row(const dump_t *d, const char *acct, const char *user)
{
	for (size_t i = 0; i < d->assoc.rows; i++)
		if (!strcmp(cli_sacctmgr_get(&d->assoc, i, "account"), acct) &&
		    !strcmp(cli_sacctmgr_get(&d->assoc, i, "user"), user) &&
		    !*cli_sacctmgr_get(&d->assoc, i, "partition"))
			return (long)i;
	return -1;
}

static void opt(char **out, const char *key, const char *v, bool quote)
{
	if (v && *v)
		xstrfmtcat(out, quote ? ":%s='%s'" : ":%s=%s", key, v);
}

/* The association's settings in Slurm's order; QOS and DefaultQOS only
 * where they differ from the parent's (they are inherited). */
static void assoc_opts(const dump_t *d, char **out, size_t row, long prow)
{
	const mgr_table_t *t = &d->assoc;
	const char *qos = cli_sacctmgr_get(t, row, "qos");
	const char *dq = cli_sacctmgr_get(t, row, "defqos");

	if (prow < 0 || strcmp(dq, cli_sacctmgr_get(t, (size_t)prow,
						     "defqos")))
		opt(out, "DefaultQOS", dq, true);
	opt(out, "Fairshare", cli_sacctmgr_get(t, row, "share"), false);
	opt(out, "GrpTRESMins", cli_sacctmgr_get(t, row, "grptresmins"),
	    false);
	opt(out, "GrpTRESRunMins", cli_sacctmgr_get(t, row, "grptresrunmins"),
	    false);
	opt(out, "GrpTRES", cli_sacctmgr_get(t, row, "grptres"), false);
	opt(out, "GrpJobs", cli_sacctmgr_get(t, row, "grpjobs"), false);
	opt(out, "GrpSubmitJobs", cli_sacctmgr_get(t, row, "grpsubmit"),
	    false);
	opt(out, "GrpWall", cli_sacctmgr_get(t, row, "grpwall"), false);
	opt(out, "MaxTRESMinsPerJob", cli_sacctmgr_get(t, row, "maxtresmins"),
	    false);
	opt(out, "MaxTRESPerJob", cli_sacctmgr_get(t, row, "maxtres"), false);
	opt(out, "MaxTRESPerNode", cli_sacctmgr_get(t, row, "maxtrespn"),
	    false);
	opt(out, "MaxJobs", cli_sacctmgr_get(t, row, "maxjobs"), false);
	opt(out, "MaxSubmitJobs", cli_sacctmgr_get(t, row, "maxsubmit"),
	    false);
	opt(out, "MaxWallDurationPerJob", cli_sacctmgr_get(t, row, "maxwall"),
	    false);
	opt(out, "Priority", cli_sacctmgr_get(t, row, "priority"), false);
	if (prow < 0 || strcmp(qos, cli_sacctmgr_get(t, (size_t)prow, "qos")))
		opt(out, "QOS", qos, true);
}

static long find_row(const mgr_table_t *t, const char *col, const char *v)
{
	for (size_t i = 0; i < t->rows; i++)
		if (!strcmp(cli_sacctmgr_get(t, i, col), v))
			return (long)i;
	return -1;
}

static void line(dump_t *d, char *text)
{
	fprintf(stderr, "sacctmgr: %s\n", text);
	xstrfmtcat(&d->out, "%s\n", text);
	xfree(text);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void visit(dump_t *d, const char *acct, int depth)
{
	char **users = NULL, **kids = NULL;
	long prow = assoc_row(d, acct, "");

	if (depth > 64)
		return;
	for (size_t i = 0; i < d->assoc.rows; i++) {
		const char *u = cli_sacctmgr_get(&d->assoc, i, "user");

		if (*cli_sacctmgr_get(&d->assoc, i, "partition"))
			continue;
		if (*u && !strcmp(cli_sacctmgr_get(&d->assoc, i, "account"),
				  acct))
			users = xstrarray_append(users, u);
		else if (!*u && !strcmp(cli_sacctmgr_get(&d->assoc, i,
							 "parentname"), acct) &&
			 strcmp(cli_sacctmgr_get(&d->assoc, i, "account"),
				acct))
			kids = xstrarray_append(kids, cli_sacctmgr_get(
				&d->assoc, i, "account"));
	}
	if (users)
		qsort(users, xstrarray_len(users), sizeof(char *), cmp_str);
	if (kids)
		qsort(kids, xstrarray_len(kids), sizeof(char *), cmp_str);
	if (users || kids)
		line(d, xstrdup_printf("Parent - '%s'", acct));
	for (size_t i = 0; users && users[i]; i++) {
		long row = assoc_row(d, acct, users[i]);
		long ur = find_row(&d->users, "user", users[i]);
		char *s = xstrdup_printf("User - '%s'", users[i]);

		if (ur >= 0) {
			const char *admin = cli_sacctmgr_get(&d->users,
							     (size_t)ur,
							     "admin");

			opt(&s, "DefaultAccount", cli_sacctmgr_get(
				&d->users, (size_t)ur, "defacct"), true);
			if (strcmp(admin, "None"))
				opt(&s, "AdminLevel", admin, true);
			opt(&s, "Coordinator", cli_sacctmgr_get(
				&d->users, (size_t)ur, "coords"), true);
		}
		assoc_opts(d, &s, (size_t)row, prow);
		line(d, s);
	}
	for (size_t i = 0; kids && kids[i]; i++) {
		long row = assoc_row(d, kids[i], "");
		long ar = find_row(&d->accts, "account", kids[i]);
		char *s = xstrdup_printf("Account - '%s'", kids[i]);

		if (ar >= 0) {
			opt(&s, "Description", cli_sacctmgr_get(
				&d->accts, (size_t)ar, "descr"), true);
			opt(&s, "Organization", cli_sacctmgr_get(
				&d->accts, (size_t)ar, "org"), true);
		}
		assoc_opts(d, &s, (size_t)row, prow);
		line(d, s);
	}
	for (size_t i = 0; kids && kids[i]; i++)
		visit(d, kids[i], depth + 1);
	xstrarray_free(users);
	xstrarray_free(kids);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, " Can't write to file %s: %s\n", path,
			strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	return 0;
}

int cli_sacctmgr_dump(int argc, char **argv)
{
	const char *cluster = NULL, *file = NULL;
	char *where[2] = { NULL, NULL }, *path;
	dump_t d = { 0 };
	mgr_table_t cl;
	long root;
	int rc = 1;

	for (int i = 0; i < argc; i++) {
		if (!strncasecmp(argv[i], "file=", 5))
			file = argv[i] + 5;
		else if (!strncasecmp(argv[i], "cluster=", 8))
			cluster = argv[i] + 8;
		else if (!strchr(argv[i], '='))
			cluster = argv[i];
		else {
			fprintf(stderr, " Unknown option: %s\n", argv[i]);
			return 1;
		}
	}
	if (!cluster || !*cluster) {
		fprintf(stderr, " We need a cluster to dump.\n");
		return 1;
	}
	if (!cli_sacctmgr_may("dump"))
		return 1;
	where[0] = xstrdup_printf("name=%s", cluster);
	if (cli_sacctmgr_list(DBD_ENT_CLUSTER, where, &cl))
		goto out;
	if (!cl.rows) {
		fprintf(stderr, " Cluster %s doesn't exist.\n", cluster);
		cli_sacctmgr_table_free(&cl);
		goto out;
	}
	cli_sacctmgr_table_free(&cl);
	xfree(where[0]);
	where[0] = xstrdup_printf("cluster=%s", cluster);
	if (cli_sacctmgr_list(DBD_ENT_ASSOC, where, &d.assoc) ||
	    cli_sacctmgr_list(DBD_ENT_ACCOUNT, NULL, &d.accts) ||
	    cli_sacctmgr_list(DBD_ENT_USER, NULL, &d.users))
		goto out;
	d.out = xstrdup(header);
	{
		char *s = xstrdup_printf("Cluster - '%s'", cluster);

		root = assoc_row(&d, "root", "");
		if (root >= 0)
			assoc_opts(&d, &s, (size_t)root, -1);
		line(&d, s);
	}
	visit(&d, "root", 0);
	if (!file) {
		path = xstrdup_printf("./%s.cfg", cluster);
		printf(" No filename given, using %s.\n", path);
	} else {
		path = xstrdup(file);
	}
	rc = write_file(path, d.out);
	xfree(path);
out:
	xfree(where[0]);
	xfree(d.out);
	cli_sacctmgr_table_free(&d.assoc);
	cli_sacctmgr_table_free(&d.accts);
	cli_sacctmgr_table_free(&d.users);
	return rc;
}
