/* scancel — cancel or signal jobs, by id or by filter.
 *
 * Everything goes to the controller in one REQUEST_KILL_JOBS: with job
 * ids and no filter each id as given ("123", "123_4", "123_[1-3]",
 * "123.0": that step's tasks only, "123.batch"); with filters the controller selects every matching, still
 * active job (restricted to the ids if any are given).  A user who is not
 * root or SlurmUser only selects their own jobs unless -u says otherwise.
 */
#include <ctype.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "common/hostlist.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define STEP_BATCH  0xfffffffbu
#define STEP_EXTERN 0xfffffffcu

typedef struct {
	int        verbose;
	int        quiet;
	int        signal;        /* -1: cancel */
	uint16_t   flags;
	char     **users;         /* -u, --me */
	char     **names;         /* -n */
	char     **partitions;    /* -p */
	char     **states;        /* -t */
	char     **accounts;      /* -A */
	char     **qos;           /* -q */
	char     **wckeys;
	char      *nodelist;      /* -w */
	char      *clusters;      /* -M: checked, one cluster */
	char     **ids;           /* positional */
} scancel_opts_t;

enum {
	OPT_ME = 0x100, OPT_USAGE, OPT_WCKEY, OPT_HURRY_LONG,
};

static const struct option long_opts[] = {
	{ "account", required_argument, NULL, 'A' },
	{ "batch", no_argument, NULL, 'b' },
	{ "clusters", required_argument, NULL, 'M' },
	{ "cron", no_argument, NULL, 'c' },
	{ "cluster", required_argument, NULL, 'M' },
	{ "full", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "hurry", no_argument, NULL, 'H' },
	{ "me", no_argument, NULL, OPT_ME },
	{ "name", required_argument, NULL, 'n' },
	{ "jobname", required_argument, NULL, 'n' },
	{ "nodelist", required_argument, NULL, 'w' },
	{ "partition", required_argument, NULL, 'p' },
	{ "qos", required_argument, NULL, 'q' },
	{ "quiet", no_argument, NULL, 'Q' },
	{ "signal", required_argument, NULL, 's' },
	{ "state", required_argument, NULL, 't' },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "user", required_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "wckey", required_argument, NULL, OPT_WCKEY },
	{ NULL, 0, NULL, 0 }
};

static const char usage_text[] =
"Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]\n"
"               [-p partition] [-Q] [-q qos] [--reservation=reservation]\n"
"               [-s signal | integer] [-t PENDING | RUNNING | SUSPENDED]\n"
"               [--usage] [-u user_name] [--hurry] [-V] [-v] [-w hosts...]\n"
"               [--wckey=wckey] [--me] [job_id[_array_id][.step_id]]\n";

static const char help_text[] =
"Usage: scancel [OPTIONS] [job_id[_array_id][.step_id]]\n"
"  -A, --account=account           act only on jobs charging this account\n"
"  -b, --batch                     signal batch shell for specified job\n"
"  -c, --cron                      cancel an scrontab job\n"
"  -f, --full                      signal batch shell and all steps for\n"
"                                  specified job\n"
"  -H, --hurry                     avoid burst buffer stage out\n"
"      --me                        equivalent to --user=<current user>\n"
"  -n, --name=job_name             act only on jobs with this name\n"
"  -p, --partition=partition       act only on jobs in this partition\n"
"  -Q, --quiet                     disable warnings\n"
"  -q, --qos=qos                   act only on jobs with this quality of service\n"
"  -s, --signal=name | integer     signal to send to job, default is SIGKILL\n"
"  -t, --state=states              act only on jobs in this state.  Valid job\n"
"                                  states are PENDING, RUNNING and SUSPENDED\n"
"  -u, --user=user_name            act only on jobs of this user\n"
"  -V, --version                   output version information and exit\n"
"  -v, --verbose                   verbosity level\n"
"  -w, --nodelist                  act only on jobs on these nodes\n"
"      --wckey=wckey               act only on jobs with this workload\n"
"                                  charactization key\n"
"\n"
"Help options:\n"
"  --help                          show this help message\n"
"  --usage                         display brief usage message\n";

static char **split_list(char **old, const char *arg)
{
	xstrarray_free(old);
	return xstrsplit(arg, ",", NULL);
}

static char *current_user(void)
{
	struct passwd *pw = getpwuid(getuid());

	return pw ? xstrdup(pw->pw_name) : xstrdup_printf("%u", getuid());
}

