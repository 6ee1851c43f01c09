/* scancel — cancel or signal jobs, by id or by filter.
 *
 * With job ids and no filter each id goes to the controller as given
 * ("123", "123_4", "123_[1-3]", "123.0").  With filters the job list is
 * fetched and every matching, still active job is cancelled; a user who
 * is not root or SlurmUser only selects their own jobs unless -u says
 * otherwise.
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

#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "common/hostlist.h"
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
	char     **ids;           /* positional */
} scancel_opts_t;

enum {
	OPT_ME = 0x100, OPT_USAGE, OPT_WCKEY, OPT_HURRY_LONG,
};

static const struct option long_opts[] = {
	{ "account", required_argument, NULL, 'A' },
	{ "batch", no_argument, NULL, 'b' },
	{ "clusters", required_argument, NULL, 'M' },
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

static void parse_opt(scancel_opts_t *o, int c, const char *arg)
{
	char *me;

	switch (c) {
	case 'A': o->accounts = split_list(o->accounts, arg); break;
	case 'b': o->flags |= KILL_JOB_BATCH; break;
	case 'f': o->flags |= KILL_FULL_JOB; break;
	case 'H': o->flags |= KILL_HURRY; break;
	case 'M': break;   /* one cluster: accepted, nothing to choose */
	case 'n': o->names = split_list(o->names, arg); break;
	case 'p': o->partitions = split_list(o->partitions, arg); break;
	case 'q': o->qos = split_list(o->qos, arg); break;
	case 'Q': o->quiet++; break;
	case 's': set_signal(o, arg); break;
	case 't': o->states = split_list(o->states, arg); break;
	case 'u': o->users = split_list(o->users, arg); break;
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
	while ((c = getopt_long(argc, argv, "A:bfHM:n:p:Qq:s:t:u:vVw:h",
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

/* "123", "123_4", "123_[1-3,5%2]", each with an optional ".step". */
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
	if (*p == '_') {
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

/* One request; returns 0 or the error that decides the exit code. */
static int cancel_one(const scancel_opts_t *o, const char *id_str,
		      uint32_t job_id, uint32_t step_id)
{
	job_signal_msg_t req = {
		.job_id_str = (char *)id_str, .job_id = job_id,
		.step_id = step_id, .flags = o->flags,
		.signal = o->signal < 0 ? 0 : (uint16_t)o->signal,
		.cancel = o->signal < 0,
	};
	int rc = 0, err;

	if (o->signal < 0)
		verbose("Terminating job %s", id_str);
	else
		verbose("Signal %d to job %s", o->signal, id_str);
	err = cli_ctld_rpc_rc(REQUEST_CANCEL_JOB, &req, &rc);
	if (err) {
		error("Kill job error on job id %s: %s", id_str,
		      cli_comm_strerror(err));
		return 1;
	}
	if (!rc)
		return 0;
	if (o->verbose > 0 ||
	    (rc != ESLURM_ALREADY_DONE && rc != ESLURM_INVALID_JOB_ID))
		error("Kill job error on job id %s: %s", id_str,
		      slurm_strerror(rc));
	if ((rc == ESLURM_ALREADY_DONE || rc == ESLURM_INVALID_JOB_ID) &&
	    (o->signal < 0 || o->signal == SIGKILL))
		return 0;
	/* Slurm exits with the error code's low byte (Access/permission
	 * denied: 210). */
	return (rc & 0xff) ? (rc & 0xff) : 1;
}

static bool has_filters(const scancel_opts_t *o)
{
	return o->users || o->names || o->partitions || o->states ||
	       o->accounts || o->qos || o->wckeys || o->nodelist;
}

static bool in_list(char **list, const char *v)
{
	if (!list)
		return true;
	for (size_t i = 0; list[i]; i++)
		if (v && !strcmp(list[i], v))
			return true;
	return false;
}

static bool user_match(char **users, const job_info_t *j)
{
	char uid[16];

	if (!users)
		return true;
	snprintf(uid, sizeof(uid), "%u", j->user_id);
	return in_list(users, j->user_name) || in_list(users, uid);
}

static bool state_match(char **states, uint32_t state)
{
	uint32_t want;

	if (!states) {
		uint32_t base = state & JOB_STATE_BASE;

		return base == JOB_PENDING || base == JOB_RUNNING ||
		       base == JOB_SUSPENDED;
	}
	for (size_t i = 0; states[i]; i++)
		if (job_state_from_string(states[i], &want) == 0 &&
		    (state & JOB_STATE_BASE) == (want & JOB_STATE_BASE))
			return true;
	return false;
}

static bool nodes_match(hostlist_t *want, const job_info_t *j)
{
	hostlist_t *hl;
	bool hit = false;

	if (!want)
		return true;
	if (!j->nodes || !(hl = hostlist_parse(j->nodes, NULL, 0)))
		return false;
	for (size_t i = 0; i < hostlist_count(hl) && !hit; i++)
		hit = hostlist_find(want, hostlist_nth(hl, i)) >= 0;
	hostlist_destroy(hl);
	return hit;
}

static bool id_match(char **ids, const job_info_t *j)
{
	uint32_t id, step;

	if (!ids[0])
		return true;
	for (size_t i = 0; ids[i]; i++)
		if (parse_job_id(ids[i], &id, &step) == 0 &&
		    (id == j->job_id || id == j->array_job_id))
			return true;
	return false;
}

static bool job_match(const scancel_opts_t *o, hostlist_t *nodes,
		      const job_info_t *j)
{
	return user_match(o->users, j) && in_list(o->names, j->name) &&
	       in_list(o->partitions, j->partition) &&
	       in_list(o->accounts, j->account) && in_list(o->qos, j->qos) &&
	       in_list(o->wckeys, j->wckey) &&
	       state_match(o->states, j->job_state) &&
	       nodes_match(nodes, j) && id_match(o->ids, j);
}

static char *job_id_string(const job_info_t *j)
{
	if (j->array_job_id && j->array_task_id != NO_VAL32)
		return xstrdup_printf("%u_%u", j->array_job_id, j->array_task_id);
	return xstrdup_printf("%u", j->job_id);
}

static int cancel_filtered(scancel_opts_t *o)
{
	job_info_request_msg_t req = { .user_id = NO_VAL32 };
	hostlist_t *nodes = NULL;
	slurm_msg_t resp;
	const job_info_msg_t *m;
	char err[256] = "";
	int rc = 0, e;

	if (o->nodelist && !(nodes = hostlist_parse(o->nodelist, err, sizeof(err)))) {
		error("Invalid node name specified: %s", o->nodelist);
		return 1;
	}
	if ((e = cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp))) {
		error("slurm_load_jobs error: %s", cli_comm_strerror(e));
		hostlist_destroy(nodes);
		return 1;
	}
	m = resp.type == RESPONSE_JOB_INFO ? resp.data : NULL;
	for (uint32_t i = 0; m && i < m->cnt; i++) {
		const job_info_t *j = &m->jobs[i];
		char *id;

		if (!job_match(o, nodes, j))
			continue;
		id = job_id_string(j);
		if ((e = cancel_one(o, id, j->job_id, NO_VAL32)))
			rc = e;
		xfree(id);
	}
	msg_free(&resp);
	hostlist_destroy(nodes);
	return rc;
}

static int cancel_ids(const scancel_opts_t *o)
{
	int rc = 0;

	for (size_t i = 0; o->ids[i]; i++) {
		uint32_t job_id, step_id;
		int e;

		if (parse_job_id(o->ids[i], &job_id, &step_id) < 0)
			continue;   /* reported before any request */
		if ((e = cancel_one(o, o->ids[i], job_id, step_id)))
			rc = e;
	}
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
	int rc;

	cli_init_noconf("scancel", 0);
	parse_args(&o, argc, argv);
	check_ids(&o);
	if (!o.ids[0] && !has_filters(&o)) {
		error("No job identification provided");
		exit(1);
	}
	cli_init("scancel", o.verbose - o.quiet);
	if (has_filters(&o)) {
		default_user(&o);
		rc = cancel_filtered(&o);
	} else {
		rc = cancel_ids(&o);
	}
	opts_free(&o);
	return rc;
}
