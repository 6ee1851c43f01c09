/* sacct — job accounting from slurmdbd.
 *
 * Builds a REQUEST_DBD_JOBS from the options (Slurm's defaults: own jobs
 * unless root, -a, -u or -j; since midnight unless -S, -j or -s), then
 * prints a row per job and, unless -X, one per step, through the field
 * table in cli_sacct_fields.c.
 */
#include <ctype.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "cli/cli_sacct.h"
#include "common/hostlist.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define DEFAULT_FORMAT "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode"
#define BRIEF_FORMAT   "JobID,State,ExitCode"
#define LONG_FORMAT \
	"JobID,JobIDRaw,JobName,Partition,MaxVMSize,MaxVMSizeNode," \
	"MaxVMSizeTask,AveVMSize,MaxRSS,MaxRSSNode,MaxRSSTask,AveRSS," \
	"MaxPages,MaxPagesNode,MaxPagesTask,AvePages,MinCPU,MinCPUNode," \
	"MinCPUTask,AveCPU,NTasks,AllocCPUS,Elapsed,State,ExitCode," \
	"AveCPUFreq,ReqCPUFreqMin,ReqCPUFreqMax,ReqCPUFreqGov,ReqMem," \
	"ConsumedEnergy,MaxDiskRead,MaxDiskReadNode,MaxDiskReadTask," \
	"AveDiskRead,MaxDiskWrite,MaxDiskWriteNode,MaxDiskWriteTask," \
	"AveDiskWrite,ReqTRES,AllocTRES,TRESUsageInAve,TRESUsageInMax," \
	"TRESUsageInMaxNode,TRESUsageInMaxTask,TRESUsageInMin," \
	"TRESUsageInMinNode,TRESUsageInMinTask,TRESUsageInTot," \
	"TRESUsageOutMax,TRESUsageOutMaxNode,TRESUsageOutMaxTask," \
	"TRESUsageOutAve,TRESUsageOutTot"

/* A -j entry: job ("123" / "123_4") and an optional step ("batch", "0"). */
typedef struct {
	char *job;
	char *step;
} job_sel_t;

static struct {
	dbd_job_cond_msg_t cond;
	job_sel_t *sel;
	size_t     sel_cnt;
	char      *format;
	bool       all_users;
	bool       brief;
	bool       longfmt;
	bool       noheader;
	int        parsable;          /* 0, 1 (-p), 2 (-P) */
	char      *delim;
	bool       allocations;
	int        json;              /* 0, 1 (--json), 2 (--yaml) */
	bool       start_given;
	bool       end_given;
	char      *nodelist;
	int        verbose;
	bool       metrics;           /* --metrics: run tracking values */
	bool       events;            /* --events: only the job events */
	bool       profile;           /* --profile: usage samples */
	bool       helpformat;
	char      *clusters;         /* -M */
	bool       all_clusters;      /* -L */
	bool       truncate;          /* -T: times cut to the window */
	/* Filters applied to the answer's jobs (sacct_filter_t) */
	uint32_t   nnodes[2], ncpus[2]; /* -i, -I: min and max; 0 0 none */
	uint32_t   tlimit[2];         /* -k, -K: minutes; NO_VAL32 none */
	char     **wckeys;            /* -W */
	char     **constraints;       /* -C */
	int       *reasons;           /* -R */
	size_t     reason_cnt;
} opt;

