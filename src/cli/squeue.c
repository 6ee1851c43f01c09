/* squeue — view jobs in the queue, as Slurm's squeue(1).
 *
 * Options and SQUEUE_* variables pick a format, filters and a sort; the
 * jobs come from one REQUEST_JOB_INFO and are printed through the shared
 * format engine (cli_format, cli_output) over the job field table.
 */
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "cli/cli_fields.h"
#include "cli/cli_format.h"
#include "cli/cli_output.h"
#include "cli/cli_show.h"
#include "common/array_spec.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define FMT_DEFAULT "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"
#define FMT_LONG "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R"
#define FMT_START "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R"
#define FMT_STEPS "%.15i %.8j %.9P %.8u %.9M %N"
#define SORT_DEFAULT "P,t,-p"

typedef struct {
	uint32_t job_id;
	uint32_t task_id;        /* NO_VAL32: the whole job */
} job_sel_t;

static struct {
	int        verbose;
	bool       no_header, long_fmt, all, array, start, steps, me;
	bool       json, yaml;
	char       *clusters;    /* -M: checked, one cluster */
	int        iterate;
	char      *format, *format_long, *sort;
	char     **users_arg, **parts, **names, **accounts, **qos;
	char     **resv;              /* -R/--reservation */
	uint32_t  *uids;
	size_t     uid_cnt;
	uint32_t  *states;       /* base states, or flag bits above 0xff */
	size_t     state_cnt;
	bool       all_states;
	job_sel_t *jobs;
	size_t     job_cnt;
	hostlist_t *nodes;
} opt;

static void usage(FILE *out)
{
	fputs("Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]\n"
	      "              [-n name] [-o format] [--only-job-state] [-p partitions]\n"
	      "              [--qos qos] [--reservation reservation] [--sort fields] [--start]\n"
	      "              [--step step_id] [-t states] [-u user_name] [--usage]\n"
	      "              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]\n"
	      "              [--expand-patterns] [--json=data_parser] [--yaml=data_parser]\n"
	      "              [-ahjlrsv]\n", out);
}

static void help(void)
{
	fputs("Usage: squeue [OPTIONS]\n"
	      "  -A, --account=account(s)        accounts to view, comma separated list\n"
	      "  -a, --all                       display jobs in hidden partitions\n"
	      "  -h, --noheader                  no headers on output\n"
	      "  -i, --iterate=seconds           specify an interation period\n"
	      "  -j, --job=job(s)                comma separated list of jobs IDs\n"
	      "                                  to view, default is all\n"
	      "      --json                      print the jobs as JSON\n"
	      "  -l, --long                      long report\n"
	      "      --me                        equivalent to --user=<my username>\n"
	      "  -n, --name=job_name(s)          comma separated list of job names to view\n"
	      "  -o, --format=format             format specification\n"
	      "  -O, --Format=format             format specification\n"
	      "  -p, --partition=partition(s)    comma separated list of partitions\n"
	      "                                  to view, default is all partitions\n"
	      "  -q, --qos=qos(s)                comma separated list of qos's\n"
	      "                                  to view, default is all qos's\n"
	      "  -r, --array                     display one job array element per line\n"
	      "  -R, --reservation=name          reservation to view, default is all\n"
	      "  -S, --sort=fields               comma separated list of fields to sort on\n"
	      "      --start                     print expected start times of pending jobs\n"
	      "  -t, --states=states             comma separated list of states to view,\n"
	      "                                  default is pending and running,\n"
	      "                                  '--states=all' reports all states\n"
	      "  -u, --user=user_name(s)         comma separated list of users to view\n"
	      "  -v, --verbose                   verbosity level\n"
	      "  -V, --version                   output version information and exit\n"
	      "  -w, --nodelist=hostlist         list of nodes to view, default is\n"
	      "                                  all nodes\n"
	      "      --yaml                      print the jobs as YAML\n"
	      "\nHelp options:\n"
	      "  --help                          show this help message\n"
	      "  --usage                         display a brief summary of squeue options\n",
	      stdout);
}

/* ---- option values ---- */

static void set_list(char ***dst, const char *arg)
{
	xstrarray_free(*dst);
	*dst = xstrsplit(arg, ",", NULL);
}

