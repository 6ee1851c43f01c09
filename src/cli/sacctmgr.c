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
#include "cli/cli_output.h"
#include "cli/cli_ping.h"
#include "cli/cli_sacctmgr.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define COMMIT_WAIT_S 30

static mgr_opts_t opts;

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

/* The dbd refused: Slurm's wording for the code, or the dbd's message. */
static void report_failure(const mgr_cmd_t *c, const dbd_acct_resp_msg_t *r)
{
	if (r->rc == ESLURM_ACCESS_DENIED && c->op == DBD_OP_ADD &&
	    c->entity == DBD_ENT_RESOURCE) {
		fprintf(stderr, " Problem adding system resource: %s\n",
			slurm_strerror(r->rc));
	} else if (r->rc == ESLURM_ACCESS_DENIED && c->op == DBD_OP_ADD) {
		fprintf(stderr, " Problem adding %s: %s\n",
			cli_sacctmgr_plural(c->entity), slurm_strerror(r->rc));
	} else if (r->rc == ESLURM_ACCESS_DENIED && c->op == DBD_OP_LIST) {
		/* show reservation under slurmdbd's PrivateData */
		error("%s", slurm_strerror(r->rc));
		fprintf(stderr, " Problem with query.\n");
	} else if (r->rc == ESLURM_ACCESS_DENIED) {
		error("Your user doesn't have privilege to perform this "
		      "action");
		fprintf(stderr, " Error with request: %s\n",
			slurm_strerror(r->rc));
	} else if (r->msg && r->msg[0]) {
		fprintf(stderr, "%s\n", r->msg);
	} else {
		fprintf(stderr, " Error with request: %s\n",
			slurm_strerror(r->rc));
	}
}

/* ---- changes ---- */

/* Ask before committing; true to commit.  No answer within the time, or
 * the end of the input, discards. */
static bool commit_check(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char buf[64] = "";
	bool yes = false;

	printf("Would you like to commit changes? (You have %d seconds to "
	       "decide)\n(N/y): ", COMMIT_WAIT_S);
	fflush(stdout);
	if (poll(&p, 1, COMMIT_WAIT_S * 1000) > 0 &&
	    fgets(buf, sizeof(buf), stdin))
		yes = buf[0] == 'y' || buf[0] == 'Y';
	printf("\n");
	return yes;
}

/* One request; prints what it did (or would do) and any refusal.  The
 * exit code so far in *rc; returns true if there is something to commit. */
static bool send_change(const mgr_cmd_t *c, uint16_t flags, int *rc)
{
	dbd_acct_resp_msg_t *r = NULL;
	bool did = false;

	if (dbd_rpc(c, flags, &r)) {
		*rc = 1;
		return false;
	}
	if (r->rc == 0 || r->cells)
		did = cli_sacctmgr_print_changes(c, r);
	fflush(stdout);
	if (r->rc != 0)
		report_failure(c, r);
	*rc = r->rc != 0 || !did;
	did = did && (r->rc == 0 || r->rc == SLURM_ERROR);
	resp_free(r);
	return did;
}

/* The answer was yes: send it again to be committed (the changes were
 * shown already). */
static int commit_change(const mgr_cmd_t *c)
{
	dbd_acct_resp_msg_t *r = NULL;
	int rc;

	if (dbd_rpc(c, DBD_ACCT_COMMIT, &r))
		return 1;
	rc = r->rc != 0 && r->rc != SLURM_ERROR;
	if (rc)
		report_failure(c, r);
	resp_free(r);
	return rc;
}

static int run_change(const mgr_cmd_t *c)
{
	int rc;

	if (opts.immediate) {
		send_change(c, DBD_ACCT_COMMIT, &rc);
		return rc;
	}
	if (!send_change(c, 0, &rc))
		return rc;
	if (!commit_check()) {
		printf(" Changes Discarded\n");
		return rc;
	}
	return commit_change(c) || rc;
}

/* JSON: each record's associations (withassoc, assoc_short) or each
 * account's coordinators, from a second list; 0, or -1 after printing
 * why it failed. */
