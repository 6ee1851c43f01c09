/* sreport — usage reports from slurmdbd.
 *
 * "sreport [options] <type> <report> [key=value ...]": cluster
 * Utilization / AccountUtilizationByUser / UserUtilizationByAccount,
 * user TopUsage, job SizesByAccount.  The window is Slurm's: yesterday
 * by default, start and end rounded to the nearest hour, an end inside
 * the current hour or later means the end of the current hour (usage is
 * counted up to now).  slurmdbd computes the figures from the job
 * records (REQUEST_DBD_REPORT); cli_sreport_rep.c lays them out.
 * Without a command, commands are read from standard input.
 */
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_sreport.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static struct {
	sr_time_t tf;
	int       parsable;
	bool      noheader;
	bool      quiet;
	int       verbose;
	char     *cluster;
	char     *tres;           /* -T, resolved per command */
} gopt = { .tf = SR_TIME_MINS };

static void usage(FILE *out)
{
	fprintf(out,
"Usage: sreport [OPTIONS] [COMMAND]\n"
"  -a, --all_clusters   every cluster (only the local one is kept)\n"
"  -M, --cluster=name   the cluster to report on\n"
"  -n, --noheader       no banner and no header line\n"
"  -p, --parsable       '|' after every field\n"
"  -P, --parsable2      '|' between fields\n"
"  -Q, --quiet          no warnings\n"
"  -t <format>          SecPer MinPer HourPer Seconds Minutes Hours Percent\n"
"  -T, --tres=list      the TRES to report (sacctmgr show tres), or ALL\n"
"  -v, --verbose        more logging\n"
"  -V, --version        print the version\n"
"\n"
"Commands:\n"
"  cluster Utilization | AccountUtilizationByUser | UserUtilizationByAccount\n"
"  user TopUsage\n"
"  job SizesByAccount\n"
"  Options: Start= End= Format= Accounts= Users= Clusters= Tree Group\n"
"           TopCount= Grouping= PrintJobCount FlatView\n");
}

/* ---- the window ---- */

static time_t nearest_hour(time_t t)
{
	return (t + 1800) / 3600 * 3600;
}

static time_t midnight(time_t now, int add_days)
{
	struct tm tm;

	localtime_r(&now, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday += add_days;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

static void set_window(sreport_t *o, bool start_given, bool end_given)
{
	time_t now = time(NULL), hour = now / 3600 * 3600;

	if (!end_given)
		o->end = midnight(now, 0);
	if (!start_given)
		o->start = midnight(now, -1);
	o->start = nearest_hour(o->start);
	/* an end inside the current hour or later: up to now.  An end at
	 * its start (the default, today's midnight, in the hour after
	 * midnight) leaves it out: 23:59:59 of the previous day */
	if (o->end > hour)
		o->end = hour + 3600;
	else
		o->end = nearest_hour(o->end);
	if (o->end <= o->start)
		o->end = o->start + 3600;
}

/* ---- conditions ---- */

static bool key_is(const char *kv, const char *key, size_t min, char **val)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : strlen(kv);

	if (n < min || n > strlen(key) || strncasecmp(kv, key, n))
		return false;
	if (val)
		*val = eq ? (char *)eq + 1 : NULL;
	return true;
}

static char **lower_list(char **list, const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);

	for (size_t i = 0; items[i]; i++) {
		for (char *p = items[i]; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p += 'a' - 'A';
		if (items[i][0])
			list = xstrarray_append(list, items[i]);
	}
	xstrarray_free(items);
	return list;
}

static int add_users(sreport_t *o, const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);
	int rc = 0;

	for (size_t i = 0; items[i]; i++) {
		struct passwd *pw = getpwnam(items[i]);
		uint32_t uid;
		char num[16];

		if (!items[i][0])
			continue;
		if (pw) {
			uid = pw->pw_uid;
		} else if (parse_u32(items[i], &uid) < 0) {
			error("Invalid user name: %s", items[i]);
			rc = -1;
			continue;
		}
		snprintf(num, sizeof(num), "%u", uid);
		o->users = xstrarray_append(o->users, num);
	}
	xstrarray_free(items);
	return rc;
}