static void set_signal(scancel_opts_t *o, const char *arg)
{
	o->signal = cli_opt_signal_from_string(arg);
	if (o->signal < 0) {
		error("Unknown job signal: %s", arg);
		exit(1);
	}
}

/* -t: Slurm's scancel acts on pending, running or suspended jobs only */
static void set_states(scancel_opts_t *o, const char *arg)
{
	char **items = xstrsplit(arg, ",", NULL);

	for (size_t i = 0; items && items[i]; i++) {
		uint32_t st;

		if (job_state_from_string(items[i], &st) < 0 ||
		    (st != JOB_PENDING && st != JOB_RUNNING &&
		     st != JOB_SUSPENDED)) {
			fprintf(stderr, "Invalid job state specified: %s\n"
				"Valid job states are PENDING, RUNNING, and "
				"SUSPENDED\n", items[i]);
			exit(1);
		}
	}
	xstrarray_free(items);
	o->states = split_list(o->states, arg);
}

/* -u: user names or numeric ids of this system */
static void set_users(scancel_opts_t *o, const char *arg)
{
	char **items = xstrsplit(arg, ",", NULL);

	for (size_t i = 0; items && items[i]; i++) {
		char *end = NULL;

		if (getpwnam(items[i]))
			continue;
		(void) strtoul(items[i], &end, 10);
		if (isdigit((unsigned char)items[i][0]) && end && !*end)
			continue;
		error("Invalid user name: %s", items[i]);
		exit(1);
	}
	xstrarray_free(items);
	o->users = split_list(o->users, arg);
}

static void parse_opt(scancel_opts_t *o, int c, const char *arg)
{
	char *me;

	switch (c) {
	case 'A': o->accounts = split_list(o->accounts, arg); break;
	case 'b': o->flags |= KILL_JOB_BATCH; break;
	case 'c': o->flags |= KILL_CRON; break;
	case 'f': o->flags |= KILL_FULL_JOB; break;
	case 'H': o->flags |= KILL_HURRY; break;
	case 'M': xfree(o->clusters); o->clusters = xstrdup(arg); break;
	case 'n': o->names = split_list(o->names, arg); break;
	case 'p': o->partitions = split_list(o->partitions, arg); break;
	case 'q': o->qos = split_list(o->qos, arg); break;
	case 'Q': o->quiet++; break;
	case 's': set_signal(o, arg); break;
	case 't': set_states(o, arg); break;
	case 'u': set_users(o, arg); break;
	case 'v': o->verbose++; break;
	case 'w': xfree(o->nodelist); o->nodelist = xstrdup(arg); break;
	case OPT_WCKEY: o->wckeys = split_list(o->wckeys, arg); break;
	case OPT_ME:
		me = current_user();
		o->users = split_list(o->users, me);
		xfree(me);
		break;
	case 'h': fputs(help_text, stdout); exit(0);
	case OPT_USAGE: fputs(usage_text, stdout); exit(0);
	case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
	default:
		fprintf(stderr, "Try \"scancel --help\" for more information\n");
		exit(1);
	}
}

static void parse_env(scancel_opts_t *o)
{
	static const struct { const char *name; int c; } envs[] = {
		{ "SCANCEL_ACCOUNT", 'A' }, { "SCANCEL_NAME", 'n' },
		{ "SCANCEL_PARTITION", 'p' }, { "SCANCEL_QOS", 'q' },
		{ "SCANCEL_STATE", 't' }, { "SCANCEL_USER", 'u' },
		{ "SCANCEL_WCKEY", OPT_WCKEY },
	};
	const char *v;

	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++)
		if ((v = getenv(envs[i].name)) && *v)
			parse_opt(o, envs[i].c, v);
	if (getenv("SCANCEL_BATCH"))
		o->flags |= KILL_JOB_BATCH;
	if (getenv("SCANCEL_FULL"))
		o->flags |= KILL_FULL_JOB;
	if (getenv("SCANCEL_VERBOSE"))
		o->verbose++;
}

static void parse_args(scancel_opts_t *o, int argc, char **argv)
{
	int c;

	o->signal = -1;
	argv[0] = "scancel";   /* getopt's messages read "scancel: ..." */
	o->ids = xcalloc(1, sizeof(char *));
	parse_env(o);
	opterr = 1;
	while ((c = getopt_long(argc, argv, "A:bcfHM:n:p:Qq:s:t:u:vVw:h",
				long_opts, NULL)) != -1)
		parse_opt(o, c, optarg);
	for (int i = optind; i < argc; i++)
		o->ids = xstrarray_append(o->ids, argv[i]);
}