static int add_more(json_object *list, uint16_t entity, uint16_t more)
{
	mgr_cmd_t a = { .op = DBD_OP_LIST, .entity = more };
	dbd_acct_resp_msg_t *ar = NULL;

	if (dbd_rpc(&a, 0, &ar))
		return -1;
	if (ar->rc) {
		report_failure(&a, ar);
		resp_free(ar);
		return -1;
	}
	if (more == DBD_ENT_ASSOC)
		cli_sacctmgr_json_assocs(list, entity, ar);
	else
		cli_sacctmgr_json_coords(list, ar);
	resp_free(ar);
	return 0;
}

/* show --json / --yaml: Slurm 25.05's document (the one slurmrestd's
 * /slurmdb/ GET of the entity answers). */
static int show_json(const mgr_cmd_t *c, const dbd_acct_resp_msg_t *r)
{
	const char *key = NULL;
	json_object *list = cli_sacctmgr_json(c->entity, r, &key), *doc;

	if (!list) {
		fprintf(stderr, " JSON output is not available for %s\n",
			cli_sacctmgr_plural(c->entity));
		return 1;
	}
	if ((c->with_assoc && (c->entity == DBD_ENT_USER ||
			       c->entity == DBD_ENT_ACCOUNT) &&
	     add_more(list, c->entity, DBD_ENT_ASSOC) < 0) ||
	    (c->entity == DBD_ENT_ACCOUNT &&
	     add_more(list, c->entity, DBD_ENT_COORD) < 0)) {
		json_object_put(list);
		return 1;
	}
	doc = cli_output_doc(key, list, 0);
	json_object_object_del(doc, "last_update");
	cli_output_doc_print(stdout, doc, opts.json == 2);
	return 0;
}

static int run_show(const mgr_cmd_t *c)
{
	mgr_show_t s = { .entity = c->entity, .with_assoc = c->with_assoc,
			 .with_coord = c->with_coord, .tree = c->tree,
			 .format = c->format };
	dbd_acct_resp_msg_t *r = NULL;
	int rc = 1;

	/* JSON: the records themselves (withassoc adds their associations
	 * to each, show_json), an association's own limits */
	if (dbd_rpc(c, (c->with_assoc && !opts.json ? DBD_ACCT_WITH_ASSOC : 0) |
		    (opts.json ? 0 : DBD_ACCT_PARENT_LIMITS), &r))
		return 1;
	if (r->rc != 0)
		report_failure(c, r);
	else if (opts.json)
		rc = show_json(c, r);
	else
		rc = cli_sacctmgr_show(&opts, &s, r);
	resp_free(r);
	return rc;
}

/* ---- ping and shutdown ---- */

static const char *dbd_host(void)
{
	const slurm_conf_t *conf = cli_conf();

	return conf->accounting_storage_host ?
	       conf->accounting_storage_host : "localhost";
}

/* "slurmdbd(primary) at HOST is UP|DOWN", as Slurm; 1 if it is down. */
static int dbd_ping(void)
{
	if (opts.json) {
		json_object *pings = json_object_new_array(), *doc;
		bool up;

		json_object_array_add(pings, cli_ping_dbd(&up));
		doc = cli_output_doc("pings", pings, 0);
		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, opts.json == 2);
		return !up;
	}

	const slurm_conf_t *conf = cli_conf();
	slurm_msg_t resp = { 0 };
	int rc = net_rpc(dbd_host(), conf->accounting_storage_port,
			 REQUEST_PING, NULL, &resp,
			 conf->message_timeout * 1000);

	if (rc == 0)
		rc = cli_resp_rc(&resp);
	msg_free(&resp);
	printf("slurmdbd(primary) at %s is %s\n", dbd_host(),
	       rc == 0 ? "UP" : "DOWN");
	return rc != 0;
}

static int dbd_shutdown(void)
{
	const slurm_conf_t *conf = cli_conf();
	shutdown_msg_t req = { 0 };
	slurm_msg_t resp = { 0 };
	int rc = net_rpc(dbd_host(), conf->accounting_storage_port,
			 REQUEST_SHUTDOWN, &req, &resp,
			 conf->message_timeout * 1000);

	if (rc == 0)
		rc = cli_resp_rc(&resp);
	msg_free(&resp);
	if (rc != 0) {
		fprintf(stderr, " Problem shutting down server: %s\n",
			slurm_strerror(rc));
		return 1;
	}
	return 0;
}

/* ---- main ---- */