static int parse_users(const char *arg)
{
	char **items = xstrsplit(arg, ",", NULL);
	int rc = 0;

	for (size_t i = 0; items && items[i]; i++) {
		struct passwd *pw = getpwnam(items[i]);
		uint32_t uid;

		if (pw)
			uid = pw->pw_uid;
		else if (parse_u32(items[i], &uid) < 0 || !getpwuid(uid)) {
			error("Invalid user: %s", items[i]);
			rc = -1;
			break;
		}
		opt.uids = xrealloc(opt.uids, (opt.uid_cnt + 1) * sizeof(*opt.uids));
		opt.uids[opt.uid_cnt++] = uid;
	}
	xstrarray_free(items);
	return rc;
}

static void bad_state(const char *s)
{
	fprintf(stderr, "squeue: error: Invalid job state specified: %s\n", s);
	fputs("squeue: error: Valid job states include: PENDING,RUNNING,"
	      "SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,"
	      "PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,"
	      "CONFIGURING,RESIZING,RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,"
	      "REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED\n\n",
	      stderr);
}

static int parse_states(const char *arg)
{
	char **items = xstrsplit(arg, ",", NULL);
	int rc = 0;

	opt.state_cnt = 0;
	for (size_t i = 0; items && items[i]; i++) {
		uint32_t st;

		if (!strcasecmp(items[i], "all")) {
			opt.all_states = true;
			continue;
		}
		if (job_state_from_string(items[i], &st) < 0) {
			bad_state(items[i]);
			rc = -1;
			break;
		}
		opt.states = xrealloc(opt.states,
				      (opt.state_cnt + 1) * sizeof(*opt.states));
		opt.states[opt.state_cnt++] = st;
	}
	xstrarray_free(items);
	return rc;
}

static int parse_job_ids(const char *arg)
{
	char **items = xstrsplit(arg, ", ", NULL);
	int rc = 0;

	for (size_t i = 0; items && items[i]; i++) {
		char *us = strchr(items[i], '_');
		job_sel_t sel = { .task_id = NO_VAL32 };

		if (us)
			*us = '\0';
		if (parse_u32(items[i], &sel.job_id) < 0 || !sel.job_id ||
		    (us && parse_u32(us + 1, &sel.task_id) < 0)) {
			if (us)
				*us = '_';
			error("Invalid job id: %s", items[i]);
			rc = -1;
			break;
		}
		opt.jobs = xrealloc(opt.jobs, (opt.job_cnt + 1) * sizeof(*opt.jobs));
		opt.jobs[opt.job_cnt++] = sel;
	}
	xstrarray_free(items);
	return rc;
}

static int parse_nodes(const char *arg)
{
	char err[256];

	hostlist_destroy(opt.nodes);
	opt.nodes = hostlist_parse(arg, err, sizeof(err));
	if (!opt.nodes) {
		error("Invalid node list: %s", arg);
		return -1;
	}
	return 0;
}

enum {
	OPT_HELP = 0x100, OPT_USAGE, OPT_ME, OPT_START, OPT_JSON, OPT_YAML,
	OPT_NOCONVERT, OPT_LOCAL, OPT_ONLY_STATE,
};

static const struct option long_opts[] = {
	{ "account", required_argument, NULL, 'A' },
	{ "all", no_argument, NULL, 'a' },
	{ "array", no_argument, NULL, 'r' },
	{ "clusters", required_argument, NULL, 'M' },
	{ "format", required_argument, NULL, 'o' },
	{ "Format", required_argument, NULL, 'O' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "iterate", required_argument, NULL, 'i' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "job", required_argument, NULL, 'j' },
	{ "json", optional_argument, NULL, OPT_JSON },
	{ "licenses", required_argument, NULL, 'L' },
	{ "local", no_argument, NULL, OPT_LOCAL },
	{ "long", no_argument, NULL, 'l' },
	{ "me", no_argument, NULL, OPT_ME },
	{ "name", required_argument, NULL, 'n' },
	{ "noconvert", no_argument, NULL, OPT_NOCONVERT },
	{ "noheader", no_argument, NULL, 'h' },
	{ "nodelist", required_argument, NULL, 'w' },
	{ "only-job-state", no_argument, NULL, OPT_ONLY_STATE },
	{ "partition", required_argument, NULL, 'p' },
	{ "qos", required_argument, NULL, 'q' },
	{ "reservation", required_argument, NULL, 'R' },
	{ "sort", required_argument, NULL, 'S' },
	{ "start", no_argument, NULL, OPT_START },
	{ "states", required_argument, NULL, 't' },
	{ "state", required_argument, NULL, 't' },
	{ "steps", optional_argument, NULL, 's' },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "user", required_argument, NULL, 'u' },
	{ "users", required_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "yaml", optional_argument, NULL, OPT_YAML },
	{ NULL, 0, NULL, 0 },
};

