/* sacctmgr — view and change accounting: clusters, accounts, users, QOS
 * and associations, stored by slurmdbd.
 *
 *     sacctmgr [-i -n -p -P -Q -s -v] add|modify|delete|show ENTITY
 *              [NAMES] [where KEY=VAL...] [set KEY=VAL...]
 *              [format=F1,F2%W] [withassoc] [tree]
 *
 * A change is first sent as a dry run (slurmdbd rolls it back) and shown;
 * with -i, or when the user answers 'y' to the commit question, it is
 * sent again to be committed.
 */
#include <ctype.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define COMMIT_WAIT_S 30

typedef struct {
	uint16_t   op;
	uint16_t   entity;
	char     **names;
	char     **where;
	char     **set;
	char      *format;
	bool       with_assoc;
	bool       tree;
} mgr_cmd_t;

static mgr_opts_t opts;

/* ---- words ---- */

static const struct {
	const char *word;
	size_t      min;       /* shortest accepted prefix */
	uint16_t    op;
} ops[] = {
	{ "add", 3, DBD_OP_ADD }, { "create", 2, DBD_OP_ADD },
	{ "modify", 1, DBD_OP_MODIFY }, { "update", 1, DBD_OP_MODIFY },
	{ "delete", 3, DBD_OP_DELETE }, { "remove", 3, DBD_OP_DELETE },
	{ "show", 3, DBD_OP_LIST }, { "list", 2, DBD_OP_LIST },
};

static const struct {
	const char *word;
	size_t      min;
	uint16_t    entity;
} entities[] = {
	{ "accounts", 3, DBD_ENT_ACCOUNT }, { "associations", 3, DBD_ENT_ASSOC },
	{ "clusters", 2, DBD_ENT_CLUSTER }, { "qos", 1, DBD_ENT_QOS },
	{ "users", 1, DBD_ENT_USER },
};

/* Option spellings -> the key slurmdbd knows. */
static const struct {
	const char *word;
	const char *key;
} keys[] = {
	{ "name", "name" }, { "names", "name" },
	{ "cluster", "cluster" }, { "clusters", "cluster" },
	{ "account", "account" }, { "accounts", "account" },
	{ "acct", "account" }, { "accts", "account" },
	{ "user", "user" }, { "users", "user" },
	{ "parent", "parent" }, { "description", "description" },
	{ "organization", "organization" },
	{ "defaultaccount", "defaultaccount" },
	{ "adminlevel", "adminlevel" }, { "fairshare", "fairshare" },
	{ "share", "fairshare" }, { "shares", "fairshare" },
	{ "grpjobs", "grpjobs" }, { "grpsubmitjobs", "grpsubmitjobs" },
	{ "grpsubmit", "grpsubmitjobs" }, { "grpwall", "grpwall" },
	{ "maxjobs", "maxjobs" }, { "maxsubmitjobs", "maxsubmitjobs" },
	{ "maxsubmit", "maxsubmitjobs" }, { "maxwall", "maxwall" },
	{ "qos", "qos" }, { "qoslevel", "qos" },
	{ "defaultqos", "defaultqos" }, { "priority", "priority" },
	{ "partition", "partition" }, { "id", "id" },
	{ "maxjobsperuser", "maxjobspu" }, { "maxjobspu", "maxjobspu" },
	{ "maxsubmitjobsperuser", "maxsubmitjobspu" },
	{ "maxsubmitjobspu", "maxsubmitjobspu" },
};

static bool word_is(const char *arg, const char *word, size_t min)
{
	size_t n = strlen(arg);

	return n >= min && n <= strlen(word) && !strncasecmp(arg, word, n);
}

static const char *entity_help =
	"Input line must include \"Account\", \"Association\", "
	"\"Cluster\", \"QOS\", or \"User\"\n";

static const char *op_word(uint16_t op)
{
	switch (op) {
	case DBD_OP_ADD:
		return "add";
	case DBD_OP_MODIFY:
		return "modify";
	case DBD_OP_DELETE:
		return "delete";
	default:
		return "list";
	}
}

