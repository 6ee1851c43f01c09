/* sdiag — the controller's scheduling and RPC statistics, in Slurm's
 * layout (REQUEST_STATS_INFO); -r resets them (operators). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_diag.h"
#include "cli/cli_opt.h"
#include "cli/cli_output.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

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

/* "Mon Nov 23 12:40:00 2026 (1795437600)" */
static void _when(const char *label, time_t t)
{
	char buf[64];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a %b %d %H:%M:%S %Y", &tm);
	printf("%s%s (%ld)\n", label, buf, (long) t);
}

static uint64_t _ave(const stats_rpc_row_t *r)
{
	return r->count ? r->total_usec / r->count : 0;
}

static int _cmp(const void *pa, const void *pb)
{
	const stats_rpc_row_t *a = pa, *b = pb;
	uint64_t x, y;

	switch (opt.sort) {
	case SORT_ID:
		return a->id < b->id ? -1 : a->id > b->id;
	case SORT_TIME:
		x = a->total_usec; y = b->total_usec;
		break;
	case SORT_TIME2:
		x = _ave(a); y = _ave(b);
		break;
	default:
		x = a->count; y = b->count;
		break;
	}
	if (x != y)
		return x > y ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static unsigned _latency(void)
{
	struct timeval a, b, t;

	gettimeofday(&a, NULL);
	for (int i = 0; i < 1000; i++)
		gettimeofday(&t, NULL);
	gettimeofday(&b, NULL);
	return (unsigned) ((b.tv_sec - a.tv_sec) * 1000000 +
			   (b.tv_usec - a.tv_usec));
}

static void _main_sched(const stats_info_response_msg_t *s)
{
	uint32_t n = s->schedule_cycle_counter;
	double mins = (double) (s->req_time - s->req_time_start) / 60;

	printf("Main schedule statistics (microseconds):\n");
	printf("\tLast cycle:   %u\n", s->schedule_cycle_last);
	printf("\tMax cycle:    %u\n", s->schedule_cycle_max);
	printf("\tTotal cycles: %u\n", n);
	if (n) {
		printf("\tMean cycle:   %" PRIu64 "\n", s->schedule_cycle_sum / n);
		printf("\tMean depth cycle:  %" PRIu64 "\n",
		       s->schedule_cycle_depth / n);
	}
	if (mins >= 1)
		printf("\tCycles per minute: %u\n", (unsigned) (n / mins));
	printf("\tLast queue length: %u\n", s->schedule_queue_len);
	printf("\n");
}

static void _backfill(const stats_info_response_msg_t *s)
{
	uint32_t n = s->bf_cycle_counter;

	printf("Backfilling stats%s\n", s->bf_active ?
	       " (WARNING: data obtained in the middle of backfilling "
	       "execution.)" : "");
	printf("\tTotal backfilled jobs (since last slurm start): %u\n",
	       s->bf_backfilled_jobs);
	printf("\tTotal backfilled jobs (since last stats cycle start): %u\n",
	       s->bf_last_backfilled_jobs);
	printf("\tTotal backfilled heterogeneous job components: 0\n");
	printf("\tTotal cycles: %u\n", n);
	if (s->bf_when_last_cycle)
		_when("\tLast cycle when: ", s->bf_when_last_cycle);
	else
		printf("\tLast cycle when: N/A\n");
	printf("\tLast cycle: %u\n", s->bf_cycle_last);
	printf("\tMax cycle:  %u\n", s->bf_cycle_max);
	if (n)
		printf("\tMean cycle: %" PRIu64 "\n", s->bf_cycle_sum / n);
	printf("\tLast depth cycle: %u\n", s->bf_last_depth);
	printf("\tLast depth cycle (try sched): %u\n", s->bf_last_depth_try);
	if (n) {
		printf("\tDepth Mean: %" PRIu64 "\n", s->bf_depth_sum / n);
		printf("\tDepth Mean (try depth): %" PRIu64 "\n",
		       s->bf_depth_try_sum / n);
	}
	printf("\tLast queue length: %u\n", s->bf_queue_len);
	if (n)
		printf("\tQueue length mean: %" PRIu64 "\n",
		       s->bf_queue_len_sum / n);
	printf("\tLast table size: %u\n", s->bf_table_size);
	if (n)
		printf("\tMean table size: %" PRIu64 "\n",
		       s->bf_table_size_sum / n);
	printf("\n");
}

static void _rpcs(const stats_info_response_msg_t *s)
{
	qsort(s->rpc_types, s->rpc_type_cnt, sizeof(stats_rpc_row_t), _cmp);
	qsort(s->rpc_users, s->rpc_user_cnt, sizeof(stats_rpc_row_t), _cmp);
	printf("Remote Procedure Call statistics by message type\n");
	for (uint32_t i = 0; i < s->rpc_type_cnt; i++) {
		const stats_rpc_row_t *r = &s->rpc_types[i];

		printf("\t%-40s(%5u) count:%-6u ave_time:%-6" PRIu64
		       " total_time:%" PRIu64 "\n", r->name ? r->name : "",
		       r->id, r->count, _ave(r), r->total_usec);
	}
	printf("\nRemote Procedure Call statistics by user\n");
	for (uint32_t i = 0; i < s->rpc_user_cnt; i++) {
		const stats_rpc_row_t *r = &s->rpc_users[i];

		printf("\t%-16s(%8u) count:%-6u ave_time:%-6" PRIu64
		       " total_time:%" PRIu64 "\n", r->name ? r->name : "",
		       r->id, r->count, _ave(r), r->total_usec);
	}
	printf("\nPending RPC statistics\n\tNo pending RPCs\n");
}

static void _print(const stats_info_response_msg_t *s)
{
	printf("*******************************************************\n");
	_when("sdiag output at ", s->req_time);
	_when("Data since      ", s->req_time_start);
	printf("*******************************************************\n");
	printf("Server thread count:  %u\n", s->server_thread_count);
	printf("Agent queue size:     %u\n", s->agent_queue_size);
	printf("Agent count:          %u\n", s->agent_count);
	printf("Agent thread count:   %u\n", s->agent_thread_count);
	printf("DBD Agent queue size: %u\n", s->dbd_agent_queue_size);
	if (s->dbd_set_aside)
		printf("DBD records set aside: %u (sacctmgr show problem)\n",
		       s->dbd_set_aside);
	printf("\n");
	printf("Jobs submitted: %u\n", s->jobs_submitted);
	printf("Jobs started:   %u\n", s->jobs_started);
	printf("Jobs completed: %u\n", s->jobs_completed);
	printf("Jobs canceled:  %u\n", s->jobs_canceled);
	printf("Jobs failed:    %u\n\n", s->jobs_failed);
	_when("Job states ts:  ", s->job_states_ts);
	printf("Jobs pending:   %u\n", s->jobs_pending);
	printf("Jobs running:   %u\n\n", s->jobs_running);
	_main_sched(s);
	if (s->backfill)
		_backfill(s);
	printf("Latency for 1000 calls to gettimeofday(): %u microseconds\n\n",
	       _latency());
	_rpcs(s);
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
	if (opt.json || opt.yaml) {
		json_object *doc = cli_output_doc("statistics",
						  cli_diag_json(resp.data), 0);

		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, opt.yaml);
	} else {
		_print(resp.data);
	}
	msg_free(&resp);
	return 0;
}