/* ---- job id syntax ---- */

static const char *skip_digits(const char *p)
{
	while (isdigit((unsigned char)*p))
		p++;
	return p;
}

/* "123", "123_4", "123_[1-3,5%2]", "123+1" (a hetjob component), each
 * with an optional ".step". */
static int parse_job_id(const char *s, uint32_t *job_id, uint32_t *step_id)
{
	const char *p = skip_digits(s);
	unsigned long v;

	if (p == s)
		return -1;
	v = strtoul(s, NULL, 10);
	if (v == 0 || v >= NO_VAL32)
		return -1;
	*job_id = (uint32_t)v;
	*step_id = NO_VAL32;
	if (*p == '+') {                 /* hetjob component */
		const char *q = skip_digits(p + 1);

		if (q == p + 1)
			return -1;
		p = q;
	} else if (*p == '_') {
		p++;
		if (*p == '[') {
			p++;
			while (*p && (isdigit((unsigned char)*p) ||
				      strchr(",-:%", *p)))
				p++;
			if (*p++ != ']')
				return -1;
		} else {
			const char *q = skip_digits(p);

			if (q == p)
				return -1;
			p = q;
		}
	}
	if (*p == '.') {
		p++;
		if (!strcmp(p, "batch"))
			*step_id = STEP_BATCH, p += 5;
		else if (!strcmp(p, "extern"))
			*step_id = STEP_EXTERN, p += 6;
		else if (isdigit((unsigned char)*p))
			*step_id = (uint32_t)strtoul(p, NULL, 10), p = skip_digits(p);
		else
			return -1;
	}
	return *p ? -1 : 0;
}

/* ---- cancelling ---- */

static bool has_filters(const scancel_opts_t *o)
{
	return o->users || o->names || o->partitions || o->states ||
	       o->accounts || o->qos || o->wckeys || o->nodelist;
}

/* One job's outcome: print what Slurm's scancel prints and return the
 * exit code it asks for (0 = none).  As 22.05: a plain cancel of a job
 * that is gone or never existed is silent (named with -v) and not an
 * error; an explicit --signal (even KILL) to such a job is "Invalid job id
 * specified" and exit 1; any other error exits with the error code's low
 * byte (Access/permission denied: 210). */
/* One step's outcome ("123.4"): its tasks alone were signalled.  A job
 * that is gone is "Invalid job id specified" and exit 1; a running job
 * without that step is the same text with its code's low byte (225); a
 * pending job has no steps yet, and nothing is done or said (as 22.05). */
static int step_result(const scancel_opts_t *o, const char *id, int rc,
		       const char *msg)
{
	if (o->signal < 0)
		verbose("Terminating step %s", id);
	else
		verbose("Signal %d to step %s", o->signal, id);
	if (!rc || rc == ESLURM_JOB_PENDING)
		return 0;
	if (rc == ESLURM_ALREADY_DONE) {
		error("Kill job error on job step id %s: %s", id,
		      slurm_strerror(ESLURM_INVALID_JOB_ID));
		return 1;
	}
	error("Kill job error on job step id %s: %s", id,
	      msg ? msg : slurm_strerror(rc));
	return (rc & 0xff) ? (rc & 0xff) : 1;
}

static int job_result(const scancel_opts_t *o, const char *id, int rc,
		      const char *msg)
{
	bool gone = rc == ESLURM_ALREADY_DONE || rc == ESLURM_INVALID_JOB_ID;

	if (strchr(id, '.'))
		return step_result(o, id, rc, msg);

	if (o->signal < 0)
		verbose("Terminating job %s", id);
	else
		verbose("Signal %d to job %s", o->signal, id);
	if (!rc)
		return 0;
	if (gone && o->signal < 0) {
		if (o->verbose > 0)
			error("Kill job error on job id %s: %s", id,
			      msg ? msg : slurm_strerror(rc));
		return 0;
	}
	if (gone) {
		error("Kill job error on job id %s: %s", id,
		      slurm_strerror(ESLURM_INVALID_JOB_ID));
		return 1;
	}
	error("Kill job error on job id %s: %s", id,
	      msg ? msg : slurm_strerror(rc));
	return (rc & 0xff) ? (rc & 0xff) : 1;
}

/* The request failed as a whole: with ids, each id reports it as its
 * own error (as one request per id would); with filters, once. */
