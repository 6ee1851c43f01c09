/* strigger — set, get or clear event triggers (strigger(1)).
 *
 * Options, checks, messages and exit codes as Slurm's strigger: errors
 * in what was typed are "strigger: error: ..." and exit 1; errors of the
 * controller are "slurm_set_trigger: <error>" (get, clear likewise) and
 * exit 1, except a failed --clear with -Q, which exits 0 silently.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli_common.h"
#include "cli/cli_opt.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static struct {
	int       mode;            /* 's', 'g', 'c'; 'x' for two of them */
	uint32_t  types;           /* TRIGGER_TYPE_* */
	uint16_t  res_type;        /* from daemon events, if any */
	bool      node_set;        /* -n given */
	char     *node;            /* -n's argument */
	uint32_t  job_id;
	uint32_t  trig_id;
	uint32_t  user_id;         /* NO_VAL32: not given */
	int32_t   offset;
	long      offset_raw;
	uint16_t  flags;
	char     *program;
	bool      noheader;
	bool      quiet;
	bool      front_end;
	int       verbose;
	char     *clusters;        /* -M: checked, this cluster or "all" */
} opt = { .user_id = NO_VAL32 };

static const char usage_text[] =
"Usage: strigger [--set | --get | --clear | --version] "
"[-aAbBcCdDefFgGhHiIjnNopQrtuv]\n";

static const char help_text[] =
"Usage: strigger [--set | --get | --clear] [OPTIONS]\n"
"      --set           create a trigger\n"
"      --get           get trigger information\n"
"      --clear         delete a trigger\n"
"\n"
"      --burst_buffer  trigger event on burst buffer error\n"
"      --front_end     trigger event on FrontEnd node state changes\n"
"  -a, --primary_slurmctld_failure\n"
"                      trigger event when primary slurmctld fails\n"
"  -A, --primary_slurmctld_resumed_operation\n"
"                      trigger event on primary slurmctld resumed operation\n"
"                      after failure\n"
"  -b, --primary_slurmctld_resumed_control\n"
"                      trigger event on primary slurmctld resumed control\n"
"  -B, --backup_slurmctld_failure\n"
"                      trigger event when backup slurmctld fails\n"
"  -c, --backup_slurmctld_resumed_operation\n"
"                      trigger event when backup slurmctld resumed operation\n"
"                      after failure\n"
"  -C, --backup_slurmctld_assumed_control\n"
"                      trigger event when backup slurmctld assumed control\n"
"  -d, --down          trigger event when node goes DOWN\n"
"  -D, --drained       trigger event when node becomes DRAINED\n"
"  -e, --primary_slurmctld_acct_buffer_full\n"
"                      trigger event when primary slurmctld acct buffer full\n"
"  -F, --fail          trigger event when node is expected to FAIL\n"
"  -f, --fini          trigger event when job finishes\n"
"      --flags=perm    trigger event flag (perm = permanent)\n"
"\n"
"  -g, --primary_slurmdbd_failure\n"
"                      trigger when primary slurmdbd fails\n"
"  -G, --primary_slurmdbd_resumed_operation\n"
"                      trigger when primary slurmdbd resumed operation after\n"
"                      failure\n"
"  -h, --primary_database_failure\n"
"                      trigger when primary database fails\n"
"  -H, --primary_database_resumed_operation\n"
"                      trigger when primary database resumed operation after\n"
"                      failure\n"
"  -i, --id=#          a trigger's ID number\n"
"  -I, --idle          trigger event when node remains IDLE\n"
"  -j, --jobid=#       trigger related to specific jobid\n"
"  -M, --cluster=name  cluster to issue commands to.  Default is\n"
"                      current cluster.  cluster with no name will\n"
"                      reset to default.\n"
"                      NOTE: SlurmDBD must up.\n"
"  -n, --node[=host]   trigger related to specific node, all nodes by default\n"
"  -N, --noheader      Do not print the message header\n"
"  -o, --offset=#      trigger's offset time from event, negative to precede\n"
"  -p, --program=path  pathname of program to execute when triggered\n"
"  -Q, --quiet         quiet mode (suppress informational messages)\n"
"  -r, --reconfig      trigger event on configuration changes\n"
"  -t, --time          trigger event on job's time limit\n"
"  -u, --up            trigger event when node returned to service from DOWN \n"
"                      state\n"
"      --user          a user name or ID to filter triggers by\n"
"  -v, --verbose       print detailed event logging\n"
"  -V, --version       print version information and exit\n"
"\n"
"Help options:\n"
"  --help              show this help message\n"
"  --usage             display brief usage message\n";

