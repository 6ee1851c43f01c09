/* sshare — the fair-share tree: shares, usage and factor of each
 * association, from the controller (REQUEST_SHARE_INFO).
 *
 * The controller sends every association (with PrivateData=usage, only
 * the caller's own user lines to users below Operator) in tree order;
 * sshare picks the lines as Slurm's does: every account line and the
 * caller's user lines by default, every user with -a, the users of -u,
 * the trees of the accounts of -A, only user lines with -U.
 */
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "cli/cli_output.h"
#include "cli/cli_shares.h"
#include "cli/cli_table.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define DEFAULT_FMT "Account,User,RawShares,NormShares,RawUsage," \
		    "EffectvUsage,FairShare"
#define LONG_FMT    "Account,User,RawShares,NormShares,RawUsage," \
		    "NormUsage,EffectvUsage,FairShare,LevelFS,GrpTRESMins," \
		    "TRESRunMins"
/* -l under the classic algorithm (PriorityFlags=NO_FAIR_TREE) */
#define LONG_FMT_CLASSIC "Account,User,RawShares,NormShares,RawUsage," \
		    "NormUsage,EffectvUsage,FairShare,GrpTRESMins,TRESRunMins"

static struct {
	bool    all;
	bool    users_only;
	cli_table_opt_t out;   /* -n, -p/-P */
	bool    longfmt;
	int     verbose;
	char  **accounts;
	char  **users;
	char   *format;
	bool    json, yaml;
	char   *clusters;   /* -M: checked, one cluster */
} opt;

static void usage(FILE *out)
{
	fprintf(out,
"Usage: sshare [OPTIONS]\n"
"  -A, --accounts=list  only these accounts (and what is below them)\n"
"  -a, --all            every user\n"
"  -l, --long           also NormUsage, LevelFS, GrpTRESMins, TRESRunMins\n"
"  -n, --noheader       no header\n"
"  -o, --format=list    fields (Name%%width)\n"
"  -p, --parsable       '|' after every field\n"
"  -P, --parsable2      '|' between fields\n"
"  -u, --users=list     these users\n"
"  -U, --Users          user lines only\n"
"  -v, --verbose        more logging\n"
"  -V, --version        print the version\n"
"      --json           print the shares as JSON\n"
"      --yaml           print the shares as YAML\n");
}

static char **add_list(char **list, const char *csv, bool lower)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++) {
		if (lower)
			for (char *p = items[i]; *p; p++)
				if (*p >= 'A' && *p <= 'Z')
					*p += 'a' - 'A';
		if (items[i][0])
			list = xstrarray_append(list, items[i]);
	}
	xstrarray_free(items);
	return list;
}

static void parse_opts(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "accounts", required_argument, NULL, 'A' },
		{ "all", no_argument, NULL, 'a' },
		{ "clusters", required_argument, NULL, 'M' },
		{ "format", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "long", no_argument, NULL, 'l' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "parsable", no_argument, NULL, 'p' },
		{ "parsable2", no_argument, NULL, 'P' },
		{ "partition", no_argument, NULL, 'm' },
		{ "usage", no_argument, NULL, 'h' },
		{ "users", required_argument, NULL, 'u' },
		{ "Users", no_argument, NULL, 'U' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "json", optional_argument, NULL, 'J' },
		{ "yaml", optional_argument, NULL, 'Y' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "A:ahlM:mno:pPu:UvV", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'A': opt.accounts = add_list(opt.accounts, optarg, true);
			break;
		case 'a': opt.all = true; break;
		case 'h': usage(stdout); exit(0);
		case 'l': opt.longfmt = true; break;
		case 'm': break;
		case 'M':
			xfree(opt.clusters);
			opt.clusters = xstrdup(optarg);
			break;
		case 'n': opt.out.noheader = true; break;
		case 'o':
			if (opt.format)
				xstrcatc(&opt.format, ',');
			xstrcat(&opt.format, optarg);
			break;
		case 'p': opt.out.parsable = 1; break;
		case 'P': opt.out.parsable = 2; break;
		case 'u':
			if (!strcmp(optarg, "all"))
				opt.all = true;
			else
				opt.users = add_list(opt.users, optarg, false);
			break;
		case 'U': opt.users_only = true; break;
		case 'v': opt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case 'J': opt.json = true; break;
		case 'Y': opt.yaml = true; break;
		default: usage(stderr); exit(1);
		}
	}
	if (optind < argc) {
		error("Unknown argument: %s", argv[optind]);
		exit(1);
	}
}

