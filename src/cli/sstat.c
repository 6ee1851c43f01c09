/* sstat — usage of running job steps.
 *
 * For each -j JOB[.STEP]: the controller names the step's nodes
 * (REQUEST_JOB_STEP_INFO); each node's slurmd asks the step's slurmstepd
 * (REQUEST_JOB_STEP_STAT), which reads its tasks' processes now
 * (jobacct_gather/linux); the nodes' answers are merged into one row:
 * Max* the largest task (with its node and task id), Ave* the tasks'
 * current mean, MinCPU the task with the least CPU time.  Without a step,
 * the lowest numbered running step (every running one with -a).  The
 * batch step is not reported.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_table.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define STAT_TIMEOUT_MS 10000

/* One step's usage over its nodes. */
typedef struct {
	uint32_t  job_id;
	uint32_t  step_id;
	uint32_t  ntasks;
	uint64_t  max_rss;
	char     *max_rss_node;
	uint32_t  max_rss_task;
	uint64_t  tot_rss;
	uint64_t  max_vm;
	char     *max_vm_node;
	uint32_t  max_vm_task;
	uint64_t  tot_vm;
	uint64_t  min_cpu;        /* usec */
	char     *min_cpu_node;
	uint32_t  min_cpu_task;
	uint64_t  tot_cpu;
	uint64_t  energy;         /* joules, summed over the nodes */
	const char *nodes;        /* the step's nodes */
	bool      any;
} stat_row_t;

/* A getter: cli_field_t's text over a stat_row_t r (cli_table.h). */
#define GET(fn)                                                         \
	static void fn##_(char **o, const stat_row_t *r);               \
	static void fn(char **o, const void *rec, const cli_ctx_t *ctx) \
	{                                                               \
		fn##_(o, rec);                                          \
	}                                                               \
	static void fn##_(char **o, const stat_row_t *r)
/* A row: name, default width (< 0 left-justified), getter. */
#define F(nm, w, get) { .name = (nm), .width = (w), .text = (get) }

static void kb(char **out, uint64_t v)
{
	if (v)
		xstrfmtcat(out, "%" PRIu64 "K", v);
	else
		xstrcat(out, "0");
}

/* CPU seconds as Slurm's sstat: [D-]HH:MM:SS. */
static void cpu(char **out, uint64_t usec)
{
	uint64_t s = usec / 1000000;

	if (s >= 86400)
		xstrfmtcat(out, "%" PRIu64 "-%02" PRIu64 ":%02" PRIu64
			   ":%02" PRIu64, s / 86400, s % 86400 / 3600,
			   s % 3600 / 60, s % 60);
	else
		xstrfmtcat(out, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64,
			   s / 3600, s % 3600 / 60, s % 60);
}

static uint64_t ave(uint64_t tot, uint32_t n)
{
	return n ? tot / n : 0;
}

GET(g_jobid)
{
	xstrfmtcat(o, "%u.%u", r->job_id, r->step_id);
}
GET(g_maxvm) { kb(o, r->max_vm); }
GET(g_maxvmnode)
{
	xstrcat(o, r->max_vm_node ? r->max_vm_node : "");
}
GET(g_maxvmtask)
{
	xstrfmtcat(o, "%u", r->max_vm_task);
}
GET(g_avevm)
{
	kb(o, ave(r->tot_vm, r->ntasks));
}
GET(g_maxrss) { kb(o, r->max_rss); }
GET(g_rssnode)
{
	xstrcat(o, r->max_rss_node ? r->max_rss_node : "");
}
GET(g_rsstask)
{
	xstrfmtcat(o, "%u", r->max_rss_task);
}
GET(g_averss)
{
	kb(o, ave(r->tot_rss, r->ntasks));
}
GET(g_zero) { xstrcat(o, "0"); }
GET(g_unknown)
{
	xstrcat(o, "Unknown");
}
GET(g_mincpu) { cpu(o, r->min_cpu); }
GET(g_mincpunode)
{
	xstrcat(o, r->min_cpu_node ? r->min_cpu_node : "");
}
GET(g_mincputask)
{
	xstrfmtcat(o, "%u", r->min_cpu_task);
}
GET(g_avecpu)
{
	cpu(o, ave(r->tot_cpu, r->ntasks));
}
GET(g_ntasks)
{
	xstrfmtcat(o, "%u", r->ntasks);
}