static int set_grouping(sreport_t *o, const char *csv)
{
	char **items = xstrsplit(csv, ",", NULL);
	int rc = 0;

	o->grouping_cnt = 0;
	for (size_t i = 0; items[i] && !rc; i++) {
		uint32_t v;

		if (!items[i][0])
			continue;
		if (parse_u32(items[i], &v) < 0 || !v ||
		    (o->grouping_cnt && v <= o->grouping[o->grouping_cnt - 1])) {
			error("Invalid grouping: %s", csv);
			rc = -1;
			break;
		}
		o->grouping = xrealloc(o->grouping, (o->grouping_cnt + 1) *
				       sizeof(uint32_t));
		o->grouping[o->grouping_cnt++] = v;
	}
	xstrarray_free(items);
	if (!rc && !o->grouping_cnt) {
		error("Invalid grouping: %s", csv);
		rc = -1;
	}
	return rc;
}

static int parse_time_cond(const char *v, time_t *out)
{
	if (!v || parse_time_past(v, time(NULL), out) < 0) {
		fprintf(stderr, "Invalid time specification (pos=0): %s\n",
			v ? v : "");
		return -1;
	}
	return 0;
}

/* key=value words after the report name.  -1: stop with exit 1. */
static int parse_conds(sreport_t *o, int argc, char **argv)
{
	bool start_given = false, end_given = false;
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		char *a = argv[i], *v = NULL;

		if (key_is(a, "start", 1, &v) && v) {
			start_given = parse_time_cond(v, &o->start) == 0;
		} else if (key_is(a, "end", 1, &v) && v) {
			end_given = parse_time_cond(v, &o->end) == 0;
		} else if (key_is(a, "format", 1, &v) && v) {
			xfree(o->format);
			o->format = xstrdup(v);
		} else if ((key_is(a, "accounts", 3, &v) ||
			    key_is(a, "acct", 3, &v)) && v) {
			o->accounts = lower_list(o->accounts, v);
		} else if (key_is(a, "wckeys", 1, &v) && v) {
			char **w = xstrsplit(v, ",", NULL);

			for (size_t k = 0; w[k]; k++)
				if (w[k][0])
					o->wckeys = xstrarray_append(o->wckeys,
								     w[k]);
			xstrarray_free(w);
		} else if (key_is(a, "users", 1, &v) && v) {
			if (add_users(o, v) < 0)
				rc = -1;
		} else if (key_is(a, "clusters", 1, &v) && v) {
			xfree(o->cluster);
			o->cluster = xstrdup(v);
			if (strchr(o->cluster, ','))
				*strchr(o->cluster, ',') = '\0';
		} else if (key_is(a, "all_clusters", 2, NULL)) {
			/* one cluster per slurmdbd here */
		} else if (key_is(a, "tree", 2, NULL)) {
			o->tree = true;
		} else if (key_is(a, "group", 2, NULL)) {
			o->group = true;
		} else if (key_is(a, "flatview", 2, NULL)) {
			o->flat = true;
		} else if (key_is(a, "printjobcount", 2, NULL)) {
			o->job_count = true;
		} else if (key_is(a, "topcount", 2, &v) && v) {
			if (parse_u32(v, &o->top_count) < 0 || !o->top_count) {
				error("Invalid TopCount: %s", v);
				rc = -1;
			}
		} else if (key_is(a, "grouping", 2, &v) && v) {
			if (set_grouping(o, v) < 0)
				rc = -1;
		} else {
			fprintf(stderr, " Unknown condition: %s\n"
				"Use keyword set to modify value\n", a);
			rc = -1;
		}
	}
	set_window(o, start_given, end_given);
	return rc;
}