static int request_failed(const scancel_opts_t *o, bool by_filter,
			  const char *why)
{
	if (by_filter) {
		error("Kill job error: %s", why);
		return 1;
	}
	for (size_t i = 0; o->ids[i]; i++) {
		if (o->signal < 0)
			verbose("Terminating job %s", o->ids[i]);
		else
			verbose("Signal %d to job %s", o->signal, o->ids[i]);
		error("Kill job error on job id %s: %s", o->ids[i], why);
	}
	return 1;
}

/* One REQUEST_KILL_JOBS for every id or filter: the controller selects
 * the jobs and answers with the ones it could not signal (with -v, with
 * every one, so each can be named). */
static int cancel_jobs(const scancel_opts_t *o)
{
	kill_jobs_msg_t req = {
		.job_ids = o->ids, .flags = o->flags,
		.signal = o->signal < 0 ? 0 : (uint16_t)o->signal,
		.cancel = o->signal < 0, .verbose = o->verbose > 0,
		.users = o->users, .names = o->names,
		.partitions = o->partitions, .states = o->states,
		.nodelist = o->nodelist, .accounts = o->accounts,
		.qos = o->qos, .wckeys = o->wckeys,
	};
	bool by_filter = has_filters(o);
	const kill_jobs_resp_msg_t *r;
	hostlist_t *nodes;
	slurm_msg_t resp;
	int rc = 0, e;

	if (o->nodelist) {
		if (!(nodes = hostlist_parse(o->nodelist, NULL, 0))) {
			error("Invalid node name specified: %s", o->nodelist);
			return 1;
		}
		hostlist_destroy(nodes);
	}
	if ((e = cli_ctld_rpc(REQUEST_KILL_JOBS, &req, &resp)))
		return request_failed(o, by_filter, cli_comm_strerror(e));
	if (resp.type == RESPONSE_SLURM_RC) {
		const return_code_msg_t *m = resp.data;

		e = m ? m->rc : SLURM_ERROR;
		rc = e ? request_failed(o, by_filter, slurm_strerror(e)) : 0;
		msg_free(&resp);
		return rc;
	}
	r = resp.type == RESPONSE_KILL_JOBS ? resp.data : NULL;
	for (uint32_t i = 0; r && i < r->cnt; i++) {
		const kill_jobs_resp_job_t *j = &r->jobs[i];

		e = job_result(o, j->job_id_str ? j->job_id_str : "?",
			       j->error_code, j->error_msg);
		if (e > rc)
			rc = e;
	}
	msg_free(&resp);
	return rc;
}

static void check_ids(const scancel_opts_t *o)
{
	uint32_t job_id, step_id;

	for (size_t i = 0; o->ids[i]; i++) {
		if (parse_job_id(o->ids[i], &job_id, &step_id) < 0) {
			error("Invalid job id %s", o->ids[i]);
			exit(1);
		}
	}
}

static void opts_free(scancel_opts_t *o)
{
	xstrarray_free(o->users);
	xstrarray_free(o->names);
	xstrarray_free(o->partitions);
	xstrarray_free(o->states);
	xstrarray_free(o->accounts);
	xstrarray_free(o->qos);
	xstrarray_free(o->wckeys);
	xstrarray_free(o->ids);
	xfree(o->nodelist);
	xfree(o->clusters);
}

/* Users other than root/SlurmUser only pick their own jobs by filter. */
static void default_user(scancel_opts_t *o)
{
	const slurm_conf_t *c = cli_conf();
	uid_t uid = getuid();
	char *me;

	if (o->users || uid == 0 || (c && uid == c->slurm_user_id))
		return;
	me = current_user();
	o->users = split_list(NULL, me);
	xfree(me);
}

int main(int argc, char **argv)
{
	scancel_opts_t o = { 0 };
	cli_cluster_t *clusters = NULL;
	size_t ncl = 0;
	int rc;

	cli_init_noconf("scancel", 0);
	parse_args(&o, argc, argv);
	check_ids(&o);
	if (!o.ids[0] && !has_filters(&o)) {
		error("No job identification provided");
		exit(1);
	}
	cli_init("scancel", o.verbose - o.quiet);
	if (o.clusters && !(clusters = cli_clusters_resolve(o.clusters, &ncl)))
		exit(1);
	if (has_filters(&o))
		default_user(&o);
	/* -M: the same request to each cluster named */
	rc = 0;
	for (size_t k = 0; k < (clusters ? ncl : 1); k++) {
		if (clusters)
			cli_clusters_use(&clusters[k]);
		rc |= cancel_jobs(&o);
	}
	cli_clusters_free(clusters, ncl);
	opts_free(&o);
	return rc;
}