static int apply_option(int c, const char *arg)
{
	switch (c) {
	case 'A': set_list(&opt.accounts, arg); return 0;
	case 'M': xfree(opt.clusters); opt.clusters = xstrdup(arg); return 0;
	case 'a': opt.all = true; return 0;
	case 'r': opt.array = true; return 0;
	case 'h': opt.no_header = true; return 0;
	case 'i':
		opt.iterate = atoi(arg);
		if (opt.iterate <= 0) {
			error("--iterate=%s: invalid value", arg);
			return -1;
		}
		return 0;
	case 'j': return parse_job_ids(arg);
	case 'l': opt.long_fmt = true; return 0;
	case 'n': set_list(&opt.names, arg); return 0;
	case 'o': xfree(opt.format); opt.format = xstrdup(arg); return 0;
	case 'O': xfree(opt.format_long); opt.format_long = xstrdup(arg); return 0;
	case 'p': set_list(&opt.parts, arg); return 0;
	case 'q': set_list(&opt.qos, arg); return 0;
	case 'R': set_list(&opt.resv, arg); return 0;
	case 'S': xfree(opt.sort); opt.sort = xstrdup(arg); return 0;
	case 's': opt.steps = true; return 0;
	case 't': return parse_states(arg);
	case 'u': return parse_users(arg);
	case 'v': opt.verbose++; return 0;
	case 'w': return parse_nodes(arg);
	case OPT_ME: opt.me = true; return 0;
	case OPT_START: opt.start = true; return 0;
	case OPT_JSON: opt.json = true; return 0;
	case OPT_YAML: opt.yaml = true; return 0;
	default: return 0;    /* accepted, no effect here */
	}
}

static int parse_args(int argc, char **argv)
{
	int c;

	opterr = 1;
	while ((c = getopt_long(argc, argv, "A:ahi:j:lL:M:n:o:O:p:q:R:rs::S:t:u:vVw:",
				long_opts, NULL)) != -1) {
		switch (c) {
		case '?':
			fputs("Try \"squeue --help\" for more information\n", stderr);
			exit(1);
		case 'V':
			printf("slurm %s\n", SLUICE_VERSION_STRING);
			exit(0);
		case OPT_HELP:
			help();
			exit(0);
		case OPT_USAGE:
			usage(stdout);
			exit(0);
		default:
			if (apply_option(c, optarg) < 0)
				exit(1);
		}
	}
	if (optind < argc) {
		error("Unrecognized option: %s", argv[optind]);
		usage(stderr);
		exit(1);
	}
	return 0;
}

static void parse_env(void)
{
	const char *v;

	/* Only without -o/-O; SQUEUE_FORMAT2 wins over SQUEUE_FORMAT. */
	if (!opt.format && !opt.format_long) {
		if ((v = getenv("SQUEUE_FORMAT2")) && *v)
			opt.format_long = xstrdup(v);
		else if ((v = getenv("SQUEUE_FORMAT")) && *v)
			opt.format = xstrdup(v);
	}
	if ((v = getenv("SQUEUE_SORT")) && !opt.sort)
		opt.sort = xstrdup(v);
	if ((v = getenv("SQUEUE_USERS")) && !opt.uid_cnt && parse_users(v) < 0)
		exit(1);
	if ((v = getenv("SQUEUE_STATES")) && !opt.state_cnt && !opt.all_states &&
	    parse_states(v) < 0)
		exit(1);
	if ((v = getenv("SQUEUE_PARTITION")) && !opt.parts)
		set_list(&opt.parts, v);
	if ((v = getenv("SQUEUE_ACCOUNT")) && !opt.accounts)
		set_list(&opt.accounts, v);
	if ((v = getenv("SQUEUE_QOS")) && !opt.qos)
		set_list(&opt.qos, v);
	if ((v = getenv("SQUEUE_NAMES")) && !opt.names)
		set_list(&opt.names, v);
}

/* ---- which jobs ---- */

static bool in_list(char **list, const char *v)
{
	if (!list)
		return true;
	for (size_t i = 0; list[i]; i++)
		if (v && !strcmp(list[i], v))
			return true;
	return false;
}