/* "Key=Value" -> "key=Value" with the key normalised; NULL if unknown. */
static char *normal_kv(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n;

	if (!eq || eq == arg)
		return NULL;
	n = (size_t)(eq - arg);
	if (n && (arg[n - 1] == '+' || arg[n - 1] == '-'))
		return NULL;     /* "QOS+=x" is not supported yet */
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].word) == n &&
		    !strncasecmp(keys[i].word, arg, n))
			return xstrdup_printf("%s=%s", keys[i].key, eq + 1);
	return NULL;
}

/* One word after the entity.  0, or 1 (exit code) with the error shown. */
static int parse_word(mgr_cmd_t *c, const char *arg, bool *in_set)
{
	char *kv;

	if (!strcasecmp(arg, "where"))
		return (*in_set = false, 0);
	if (!strcasecmp(arg, "set"))
		return (*in_set = true, 0);
	if (!strcasecmp(arg, "withassoc") || !strcasecmp(arg, "withassocs"))
		return (c->with_assoc = true, 0);
	if (!strcasecmp(arg, "tree"))
		return (c->tree = true, 0);
	if (!strncasecmp(arg, "format=", 7)) {
		xfree(c->format);
		c->format = xstrdup(arg + 7);
		return 0;
	}
	if (!strchr(arg, '=')) {
		if (c->op == DBD_OP_ADD) {
			c->names = xstrarray_append(c->names, arg);
		} else {
			kv = xstrdup_printf("name=%s", arg);
			c->where = xstrarray_append(c->where, kv);
			xfree(kv);
		}
		return 0;
	}
	kv = normal_kv(arg);
	if (!kv) {
		fprintf(stderr, " Unknown %s: %s\n", *in_set || c->op ==
			DBD_OP_ADD ? "option" : "condition", arg);
		fprintf(stderr, *in_set || c->op == DBD_OP_ADD ?
			" Use keyword 'where' to modify condition\n" :
			" Use keyword 'set' to modify value\n");
		return 1;
	}
	if (c->op == DBD_OP_ADD && !strncmp(kv, "name=", 5)) {
		char **more = xstrsplit(kv + 5, ",", NULL);

		for (size_t i = 0; more[i]; i++)
			c->names = xstrarray_append(c->names, more[i]);
		xstrarray_free(more);
	} else if (c->op == DBD_OP_ADD || *in_set) {
		c->set = xstrarray_append(c->set, kv);
	} else {
		c->where = xstrarray_append(c->where, kv);
	}
	xfree(kv);
	return 0;
}

static int parse_command(mgr_cmd_t *c, int argc, char **argv)
{
	bool in_set = false;
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (word_is(argv[0], ops[i].word, ops[i].min))
			break;
	if (i == sizeof(ops) / sizeof(ops[0])) {
		fprintf(stderr, "invalid keyword: %s\n", argv[0]);
		return 1;
	}
	c->op = ops[i].op;
	for (i = 0; argc > 1 && i < sizeof(entities) / sizeof(entities[0]); i++)
		if (word_is(argv[1], entities[i].word, entities[i].min))
			break;
	if (argc < 2 || i == sizeof(entities) / sizeof(entities[0])) {
		fprintf(stderr, "No valid entity in %s command\n%s",
			op_word(c->op), entity_help);
		return 1;
	}
	c->entity = entities[i].entity;
	for (int a = 2; a < argc; a++)
		if (parse_word(c, argv[a], &in_set))
			return 1;
	return 0;
}

/* ---- slurmdbd ---- */