/* TRES usage: cpu, energy, fs/disk, mem, pages, vmem as Slurm lists. */
static void tres_in(char **o, uint64_t c, uint64_t en, uint64_t mem,
		    uint64_t vm)
{
	cpu(o, c);
	xstrfmtcat(o, ",energy=%" PRIu64 ",fs/disk=0,mem=", en);
	kb(o, mem);
	xstrcat(o, ",pages=0,vmem=");
	kb(o, vm);
}
GET(g_in_ave)
{
	xstrcat(o, "cpu=");
	tres_in(o, ave(r->tot_cpu, r->ntasks), 0, ave(r->tot_rss, r->ntasks),
		ave(r->tot_vm, r->ntasks));
}
GET(g_in_max)
{
	xstrcat(o, "cpu=");
	tres_in(o, r->tot_cpu, 0, r->max_rss, r->max_vm);
}
GET(g_in_min)
{
	xstrcat(o, "cpu=");
	tres_in(o, r->min_cpu, 0, r->max_rss, r->max_vm);
}
GET(g_in_tot)
{
	xstrcat(o, "cpu=");
	tres_in(o, r->tot_cpu, r->energy, r->tot_rss, r->tot_vm);
}
GET(g_in_node)
{
	const char *n = r->max_rss_node ? r->max_rss_node : "";

	xstrfmtcat(o, "cpu=%s,energy=%s,fs/disk=%s,mem=%s,pages=%s,vmem=%s",
		   r->min_cpu_node ? r->min_cpu_node : "", n, n, n, n,
		   r->max_vm_node ? r->max_vm_node : "");
}
GET(g_in_task)
{
	xstrcat(o, "cpu=");
	cpu(o, (uint64_t) r->min_cpu_task * 1000000);
	xstrfmtcat(o, ",fs/disk=0,mem=%u,pages=0,vmem=%u", r->max_rss_task,
		   r->max_vm_task);
}
GET(g_energy)
{
	char buf[32];

	fmt_energy(r->energy, buf, sizeof(buf));
	xstrcat(o, buf);
}
GET(g_energy_raw)
{
	xstrfmtcat(o, "%" PRIu64, r->energy);
}
GET(g_nodelist)
{
	xstrcat(o, r->nodes ? r->nodes : "");
}
GET(g_out)
{
	xstrcat(o, "energy=0,fs/disk=0");
}
GET(g_out_node)
{
	const char *n = r->max_rss_node ? r->max_rss_node : "";

	xstrfmtcat(o, "energy=%s,fs/disk=%s", n, n);
}
GET(g_out_task)
{
	xstrcat(o, "fs/disk=0");
}

/* In Slurm's order (sstat -e, and which row a prefix names); Slurm's
 * Pids is not offered (slurmd's answer does not carry them). */