static void parse_format(cli_table_t *t, const char *spec)
{
	char *bad = NULL;

	if (cli_table_parse(t, CLI_TABLE(cli_share_fields), NULL, spec,
			    &bad) < 0) {
		error("Invalid field requested: \"%s\"", bad);
		exit(1);
	}
}

static bool in_list(char **list, const char *v)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i], v))
			return true;
	return false;
}

static void print(const table_resp_msg_t *r, cli_table_t *t)
{
	size_t rows = cli_shares_count(r);
	struct passwd *me = getpwuid(getuid());
	int in_acct_depth = -1;      /* inside an -A account's tree */
	char *parents[CLI_SHARES_MAX_DEPTH] = { 0 };

	if (cli_shares_col(r, "account") < 0 ||
	    cli_shares_col(r, "user") < 0 || cli_shares_col(r, "depth") < 0) {
		error("Unexpected answer from the controller");
		exit(1);
	}
	cli_table_header(stdout, t, &opt.out);
	for (size_t i = 0; i < rows; i++) {
		cli_share_rec_t rec;
		const char *acct, *user;
		int depth;

		cli_shares_rec(&rec, r, i, parents);
		rec.flat = opt.users_only;
		acct = rec.c[cli_shares_col(r, "account")];
		user = rec.c[cli_shares_col(r, "user")];
		depth = rec.depth;
		if (opt.accounts) {
			if (in_acct_depth >= 0 && depth <= in_acct_depth &&
			    !(rec.user && depth == in_acct_depth + 1))
				in_acct_depth = -1;
			if (in_acct_depth < 0 && !rec.user &&
			    in_list(opt.accounts, acct))
				in_acct_depth = depth;
			if (in_acct_depth < 0)
				continue;
		}
		if (rec.user && !opt.all &&
		    !(opt.users ? in_list(opt.users, user) :
		      (me && !strcmp(me->pw_name, user))))
			continue;
		if (!rec.user && opt.users_only)
			continue;
		cli_table_row(stdout, t, &opt.out, &rec, NULL);
	}
	cli_shares_parents_free(parents);
}

int main(int argc, char **argv)
{
	share_request_msg_t req = { 0 };
	slurm_msg_t resp;
	table_resp_msg_t *r;
	cli_table_t t;
	int rc;

	parse_opts(argc, argv);
	cli_init("sshare", opt.verbose);
	if (cli_check_clusters(opt.clusters, cli_conf()->cluster_name) < 0)
		exit(1);
	parse_format(&t, opt.format ? opt.format :
		     opt.longfmt ? LONG_FMT : DEFAULT_FMT);
	req.accounts = opt.accounts;
	req.users = opt.users;
	req.flags = opt.all ? SHARE_ALL_USERS : 0;
	rc = cli_ctld_rpc(REQUEST_SHARE_INFO, &req, &resp);
	if (rc) {
		fprintf(stderr, "Couldn't get shares from controller: %s\n",
			cli_comm_strerror(rc));
		exit(1);
	}
	if (resp.type != RESPONSE_SHARE_INFO || !resp.data) {
		rc = cli_resp_rc(&resp);
		fprintf(stderr, "Couldn't get shares from controller: %s\n",
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		exit(1);
	}
	r = resp.data;
	if (opt.longfmt && !opt.format) {
		int ca = cli_shares_col(r, "algorithm");
		size_t nc = xstrarray_len(r->cols);

		if (ca >= 0 && nc && xstrarray_len(r->cells) >= nc &&
		    !strcmp(r->cells[ca], "classic")) {
			cli_table_free(&t);
			parse_format(&t, LONG_FMT_CLASSIC);
		}
	}
	if (opt.json || opt.yaml) {
		json_object *doc = cli_output_doc("shares", cli_shares_json(r), 0);

		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, opt.yaml);
	} else {
		print(r, &t);
	}
	msg_free(&resp);
	cli_table_free(&t);
	xstrarray_free(opt.accounts);
	xstrarray_free(opt.users);
	xfree(opt.format);
	return 0;
}