static void usage(FILE *out)
{
	fprintf(out,
"Usage: sacct [OPTIONS]\n"
"  -a, --allusers       show every user's jobs\n"
"  -A, --accounts=list  only these accounts\n"
"  -b, --brief          JobID, State, ExitCode\n"
"  -B, --batch-script   each job's batch script (AccountingStoreFlags=job_script)\n"
"  -D, --duplicates     every record of a reused job id\n"
"      --delimiter=str  separator for -p/-P (default '|')\n"
"  -e, --helpformat     list the fields -o accepts\n"
"  -E, --endtime=time   jobs before this time\n"
"      --env-vars       each job's environment (AccountingStoreFlags=job_env)\n"
"      --events         the jobs' events (checkpoint, restart), as --metrics\n"
"  -g, --gid=list       only these groups\n"
"  -j, --jobs=list      only these jobs (123, 123_4, 123.batch)\n"
"  -l, --long           many usage fields\n"
"  -L, --allclusters    the jobs of every cluster slurmdbd knows\n"
"  -M, --clusters=list  the jobs of these clusters (default: this one)\n"
"      --metrics        the values the jobs logged (run tracking: metrics,\n"
"                       params, artifacts) and their events instead of\n"
"                       the jobs\n"
"      --profile        the usage samples of profiled jobs (--profile=task)\n"
"                       instead of the jobs\n"
"  -n, --noheader       no header line\n"
"      --name=list      only jobs with these names\n"
"  -N, --nodelist=list  only jobs that ran on these nodes\n"
"  -i, --nnodes=min[-max] only jobs that ran on this many nodes\n"
"  -I, --ncpus=min[-max]  only jobs that had this many CPUs\n"
"  -k, --timelimit-min=t only jobs with this time limit (-K: to this one)\n"
"  -K, --timelimit-max=t the top of the -k range\n"
"  -C, --constraints=list only jobs that asked for these constraints\n"
"  -R, --reason=list    only jobs pending for these reasons\n"
"  -W, --wckeys=list    only jobs with these wckeys\n"
"  -T, --truncate       cut start and end times to the -S/-E window\n"
"      --units=[KMGTP]  memory values in this unit\n"
"      --noconvert      memory values in the unit they are kept in\n"
"  -o, --format=list    fields to show (Name%%width)\n"
"  -p, --parsable       '|' after every field\n"
"  -P, --parsable2      '|' between fields\n"
"  -q, --qos=list       only these QOS\n"
"  -r, --partition=list only these partitions\n"
"  -s, --state=list     jobs in these states during the window\n"
"  -S, --starttime=time jobs after this time\n"
"  -u, --user=list      only these users (names or uids)\n"
"  -X, --allocations    jobs only, no steps\n"
"      --json           JSON (Slurm 25.05's data_parser v0.0.43 layout)\n"
"      --yaml           YAML (the same document)\n"
"  -V, --version        print the version\n");
}

static char **list_add(char **list, const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++)
		if (items[i][0])
			list = xstrarray_append(list, items[i]);
	xstrarray_free(items);
	return list;
}

/* A user name or a number. */
static int parse_uid(const char *s, uid_t *out)
{
	struct passwd *pw = getpwnam(s);
	uint32_t v;

	if (pw) {
		*out = pw->pw_uid;
		return 0;
	}
	if (parse_u32(s, &v) < 0)
		return -1;
	*out = (uid_t)v;
	return 0;
}

static int parse_gid(const char *s, gid_t *out)
{
	struct group *gr = getgrnam(s);
	uint32_t v;

	if (gr) {
		*out = gr->gr_gid;
		return 0;
	}
	if (parse_u32(s, &v) < 0)
		return -1;
	*out = (gid_t)v;
	return 0;
}

static void add_users(const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++) {
		uid_t uid;
		char num[16];

		if (!items[i][0])
			continue;
		if (parse_uid(items[i], &uid) < 0) {
			error("Invalid user id: %s", items[i]);
			exit(1);
		}
		snprintf(num, sizeof(num), "%u", (unsigned)uid);
		opt.cond.users = xstrarray_append(opt.cond.users, num);
	}
	xstrarray_free(items);
}

static void add_groups(const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++) {
		gid_t gid;
		char num[16];

		if (!items[i][0])
			continue;
		if (parse_gid(items[i], &gid) < 0) {
			error("Invalid group id: %s", items[i]);
			exit(1);
		}
		snprintf(num, sizeof(num), "%u", (unsigned)gid);
		opt.cond.gids = xstrarray_append(opt.cond.gids, num);
	}
	xstrarray_free(items);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* "123+1": a hetjob component (the leader's id, '+', its offset). */
static bool het_id(const char *s)
{
	const char *plus = strchr(s, '+');
	char *lead;
	bool ok;

	if (!plus)
		return false;
	lead = xstrndup(s, (size_t)(plus - s));
	ok = all_digits(lead) && all_digits(plus + 1);
	xfree(lead);
	return ok;
}

/* "123", "123_4", "123+1" (a hetjob component: its leader is asked for,
 * the rows are picked here), "123.batch", "123_4.0", "123+1.0" */
static void add_jobs(const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++) {
		char *id = items[i], *dot = strchr(id, '.'), *us;
		job_sel_t s = { 0 };
		bool ok;

		if (!id[0])
			continue;
		s.job = dot ? xstrndup(id, dot - id) : xstrdup(id);
		s.step = dot ? xstrdup(dot + 1) : NULL;
		us = strchr(s.job, '_');
		ok = us ? (us > s.job && all_digits(us + 1)) :
		     all_digits(s.job) || het_id(s.job);
		if (us && ok) {
			*us = '\0';
			ok = all_digits(s.job);
			*us = '_';
		}
		if (ok && s.step)
			ok = all_digits(s.step) || !strcmp(s.step, "batch") ||
			     !strcmp(s.step, "extern");
		if (!ok)
			fatal("Bad job/step specified: %s", id);
		opt.sel = xrealloc(opt.sel, (opt.sel_cnt + 1) * sizeof(*opt.sel));
		opt.sel[opt.sel_cnt++] = s;
		opt.cond.job_ids = xstrarray_append(opt.cond.job_ids, s.job);
		us = opt.cond.job_ids[xstrarray_len(opt.cond.job_ids) - 1];
		if ((us = strchr(us, '+')))
			*us = '\0';       /* the leader names every component */
	}
	xstrarray_free(items);
}