static const cli_field_t fields[] = {
	F("AveCPU", 10, g_avecpu),
	F("AveCPUFreq", 10, g_zero),
	F("AveDiskRead", 12, g_zero),
	F("AveDiskWrite", 12, g_zero),
	F("AvePages", 10, g_zero),
	F("AveRSS", 10, g_averss),
	F("AveVMSize", 10, g_avevm),
	F("ConsumedEnergy", 14, g_energy),
	F("ConsumedEnergyRaw", 17, g_energy_raw),
	F("JobID", -12, g_jobid),
	F("MaxDiskRead", 12, g_zero),
	F("MaxDiskReadNode", 15, g_rssnode),
	F("MaxDiskReadTask", 15, g_rsstask),
	F("MaxDiskWrite", 12, g_zero),
	F("MaxDiskWriteNode", 16, g_rssnode),
	F("MaxDiskWriteTask", 16, g_rsstask),
	F("MaxPages", 8, g_zero),
	F("MaxPagesNode", 12, g_rssnode),
	F("MaxPagesTask", 14, g_rsstask),
	F("MaxRSS", 10, g_maxrss),
	F("MaxRSSNode", 10, g_rssnode),
	F("MaxRSSTask", 10, g_rsstask),
	F("MaxVMSize", 10, g_maxvm),
	F("MaxVMSizeNode", 14, g_maxvmnode),
	F("MaxVMSizeTask", 14, g_maxvmtask),
	F("MinCPU", 10, g_mincpu),
	F("MinCPUNode", 10, g_mincpunode),
	F("MinCPUTask", 10, g_mincputask),
	F("Nodelist", 20, g_nodelist),
	F("NTasks", 8, g_ntasks),
	F("ReqCPUFreq", 10, g_unknown),
	F("ReqCPUFreqMin", 13, g_unknown),
	F("ReqCPUFreqMax", 13, g_unknown),
	F("ReqCPUFreqGov", 13, g_unknown),
	F("TRESUsageInAve", 14, g_in_ave),
	F("TRESUsageInMax", 14, g_in_max),
	F("TRESUsageInMaxNode", 18, g_in_node),
	F("TRESUsageInMaxTask", 18, g_in_task),
	F("TRESUsageInMin", 14, g_in_min),
	F("TRESUsageInMinNode", 18, g_in_node),
	F("TRESUsageInMinTask", 18, g_in_task),
	F("TRESUsageInTot", 14, g_in_tot),
	F("TRESUsageOutAve", 15, g_out),
	F("TRESUsageOutMax", 15, g_out),
	F("TRESUsageOutMaxNode", 19, g_out_node),
	F("TRESUsageOutMaxTask", 19, g_out_task),
	F("TRESUsageOutMin", 15, g_out),
	F("TRESUsageOutMinNode", 19, g_out_node),
	F("TRESUsageOutMinTask", 19, g_out_task),
	F("TRESUsageOutTot", 15, g_out),
	F(NULL, 0, NULL)
};

static struct {
	cli_table_t     table;     /* the columns (-o) */
	cli_table_opt_t out;       /* -n, -p/-P */
	bool            all_steps;
	char          **jobs;      /* "123" or "123.4" */
} opt;

/* "JobID,MaxRSS%20,AveCPU%-12"; -1 with the bad name printed. */
static int parse_format(const char *spec)
{
	char *bad = NULL;

	if (cli_table_parse(&opt.table, CLI_TABLE(fields), NULL, spec,
			    &bad) < 0) {
		error("Invalid field requested: \"%s\"", bad);
		xfree(bad);
		return -1;
	}
	return 0;
}

static void print_row(const stat_row_t *r)
{
	cli_table_row(stdout, &opt.table, &opt.out, r, NULL);
}

static void merge(stat_row_t *r, const step_complete_msg_t *c)
{
	bool first = !r->any;

	if (first || c->max_rss_kb > r->max_rss) {
		r->max_rss = c->max_rss_kb;
		r->max_rss_task = c->max_rss_task;
		xfree(r->max_rss_node);
		r->max_rss_node = xstrdup(c->node_name);
	}
	if (first || c->max_vsize_kb > r->max_vm) {
		r->max_vm = c->max_vsize_kb;
		r->max_vm_task = c->max_vsize_task;
		xfree(r->max_vm_node);
		r->max_vm_node = xstrdup(c->node_name);
	}
	if (first || c->min_cpu_usec < r->min_cpu) {
		r->min_cpu = c->min_cpu_usec;
		r->min_cpu_task = c->min_cpu_task;
		xfree(r->min_cpu_node);
		r->min_cpu_node = xstrdup(c->node_name);
	}
	r->ntasks += c->ntasks;
	r->tot_rss += c->tot_rss_kb;
	r->tot_vm += c->tot_vsize_kb;
	r->tot_cpu += c->user_cpu_usec + c->sys_cpu_usec;
	r->energy += c->consumed_energy;
	r->any = true;
}

