/* sdiag — the controller's scheduling and RPC statistics, in Slurm's
 * layout (REQUEST_STATS_INFO); -r resets them (operators).  The text and
 * --json/--yaml both walk cli_diag_fields (cli_diag.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_diag.h"
#include "cli/cli_opt.h"
#include "cli/cli_output.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* cli_diag_sort()'s orders */
enum { SORT_COUNT, SORT_ID, SORT_TIME, SORT_TIME2 };

static struct {
	bool reset;
	int  sort;
	bool json, yaml;
	char *clusters;   /* -M: checked, one cluster */
} opt;

static const char usage_text[] =
"Usage: sdiag [-M cluster] [-aritT]\n";

static const char help_text[] =
"Usage: sdiag [OPTIONS]\n"
"  -a, --all           all statistics\n"
"  -M, --cluster       direct the request to a specific cluster\n"
"  -r, --reset         reset statistics\n"
"  -i, --sort-by-id    sort RPCs by id\n"
"  -t, --sort-by-time  sort RPCs by total run time\n"
"  -T, --sort-by-time2 sort RPCs by average run time\n"
"  -V, --version       display current version number\n"
"      --json          print the statistics as JSON\n"
"      --yaml          print the statistics as YAML\n"
"\nHelp options:\n"
"  --help              show this help message\n"
"  --usage             display brief usage message\n";

enum { OPT_HELP = 0x100, OPT_USAGE, OPT_JSON, OPT_YAML };

static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "cluster", required_argument, NULL, 'M' },
	{ "clusters", required_argument, NULL, 'M' },
	{ "reset", no_argument, NULL, 'r' },
	{ "sort-by-id", no_argument, NULL, 'i' },
	{ "sort-by-time", no_argument, NULL, 't' },
	{ "sort-by-time2", no_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "json", optional_argument, NULL, OPT_JSON },
	{ "yaml", optional_argument, NULL, OPT_YAML },
	{ NULL, 0, NULL, 0 }
};

static void _parse(int argc, char **argv)
{
	int c;

	while ((c = getopt_long(argc, argv, "aM:ritTVh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'a': break;
		case 'M':
			xfree(opt.clusters);
			opt.clusters = xstrdup(optarg);
			break;
		case 'r': opt.reset = true; break;
		case 'i': opt.sort = SORT_ID; break;
		case 't': opt.sort = SORT_TIME; break;
		case 'T': opt.sort = SORT_TIME2; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case 'h': case OPT_HELP: fputs(help_text, stdout); exit(0);
		case OPT_USAGE: fputs(usage_text, stdout); exit(0);
		case OPT_JSON: opt.json = true; break;
		case OPT_YAML: opt.yaml = true; break;
		default:
			fprintf(stderr, "Try \"sdiag --help\" for more information\n");
			exit(1);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "sdiag: error: Unknown argument: %s\n", argv[optind]);
		fprintf(stderr, "Try \"sdiag --help\" for more information\n");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	stats_info_request_msg_t req = { 0 };
	slurm_msg_t resp = { 0 };
	int rc;

	_parse(argc, argv);
	cli_init("sdiag", 0);
	if (cli_check_clusters(opt.clusters, cli_conf()->cluster_name) < 0)
		exit(1);
	req.command_id = opt.reset ? 1 : 0;
	rc = cli_ctld_rpc(REQUEST_STATS_INFO, &req, &resp);
	if (rc) {
		fprintf(stderr, "slurm_get_statistics: %s\n",
			cli_comm_strerror(rc));
		return 1;
	}
	rc = cli_resp_rc(&resp);
	if (opt.reset) {
		msg_free(&resp);
		if (rc) {
			fprintf(stderr, "slurm_reset_statistics: %s\n",
				slurm_strerror(rc));
			return 1;
		}
		printf("Reset scheduling statistics\n");
		return 0;
	}
	if (rc || resp.type != RESPONSE_STATS_INFO || !resp.data) {
		fprintf(stderr, "slurm_get_statistics: %s\n",
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return 1;
	}
	cli_diag_sort(resp.data, opt.sort);
	if (opt.json || opt.yaml) {
		json_object *doc = cli_output_doc("statistics",
						  cli_diag_json(resp.data), 0);

		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, opt.yaml);
	} else {
		cli_diag_rec_t rec = { resp.data, cli_diag_latency() };

		cli_fields_report(stdout, cli_diag_fields, &rec, NULL);
	}
	msg_free(&resp);
	return 0;
}