static void add_states(const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++) {
		uint32_t st;
		char num[16];

		if (!items[i][0])
			continue;
		if (job_state_from_string(items[i], &st) < 0)
			fatal("unrecognized job state value '%s'", items[i]);
		snprintf(num, sizeof(num), "%u", st & JOB_STATE_BASE);
		opt.cond.states = xstrarray_append(opt.cond.states, num);
	}
	xstrarray_free(items);
}

static time_t parse_when(const char *s, const char *what)
{
	time_t t;

	if (parse_time_past(s, time(NULL), &t) < 0)
		fatal("Invalid %s time: %s", what, s);
	return t;
}

enum {
	OPT_DELIM = 0x100, OPT_NAME, OPT_USAGE, OPT_NOCONVERT, OPT_UNITS,
	OPT_JSON, OPT_ARRAY, OPT_LOCAL, OPT_YAML, OPT_ENV_VARS, OPT_METRICS, OPT_EVENTS,
	OPT_PROFILE, OPT_FEDERATION, OPT_WHOLE_HET, OPT_LOCAL_UID,
};

/* -i / -I: "min[-max]" counts */
static void parse_range(const char *arg, uint32_t r[2], const char *what)
{
	char *dup = xstrdup(arg), *dash = strchr(dup, '-');

	if (dash)
		*dash = '\0';
	if (parse_u32(dup, &r[0]) < 0 ||
	    (dash && parse_u32(dash + 1, &r[1]) < 0) ||
	    (dash && r[1] < r[0]))
		fatal("Invalid %s specification: %s", what, arg);
	if (!dash)
		r[1] = r[0];
	xfree(dup);
}

static void parse_tlimit(const char *arg, int k)
{
	if (parse_duration_min(arg, &opt.tlimit[k]) < 0)
		fatal("Invalid time limit specification");
}

static void add_reasons(const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++) {
		int r = job_reason_from_string(items[i]);

		if (r < 0)
			fatal("Invalid reason: %s", items[i]);
		opt.reasons = xrealloc(opt.reasons, (opt.reason_cnt + 1) *
				       sizeof(*opt.reasons));
		opt.reasons[opt.reason_cnt++] = r;
	}
	xstrarray_free(items);
}

/* --units: Slurm's letters; --noconvert (cli_sacct.h) */
static void set_units(const char *arg)
{
	const char *units = "KMGTP", *p = arg && arg[0] && !arg[1] ?
		strchr(units, toupper((unsigned char)arg[0])) : NULL;

	if (!p) {
		error("Invalid unit type '%s'. Possible options are 'KMGTP'",
		      arg ? arg : "");
		fatal("Invalid unit type");
	}
	sacct_set_units((int)(p - units));
}

/* What sacct cannot do here: refused with the reason, never ignored */
static void refuse(const char *what, const char *why)
{
	fatal("%s is not supported: %s", what, why);
}