/* ---- commands ---- */

static bool word_is(const char *w, const char *name, size_t min)
{
	size_t n = strlen(w);

	return n >= min && n <= strlen(name) && !strncasecmp(w, name, n);
}

/* "cluster utilization" ... -> kind; -1 with Slurm's message. */
static int parse_report(int argc, char **argv, sr_kind_t *kind)
{
	const char *type = argv[0], *rep = argc > 1 ? argv[1] : "";

	if (word_is(type, "cluster", 2)) {
		if (word_is(rep, "utilization", 2))
			*kind = SR_CLUSTER_UTIL;
		else if (word_is(rep, "accountutilizationbyqos", 21))
			*kind = SR_ACCT_BY_QOS;
		else if (word_is(rep, "userutilizationbywckey", 18))
			*kind = SR_USER_BY_WCKEY;
		else if (word_is(rep, "wckeyutilizationbyuser", 1))
			*kind = SR_WCKEY_BY_USER;
		else if (word_is(rep, "accountutilizationbyuser", 2))
			*kind = SR_ACCT_BY_USER;
		else if (word_is(rep, "userutilizationbyaccount", 2))
			*kind = SR_USER_BY_ACCT;
		else {
			fprintf(stderr, "Not valid report %s\nValid cluster "
				"reports are, \"AccountUtilizationByQOS\", "
				"\"AccountUtilizationByUser\", "
				"\"UserUtilizationByAccount\", "
				"\"UserUtilizationByWckey\", \"Utilization\", "
				"and \"WCKeyUtilizationByUser\"\n", rep);
			return -1;
		}
		return 0;
	}
	if (word_is(type, "user", 1)) {
		if (!word_is(rep, "topusage", 1)) {
			fprintf(stderr, "Not valid report %s\nValid user "
				"reports are, \"TopUsage\"\n", rep);
			return -1;
		}
		*kind = SR_USER_TOP;
		return 0;
	}
	if (word_is(type, "job", 1)) {
		if (word_is(rep, "sizesbyaccountandwckey", 15)) {
			*kind = SR_JOB_SIZES_ACCT_WCKEY;
			return 0;
		}
		if (word_is(rep, "sizesbywckey", 8)) {
			*kind = SR_JOB_SIZES_WCKEY;
			return 0;
		}
		if (!word_is(rep, "sizesbyaccount", 1)) {
			fprintf(stderr, "Not valid report %s\nValid job "
				"reports are, \"SizesByAccount\", "
				"\"SizesByAccountAndWckey\", and "
				"\"SizesByWckey\"\n", rep);
			return -1;
		}
		*kind = SR_JOB_SIZES;
		return 0;
	}
	if (word_is(type, "reservation", 2)) {
		if (!word_is(rep, "utilization", 1)) {
			fprintf(stderr, "Not valid report %s\nValid "
				"reservation reports are, \"Utilization\"\n",
				rep);
			return -1;
		}
		*kind = SR_RESV_UTIL;
		return 0;
	}
	fprintf(stderr, "invalid keyword: %s\n", type);
	return -1;
}