/* Partition may be "a,b": any of them listed. */
static bool part_match(const char *part)
{
	char **items;
	bool hit = false;

	if (!opt.parts)
		return true;
	items = xstrsplit(part ? part : "", ",", NULL);
	for (size_t i = 0; items && items[i] && !hit; i++)
		hit = in_list(opt.parts, items[i]);
	xstrarray_free(items);
	return hit;
}

static bool state_match(const job_info_t *j)
{
	if (opt.all_states)
		return true;
	if (!opt.state_cnt)
		return opt.job_cnt || !job_state_is_finished(j->job_state);
	for (size_t i = 0; i < opt.state_cnt; i++) {
		uint32_t s = opt.states[i];

		if (s > JOB_STATE_BASE ? (j->job_state & s) != 0
				       : (j->job_state & JOB_STATE_BASE) == s)
			return true;
	}
	return false;
}

static bool job_id_match(const job_info_t *j)
{
	if (!opt.job_cnt)
		return true;
	for (size_t i = 0; i < opt.job_cnt; i++) {
		const job_sel_t *s = &opt.jobs[i];

		if (s->task_id == NO_VAL32 &&
		    (j->job_id == s->job_id || j->array_job_id == s->job_id ||
		     j->het_job_id == s->job_id))
			return true;
		if (s->task_id != NO_VAL32 && j->array_job_id == s->job_id &&
		    j->array_task_id == s->task_id)
			return true;
	}
	return false;
}

static bool uid_match(const job_info_t *j)
{
	if (!opt.uid_cnt)
		return true;
	for (size_t i = 0; i < opt.uid_cnt; i++)
		if (opt.uids[i] == j->user_id)
			return true;
	return false;
}

static bool node_match(const job_info_t *j)
{
	hostlist_t *hl;
	char err[128];
	bool hit = false;

	if (!opt.nodes)
		return true;
	if (!j->nodes || !(hl = hostlist_parse(j->nodes, err, sizeof(err))))
		return false;
	for (size_t i = 0; i < hostlist_count(hl) && !hit; i++)
		hit = hostlist_find(opt.nodes, hostlist_nth(hl, i)) >= 0;
	hostlist_destroy(hl);
	return hit;
}

/* Every filter but -j. */
static bool job_wanted_noid(const job_info_t *j)
{
	if (opt.start && (j->job_state & JOB_STATE_BASE) != JOB_PENDING)
		return false;
	return state_match(j) && uid_match(j) &&
	       part_match(j->partition) && in_list(opt.names, j->name) &&
	       in_list(opt.accounts, j->account) && in_list(opt.qos, j->qos) &&
	       in_list(opt.resv, j->reservation) && node_match(j);
}

static bool job_wanted(const job_info_t *j)
{
	return job_wanted_noid(j) && job_id_match(j);
}

/* ---- -r: one line per pending array task ---- */

typedef struct {
	job_info_t *recs;        /* task copies (shallow) */
	size_t      cnt;
} expanded_t;

/* One copy of the pending record j per task it holds that -j selects. */
static void expand_tasks(const job_info_t *j, expanded_t *ex)
{
	char err[128];
	uint32_t thr;
	bitmap_t *b = array_spec_parse(j->array_task_str ? j->array_task_str : "",
				       ARRAY_SPEC_MAX_SIZE, &thr, err, sizeof(err));

	for (long t = b ? bitmap_first_set(b) : -1; t >= 0;
	     t = bitmap_next_set(b, (size_t)t + 1)) {
		job_info_t rec = *j;

		rec.array_task_id = (uint32_t)t;
		if (!job_id_match(&rec))
			continue;
		ex->recs = xrealloc(ex->recs, (ex->cnt + 1) * sizeof(*ex->recs));
		ex->recs[ex->cnt++] = rec;
	}
	if (b)
		bitmap_destroy(b);
}

/* j is an array's pending record: is it shown one line per task (-r, or
 * -j naming one of its tasks)? */
static bool expand_wanted(const job_info_t *j)
{
	if (!j->array_job_id || j->array_task_id != NO_VAL32)
		return false;
	if (opt.array)
		return true;
	for (size_t i = 0; i < opt.job_cnt; i++)
		if (opt.jobs[i].job_id == j->array_job_id &&
		    opt.jobs[i].task_id != NO_VAL32)
			return true;
	return false;
}

/* ---- sorting ---- */

typedef struct {
	char letter;
	bool desc;
} sort_key_t;

static sort_key_t sort_keys[32];
static size_t     sort_key_cnt;
static cli_ctx_t  sort_ctx;