static void parse_opts(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "allusers", no_argument, NULL, 'a' },
		{ "accounts", required_argument, NULL, 'A' },
		{ "brief", no_argument, NULL, 'b' },
		{ "batch-script", no_argument, NULL, 'B' },
		{ "env-vars", no_argument, NULL, OPT_ENV_VARS },
		{ "duplicates", no_argument, NULL, 'D' },
		{ "delimiter", required_argument, NULL, OPT_DELIM },
		{ "helpformat", no_argument, NULL, 'e' },
		{ "endtime", required_argument, NULL, 'E' },
		{ "gid", required_argument, NULL, 'g' },
		{ "group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "long", no_argument, NULL, 'l' },
		{ "metrics", no_argument, NULL, OPT_METRICS },
		{ "events", no_argument, NULL, OPT_EVENTS },
		{ "profile", no_argument, NULL, OPT_PROFILE },
		{ "allclusters", no_argument, NULL, 'L' },
		{ "clusters", required_argument, NULL, 'M' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "nodelist", required_argument, NULL, 'N' },
		{ "format", required_argument, NULL, 'o' },
		{ "parsable", no_argument, NULL, 'p' },
		{ "parsable2", no_argument, NULL, 'P' },
		{ "qos", required_argument, NULL, 'q' },
		{ "partition", required_argument, NULL, 'r' },
		{ "state", required_argument, NULL, 's' },
		{ "starttime", required_argument, NULL, 'S' },
		{ "truncate", no_argument, NULL, 'T' },
		{ "user", required_argument, NULL, 'u' },
		{ "uid", required_argument, NULL, 'u' },
		{ "usage", no_argument, NULL, OPT_USAGE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "allocations", no_argument, NULL, 'X' },
		{ "noconvert", no_argument, NULL, OPT_NOCONVERT },
		{ "units", required_argument, NULL, OPT_UNITS },
		{ "array", no_argument, NULL, OPT_ARRAY },
		{ "local", no_argument, NULL, OPT_LOCAL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "yaml", no_argument, NULL, OPT_YAML },
		{ "nnodes", required_argument, NULL, 'i' },
		{ "ncpus", required_argument, NULL, 'I' },
		{ "timelimit-min", required_argument, NULL, 'k' },
		{ "timelimit-max", required_argument, NULL, 'K' },
		{ "constraints", required_argument, NULL, 'C' },
		{ "reason", required_argument, NULL, 'R' },
		{ "wckeys", required_argument, NULL, 'W' },
		{ "associations", required_argument, NULL, 'x' },
		{ "completion", no_argument, NULL, 'c' },
		{ "file", required_argument, NULL, 'f' },
		{ "flags", required_argument, NULL, 'F' },
		{ "federation", no_argument, NULL, OPT_FEDERATION },
		{ "whole-hetjob", optional_argument, NULL, OPT_WHOLE_HET },
		{ "use-local-uid", no_argument, NULL, OPT_LOCAL_UID },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	opt.tlimit[0] = opt.tlimit[1] = NO_VAL32;
	while ((c = getopt_long(argc, argv,
				"aA:bBcC:DeE:f:F:g:hi:I:j:k:K:lLM:nN:o:pPq:r:R:"
				"s:S:Tu:vVW:x:X",
				lopts, NULL)) != -1) {
		switch (c) {
		case 'a': opt.all_users = true; break;
		case 'A': opt.cond.accounts = list_add(opt.cond.accounts, optarg); break;
		case 'b': opt.brief = true; break;
		case 'B': opt.cond.flags |= DBD_JOBS_SCRIPT; break;
		case OPT_ENV_VARS: opt.cond.flags |= DBD_JOBS_ENV; break;
		case 'D': opt.cond.flags |= DBD_JOBS_DUPLICATES; break;
		case OPT_DELIM: xfree(opt.delim); opt.delim = xstrdup(optarg); break;
		case 'e': opt.helpformat = true; break;
		case OPT_METRICS: opt.metrics = true; break;
		case OPT_EVENTS: opt.metrics = opt.events = true; break;
		case OPT_PROFILE: opt.profile = true; break;
		case 'E': opt.cond.end = parse_when(optarg, "end"); opt.end_given = true; break;
		case 'g': add_groups(optarg); break;
		case 'h': case OPT_USAGE: usage(stdout); exit(0);
		case 'j': add_jobs(optarg); break;
		case 'l': opt.longfmt = true; break;
		case 'L': opt.all_clusters = true; break;
		case 'M': xfree(opt.clusters); opt.clusters = xstrdup(optarg); break;
		case 'T': opt.truncate = true; break;
		case OPT_NOCONVERT: sacct_set_units(SACCT_UNITS_NONE); break;
		case OPT_UNITS: set_units(optarg); break;
		/* no federation: the local cluster's jobs are all there is;
		 * user names always come from the local uid; array tasks
		 * are each a row (a pending array's unsplit tasks: one) */
		case OPT_ARRAY: case OPT_LOCAL: case OPT_FEDERATION:
		case OPT_LOCAL_UID: break;
		case 'i': parse_range(optarg, opt.nnodes, "--nnodes"); break;
		case 'I': parse_range(optarg, opt.ncpus, "--ncpus"); break;
		case 'k': parse_tlimit(optarg, 0); break;
		case 'K': parse_tlimit(optarg, 1); break;
		case 'C': opt.constraints = list_add(opt.constraints, optarg); break;
		case 'R': add_reasons(optarg); break;
		case 'W': opt.wckeys = list_add(opt.wckeys, optarg); break;
		case 'x': refuse("-x/--associations", "job records do not "
				 "keep their association id"); break;
		case 'c': refuse("-c/--completion", "read the job completion "
				 "plugin's own output (JobCompLoc)"); break;
		case 'f': refuse("-f/--file", "sacct reads slurmdbd only");
			break;
		case 'F': refuse("-F/--flags", "job records do not keep how "
				 "they were scheduled"); break;
		case OPT_WHOLE_HET: refuse("--whole-hetjob", "give each "
					   "component with -j 123+N"); break;
		case OPT_JSON: opt.json = 1; break;
		case OPT_YAML: opt.json = 2; break;
		case 'n': opt.noheader = true; break;
		case OPT_NAME: opt.cond.names = list_add(opt.cond.names, optarg); break;
		case 'N': xfree(opt.nodelist); opt.nodelist = xstrdup(optarg); break;
		case 'o':
			if (opt.format)
				xstrcatc(&opt.format, ',');
			xstrcat(&opt.format, optarg);
			break;
		case 'p': opt.parsable = 1; break;
		case 'P': opt.parsable = 2; break;
		case 'q': opt.cond.qos = list_add(opt.cond.qos, optarg); break;
		case 'r': opt.cond.partitions = list_add(opt.cond.partitions, optarg); break;
		case 's': add_states(optarg); break;
		case 'S': opt.cond.start = parse_when(optarg, "start"); opt.start_given = true; break;
		case 'u': add_users(optarg); break;
		case 'v': opt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case 'X': opt.allocations = true; break;
		default: exit(1);    /* getopt said which, as Slurm's */
		}
	}
	if (optind < argc)
		fatal("Unknown arguments: %s", argv[optind]);
	if (opt.metrics && opt.profile)
		fatal("--metrics and --profile: give one of them");
	if (opt.helpformat) {
		if (opt.profile)
			sacct_profile_fields_help(stdout);
		else if (opt.metrics)
			sacct_track_fields_help(stdout);
		else
			sacct_fields_help(stdout);
		exit(0);
	}
	for (size_t i = 0; opt.metrics && i < opt.sel_cnt; i++)
		if (opt.sel[i].step)
			fatal("--metrics shows what jobs logged: give -j "
			      "without a step (%s.%s)", opt.sel[i].job,
			      opt.sel[i].step);
}

