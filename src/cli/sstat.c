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
	bool      any;
} stat_row_t;

typedef void (*get_f)(char **out, const stat_row_t *r);

typedef struct {
	const char *name;
	int         width;        /* < 0: left-justified */
	get_f       get;
} stat_field_t;

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

static void g_jobid(char **o, const stat_row_t *r)
{
	xstrfmtcat(o, "%u.%u", r->job_id, r->step_id);
}
static void g_maxvm(char **o, const stat_row_t *r) { kb(o, r->max_vm); }
static void g_maxvmnode(char **o, const stat_row_t *r)
{
	xstrcat(o, r->max_vm_node ? r->max_vm_node : "");
}
static void g_maxvmtask(char **o, const stat_row_t *r)
{
	xstrfmtcat(o, "%u", r->max_vm_task);
}
static void g_avevm(char **o, const stat_row_t *r)
{
	kb(o, ave(r->tot_vm, r->ntasks));
}
static void g_maxrss(char **o, const stat_row_t *r) { kb(o, r->max_rss); }
static void g_rssnode(char **o, const stat_row_t *r)
{
	xstrcat(o, r->max_rss_node ? r->max_rss_node : "");
}
static void g_rsstask(char **o, const stat_row_t *r)
{
	xstrfmtcat(o, "%u", r->max_rss_task);
}
static void g_averss(char **o, const stat_row_t *r)
{
	kb(o, ave(r->tot_rss, r->ntasks));
}
static void g_zero(char **o, const stat_row_t *r) { xstrcat(o, "0"); }
static void g_unknown(char **o, const stat_row_t *r)
{
	xstrcat(o, "Unknown");
}
static void g_mincpu(char **o, const stat_row_t *r) { cpu(o, r->min_cpu); }
static void g_mincpunode(char **o, const stat_row_t *r)
{
	xstrcat(o, r->min_cpu_node ? r->min_cpu_node : "");
}
static void g_mincputask(char **o, const stat_row_t *r)
{
	xstrfmtcat(o, "%u", r->min_cpu_task);
}
static void g_avecpu(char **o, const stat_row_t *r)
{
	cpu(o, ave(r->tot_cpu, r->ntasks));
}
static void g_ntasks(char **o, const stat_row_t *r)
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
static void g_in_ave(char **o, const stat_row_t *r)
{
	xstrcat(o, "cpu=");
	tres_in(o, ave(r->tot_cpu, r->ntasks), 0, ave(r->tot_rss, r->ntasks),
		ave(r->tot_vm, r->ntasks));
}
static void g_in_max(char **o, const stat_row_t *r)
{
	xstrcat(o, "cpu=");
	tres_in(o, r->tot_cpu, 0, r->max_rss, r->max_vm);
}
static void g_in_min(char **o, const stat_row_t *r)
{
	xstrcat(o, "cpu=");
	tres_in(o, r->min_cpu, 0, r->max_rss, r->max_vm);
}
static void g_in_tot(char **o, const stat_row_t *r)
{
	xstrcat(o, "cpu=");
	tres_in(o, r->tot_cpu, r->energy, r->tot_rss, r->tot_vm);
}
static void g_in_node(char **o, const stat_row_t *r)
{
	const char *n = r->max_rss_node ? r->max_rss_node : "";

	xstrfmtcat(o, "cpu=%s,energy=%s,fs/disk=%s,mem=%s,pages=%s,vmem=%s",
		   r->min_cpu_node ? r->min_cpu_node : "", n, n, n, n,
		   r->max_vm_node ? r->max_vm_node : "");
}
static void g_in_task(char **o, const stat_row_t *r)
{
	xstrcat(o, "cpu=");
	cpu(o, (uint64_t) r->min_cpu_task * 1000000);
	xstrfmtcat(o, ",fs/disk=0,mem=%u,pages=0,vmem=%u", r->max_rss_task,
		   r->max_vm_task);
}
static void g_energy(char **o, const stat_row_t *r)
{
	char buf[32];

	fmt_energy(r->energy, buf, sizeof(buf));
	xstrcat(o, buf);
}
static void g_out(char **o, const stat_row_t *r)
{
	xstrcat(o, "energy=0,fs/disk=0");
}
static void g_out_node(char **o, const stat_row_t *r)
{
	const char *n = r->max_rss_node ? r->max_rss_node : "";

	xstrfmtcat(o, "energy=%s,fs/disk=%s", n, n);
}
static void g_out_task(char **o, const stat_row_t *r)
{
	xstrcat(o, "fs/disk=0");
}