static void parse_sort(const char *spec)
{
	char **items = xstrsplit(spec, ",", NULL);

	sort_key_cnt = 0;
	for (size_t i = 0; items && items[i]; i++) {
		const char *p = items[i];
		bool desc = false;

		if (*p == '-' || *p == '+')
			desc = *p++ == '-';
		for (; *p && sort_key_cnt < 32; p++)
			sort_keys[sort_key_cnt++] = (sort_key_t){ *p, desc };
	}
	xstrarray_free(items);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Unset start times sort after every set one. */
static uint64_t start_key(time_t t)
{
	return t ? (uint64_t)t : UINT64_MAX;
}

static int cmp_key(const job_info_t *a, const job_info_t *b, char k)
{
	const cli_field_t *f;
	char *ta, *tb;
	int rc;

	switch (k) {
	case 'i': case 'A': return cmp_u64(a->job_id, b->job_id);
	case 'p': case 'Q': return cmp_u64(a->priority, b->priority);
	case 'D': return cmp_u64(a->num_nodes, b->num_nodes);
	case 'C': return cmp_u64(a->num_cpus, b->num_cpus);
	case 'l': return cmp_u64(a->time_limit, b->time_limit);
	case 'M': return cmp_u64((uint64_t)cli_job_run_secs(a, sort_ctx.now),
				 (uint64_t)cli_job_run_secs(b, sort_ctx.now));
	case 'S': return cmp_u64(start_key(a->start_time), start_key(b->start_time));
	case 'V': return cmp_u64((uint64_t)a->submit_time, (uint64_t)b->submit_time);
	case 'e': return cmp_u64((uint64_t)a->end_time, (uint64_t)b->end_time);
	case 'U': return cmp_u64(a->user_id, b->user_id);
	case 'G': return cmp_u64(a->group_id, b->group_id);
	case 'P': return xstrcmp(a->partition, b->partition);
	case 'j': return xstrcmp(a->name, b->name);
	case 't': return a->job_state == b->job_state ? 0 :
			strcmp(job_state_string_compact(a->job_state),
			       job_state_string_compact(b->job_state));
	case 'T': return a->job_state == b->job_state ? 0 :
			strcmp(job_state_string(a->job_state),
			       job_state_string(b->job_state));
	}
	f = cli_field_by_letter(cli_job_fields, k);
	if (!f)
		return 0;
	ta = cli_field_text(f, a, &sort_ctx);
	tb = cli_field_text(f, b, &sort_ctx);
	rc = strcmp(ta, tb);
	xfree(ta);
	xfree(tb);
	return rc;
}

/* Up to FAST_KEYS sort keys of the common kinds (ids, priority, users,
 * partition, state: the default P,t,-p) are copied out of the records
 * once, as ranks that order as cmp_key does, so that a comparison reads
 * its two items alone: at a million jobs, reading two records per
 * comparison (cache misses) was most of the sort. */
#define FAST_KEYS 4
#define FAST_STRS 64    /* distinct partitions or states ranked, at most */

typedef struct {
	const job_info_t *job;
	size_t            order;
	uint32_t          k[FAST_KEYS];
} sort_item_t;

/* Distinct strings (partitions) or states seen, and their ranks. */
typedef struct {
	size_t      n;
	bool        full;
	uint32_t    val[FAST_STRS];         /* states */
	const char *str[FAST_STRS];
	uint32_t    rank[FAST_STRS];
} rank_tab_t;

static const char *state_text(uint32_t st, char k)
{
	return k == 't' ? job_state_string_compact(st) : job_state_string(st);
}

/* The index of (v, str) in t, added if new; -1 when t is full. */
static int rank_slot(rank_tab_t *t, uint32_t v, const char *str, bool by_str)
{
	for (size_t i = 0; i < t->n; i++)
		if (by_str ? !xstrcmp(t->str[i], str) : t->val[i] == v)
			return (int)i;
	if (t->n == FAST_STRS) {
		t->full = true;
		return -1;
	}
	t->val[t->n] = v;
	t->str[t->n] = str;
	return (int)t->n++;
}

/* Rank = how many distinct strings sort before this one (equal strings,
 * as two states' texts may be, share a rank). */
static void rank_fill(rank_tab_t *t)
{
	for (size_t i = 0; i < t->n; i++) {
		t->rank[i] = 0;
		for (size_t j = 0; j < t->n; j++)
			if (xstrcmp(t->str[j], t->str[i]) < 0)
				t->rank[i]++;
	}
}

static bool fast_key(char k)
{
	return k && strchr("iApQUGPtT", k);
}

/* Copy the keys of items[0..n) out; false when a key is not of the
 * kinds above (or too many distinct values): cmp_jobs then. */
static bool fast_keys_fill(sort_item_t *items, size_t n)
{
	rank_tab_t *tabs;
	int *slot;
	bool ok = sort_key_cnt <= FAST_KEYS;

	for (size_t i = 0; ok && i < sort_key_cnt; i++)
		ok = fast_key(sort_keys[i].letter);
	if (!ok || !n)
		return false;
	tabs = xcalloc(FAST_KEYS, sizeof(*tabs));
	slot = xcalloc(n * FAST_KEYS, sizeof(*slot));
	for (size_t i = 0; i < n && ok; i++) {
		const job_info_t *j = items[i].job;

		for (size_t q = 0; q < sort_key_cnt; q++) {
			char k = sort_keys[q].letter;
			uint32_t *v = &items[i].k[q];

			switch (k) {
			case 'i': case 'A': *v = j->job_id; break;
			case 'p': case 'Q': *v = j->priority; break;
			case 'U': *v = j->user_id; break;
			case 'G': *v = j->group_id; break;
			case 'P':
				slot[i * FAST_KEYS + q] = rank_slot(&tabs[q], 0,
						j->partition, true);
				break;
			default:        /* t, T */
				slot[i * FAST_KEYS + q] = rank_slot(&tabs[q],
						j->job_state,
						state_text(j->job_state, k), false);
			}
			if (tabs[q].full)
				ok = false;
		}
	}
	for (size_t q = 0; ok && q < sort_key_cnt; q++)
		rank_fill(&tabs[q]);
	for (size_t i = 0; ok && i < n; i++)
		for (size_t q = 0; q < sort_key_cnt; q++) {
			char k = sort_keys[q].letter;

			if (k == 'P' || k == 't' || k == 'T')
				items[i].k[q] = tabs[q].rank[slot[i * FAST_KEYS + q]];
			if (sort_keys[q].desc)
				items[i].k[q] = ~items[i].k[q];
		}
	xfree(slot);
	xfree(tabs);
	return ok;
}

static int cmp_fast(const void *pa, const void *pb)
{
	const sort_item_t *a = pa, *b = pb;

	for (size_t i = 0; i < sort_key_cnt; i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i] ? -1 : 1;
	return cmp_u64(a->order, b->order);
}

static int cmp_jobs(const void *pa, const void *pb)
{
	const sort_item_t *a = pa, *b = pb;

	for (size_t i = 0; i < sort_key_cnt; i++) {
		int rc = cmp_key(a->job, b->job, sort_keys[i].letter);

		if (rc)
			return sort_keys[i].desc ? -rc : rc;
	}
	return cmp_u64(a->order, b->order);
}

/* ---- output ---- */

/* Every job: -j is matched here, since an array's tasks carry job ids of
 * their own that the controller's id filter would leave out. */
static int load_jobs(slurm_msg_t *resp, const fields_sel_t *sel)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32 };
	int rc;

	if (sel)
		req.fields = *sel;
	if (opt.all)
		req.show_flags |= SHOW_ALL;
	rc = cli_ctld_rpc(REQUEST_JOB_INFO, &req, resp);
	if (rc) {
		fprintf(stderr, "slurm_load_jobs error: %s\n", cli_comm_strerror(rc));
		return 1;
	}
	rc = cli_resp_rc(resp);
	if (rc || resp->type != RESPONSE_JOB_INFO || !resp->data) {
		fprintf(stderr, "slurm_load_jobs error: %s\n",
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(resp);
		return 1;
	}
	return 0;
}