/* Slurm's defaults for what was not given. */
static void apply_defaults(void)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!opt.cond.users && !opt.all_users && !opt.cond.job_ids &&
	    getuid() != 0) {
		char num[16];

		snprintf(num, sizeof(num), "%u", (unsigned)getuid());
		opt.cond.users = xstrarray_append(NULL, num);
	}
	if (!opt.start_given) {
		if (opt.cond.job_ids) {
			opt.cond.start = 0;
		} else if (opt.cond.states) {
			opt.cond.start = now;
		} else {
			localtime_r(&now, &tm);
			tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
			tm.tm_isdst = -1;
			opt.cond.start = mktime(&tm);
		}
	}
	if (!opt.end_given)
		opt.cond.end = now;
	/* the jobs of this cluster (ClusterName: NULL) unless -L or -M
	 * say otherwise ("": every cluster), as Slurm's */
	if (opt.clusters && !opt.all_clusters) {
		char **names = xstrsplit(opt.clusters, ",", NULL);

		for (size_t i = 0; names[i]; i++)
			opt.all_clusters |= !strcasecmp(names[i], "all");
		xstrarray_free(names);
		if (!opt.all_clusters)
			opt.cond.cluster = xstrdup(opt.clusters);
	}
	if (opt.all_clusters)
		opt.cond.cluster = xstrdup("");
	if (opt.allocations)
		opt.cond.flags |= DBD_JOBS_NO_STEPS;
	if (!opt.delim)
		opt.delim = xstrdup("|");
	if (!opt.format) {
		const char *env = getenv("SACCT_FORMAT");

		opt.format = xstrdup(opt.profile ? SACCT_PROFILE_FORMAT :
				     opt.metrics ? SACCT_TRACK_FORMAT :
				     opt.brief ? BRIEF_FORMAT :
				     opt.longfmt ? LONG_FORMAT :
				     env && *env ? env : DEFAULT_FORMAT);
	}
}

/* ---- the query ---- */

/* Ask slurmdbd for the record members the columns read and those this
 * file reads to order, group and select rows (--json: every member). */
static void choose_fields(const cli_table_t *t)
{
	const cli_tcol_t *cols = t->cols;
	size_t n = t->cnt;
	fields_sel_t *job = &opt.cond.job_fields, *step = &opt.cond.step_fields;
	int rc = 0;

	/* a job row's TotalCPU and ConsumedEnergy are its steps' sums: -X
	 * fetches the steps (it does not print them) for such a column */
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(cols[i].field->name, "TotalCPU") ||
		    !strncasecmp(cols[i].field->name, "ConsumedEnergy", 14))
			opt.cond.flags &= ~DBD_JOBS_NO_STEPS;
	if (opt.json)
		return;
	for (size_t i = 0; i < n; i++)
		if (sacct_field_needs(sacct_field_of(cols[i].field), job,
				      step) < 0)
			rc = -1;
	rc |= fields_sel_add_list(job, acct_job_rec_fields,
				  "job_id,submit,array_job_id");
	rc |= fields_sel_add_list(step, acct_step_rec_fields, "job_id,submit");
	if (opt.sel_cnt) {
		rc |= fields_sel_add_list(job, acct_job_rec_fields,
					  "array_task_id,het_job_id,"
					  "het_job_offset");
		rc |= fields_sel_add(step, acct_step_rec_fields, "step_id");
	}
	if (opt.nodelist)
		rc |= fields_sel_add(job, acct_job_rec_fields, "nodes");
	if (opt.nnodes[1])
		rc |= fields_sel_add(job, acct_job_rec_fields, "num_nodes");
	if (opt.ncpus[1])
		rc |= fields_sel_add(job, acct_job_rec_fields, "num_cpus");
	if (opt.tlimit[0] != NO_VAL32)
		rc |= fields_sel_add(job, acct_job_rec_fields, "time_limit");
	if (opt.wckeys)
		rc |= fields_sel_add(job, acct_job_rec_fields, "wckey");
	if (opt.constraints)
		rc |= fields_sel_add(job, acct_job_rec_fields, "constraints");
	if (opt.reason_cnt)
		rc |= fields_sel_add(job, acct_job_rec_fields, "reason");
	if (opt.truncate) {
		rc |= fields_sel_add_list(job, acct_job_rec_fields,
					  "start,end");
		rc |= fields_sel_add_list(step, acct_step_rec_fields,
					  "start,end");
	}
	if (!cli_conf()->cluster_name)   /* several clusters' records */
		rc |= fields_sel_add(job, acct_job_rec_fields, "cluster");
	if (rc < 0) {   /* a list names a member the tables lack: all */
		memset(job, 0, sizeof(*job));
		memset(step, 0, sizeof(*step));
	}
}