/* Ask every node of the step; print its row.  0, or an error code. */
static int stat_step(const job_step_info_t *s)
{
	const slurm_conf_t *conf = cli_conf();
	job_step_info_request_msg_t req = { .job_id = s->job_id,
					    .step_id = s->step_id };
	stat_row_t row = { .job_id = s->job_id, .step_id = s->step_id,
			   .nodes = s->nodes };
	char err[256];
	hostlist_t *hl = hostlist_parse(s->nodes, err, sizeof(err));
	int rc = 0;

	for (size_t i = 0; hl && i < hostlist_count(hl); i++) {
		const char *name = hostlist_nth(hl, i);
		const conf_node_t *n = conf_find_node(conf, name);
		slurm_msg_t resp = { 0 };
		int r;

		if (!n)
			continue;
		r = net_rpc(n->addr ? n->addr : name,
			    n->port ? n->port : conf->slurmd_port,
			    REQUEST_JOB_STEP_STAT, &req, &resp,
			    STAT_TIMEOUT_MS);
		if (!r && resp.type == RESPONSE_JOB_STEP_STAT && resp.data)
			merge(&row, resp.data);
		else if (!r)
			rc = cli_resp_rc(&resp);
		else
			rc = r;
		msg_free(&resp);
	}
	if (hl)
		hostlist_destroy(hl);
	if (row.any)
		print_row(&row);
	else
		error("problem getting step_layout for %u.%u: %s", s->job_id,
		      s->step_id, slurm_strerror(rc ? rc :
						  ESLURM_INVALID_JOB_ID));
	xfree(row.max_rss_node);
	xfree(row.max_vm_node);
	xfree(row.min_cpu_node);
	return row.any ? 0 : rc;
}

static void stat_id(const char *spec)
{
	job_step_info_request_msg_t req = { .step_id = NO_VAL32,
					    .user_id = NO_VAL32 };
	const job_step_info_msg_t *info;
	slurm_msg_t resp = { 0 };
	char *end;
	bool want_step = false, any = false;
	unsigned long v;

	v = strtoul(spec, &end, 10);
	if (end == spec || v == 0 || v > UINT32_MAX ||
	    (*end && *end != '.')) {
		error("Invalid job id: %s", spec);
		return;
	}
	req.job_id = (uint32_t) v;
	if (*end == '.') {
		const char *st = end + 1;

		v = strtoul(st, &end, 10);
		if (end == st || *end || v >= NO_VAL32) {
			error("Invalid job step id: %s", spec);
			return;
		}
		req.step_id = (uint32_t) v;
		want_step = true;
	}
	if (cli_ctld_rpc(REQUEST_JOB_STEP_INFO, &req, &resp) ||
	    resp.type != RESPONSE_JOB_STEP_INFO || !resp.data) {
		error("couldn't get steps for job %u", req.job_id);
		msg_free(&resp);
		return;
	}
	info = resp.data;
	for (uint32_t i = 0; i < info->cnt; i++) {
		const job_step_info_t *s = &info->steps[i];

		if (s->job_id != req.job_id || s->step_id == SLURM_BATCH_SCRIPT)
			continue;
		stat_step(s);
		any = true;
		if (!want_step && !opt.all_steps)
			break;             /* the lowest numbered one */
	}
	if (!any && want_step)
		error("StepId=%u.%u not found running.", req.job_id,
		      req.step_id);
	else if (!any)
		error("couldn't get steps for job %u", req.job_id);
	msg_free(&resp);
}

/* "J+K.S" (a hetjob component's step, as sacct names it) is the
 * component's own id "C.S". */
static void stat_job(const char *spec)
{
	const char *rest;
	uint32_t comp;
	char *id;
	int rc = cli_het_comp(spec, &comp, &rest);

	if (rc > 0) {
		stat_id(spec);
		return;
	}
	if (rc < 0) {
		error("Invalid job id: %s", spec);
		return;
	}
	id = xstrdup_printf("%u%s", comp, rest);
	stat_id(id);
	xfree(id);
}

static void usage(FILE *out)
{
	fprintf(out,
"Usage: sstat [options] -j <job(.stepid)>\n"
"    Valid options are:\n"
"    -a, --allsteps:\n"
"                   Print all steps for the given job(s) when no step is\n"
"                   specified.\n"
"    -e, --helpformat:\n"
"                   Print a list of fields that can be specified with the\n"
"                   '--format' option\n"
"    -h, --help:    Print this description of use.\n"
"    -j, --jobs:\n"
"                   Format is <job(.step)>. Stat this job step\n"
"                   or comma-separated list of job steps. This option is\n"
"                   required.  The step portion will default to the lowest\n"
"                   numbered (not batch, extern, etc) step running if not\n"
"                   specified, unless the --allsteps flag is set where not\n"
"                   setting the step will result in all running steps\n"
"                   to be displayed.\n"
"    -n, --noheader:\n"
"                   No header will be added to the beginning of output.\n"
"                   The default is to print a header.\n"
"    -o, --format:\n"
"                   Comma separated list of fields.\n"
"                   (use \"--helpformat\" for a list of available fields).\n"
"    -p, --parsable: output will be '|' delimited with a '|' at the end\n"
"    -P, --parsable2: output will be '|' delimited without a '|' at the end\n"
"    --usage:       Display brief usage message.\n"
"    -v, --verbose:\n"
"                   Primarily for debugging purposes, report the state of\n"
"                   various variables during processing.\n"
"    -V, --version: Print version.\n");
}