void *sreport_dbd_call(uint16_t type, void *req, uint16_t resp_type)
{
	const slurm_conf_t *c = cli_conf();
	const char *host = c->accounting_storage_host ?
		c->accounting_storage_host : "localhost";
	slurm_msg_t resp = { 0 };
	void *data;
	int rc;

	rc = net_rpc(host, c->accounting_storage_port, type, req, &resp,
		     c->message_timeout * 1000 * 3);
	if (rc) {
		error("Problem talking to the database: %s",
		      slurm_strerror(rc));
		return NULL;
	}
	if (resp.type != resp_type || !resp.data) {
		rc = cli_resp_rc(&resp);
		error("Problem talking to the database: %s",
		      slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return NULL;
	}
	data = resp.data;
	resp.data = NULL;
	msg_free(&resp);
	return data;
}

static table_resp_msg_t *query(const sreport_t *o, uint32_t tres)
{
	static const uint16_t kinds[] = {
		[SR_CLUSTER_UTIL] = DBD_REPORT_CLUSTER,
		[SR_ACCT_BY_USER] = DBD_REPORT_ASSOC,
		[SR_USER_BY_ACCT] = DBD_REPORT_ASSOC,
		[SR_USER_TOP] = DBD_REPORT_ASSOC,
		[SR_JOB_SIZES] = DBD_REPORT_JOB_SIZES,
		[SR_USER_BY_WCKEY] = DBD_REPORT_WCKEY,
		[SR_WCKEY_BY_USER] = DBD_REPORT_WCKEY,
		[SR_ACCT_BY_QOS] = DBD_REPORT_QOS,
		[SR_JOB_SIZES_WCKEY] = DBD_REPORT_WCKEY_SIZES,
		[SR_JOB_SIZES_ACCT_WCKEY] = DBD_REPORT_WCKEY_SIZES,
		[SR_RESV_UTIL] = DBD_REPORT_RESV,
	};
	dbd_report_msg_t req = {
		.report = kinds[o->kind], .cluster = o->cluster,
		.start = o->start, .end = o->end, .users = o->users,
		.accounts = o->accounts, .tres_id = tres,
	};
	table_resp_msg_t *r;

	if (!(r = sreport_dbd_call(REQUEST_DBD_REPORT, &req,
				   RESPONSE_DBD_REPORT)))
		return NULL;
	if (r->rc) {
		if (r->msg)
			error("%s", r->msg);
		else
			error("Problem with query: %s", slurm_strerror(r->rc));
		msg_body_free(RESPONSE_DBD_REPORT, r);
		return NULL;
	}
	return r;
}

static void sreport_free(sreport_t *o)
{
	xfree(o->cluster);
	xstrarray_free(o->users);
	xstrarray_free(o->accounts);
	xstrarray_free(o->wckeys);
	xfree(o->format);
	xfree(o->grouping);
	for (uint32_t k = 0; k < o->ntres; k++)
		xfree(o->tres_name[k]);
}

/* One command ("cluster utilization start=..."): 0, or 1 on error. */
static int run_command(int argc, char **argv)
{
	static const uint32_t def_grouping[] = { 50, 250, 500, 1000 };
	sreport_t o = { .tf = gopt.tf, .parsable = gopt.parsable,
			.noheader = gopt.noheader, .top_count = 10 };
	table_resp_msg_t *r[SR_TRES_MAX] = { 0 };
	uint32_t nq;
	int rc = 0;

	if (parse_report(argc, argv, &o.kind) < 0)
		return 1;
	if (gopt.tres && sr_tres_resolve(gopt.tres, &o, gopt.quiet) < 0) {
		sreport_free(&o);
		return 1;
	}
	if (o.ntres > 1 && (o.kind == SR_JOB_SIZES ||
			    o.kind == SR_JOB_SIZES_WCKEY ||
			    o.kind == SR_JOB_SIZES_ACCT_WCKEY)) {
		fprintf(stderr, " Job report only supports a single --tres "
			"type.\n Generate a separate report for each TRES "
			"type.\n");
		sreport_free(&o);
		return 1;
	}
	o.cluster = xstrdup(gopt.cluster ? gopt.cluster :
			    cli_conf()->cluster_name);
	o.grouping = xmalloc(sizeof(def_grouping));
	memcpy(o.grouping, def_grouping, sizeof(def_grouping));
	o.grouping_cnt = 4;
	if (parse_conds(&o, argc - 2 > 0 ? argc - 2 : 0, argv + 2) < 0)
		rc = 1;
	if (!o.cluster || !o.cluster[0]) {
		error("No cluster name: set ClusterName or use -M");
		sreport_free(&o);
		return 1;
	}
	nq = o.ntres && o.kind != SR_RESV_UTIL ? o.ntres : 1;
	for (uint32_t k = 0; k < nq; k++) {
		r[k] = query(&o, o.ntres ? o.tres[k] : 0);
		if (!r[k]) {
			rc = 1;
			break;
		}
	}
	if (!rc && sr_report(&o, r, nq) < 0)
		rc = 1;
	for (uint32_t k = 0; k < nq; k++)
		if (r[k])
			msg_body_free(RESPONSE_DBD_REPORT, r[k]);
	sreport_free(&o);
	return rc;
}

/* Interactive / piped: one command per line. */
static int read_commands(void)
{
	char line[4096];
	int rc = 0;

	while (fgets(line, sizeof(line), stdin)) {
		char **w = xstrsplit(line, " \t\r\n", NULL), **a = NULL;
		int n = 0;

		for (size_t i = 0; w[i]; i++)
			if (w[i][0])
				a = xstrarray_append(a, w[i]);
		n = (int)xstrarray_len(a);
		if (n && (!strcasecmp(a[0], "exit") ||
			  !strcasecmp(a[0], "quit"))) {
			xstrarray_free(a);
			xstrarray_free(w);
			break;
		}
		if (n && !strcasecmp(a[0], "parsable"))
			gopt.parsable = 1;
		else if (n && !strcasecmp(a[0], "parsable2"))
			gopt.parsable = 2;
		else if (n && !strcasecmp(a[0], "nonparsable"))
			gopt.parsable = 0;
		else if (n == 2 && !strcasecmp(a[0], "time") &&
			 sr_time_parse(a[1]) >= 0)
			gopt.tf = sr_time_parse(a[1]);
		else if (n)
			rc = run_command(n, a);
		xstrarray_free(a);
		xstrarray_free(w);
	}
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "all_clusters", no_argument, NULL, 'a' },
		{ "cluster", required_argument, NULL, 'M' },
		{ "clusters", required_argument, NULL, 'M' },
		{ "federation", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "local", no_argument, NULL, 'L' },
		{ "noheader", no_argument, NULL, 'n' },
		{ "parsable", no_argument, NULL, 'p' },
		{ "parsable2", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'Q' },
		{ "tres", required_argument, NULL, 'T' },
		{ "usage", no_argument, NULL, 'h' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, tf;

	while ((c = getopt_long(argc, argv, "ahM:npPQt:T:vV", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'a': case 'F': case 'L': break;
		case 'h': usage(stdout); exit(0);
		case 'M':
			xfree(gopt.cluster);
			gopt.cluster = xstrdup(optarg);
			break;
		case 'n': gopt.noheader = true; break;
		case 'p': gopt.parsable = 1; break;
		case 'P': gopt.parsable = 2; break;
		case 'Q': gopt.quiet = true; break;
		case 't':
			tf = sr_time_parse(optarg);
			if (tf < 0)
				fprintf(stderr, "unknown time format %s",
					optarg);
			else
				gopt.tf = tf;
			break;
		case 'T':
			if (!optarg[strspn(optarg, ", ")]) {
				fprintf(stderr, "sreport: fatal: No valid "
					"TRES given\n");
				exit(1);
			}
			xfree(gopt.tres);
			gopt.tres = xstrdup(optarg);
			break;
		case 'v': gopt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		default:
			/* also --json/--yaml: Slurm 25.05's sreport has no
			 * JSON form */
			fprintf(stderr, "Try \"sreport --help\" for more "
				"information\n");
			exit(1);
		}
	}
	cli_init("sreport", gopt.verbose);
	if (!conf_accounting_dbd(cli_conf())) {
		error("Slurm accounting storage is disabled");
		exit(1);
	}
	if (optind >= argc)
		return read_commands();
	return run_command(argc - optind, argv + optind);
}