static void print_date(void)
{
	time_t now = time(NULL);
	char buf[64];

	strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", localtime(&now));
	printf("%s\n", buf);
}

static void build_format(cli_format_t *fmt)
{
	const cli_field_t *tab = opt.steps ? cli_step_fields : cli_job_fields;
	const char *what = opt.steps ? "step" : "job";

	if (opt.format)
		cli_format_parse(fmt, opt.format, tab, what);
	else if (opt.format_long)
		cli_format_parse_long(fmt, opt.format_long, tab, what);
	else
		cli_format_parse(fmt, opt.steps ? FMT_STEPS : opt.start ? FMT_START
				 : opt.long_fmt ? FMT_LONG : FMT_DEFAULT, tab, what);
}

/* The running srun steps (REQUEST_JOB_STEP_INFO); NULL if none. */
static job_step_info_msg_t *load_steps(slurm_msg_t *resp)
{
	job_step_info_request_msg_t req = { .job_id = NO_VAL32,
					    .step_id = NO_VAL32,
					    .user_id = NO_VAL32 };

	if (cli_ctld_rpc(REQUEST_JOB_STEP_INFO, &req, resp))
		return NULL;
	if (resp->type != RESPONSE_JOB_STEP_INFO || !resp->data) {
		msg_free(resp);
		return NULL;
	}
	return resp->data;
}

