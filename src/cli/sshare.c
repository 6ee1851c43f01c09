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

#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "cli/cli_output.h"
#include "cli/cli_shares.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

typedef struct {
	const char *name;          /* -o key */
	const char *header;
	int         width;         /* < 0 left-justified */
	const char *col;           /* the answer's column */
} sh_field_t;

static const sh_field_t fields[] = {
	{ "Account", "Account", -20, "account" },
	{ "User", "User", 10, "user" },
	{ "RawShares", "RawShares", 10, "raw_shares" },
	{ "NormShares", "NormShares", 11, "norm_shares" },
	{ "RawUsage", "RawUsage", 11, "raw_usage" },
	{ "NormUsage", "NormUsage", 11, "norm_usage" },
	{ "EffectvUsage", "EffectvUsage", 13, "effectv_usage" },
	{ "FairShare", "FairShare", 10, "fairshare" },
	{ "LevelFS", "LevelFS", 10, "level_fs" },
	{ "GrpTRESMins", "GrpTRESMins", 30, "grp_tres_mins" },
	{ "TRESRunMins", "TRESRunMins", 30, "tres_run_mins" },
	{ "Cluster", "Cluster", 10, NULL },
	{ "Partition", "Partition", 10, NULL },
	{ NULL }
};

#define DEFAULT_FMT "Account,User,RawShares,NormShares,RawUsage," \
		    "EffectvUsage,FairShare"
#define LONG_FMT    "Account,User,RawShares,NormShares,RawUsage," \
		    "NormUsage,EffectvUsage,FairShare,LevelFS,GrpTRESMins," \
		    "TRESRunMins"
/* -l under the classic algorithm (PriorityFlags=NO_FAIR_TREE) */
#define LONG_FMT_CLASSIC "Account,User,RawShares,NormShares,RawUsage," \
		    "NormUsage,EffectvUsage,FairShare,GrpTRESMins,TRESRunMins"

typedef struct {
	const sh_field_t *f;
	int               width;
} sh_col_t;

static struct {
	bool    all;
	bool    users_only;
	bool    noheader;
	bool    longfmt;
	int     parsable;
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
		case 'n': opt.noheader = true; break;
		case 'o':
			if (opt.format)
				xstrcatc(&opt.format, ',');
			xstrcat(&opt.format, optarg);
			break;
		case 'p': opt.parsable = 1; break;
		case 'P': opt.parsable = 2; break;
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

static const sh_field_t *field_find(const char *name)
{
	size_t n = strlen(name);

	for (const sh_field_t *f = fields; f->name; f++)
		if (!strcasecmp(f->name, name))
			return f;
	for (const sh_field_t *f = fields; f->name && n; f++)
		if (!strncasecmp(f->name, name, n))
			return f;
	return NULL;
}

static sh_col_t *parse_format(const char *spec, size_t *cnt)
{
	char **items = xstrsplit(spec, ",", NULL);
	sh_col_t *cols = NULL;
	size_t n = 0;

	for (size_t i = 0; items[i]; i++) {
		char *name = items[i], *pct;
		const sh_field_t *f;

		while (*name == ' ')
			name++;
		if (!*name)
			continue;
		pct = strchr(name, '%');
		if (pct)
			*pct = '\0';
		f = field_find(name);
		if (!f) {
			error("Invalid field requested: \"%s\"", name);
			exit(1);
		}
		cols = xrealloc(cols, (n + 1) * sizeof(*cols));
		cols[n].f = f;
		cols[n].width = pct && atoi(pct + 1) ? atoi(pct + 1) :
			f->width;
		n++;
	}
	xstrarray_free(items);
	*cnt = n;
	return cols;
}

static bool in_list(char **list, const char *v)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i], v))
			return true;
	return false;
}

static void cell(char **line, const char *text, int width, bool last)
{
	int w = width < 0 ? -width : width;

	if (opt.parsable) {
		xstrcat(line, text);
		if (!last || opt.parsable == 1)
			xstrcatc(line, '|');
		return;
	}
	if ((int)strlen(text) > w)
		xstrfmtcat(line, "%.*s+", w - 1, text);
	else
		xstrfmtcat(line, width < 0 ? "%-*s" : "%*s", w, text);
	xstrcatc(line, ' ');
}