/* Commands that print a document with --json / --yaml. */
static bool json_command(const char *word)
{
	return !strcasecmp(word, "show") || !strcasecmp(word, "list") ||
	       !strcasecmp(word, "ping");
}

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
"     --json, --yaml: show and ping print Slurm 25.05's JSON / YAML\n"
"\n"
"    <COMMAND> may be omitted only for -h/-V.  Valid <COMMAND> values are:\n"
"     add|create <ENTITY> <SPECS>      add an entity\n"
"     delete|remove <ENTITY> where <SPECS>  delete the specified entities\n"
"     list|show <ENTITY> [<SPECS>]     display information about entities\n"
"     list|show stats [ave_time|total_time]  slurmdbd's RPC statistics\n"
"     clear stats                      start those statistics again\n"
"     modify|update <ENTITY> where <SPECS> set <SPECS>  modify entities\n"
"     dump <CLUSTER> [File=<FILENAME>]  dump the cluster's associations\n"
"     load <FILE> [clean] [Cluster=<NAME>]  load associations from a file\n"
"     archive dump [Directory=<DIR>] [Events] [Jobs] [Steps] [Suspend]\n"
"             [PurgeEventAfter=] [PurgeJobAfter=] [PurgeStepAfter=]\n"
"             [PurgeSuspendAfter=]  archive and purge now (admins)\n"
"     archive load [File=]<FILE>       load an archive file on slurmdbd's\n"
"                                      host back (admins)\n"
"     ping                             report the state of slurmdbd\n"
"     shutdown                         shut down slurmdbd (root, SlurmUser)\n"
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
		{ "json", no_argument, NULL, 'J' },
		{ "yaml", no_argument, NULL, 'Y' },
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
		case 'J': opts.json = 1; break;
		case 'Y': opts.json = 2; break;
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
	if (opts.json && !json_command(argv[first])) {
		fprintf(stderr, " --json and --yaml apply to show, list and "
			"ping only\n");
		return 1;
	}
	if (!strcasecmp(argv[first], "dump") ||
	    !strcasecmp(argv[first], "load")) {
		cli_init("sacctmgr", opts.verbose);
		return !strcasecmp(argv[first], "dump") ?
			cli_sacctmgr_dump(argc - first - 1, argv + first + 1) :
			cli_sacctmgr_load(&opts, argc - first - 1,
					  argv + first + 1);
	}
	if (!strcasecmp(argv[first], "ping") ||
	    !strcasecmp(argv[first], "shutdown")) {
		if (first + 1 < argc) {
			fprintf(stderr, " Too many arguments for %s\n",
				argv[first]);
			return 1;
		}
		cli_init("sacctmgr", opts.verbose);
		return !strcasecmp(argv[first], "ping") ? dbd_ping() :
			dbd_shutdown();
	}
	if (cli_sacctmgr_is_config(argc - first, argv + first) &&
	    !opts.json) {
		cli_init("sacctmgr", opts.verbose);
		return cli_sacctmgr_config(argc - first, argv + first);
	}
	if (cli_sacctmgr_is_runaway(argc - first, argv + first)) {
		if (opts.json) {
			fprintf(stderr, " --json and --yaml are not available "
				"for runawayjobs\n");
			return 1;
		}
		cli_init("sacctmgr", opts.verbose);
		return cli_sacctmgr_runaway(&opts, argc - first,
					    argv + first);
	}
	if (cli_sacctmgr_is_archive(argv[first])) {
		cli_init("sacctmgr", opts.verbose);
		return cli_sacctmgr_archive(argc - first, argv + first);
	}
	if (cli_sacctmgr_is_stats(argc - first, argv + first)) {
		cli_init("sacctmgr", opts.verbose);
		return cli_sacctmgr_stats(argc - first, argv + first);
	}
	if (cli_sacctmgr_is_rollup(argv[first])) {
		cli_init("sacctmgr", opts.verbose);
		return cli_sacctmgr_rollup(argc - first, argv + first,
					   opts.immediate);
	}
	rc = cli_sacctmgr_parse(&c, argc - first, argv + first);
	if (rc == 0) {
		cli_init("sacctmgr", opts.verbose);
		rc = c.op == DBD_OP_LIST ? run_show(&c) : run_change(&c);
	}
	cli_sacctmgr_cmd_free(&c);
	return rc;
}