/* squeue -s: the batch step and srun steps of every running job among
 * jobs. */
static void print_steps(cli_format_t *fmt, const job_info_t **jobs, size_t n)
{
	slurm_msg_t sresp = { 0 };
	const job_step_info_msg_t *sm = load_steps(&sresp);
	size_t cap = n + (sm ? sm->cnt : 0) + 1;
	cli_step_row_t *rows = xcalloc(cap, sizeof(*rows));
	const void **recs = xcalloc(cap, sizeof(*recs));
	size_t cnt = 0;

	for (size_t i = 0; i < n; i++) {
		const job_info_t *j = jobs[i];

		if ((j->job_state & JOB_STATE_BASE) != JOB_RUNNING)
			continue;
		/* as Slurm: by step id, N.0 ... then N.batch, N.extern */
		for (int pass = 0; pass < 3; pass++) {
			if (pass == 1 && j->batch_flag && j->batch_host &&
			    cnt + 1 < cap) {
				rows[cnt] = (cli_step_row_t){ j, "batch" };
				recs[cnt] = &rows[cnt];
				cnt++;
			}
			for (uint32_t k = 0; pass != 1 && sm && k < sm->cnt;
			     k++) {
				const job_step_info_t *s = &sm->steps[k];

				if (s->job_id != j->job_id ||
				    s->step_id == SLURM_BATCH_SCRIPT ||
				    (s->step_id == SLURM_EXTERN_CONT) !=
				    (pass == 2) || cnt + 1 >= cap)
					continue;
				rows[cnt] = (cli_step_row_t){ j, s->name, true,
					s->step_id, s->nodes, s->start_time,
					s->num_tasks };
				recs[cnt] = &rows[cnt];
				cnt++;
			}
		}
	}
	cli_output_table(stdout, fmt, recs, cnt, &sort_ctx, !opt.no_header);
	xfree(recs);
	xfree(rows);
	msg_free(&sresp);
}