enum {
	OPT_SET = 0x100, OPT_GET, OPT_CLEAR, OPT_FLAGS, OPT_USER, OPT_BB,
	OPT_FRONT_END, OPT_HELP, OPT_USAGE,
};

static const struct option long_opts[] = {
	{ "set", no_argument, NULL, OPT_SET },
	{ "get", no_argument, NULL, OPT_GET },
	{ "clear", no_argument, NULL, OPT_CLEAR },
	{ "primary_slurmctld_failure", no_argument, NULL, 'a' },
	{ "primary_slurmctld_resumed_operation", no_argument, NULL, 'A' },
	{ "primary_slurmctld_resumed_control", no_argument, NULL, 'b' },
	{ "backup_slurmctld_failure", no_argument, NULL, 'B' },
	{ "backup_slurmctld_resumed_operation", no_argument, NULL, 'c' },
	{ "backup_slurmctld_assumed_control", no_argument, NULL, 'C' },
	{ "down", no_argument, NULL, 'd' },
	{ "drained", no_argument, NULL, 'D' },
	{ "primary_slurmctld_acct_buffer_full", no_argument, NULL, 'e' },
	{ "fail", no_argument, NULL, 'F' },
	{ "fini", no_argument, NULL, 'f' },
	{ "primary_slurmdbd_failure", no_argument, NULL, 'g' },
	{ "primary_slurmdbd_resumed_operation", no_argument, NULL, 'G' },
	{ "primary_database_failure", no_argument, NULL, 'h' },
	{ "primary_database_resumed_operation", no_argument, NULL, 'H' },
	{ "id", required_argument, NULL, 'i' },
	{ "idle", no_argument, NULL, 'I' },
	{ "jobid", required_argument, NULL, 'j' },
	{ "cluster", required_argument, NULL, 'M' },
	{ "clusters", required_argument, NULL, 'M' },
	{ "node", optional_argument, NULL, 'n' },
	{ "noheader", no_argument, NULL, 'N' },
	{ "offset", required_argument, NULL, 'o' },
	{ "program", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'Q' },
	{ "reconfig", no_argument, NULL, 'r' },
	{ "time", no_argument, NULL, 't' },
	{ "up", no_argument, NULL, 'u' },
	{ "user", required_argument, NULL, OPT_USER },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "flags", required_argument, NULL, OPT_FLAGS },
	{ "burst_buffer", no_argument, NULL, OPT_BB },
	{ "front_end", no_argument, NULL, OPT_FRONT_END },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ NULL, 0, NULL, 0 }
};

/* Short letters of the events: the bit and the resource they are of. */
static const struct {
	int      c;
	uint32_t bit;
	uint16_t res;          /* 0: a node or job event */
} events[] = {
	{ 'a', TRIGGER_TYPE_PRI_CTLD_FAIL, TRIGGER_RES_TYPE_SLURMCTLD },
	{ 'A', TRIGGER_TYPE_PRI_CTLD_RES_OP, TRIGGER_RES_TYPE_SLURMCTLD },
	{ 'b', TRIGGER_TYPE_PRI_CTLD_RES_CTRL, TRIGGER_RES_TYPE_SLURMCTLD },
	{ 'B', TRIGGER_TYPE_BU_CTLD_FAIL, TRIGGER_RES_TYPE_SLURMCTLD },
	{ 'c', TRIGGER_TYPE_BU_CTLD_RES_OP, TRIGGER_RES_TYPE_SLURMCTLD },
	{ 'C', TRIGGER_TYPE_BU_CTLD_AS_CTRL, TRIGGER_RES_TYPE_SLURMCTLD },
	{ 'e', TRIGGER_TYPE_PRI_CTLD_ACCT_FULL, TRIGGER_RES_TYPE_SLURMCTLD },
	{ 'g', TRIGGER_TYPE_PRI_DBD_FAIL, TRIGGER_RES_TYPE_SLURMDBD },
	{ 'G', TRIGGER_TYPE_PRI_DBD_RES_OP, TRIGGER_RES_TYPE_SLURMDBD },
	{ 'h', TRIGGER_TYPE_PRI_DB_FAIL, TRIGGER_RES_TYPE_DATABASE },
	{ 'H', TRIGGER_TYPE_PRI_DB_RES_OP, TRIGGER_RES_TYPE_DATABASE },
	{ 'd', TRIGGER_TYPE_DOWN, 0 },
	{ 'D', TRIGGER_TYPE_DRAINED, 0 },
	{ 'F', TRIGGER_TYPE_FAIL, 0 },
	{ 'f', TRIGGER_TYPE_FINI, 0 },
	{ 'I', TRIGGER_TYPE_IDLE, 0 },
	{ 'r', TRIGGER_TYPE_RECONFIG, 0 },
	{ 't', TRIGGER_TYPE_TIME, 0 },
	{ 'u', TRIGGER_TYPE_UP, 0 },
	{ OPT_BB, TRIGGER_TYPE_BURST_BUFFER, 0 },
};