static void header(const sh_col_t *cols, size_t n)
{
	char *line = NULL, *dash = NULL;

	for (size_t i = 0; i < n; i++) {
		int w = cols[i].width < 0 ? -cols[i].width : cols[i].width;

		if (opt.parsable) {
			cell(&line, cols[i].f->header, cols[i].width,
			     i + 1 == n);
			continue;
		}
		xstrfmtcat(&line, cols[i].width < 0 ? "%-*.*s " : "%*.*s ",
			   w, w, cols[i].f->header);
		for (int k = 0; k < w; k++)
			xstrcatc(&dash, '-');
		xstrcatc(&dash, ' ');
	}
	printf("%s\n", line ? line : "");
	if (dash)
		printf("%s\n", dash);
	xfree(line);
	xfree(dash);
}

static int col_of(const table_resp_msg_t *r, const char *name)
{
	for (int i = 0; name && r->cols && r->cols[i]; i++)
		if (!strcmp(r->cols[i], name))
			return i;
	return -1;
}

static void print(const table_resp_msg_t *r, const sh_col_t *cols, size_t n)
{
	size_t ncols = xstrarray_len(r->cols);
	size_t rows = ncols ? xstrarray_len(r->cells) / ncols : 0;
	int ca = col_of(r, "account"), cu = col_of(r, "user"),
	    cd = col_of(r, "depth");
	struct passwd *me = getpwuid(getuid());
	int in_acct_depth = -1;      /* inside an -A account's tree */

	if (ca < 0 || cu < 0 || cd < 0) {
		error("Unexpected answer from the controller");
		exit(1);
	}
	if (!opt.noheader)
		header(cols, n);
	for (size_t i = 0; i < rows; i++) {
		char **c = &r->cells[i * ncols];
		int depth = atoi(c[cd]);
		bool user = c[cu][0] != 0;
		char *line = NULL;

		if (opt.accounts) {
			if (in_acct_depth >= 0 && depth <= in_acct_depth &&
			    !(user && depth == in_acct_depth + 1))
				in_acct_depth = -1;
			if (in_acct_depth < 0 && !user &&
			    in_list(opt.accounts, c[ca]))
				in_acct_depth = depth;
			if (in_acct_depth < 0)
				continue;
		}
		if (user && !opt.all &&
		    !(opt.users ? in_list(opt.users, c[cu]) :
		      (me && !strcmp(me->pw_name, c[cu]))))
			continue;
		if (!user && opt.users_only)
			continue;
		for (size_t k = 0; k < n; k++) {
			int idx = col_of(r, cols[k].f->col);
			char *t;

			if (cols[k].f->col && !strcmp(cols[k].f->col,
						      "account"))
				t = xstrdup_printf("%*s%s",
					opt.users_only ? 0 : depth, "",
					c[ca]);
			else if (!strcmp(cols[k].f->name, "Partition"))
				t = xstrdup("");
			else if (!strcmp(cols[k].f->name, "Cluster"))
				t = xstrdup(cli_clusters_current() ?
					    cli_clusters_current() : "");
			else if (!strcmp(cols[k].f->name, "NormUsage") &&
				 !user && depth == 0)
				t = xstrdup("");
			else
				t = xstrdup(idx >= 0 ? c[idx] : "");
			cell(&line, t, cols[k].width, k + 1 == n);
			xfree(t);
		}
		printf("%s\n", line ? line : "");
		xfree(line);
	}
}

int main(int argc, char **argv)
{
	share_request_msg_t req = { 0 };
	slurm_msg_t resp;
	table_resp_msg_t *r;
	sh_col_t *cols;
	size_t n;
	int rc;

	parse_opts(argc, argv);
	cli_init("sshare", opt.verbose);
	if (cli_check_clusters(opt.clusters, cli_conf()->cluster_name) < 0)
		exit(1);
	cols = parse_format(opt.format ? opt.format :
			    opt.longfmt ? LONG_FMT : DEFAULT_FMT, &n);
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
		int ca = col_of(r, "algorithm");
		size_t nc = xstrarray_len(r->cols);

		if (ca >= 0 && nc && xstrarray_len(r->cells) >= nc &&
		    !strcmp(r->cells[ca], "classic")) {
			xfree(cols);
			cols = parse_format(LONG_FMT_CLASSIC, &n);
		}
	}
	if (opt.json || opt.yaml) {
		json_object *doc = cli_output_doc("shares", cli_shares_json(r), 0);

		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, opt.yaml);
	} else {
		print(r, cols, n);
	}
	msg_free(&resp);
	xfree(cols);
	xstrarray_free(opt.accounts);
	xstrarray_free(opt.users);
	xfree(opt.format);
	return 0;
}