static int dbd_rpc(const mgr_cmd_t *c, uint16_t flags,
		   dbd_acct_resp_msg_t **out)
{
	const slurm_conf_t *conf = cli_conf();
	dbd_acct_msg_t req = { .op = c->op, .entity = c->entity,
			       .flags = flags, .names = c->names,
			       .where = c->where, .set = c->set };
	const char *host = conf->accounting_storage_host ?
		conf->accounting_storage_host : "localhost";
	slurm_msg_t resp = { 0 };
	int rc;

	rc = net_rpc(host, conf->accounting_storage_port, REQUEST_DBD_ACCT,
		     &req, &resp, conf->message_timeout * 1000 * 3);
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

static void resp_free(dbd_acct_resp_msg_t *r)
{
	msg_body_free(RESPONSE_DBD_ACCT, r);
}

static const char *what_plural(uint16_t entity)
{
	switch (entity) {
	case DBD_ENT_CLUSTER:
		return "clusters";
	case DBD_ENT_ACCOUNT:
		return "accounts";
	case DBD_ENT_USER:
		return "users";
	case DBD_ENT_QOS:
		return "QOS";
	default:
		return "associations";
	}
}

/* The dbd refused: its message, or Slurm's wording for the code. */
static int report_failure(const mgr_cmd_t *c, const dbd_acct_resp_msg_t *r)
{
	if (r->msg && r->msg[0])
		fprintf(stderr, "%s\n", r->msg);
	else if (c->op == DBD_OP_ADD)
		fprintf(stderr, " Problem adding %s: %s\n",
			what_plural(c->entity), slurm_strerror(r->rc));
	else
		fprintf(stderr, " Error with request: %s\n",
			slurm_strerror(r->rc));
	return 1;
}

/* ---- what a change did ---- */

typedef struct {
	char *const *cells;
	size_t       n;            /* rows of (kind,name,cluster,acct,user) */
} mgr_changes_t;

#define CH(ch, i, col) ((ch)->cells[(i) * 5 + (col)])

static size_t count_kind(const mgr_changes_t *ch, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < ch->n; i++)
		n += !strcmp(CH(ch, i, 0), kind);
	return n;
}

static void print_names(const mgr_changes_t *ch, const char *kind,
			const char *fmt)
{
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), kind))
			printf(fmt, CH(ch, i, 1));
}

/* Association settings a request gave, as "  Key<pad> = value" lines. */
static void print_limits(const mgr_cmd_t *c, int pad)
{
	static const struct {
		const char *key, *label;
	} l[] = {
		{ "fairshare", "Fairshare" }, { "priority", "Priority" },
		{ "grpjobs", "GrpJobs" }, { "grpsubmitjobs", "GrpSubmitJobs" },
		{ "grpwall", "GrpWall" }, { "maxjobs", "MaxJobs" },
		{ "maxsubmitjobs", "MaxSubmitJobs" }, { "maxwall", "MaxWall" },
		{ "qos", "QOS" }, { "defaultqos", "Default QOS" },
	};
	size_t n;

	for (size_t k = 0; k < sizeof(l) / sizeof(l[0]); k++) {
		n = strlen(l[k].key);
		for (size_t i = 0; c->set && c->set[i]; i++)
			if (!strncmp(c->set[i], l[k].key, n) &&
			    c->set[i][n] == '=')
				printf("  %-*s = %s\n", pad, l[k].label,
				       c->set[i] + n + 1);
	}
}

static const char *set_value(const mgr_cmd_t *c, const char *key)
{
	size_t n = strlen(key);
	const char *v = NULL;

	for (size_t i = 0; c->set && c->set[i]; i++)
		if (!strncmp(c->set[i], key, n) && c->set[i][n] == '=')
			v = c->set[i] + n + 1;
	return v;
}

static void print_add_account(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	const char *desc = set_value(c, "description");
	const char *org = set_value(c, "organization");
	const char *parent = set_value(c, "parent");

	if (count_kind(ch, "account")) {
		printf(" Adding Account(s)\n");
		print_names(ch, "account", "  %s\n");
		printf(" Settings\n");
		printf("  %-15s = %s\n", "Description",
		       desc ? desc : "Account Name");
		printf("  %-15s = %s\n", "Organization",
		       org ? org : "Parent/Account Name");
	}
	if (!count_kind(ch, "assoc"))
		return;
	printf(" Associations\n");
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), "assoc"))
			printf("  A = %-10.10s C = %-10.10s\n", CH(ch, i, 3),
			       CH(ch, i, 2));
	printf(" Settings\n");
	printf("  %-13s = %s\n", "Parent", parent ? parent : "root");
	print_limits(c, 13);
}