static const char no_trigger_text[] =
"You must specify a trigger (--down, --up, --reconfig, --time, --fini, "
"--burst_buffer,\n"
"--primary_slurmctld_failure,\n"
"--primary_slurmctld_resumed_operation,\n"
"--primary_slurmctld_resumed_control,\n"
"--primary_slurmctld_acct_buffer_full,\n"
"--backup_slurmctld_failure,\n"
"--backup_slurmctld_resumed_operation,\n"
"--backup_slurmctld_as_ctrl,\n"
"--primary_slurmdbd_failure,\n"
"--primary_slurmdbd_resumed_operation,\n"
"--primary_database_failure, or \n"
"--primary_database_resumed_operation)\n";

static void _die(const char *fmt, const char *arg)
{
	fprintf(stderr, "strigger: error: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void _mode(int m)
{
	opt.mode = opt.mode && opt.mode != m ? 'x' : m;
}

static void _user(const char *arg)
{
	char *end = NULL;
	unsigned long id;
	uid_t uid;
	gid_t gid;

	if (uid_cache_by_name(arg, &uid, &gid) == 0) {
		opt.user_id = uid;
		return;
	}
	id = strtoul(arg, &end, 10);
	if (*arg && end && !*end && id < NO_VAL32) {
		opt.user_id = (uint32_t) id;
		return;
	}
	_die("Invalid user %s", arg);
}

static void _flags(const char *arg)
{
	char **w = xstrsplit(arg, ",", NULL);

	for (size_t i = 0; w[i]; i++) {
		if (strcasecmp(w[i], "perm")) {
			xstrarray_free(w);
			_die("Invalid flags %s", arg);
		}
		opt.flags |= TRIGGER_FLAG_PERM;
	}
	xstrarray_free(w);
}

static void _job(const char *arg)
{
	char *end = NULL;
	unsigned long id = strtoul(arg, &end, 10);

	if (!*arg || !end || *end || !id || id >= NO_VAL32)
		_die("Invalid jobid %s", arg);
	opt.job_id = (uint32_t) id;
}

static bool _event(int c)
{
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (events[i].c == c) {
			opt.types |= events[i].bit;
			if (events[i].res)
				opt.res_type = events[i].res;
			return true;
		}
	return false;
}

static void _parse(int argc, char **argv)
{
	int c;

	opterr = 1;
	while ((c = getopt_long(argc, argv,
				"aAbBcCdDeFfgGhHi:Ij:M:n::No:p:QrtuvV",
				long_opts, NULL)) != -1) {
		if (_event(c))
			continue;
		switch (c) {
		case OPT_SET: _mode('s'); break;
		case OPT_GET: _mode('g'); break;
		case OPT_CLEAR: _mode('c'); break;
		case 'i': opt.trig_id = (uint32_t) strtoul(optarg, NULL, 10);
			  break;
		case 'j': _job(optarg); break;
		case 'M':
			xfree(opt.clusters);
			opt.clusters = xstrdup(optarg);
			break;
		case 'n':
			opt.node_set = true;
			xfree(opt.node);
			opt.node = optarg ? xstrdup(optarg) : NULL;
			break;
		case 'N': opt.noheader = true; break;
		case 'o': opt.offset_raw = strtol(optarg, NULL, 10); break;
		case 'p':
			xfree(opt.program);
			opt.program = xstrdup(optarg);
			break;
		case 'Q': opt.quiet = true; break;
		case 'v': opt.verbose++; break;
		case 'V': printf("slurm %s\n", SLUICE_VERSION_STRING); exit(0);
		case OPT_USER: _user(optarg); break;
		case OPT_FLAGS: _flags(optarg); break;
		case OPT_FRONT_END: opt.front_end = true; break;
		case OPT_HELP: fputs(help_text, stdout); exit(0);
		case OPT_USAGE: fputs(usage_text, stdout); exit(0);
		default:
			fprintf(stderr, "Try \"strigger --help\" for more "
				"information\n");
			exit(1);
		}
	}
	if (optind < argc)
		_die("Unknown argument: %s", argv[optind]);
}

static void _verify(void)
{
	struct stat st;
	char *path, *sp;

	if (opt.mode != 's' && opt.mode != 'g' && opt.mode != 'c')
		_die("%sYou must use exactly one of the following options: "
		     "--set, --get or --clear", "");
	if (opt.mode == 'c' && !opt.trig_id && !opt.job_id &&
	    opt.user_id == NO_VAL32)
		_die("%sYou must specify a --id, --jobid, or --user to clear",
		     "");
	if (opt.mode != 's')
		return;
	if (!opt.types) {
		fprintf(stderr, "strigger: error: %s\n", no_trigger_text);
		exit(1);
	}
	if (!opt.program)
		_die("%sYou must specify a --program value", "");
	if ((opt.types & TRIGGER_TYPE_TIME) && !opt.job_id)
		_die("%sYou must specify a --jobid value", "");
	if (opt.program[0] != '/')
		_die("%sThe --program value must start with \"/\"", "");
	path = xstrdup(opt.program);
	if ((sp = strpbrk(path, " \t")))
		*sp = '\0';
	if (stat(path, &st) < 0) {
		xfree(path);
		_die("%sInvalid --program value, file not found", "");
	}
	xfree(path);
	if (opt.offset_raw > TRIGGER_OFFSET_MAX ||
	    opt.offset_raw < -TRIGGER_OFFSET_MAX)
		_die("%sThe --offset parameter must be between +/-32000", "");
	opt.offset = (int32_t) opt.offset_raw;
	/* what Sluice has none of: refused, not set to never fire */
	if (opt.types & TRIGGER_TYPE_BURST_BUFFER)
		_die("%s--burst_buffer: Sluice has no burst buffers", "");
	if (opt.front_end)
		_die("%s--front_end: Sluice has no front end nodes", "");
}

/* The trigger the options describe (set), or the filter (get, clear). */
static void _fill(trigger_info_t *t)
{
	char id[16];

	memset(t, 0, sizeof(*t));
	t->trig_id = opt.trig_id;
	t->user_id = opt.user_id;
	t->offset = opt.offset;
	t->flags = opt.flags;
	t->trig_type = opt.types;
	if (opt.job_id) {
		snprintf(id, sizeof(id), "%u", opt.job_id);
		t->res_type = TRIGGER_RES_TYPE_JOB;
		t->res_id = xstrdup(id);
	} else if (opt.res_type && !opt.node_set &&
		   !(opt.types & ~(uint32_t) 0x001ffe00u)) {
		t->res_type = opt.res_type;
		t->res_id = xstrdup("*");
	} else {
		t->res_type = TRIGGER_RES_TYPE_NODE;
		t->res_id = xstrdup(opt.node ? opt.node : "*");
	}
	t->program = xstrdup(opt.program);
}

static const char *_res_name(uint16_t r)
{
	static const char *const names[] = {
		"unknown", "job", "node", "slurmctld", "slurmdbd", "database",
		"front_end", "other",
	};

	return r < sizeof(names) / sizeof(names[0]) ? names[r] : "unknown";
}

static const char *_type_name(uint32_t t)
{
	static const char *const names[] = {
		"up", "down", "fail", "time", "fini", "reconfig", "unknown",
		"idle", "drained", "primary_slurmctld_failure",
		"primary_slurmctld_resumed_operation",
		"primary_slurmctld_resumed_control",
		"primary_slurmctld_acct_buffer_full",
		"backup_slurmctld_failure",
		"backup_slurmctld_resumed_operation",
		"backup_slurmctld_assumed_control",
		"primary_slurmdbd_failure",
		"primary_slurmdbd_resumed_operation",
		"primary_database_failure",
		"primary_database_resumed_operation", "burst_buffer",
	};

	if (!t || (t & (t - 1)))
		return "unknown";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (t == 1u << i)
			return names[i];
	return "unknown";
}

static void _print(const trigger_info_msg_t *m)
{
	char user[64], off[16];

	if (!m->cnt)
		return;
	if (!opt.noheader)
		printf("TRIG_ID RES_TYPE   RES_ID TYPE                         "
		       "       OFFSET USER     FLAGS PROGRAM\n");
	for (uint32_t i = 0; i < m->cnt; i++) {
		const trigger_info_t *t = &m->triggers[i];

		if (uid_cache_name(t->user_id, user, sizeof(user)) < 0)
			snprintf(user, sizeof(user), "%u",
				 (unsigned) t->user_id);
		snprintf(off, sizeof(off), "%d", t->offset);
		printf("%7u %-9s%8s %-35s %6s %-8s %-5s %s\n", t->trig_id,
		       _res_name(t->res_type), t->res_id ? t->res_id : "(null)",
		       _type_name(t->trig_type), off, user,
		       (t->flags & TRIGGER_FLAG_PERM) ? "PERM" : "",
		       t->program ? t->program : "");
	}
}

static int _rpc_error(const char *what, int rc, bool transport)
{
	fprintf(stderr, "%s: %s\n", what,
		transport ? cli_comm_strerror(rc) : slurm_strerror(rc));
	return 1;
}

static int _set(void)
{
	trigger_info_t t;
	trigger_info_msg_t req = { 1, &t };
	slurm_msg_t resp = { 0 };
	const return_code_msg_t *r;
	int rc;

	_fill(&t);
	rc = cli_ctld_rpc(REQUEST_TRIGGER_SET, &req, &resp);
	trigger_info_free_members(&t);
	if (rc)
		return _rpc_error("slurm_set_trigger", rc, true);
	rc = resp.type == RESPONSE_SLURM_RC ? cli_resp_rc(&resp) :
		SLURM_UNEXPECTED_MSG_ERROR;
	r = resp.type == RESPONSE_SLURM_RC ? resp.data : NULL;
	if (!rc && r && r->msg && *r->msg && !opt.quiet)
		fprintf(stderr, "strigger: warning: %s\n", r->msg);
	msg_free(&resp);
	if (rc)
		return _rpc_error("slurm_set_trigger", rc, false);
	return 0;
}

static int _get(void)
{
	trigger_info_t t;
	trigger_info_msg_t req = { 1, &t };
	slurm_msg_t resp = { 0 };
	int rc;

	_fill(&t);
	rc = cli_ctld_rpc(REQUEST_TRIGGER_GET, &req, &resp);
	trigger_info_free_members(&t);
	if (rc)
		return _rpc_error("slurm_get_triggers", rc, true);
	if (resp.type != RESPONSE_TRIGGER_GET || !resp.data) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		return _rpc_error("slurm_get_triggers",
				  rc ? rc : SLURM_UNEXPECTED_MSG_ERROR, false);
	}
	_print(resp.data);
	msg_free(&resp);
	return 0;
}

static int _clear(void)
{
	trigger_info_t t;
	trigger_info_msg_t req = { 1, &t };
	int rc, err;

	_fill(&t);
	err = cli_ctld_rpc_rc(REQUEST_TRIGGER_CLEAR, &req, &rc);
	trigger_info_free_members(&t);
	if (err || rc) {
		if (opt.quiet)
			return 0;
		return _rpc_error("slurm_clear_trigger", err ? err : rc,
				  err != 0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	_parse(argc, argv);
	_verify();
	cli_init("strigger", opt.verbose);
	if (cli_check_clusters(opt.clusters, cli_conf()->cluster_name) < 0)
		exit(1);
	if (opt.mode == 's')
		return _set();
	if (opt.mode == 'g')
		return _get();
	return _clear();
}