#define DEFAULT_FORMAT \
	"JobID,MaxVMSize,MaxVMSizeNode,MaxVMSizeTask,AveVMSize,MaxRSS," \
	"MaxRSSNode,MaxRSSTask,AveRSS,MaxPages,MaxPagesNode,MaxPagesTask," \
	"AvePages,MinCPU,MinCPUNode,MinCPUTask,AveCPU,NTasks,AveCPUFreq," \
	"ReqCPUFreqMin,ReqCPUFreqMax,ReqCPUFreqGov,ConsumedEnergy," \
	"MaxDiskRead,MaxDiskReadNode,MaxDiskReadTask,AveDiskRead," \
	"MaxDiskWrite,MaxDiskWriteNode,MaxDiskWriteTask,AveDiskWrite," \
	"TRESUsageInAve,TRESUsageInMax,TRESUsageInMaxNode," \
	"TRESUsageInMaxTask,TRESUsageInMin,TRESUsageInMinNode," \
	"TRESUsageInMinTask,TRESUsageInTot,TRESUsageOutAve," \
	"TRESUsageOutMax,TRESUsageOutMaxNode,TRESUsageOutMaxTask," \
	"TRESUsageOutMin,TRESUsageOutMinNode,TRESUsageOutMinTask," \
	"TRESUsageOutTot"

int main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "allsteps", no_argument, NULL, 'a' },
		{ "helpformat", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'o' },
		{ "fields", required_argument, NULL, 'o' },
		{ "parsable", no_argument, NULL, 'p' },
		{ "parsable2", no_argument, NULL, 'P' },
		{ "usage", no_argument, NULL, 'U' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char *format = NULL;
	int c, verbose = 0, rc = 0;

	opt.jobs = xcalloc(1, sizeof(char *));
	while ((c = getopt_long(argc, argv, "aehj:no:pPvV", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'a': opt.all_steps = true; break;
		case 'e':
			cli_table_help(stdout, CLI_TABLE(fields));
			goto done;
		case 'h': usage(stdout); goto done;
		case 'U': usage(stdout); goto done;
		case 'j': {
			char *copy = xstrdup(optarg), *save = NULL, *t;

			for (t = strtok_r(copy, ",", &save); t;
			     t = strtok_r(NULL, ",", &save))
				opt.jobs = xstrarray_append(opt.jobs, t);
			xfree(copy);
			break;
		}
		case 'n': opt.out.noheader = true; break;
		case 'o':
			xstrfmtcat(&format, "%s%s", format ? "," : "", optarg);
			break;
		case 'p': opt.out.parsable = 1; break;
		case 'P': opt.out.parsable = 2; break;
		case 'v': verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); goto done;
		default:
			fprintf(stderr, "Try \"sstat --help\" for more "
				"information\n");
			rc = 1;
			goto done;
		}
	}
	cli_init("sstat", verbose);
	for (; optind < argc; optind++)
		opt.jobs = xstrarray_append(opt.jobs, argv[optind]);
	if (!opt.jobs[0] || parse_format(format ? format : DEFAULT_FORMAT) < 0) {
		if (!opt.jobs[0])
			error("You didn't give me any jobs to stat.");
		rc = 1;
		goto done;
	}
	cli_table_header(stdout, &opt.table, &opt.out);
	fflush(stdout);
	for (size_t i = 0; opt.jobs[i]; i++) {
		stat_job(opt.jobs[i]);
		fflush(stdout);
	}
done:
	xstrarray_free(opt.jobs);
	cli_table_free(&opt.table);
	xfree(format);
	return rc;
}