/* A query slurmdbd did not answer: Slurm's words, exit 1. */
static void query_check(int rc)
{
	if (rc == ESLURM_DB_CONNECTION && !conf_accounting_dbd(cli_conf())) {
		error("Slurm accounting storage is disabled");
		exit(1);
	}
	if (rc) {
		error("Problem talking to the database: %s",
		      slurm_strerror(rc));
		exit(1);
	}
}

static dbd_jobs_msg_t *query(void)
{
	dbd_jobs_msg_t *r;

	query_check(sacct_query(&opt.cond, &r));
	return r;
}

/* ---- selection after the query ---- */

static const char *step_name(const acct_step_rec_t *s, char *buf, size_t n)
{
	int32_t id = (int32_t)s->step_id;

	if (id == ACCT_STEP_BATCH)
		return "batch";
	if (id == ACCT_STEP_EXTERN)
		return "extern";
	snprintf(buf, n, "%d", id);
	return buf;
}

/* -j 123.batch: which rows of job j to print. */
static bool sel_match(const acct_job_rec_t *j, const acct_step_rec_t *s)
{
	char id[32], buf[16];
	bool any_sel = false, other_comp = false;

	if (!opt.sel_cnt)
		return true;
	for (size_t i = 0; i < opt.sel_cnt; i++) {
		const job_sel_t *sel = &opt.sel[i];
		bool job_hit;

		snprintf(id, sizeof(id), "%u", j->job_id);
		job_hit = !strcmp(sel->job, id);
		if (!job_hit && j->het_job_id) {  /* "123" or "123+1" */
			snprintf(id, sizeof(id), "%u", j->het_job_id);
			job_hit = !strcmp(sel->job, id);
			snprintf(id, sizeof(id), "%u+%u", j->het_job_id,
				 j->het_job_offset);
			job_hit = job_hit || !strcmp(sel->job, id);
			/* "123+1" asked: 123's other components are not */
			snprintf(id, sizeof(id), "%u+", j->het_job_id);
			other_comp = other_comp || (!job_hit &&
				!strncmp(sel->job, id, strlen(id)));
		}
		if (!job_hit && j->array_job_id) {
			snprintf(id, sizeof(id), "%u", j->array_job_id);
			job_hit = !strcmp(sel->job, id);
			snprintf(id, sizeof(id), "%u_%u", j->array_job_id,
				 j->array_task_id);
			job_hit = job_hit || !strcmp(sel->job, id);
		}
		if (!job_hit)
			continue;
		any_sel = true;
		if (!sel->step)
			return true;
		if (s && !strcmp(sel->step, step_name(s, buf, sizeof(buf))))
			return true;
	}
	return !any_sel && !other_comp;
}

static bool in_list(char *const *list, const char *s)
{
	for (size_t i = 0; list && list[i]; i++)
		if (s && !strcmp(list[i], s))
			return true;
	return false;
}

/* -i, -I, -k/-K, -W, -C, -R over a job of the answer */
static bool filter_match(const acct_job_rec_t *j)
{
	const char *wckey = j->wckey && j->wckey[0] == '*' ? j->wckey + 1 :
			    j->wckey;
	bool hit = !opt.reason_cnt;

	if (opt.nnodes[1] && (j->num_nodes < opt.nnodes[0] ||
			      j->num_nodes > opt.nnodes[1]))
		return false;
	if (opt.ncpus[1] && (j->num_cpus < opt.ncpus[0] ||
			     j->num_cpus > opt.ncpus[1]))
		return false;
	if (opt.tlimit[0] != NO_VAL32) {
		uint32_t hi = opt.tlimit[1] != NO_VAL32 ? opt.tlimit[1] :
			      opt.tlimit[0];

		if (j->time_limit < opt.tlimit[0] || j->time_limit > hi)
			return false;
	}
	if (opt.wckeys && !in_list(opt.wckeys, wckey))
		return false;
	if (opt.constraints && !in_list(opt.constraints, j->constraints))
		return false;
	for (size_t i = 0; i < opt.reason_cnt; i++)
		hit |= (uint32_t)opt.reasons[i] == j->reason;
	return hit;
}