static const stat_field_t fields[] = {
	{ "JobID", -12, g_jobid },
	{ "MaxVMSize", 10, g_maxvm },
	{ "MaxVMSizeNode", 14, g_maxvmnode },
	{ "MaxVMSizeTask", 14, g_maxvmtask },
	{ "AveVMSize", 10, g_avevm },
	{ "MaxRSS", 10, g_maxrss },
	{ "MaxRSSNode", 10, g_rssnode },
	{ "MaxRSSTask", 10, g_rsstask },
	{ "AveRSS", 10, g_averss },
	{ "MaxPages", 8, g_zero },
	{ "MaxPagesNode", 12, g_rssnode },
	{ "MaxPagesTask", 14, g_rsstask },
	{ "AvePages", 10, g_zero },
	{ "MinCPU", 10, g_mincpu },
	{ "MinCPUNode", 10, g_mincpunode },
	{ "MinCPUTask", 10, g_mincputask },
	{ "AveCPU", 10, g_avecpu },
	{ "NTasks", 8, g_ntasks },
	{ "AveCPUFreq", 10, g_zero },
	{ "ReqCPUFreqMin", 13, g_unknown },
	{ "ReqCPUFreqMax", 13, g_unknown },
	{ "ReqCPUFreqGov", 13, g_unknown },
	{ "ConsumedEnergy", 14, g_energy },
	{ "MaxDiskRead", 12, g_zero },
	{ "MaxDiskReadNode", 15, g_rssnode },
	{ "MaxDiskReadTask", 15, g_rsstask },
	{ "AveDiskRead", 12, g_zero },
	{ "MaxDiskWrite", 12, g_zero },
	{ "MaxDiskWriteNode", 16, g_rssnode },
	{ "MaxDiskWriteTask", 16, g_rsstask },
	{ "AveDiskWrite", 12, g_zero },
	{ "TRESUsageInAve", 14, g_in_ave },
	{ "TRESUsageInMax", 14, g_in_max },
	{ "TRESUsageInMaxNode", 18, g_in_node },
	{ "TRESUsageInMaxTask", 18, g_in_task },
	{ "TRESUsageInMin", 14, g_in_min },
	{ "TRESUsageInMinNode", 18, g_in_node },
	{ "TRESUsageInMinTask", 18, g_in_task },
	{ "TRESUsageInTot", 14, g_in_tot },
	{ "TRESUsageOutAve", 15, g_out },
	{ "TRESUsageOutMax", 15, g_out },
	{ "TRESUsageOutMaxNode", 19, g_out_node },
	{ "TRESUsageOutMaxTask", 19, g_out_task },
	{ "TRESUsageOutMin", 15, g_out },
	{ "TRESUsageOutMinNode", 19, g_out_node },
	{ "TRESUsageOutMinTask", 19, g_out_task },
	{ "TRESUsageOutTot", 15, g_out },
	{ NULL, 0, NULL }
};

typedef struct {
	const stat_field_t *f;
	int                 width;
} col_t;

static struct {
	col_t  *cols;
	size_t  ncols;
	bool    all_steps;
	bool    noheader;
	int     parsable;          /* 1: -p (trailing '|'), 2: -P */
	char  **jobs;              /* "123" or "123.4" */
} opt;

/* "JobID,MaxRSS%20,AveCPU%-12"; -1 with the bad name printed. */
static int parse_format(const char *spec)
{
	char *copy = xstrdup(spec), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *pct = strchr(tok, '%');
		const stat_field_t *f = NULL;
		int width = 0;

		if (pct) {
			*pct = '\0';
			width = atoi(pct + 1);
		}
		for (size_t i = 0; fields[i].name; i++)
			if (!strcasecmp(fields[i].name, tok))
				f = &fields[i];
		if (!f) {
			error("Invalid field requested: \"%s\"", tok);
			xfree(copy);
			return -1;
		}
		opt.cols = xrealloc(opt.cols, (opt.ncols + 1) * sizeof(col_t));
		opt.cols[opt.ncols].f = f;
		opt.cols[opt.ncols].width = pct ? width : f->width;
		opt.ncols++;
	}
	xfree(copy);
	return 0;
}

static void put_cell(const char *text, int width, bool last)
{
	size_t w = (size_t) (width < 0 ? -width : width), len = strlen(text);

	if (opt.parsable) {
		fputs(text, stdout);
		if (!last || opt.parsable == 1)
			putchar('|');
		return;
	}
	if (len > w)
		printf("%.*s+ ", (int) (w ? w - 1 : 0), text);
	else if (width < 0)
		printf("%-*s ", (int) w, text);
	else
		printf("%*s ", (int) w, text);
}

static void print_header(void)
{
	for (size_t i = 0; i < opt.ncols; i++)
		put_cell(opt.cols[i].f->name, opt.cols[i].width,
			 i + 1 == opt.ncols);
	putchar('\n');
	if (opt.parsable)
		return;
	for (size_t i = 0; i < opt.ncols; i++) {
		int w = opt.cols[i].width < 0 ? -opt.cols[i].width :
			opt.cols[i].width;

		for (int k = 0; k < w; k++)
			putchar('-');
		putchar(' ');
	}
	putchar('\n');
}

static void print_row(const stat_row_t *r)
{
	for (size_t i = 0; i < opt.ncols; i++) {
		char *text = xstrdup("");

		opt.cols[i].f->get(&text, r);
		put_cell(text, opt.cols[i].width, i + 1 == opt.ncols);
		xfree(text);
	}
	putchar('\n');
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
	stat_row_t row = { .job_id = s->job_id, .step_id = s->step_id };
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

static void stat_job(const char *spec)
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

static void help_format(void)
{
	size_t i;

	for (i = 0; fields[i].name; i++)
		printf("%-20s%s", fields[i].name, i % 4 == 3 ? "\n" : "");
	if (i % 4)
		putchar('\n');
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
		case 'e': help_format(); goto done;
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
		case 'n': opt.noheader = true; break;
		case 'o':
			xstrfmtcat(&format, "%s%s", format ? "," : "", optarg);
			break;
		case 'p': opt.parsable = 1; break;
		case 'P': opt.parsable = 2; break;
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
	if (!opt.noheader)
		print_header();
	fflush(stdout);
	for (size_t i = 0; opt.jobs[i]; i++) {
		stat_job(opt.jobs[i]);
		fflush(stdout);
	}
done:
	xstrarray_free(opt.jobs);
	xfree(opt.cols);
	xfree(format);
	return rc;
}