/* Filtered, expanded, sorted pointers into m (and ex). */
static const job_info_t **select_jobs(const job_info_msg_t *m, expanded_t *ex,
				      size_t *cnt)
{
	sort_item_t *items = xcalloc((size_t)m->cnt + 1, sizeof(*items));
	const job_info_t **out;
	size_t n = 0;

	for (uint32_t i = 0; i < m->cnt; i++) {
		const job_info_t *j = &m->jobs[i];

		if (expand_wanted(j)) {
			if (job_wanted_noid(j))
				expand_tasks(j, ex);
		} else if (job_wanted(j)) {
			items[n] = (sort_item_t){ j, n };
			n++;
		}
	}
	if (ex->cnt)
		items = xrealloc(items, (n + ex->cnt + 1) * sizeof(*items));
	for (size_t i = 0; i < ex->cnt; i++) {
		items[n] = (sort_item_t){ &ex->recs[i], n };
		n++;
	}
	if (n)
		qsort(items, n, sizeof(*items),
		      fast_keys_fill(items, n) ? cmp_fast : cmp_jobs);
	out = xcalloc(n + 1, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		out[i] = items[i].job;
	xfree(items);
	*cnt = n;
	return out;
}

static void print_doc(const job_info_msg_t *m, const job_info_t **jobs,
		      size_t n)
{
	job_info_msg_t sub = { .last_update = m->last_update,
			       .cnt = (uint32_t)n };

	sub.jobs = xcalloc(n + 1, sizeof(*sub.jobs));
	for (size_t i = 0; i < n; i++)
		sub.jobs[i] = *jobs[i];
	cli_print_jobs_json(stdout, &sub, opt.yaml);
	xfree(sub.jobs);
}

/* The job fields this run reads (its filters, sort keys and columns),
 * so that the controller packs only those; false if it needs them all. */
static bool wanted_fields(const cli_format_t *fmt, fields_sel_t *sel)
{
	/* state and ids are always matched (-t default, -j, -r) */
	static const char always[] = "job_id,array_job_id,array_task_id,"
		"array_task_str,job_state,het_job_id";
	const struct {
		bool        used;
		const char *field;
	} filters[] = {
		{ opt.uid_cnt > 0, "user_id" }, { opt.parts, "partition" },
		{ opt.names, "name" }, { opt.accounts, "account" },
		{ opt.qos, "qos" }, { opt.resv, "reservation" },
		{ opt.nodes, "nodes" },
	};

	if (opt.json || opt.yaml || opt.steps)
		return false;
	memset(sel, 0, sizeof(*sel));
	if (fields_sel_add_list(sel, job_info_fields, always) < 0)
		return false;
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		if (filters[i].used &&
		    fields_sel_add(sel, job_info_fields, filters[i].field) < 0)
			return false;
	for (size_t i = 0; i < fmt->cnt; i++)
		if (cli_job_field_needs(fmt->cols[i].field, sel) < 0)
			return false;
	for (size_t i = 0; i < sort_key_cnt; i++) {
		const cli_field_t *f = cli_field_by_letter(cli_job_fields,
							   sort_keys[i].letter);

		if (f && cli_job_field_needs(f, sel) < 0)
			return false;
	}
	return true;
}

/* -M: the clusters asked (NULL: this one), and the one being shown. */
static cli_cluster_t *clusters;
static size_t ncl;
static const char *cur_cluster;

static int squeue_once(int iter)
{
	slurm_msg_t resp;
	const job_info_msg_t *m;
	const job_info_t **jobs;
	expanded_t ex = { 0 };
	cli_format_t fmt = { 0 };
	fields_sel_t sel;
	bool doc = opt.json || opt.yaml;
	size_t n;
	int rc = 0;

	parse_sort(opt.sort ? opt.sort : opt.start ? "S" : opt.steps ? "P,i"
		   : SORT_DEFAULT);
	if (!doc)
		build_format(&fmt);
	if (load_jobs(&resp, !doc && wanted_fields(&fmt, &sel) ? &sel : NULL)) {
		cli_format_free(&fmt);
		return 1;
	}
	m = resp.data;
	sort_ctx.now = time(NULL);
	jobs = select_jobs(m, &ex, &n);
	if (opt.job_cnt == 1 && !n && !opt.state_cnt) {
		fprintf(stderr, "slurm_load_jobs error: %s\n",
			slurm_strerror(ESLURM_INVALID_JOB_ID));
		rc = 1;
		goto out;
	}
	if (doc) {
		print_doc(m, jobs, n);
		goto out;
	}
	if (iter)
		putchar('\n');
	if (opt.long_fmt || opt.iterate)
		print_date();
	if (opt.clusters)
		printf("CLUSTER: %s\n", cur_cluster);
	if (opt.steps)
		print_steps(&fmt, jobs, n);
	else
		cli_output_table(stdout, &fmt, (const void *const *)jobs, n,
				 &sort_ctx, !opt.no_header);
out:
	cli_format_free(&fmt);
	xfree(jobs);
	xfree(ex.recs);
	msg_free(&resp);
	return rc;
}

int main(int argc, char **argv)
{
	/* 10,000 lines into a pipe or file: 64 KiB writes, not 4 KiB ones */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, (size_t)64 << 10);
	cli_init_noconf("squeue", 0);
	parse_args(argc, argv);
	parse_env();
	cli_init("squeue", opt.verbose);
	cur_cluster = cli_conf()->cluster_name;
	if (opt.clusters &&
	    !(clusters = cli_clusters_resolve(opt.clusters, &ncl)))
		exit(1);
	cli_output_set_cluster(cur_cluster);
	if (opt.me) {
		opt.uids = xrealloc(opt.uids, (opt.uid_cnt + 1) * sizeof(*opt.uids));
		opt.uids[opt.uid_cnt++] = getuid();
	}
	for (int iter = 0;; iter++) {
		int rc = 0;

		/* -M: each cluster's queue under its "CLUSTER:" line */
		for (size_t k = 0; k < (clusters ? ncl : 1); k++) {
			if (clusters) {
				cli_clusters_use(&clusters[k]);
				cur_cluster = clusters[k].name;
				cli_output_set_cluster(cur_cluster);
			}
			rc |= squeue_once(iter);
		}
		if (rc || !opt.iterate)
			return rc;
		fflush(stdout);
		sleep((unsigned)opt.iterate);
	}
}