/* -T: a time outside the -S/-E window is cut to its edge */
static void truncate_times(time_t *start, time_t *end)
{
	if (!opt.truncate || !*start)
		return;
	if (opt.cond.start && *start < opt.cond.start)
		*start = opt.cond.start;
	if (opt.cond.end && (!*end || *end > opt.cond.end))
		*end = opt.cond.end;
}

/* ---- output ---- */

/* The table, -p/-P, --delimiter and -n (cli_table.h). */
static cli_table_opt_t table_opt(void)
{
	cli_table_opt_t o = { .noheader = opt.noheader,
			      .parsable = opt.parsable, .delim = opt.delim };

	return o;
}

static void print_header(const cli_table_t *t)
{
	cli_table_opt_t o = table_opt();

	cli_table_header(stdout, t, &o);
}

static void print_row(cli_table_t *t, const sacct_row_t *r)
{
	cli_table_opt_t o = table_opt();

	cli_table_row(stdout, t, &o, r, NULL);
}

typedef struct {
	cli_table_t *t;
	json_object *list;     /* --json: the jobs */
} print_arg_t;

static bool print_job(const sacct_row_t *row, void *arg)
{
	const print_arg_t *p = arg;
	acct_job_rec_t jc = *row->job;
	const acct_job_rec_t *j = &jc;
	sacct_row_t jr = *row;

	if (!filter_match(j))
		return true;
	truncate_times(&jc.start, &jc.end);
	jr.job = j;
	if (p->list) {
		if (opt.allocations)
			jr.nsteps = 0;
		if (sel_match(j, NULL))
			json_object_array_add(p->list, sacct_json_row(&jr));
		return true;
	}
	if (sel_match(j, NULL))
		print_row(p->t, &jr);
	for (uint32_t k = 0; k < row->nsteps && !opt.allocations; k++) {
		acct_step_rec_t sc = row->steps[k];
		sacct_row_t sr = { .job = j, .step = &sc, .now = row->now };

		if (opt.sel_cnt && !sel_match(j, &row->steps[k]))
			continue;
		truncate_times(&sc.start, &sc.end);
		print_row(p->t, &sr);
	}
	return true;
}

static void print_all(const dbd_jobs_msg_t *r, cli_table_t *t,
		      hostlist_t *want)
{
	print_arg_t p = { .t = t,
			  .list = opt.json ? json_object_new_array() : NULL };
	json_object *doc;

	if (!p.list)
		print_header(t);
	sacct_rows_walk(r, opt.cond.flags & DBD_JOBS_DUPLICATES, want,
			print_job, &p);
	if (!p.list)
		return;
	doc = cli_output_doc("jobs", p.list, 0);
	json_object_object_del(doc, "last_update");
	cli_output_doc_print(stdout, doc, opt.json == 2);
}

/* ---- -B / --env-vars: a block per job instead of rows ---- */

static void print_block(const char *title, const char *id, const char *text)
{
	printf("%s%s%s\n", title, id, !strcmp(title, "Environment used for ") ?
	       " (must be batch to display)" : "");
	for (int k = 0; k < 80; k++)
		putchar('-');
	printf("\n%s\n", text && *text ? text : "NONE\n");
}

static bool print_job_script(const sacct_row_t *row, void *arg)
{
	const acct_job_rec_t *j = row->job;
	const acct_script_rec_t *sc = row->script;
	char id[32];

	(void) arg;
	if (!sel_match(j, NULL))
		return true;
	if (j->array_job_id && j->array_task_id != NO_VAL32)
		snprintf(id, sizeof(id), "%u_%u", j->array_job_id,
			 j->array_task_id);
	else
		snprintf(id, sizeof(id), "%u", j->job_id);
	if (opt.cond.flags & DBD_JOBS_SCRIPT)
		print_block("Batch Script for ", id, sc ? sc->script : NULL);
	if (opt.cond.flags & DBD_JOBS_ENV)
		print_block("Environment used for ", id, sc ? sc->env : NULL);
	return true;
}