static void print_add_user(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	const char *def = set_value(c, "defaultaccount");
	const char *admin = set_value(c, "adminlevel");

	if (count_kind(ch, "user")) {
		printf(" Adding User(s)\n");
		print_names(ch, "user", "  %s\n");
		if (def || admin)
			printf(" Settings =\n");
		if (def)
			printf("  %-15s = %s\n", "Default Account", def);
		if (admin)
			printf("  %-15s = %s\n", "Admin Level", admin);
	}
	if (!count_kind(ch, "assoc"))
		return;
	printf(" Associations =\n");
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), "assoc"))
			printf("  U = %-9.9s A = %-10.10s C = %-10.10s\n",
			       CH(ch, i, 4), CH(ch, i, 3), CH(ch, i, 2));
	printf(" Non Default Settings\n");
	print_limits(c, 15);
}

static void print_add(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	const char *desc = set_value(c, "description");

	switch (c->entity) {
	case DBD_ENT_CLUSTER:
		printf(" Adding Cluster(s)\n");
		print_names(ch, "cluster", "  Name           = %s\n");
		break;
	case DBD_ENT_ACCOUNT:
		print_add_account(c, ch);
		break;
	case DBD_ENT_USER:
		print_add_user(c, ch);
		break;
	case DBD_ENT_QOS:
		printf(" Adding QOS(s)\n");
		print_names(ch, "qos", "  %s\n");
		printf(" Settings\n");
		printf("  %-15s = %s\n", "Description",
		       desc ? desc : "QOS Name");
		break;
	}
}

static const char *assoc_owner(uint16_t entity)
{
	switch (entity) {
	case DBD_ENT_CLUSTER:
		return "cluster ";
	case DBD_ENT_ACCOUNT:
		return "account ";
	case DBD_ENT_USER:
		return "user ";
	default:
		return "";
	}
}

static void print_assoc_rows(const mgr_changes_t *ch)
{
	for (size_t i = 0; i < ch->n; i++)
		if (!strcmp(CH(ch, i, 0), "assoc"))
			printf("  C = %-10.10s A = %-10.10s U = %-9.9s\n",
			       CH(ch, i, 2), CH(ch, i, 3), CH(ch, i, 4));
}

static void print_modify_delete(const mgr_cmd_t *c, const mgr_changes_t *ch)
{
	const char *what = c->entity == DBD_ENT_QOS ? "QOS(s)" :
		what_plural(c->entity);
	bool del = c->op == DBD_OP_DELETE;

	if (ch->n > count_kind(ch, "assoc")) {
		printf(" %s %s...\n", del ? "Deleting" : "Modified",
		       c->entity == DBD_ENT_QOS && !del ? "qos" : what);
		for (size_t i = 0; i < ch->n; i++)
			if (strcmp(CH(ch, i, 0), "assoc"))
				printf("  %s\n", CH(ch, i, 1));
	}
	if (count_kind(ch, "assoc") && (!del || c->entity == DBD_ENT_ASSOC)) {
		printf(" %s %sassociations...\n",
		       del ? "Deleting" : "Modified", assoc_owner(c->entity));
		print_assoc_rows(ch);
	}
}

static void print_changes(const mgr_cmd_t *c, const dbd_acct_resp_msg_t *r)
{
	mgr_changes_t ch = { r->cells, xstrarray_len(r->cells) / 5 };

	if (xstrarray_len(r->cols) != 5 || !ch.n) {
		if (c->op == DBD_OP_ADD)
			printf(" Nothing new added.\n");
		else if (c->op == DBD_OP_MODIFY)
			printf(" Nothing modified\n");
		else
			printf(" Nothing deleted\n");
		return;
	}
	if (c->op == DBD_OP_ADD)
		print_add(c, &ch);
	else
		print_modify_delete(c, &ch);
}

/* ---- changes ---- */

/* Ask before committing; true to commit. */
static bool commit_check(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char buf[64] = "";

	printf("Would you like to commit changes? (You have %d seconds to "
	       "decide)\n(N/y): ", COMMIT_WAIT_S);
	fflush(stdout);
	if (poll(&p, 1, COMMIT_WAIT_S * 1000) <= 0) {
		printf("\n");
		return false;
	}
	if (!fgets(buf, sizeof(buf), stdin))
		return false;
	return buf[0] == 'y' || buf[0] == 'Y';
}

static int run_change(const mgr_cmd_t *c)
{
	dbd_acct_resp_msg_t *r = NULL;
	int rc;

	if (dbd_rpc(c, opts.immediate ? DBD_ACCT_COMMIT : 0, &r))
		return 1;
	if (r->rc != 0) {
		rc = report_failure(c, r);
		resp_free(r);
		return rc;
	}
	print_changes(c, r);
	rc = xstrarray_len(r->cells) ? 0 : 1;
	resp_free(r);
	if (rc || opts.immediate)
		return rc;
	if (!commit_check()) {
		printf(" Changes Discarded\n");
		return 0;
	}
	if (dbd_rpc(c, DBD_ACCT_COMMIT, &r))
		return 1;
	rc = r->rc ? report_failure(c, r) : 0;
	resp_free(r);
	return rc;
}

static int run_show(const mgr_cmd_t *c)
{
	mgr_show_t s = { .entity = c->entity, .with_assoc = c->with_assoc,
			 .tree = c->tree, .format = c->format };
	dbd_acct_resp_msg_t *r = NULL;
	mgr_cmd_t q = *c;
	int rc;

	if (dbd_rpc(&q, c->with_assoc ? DBD_ACCT_WITH_ASSOC : 0, &r))
		return 1;
	if (r->rc != 0)
		rc = report_failure(c, r);
	else
		rc = cli_sacctmgr_show(&opts, &s, r);
	resp_free(r);
	return rc;
}

/* ---- main ---- */

static void usage(FILE *out)
{
	fprintf(out,
"sacctmgr [<OPTION>] [<COMMAND>]\n"
"    Valid <OPTION> values are:\n"
"     -h or --help: equivalent to \"help\" command\n"
"     -i or --immediate: commit changes immediately\n"
"     -n or --noheader: no header will be added to the beginning of output\n"
"     -p or --parsable: output will be '|' delimited with a '|' at the end\n"
"     -P or --parsable2: output will be '|' delimited without a '|' at the end\n"
"     -Q or --quiet: equivalent to \"quiet\" command\n"
"     -s or --associations: equivalent to \"associations\" command\n"
"     -v or --verbose: equivalent to \"verbose\" command\n"
"     -V or --version: equivalent to \"version\" command\n"
"\n"
"    <COMMAND> may be omitted only for -h/-V.  Valid <COMMAND> values are:\n"
"     add|create <ENTITY> <SPECS>      add an entity\n"
"     delete|remove <ENTITY> where <SPECS>  delete the specified entities\n"
"     list|show <ENTITY> [<SPECS>]     display information about entities\n"
"     modify|update <ENTITY> where <SPECS> set <SPECS>  modify entities\n"
"\n"
"    <ENTITY> may be \"account\", \"association\", \"cluster\", \"qos\" or "
"\"user\".\n");
}

static int parse_opts(int argc, char **argv, mgr_cmd_t *c)
{
	static const struct option lopts[] = {
		{ "associations", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "immediate", no_argument, NULL, 'i' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "parsable", no_argument, NULL, 'p' },
		{ "parsable2", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'Q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	while ((ch = getopt_long(argc, argv, "+hinpPQsvV", lopts, NULL)) != -1) {
		switch (ch) {
		case 'h': usage(stdout); exit(0);
		case 'i': opts.immediate = true; break;
		case 'n': opts.noheader = true; break;
		case 'p': opts.parsable = true; break;
		case 'P': opts.parsable2 = true; break;
		case 'Q': opts.quiet = true; break;
		case 's': c->with_assoc = true; break;
		case 'v': opts.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		default:
			fprintf(stderr, "Try \"sacctmgr --help\" for more "
				"information\n");
			exit(1);
		}
	}
	return optind;
}

int main(int argc, char **argv)
{
	mgr_cmd_t c = { 0 };
	int first = parse_opts(argc, argv, &c);
	int rc;

	if (first >= argc) {
		usage(stderr);
		return 1;
	}
	rc = parse_command(&c, argc - first, argv + first);
	if (rc == 0) {
		cli_init("sacctmgr", opts.verbose);
		rc = c.op == DBD_OP_LIST ? run_show(&c) : run_change(&c);
	}
	xstrarray_free(c.names);
	xstrarray_free(c.where);
	xstrarray_free(c.set);
	xfree(c.format);
	return rc;
}