/* --metrics: one row a value, through sacct_track_fields. */
static int print_metrics(void)
{
	cli_table_t t;
	char *bad = NULL;
	dbd_track_msg_t *r;
	json_object *list = NULL, *doc;

	if (cli_table_parse(&t, CLI_TABLE(sacct_track_fields), NULL, opt.format,
			    &bad) < 0) {
		error("Invalid field requested: \"%s\"", bad);
		exit(1);
	}
	query_check(sacct_track_query(&opt.cond, &r));
	if (opt.json)
		list = json_object_new_array();
	else
		print_header(&t);
	for (uint32_t i = 0; i < r->cnt; i++) {
		sacct_row_t row = { .track = &r->recs[i] };

		if (opt.events && r->recs[i].kind != TRACK_EVENT)
			continue;

		if (list)
			json_object_array_add(list,
					      sacct_track_json(&r->recs[i]));
		else
			print_row(&t, &row);
	}
	if (list) {
		doc = cli_output_doc("metrics", list, 0);
		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, opt.json == 2);
	}
	msg_body_free(RESPONSE_DBD_TRACK, r);
	cli_table_free(&t);
	return 0;
}

/* --profile with -j N.S: only the samples of the steps named. */
static bool profile_selected(const acct_profile_rec_t *p)
{
	char id[32], arr[32], *step = NULL;
	bool any_step = false, hit = false;

	snprintf(id, sizeof(id), "%u", p->job_id);
	snprintf(arr, sizeof(arr), "%u_%u", p->array_job_id,
		 p->array_task_id);
	sacct_profile_step_name(&step, p->step_id);
	for (size_t i = 0; i < opt.sel_cnt && !hit; i++) {
		const job_sel_t *sel = &opt.sel[i];

		if (!sel->step)
			continue;
		any_step = true;
		hit = (!strcmp(sel->job, id) || !strcmp(sel->job, arr)) &&
		      !strcmp(sel->step, step);
	}
	xfree(step);
	return hit || !any_step;
}

/* --profile: one row a sample, through sacct_profile_fields. */
static int print_profile(void)
{
	cli_table_t t;
	char *bad = NULL;
	dbd_profile_msg_t *r;
	json_object *list = NULL, *doc;

	if (cli_table_parse(&t, CLI_TABLE(sacct_profile_fields), NULL, opt.format,
			    &bad) < 0) {
		error("Invalid field requested: \"%s\"", bad);
		exit(1);
	}
	query_check(sacct_profile_query(&opt.cond, &r));
	if (opt.json)
		list = json_object_new_array();
	else
		print_header(&t);
	for (uint32_t i = 0; i < r->cnt; i++) {
		sacct_row_t row = { .prof = &r->recs[i] };

		if (!profile_selected(&r->recs[i]))
			continue;
		if (list)
			json_object_array_add(list,
					      sacct_profile_json(&r->recs[i]));
		else
			print_row(&t, &row);
	}
	if (list) {
		doc = cli_output_doc("profile", list, 0);
		json_object_object_del(doc, "last_update");
		cli_output_doc_print(stdout, doc, opt.json == 2);
	}
	msg_body_free(RESPONSE_DBD_PROFILE, r);
	cli_table_free(&t);
	return 0;
}

int main(int argc, char **argv)
{
	cli_table_t t;
	char *bad = NULL;
	dbd_jobs_msg_t *r;
	hostlist_t *want = NULL;
	char err[256];

	parse_opts(argc, argv);
	cli_init("sacct", opt.verbose);
	apply_defaults();
	if (opt.metrics)
		return print_metrics();
	if (opt.profile)
		return print_profile();
	if (cli_table_parse(&t, CLI_TABLE(sacct_fields), NULL, opt.format,
			    &bad) < 0) {
		error("Invalid field requested: \"%s\"", bad);
		exit(1);
	}
	if (opt.nodelist &&
	    !(want = hostlist_parse(opt.nodelist, err, sizeof(err))))
		fatal("Invalid node list: %s", opt.nodelist);
	if (opt.cond.flags & (DBD_JOBS_SCRIPT | DBD_JOBS_ENV)) {
		if (opt.json)
			fatal("--json and --yaml cannot be used with "
			      "--batch-script or --env-vars");
		opt.cond.flags |= DBD_JOBS_NO_STEPS;
		memset(&opt.cond.job_fields, 0, sizeof(opt.cond.job_fields));
		fields_sel_add_list(&opt.cond.job_fields, acct_job_rec_fields,
				    "job_id,submit,array_job_id,"
				    "array_task_id,nodes,cluster");
		r = query();
		sacct_rows_walk(r, opt.cond.flags & DBD_JOBS_DUPLICATES, want,
				print_job_script, NULL);
	} else {
		choose_fields(&t);
		r = query();
		print_all(r, &t, want);
	}
	msg_body_free(RESPONSE_DBD_JOBS, r);
	if (want)
		hostlist_destroy(want);
	cli_table_free(&t);
	return 0;
}
