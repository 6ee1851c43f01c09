/* cli_opt_set.c — the job option table: one row per option, and the
 * setters that check a value and store it in the request.
 *
 * Messages for bad values are Slurm's where known ("Invalid --mem
 * specification"); every setter returns 0, or -1 after printing.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_opt_int.h"
#include "common/gpu_bind.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/oci_conf.h"
#include "common/parse_util.h"
#include "common/profile.h"
#include "common/x11_fwd.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define SB CLI_CMD_SBATCH
#define SA CLI_CMD_SALLOC
#define SR CLI_CMD_SRUN
#define ALL (SB | SA | SR)

/* ---- value helpers ---- */

/* Whole number in [min, max]; -1 if malformed or out of range. */
static int opt_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Slurm's commands exit 1 after a malformed number, 255 after any other
 * option error: the status of the last one (cli_opt_err_exit) */
static int opt_err_exit = 255;

int cli_opt_err_exit(void)
{
	return opt_err_exit;
}

int cli_opt_bad_number(const char *arg, const char *name)
{
	error("Invalid numeric value \"%s\" for --%s.", arg ? arg : "", name);
	opt_err_exit = 1;
	return -1;
}

static int opt_bad_number(const char *arg, const cli_opt_def_t *d)
{
	return cli_opt_bad_number(arg, d->name);
}

static int opt_bad_spec(const cli_opt_def_t *d)
{
	error("Invalid --%s specification", d->name);
	return -1;
}

static char **opt_str_field(cli_job_opts_t *o, const cli_opt_def_t *d)
{
	return (char **)((char *)&o->desc + d->off);
}

/* ---- setters ---- */

static int set_str(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	char **f = opt_str_field(o, d);

	xfree(*f);
	*f = xstrdup(arg);
	return 0;
}

static int set_flag(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	switch (d->id) {
	case OPT_HELP:
		o->help = true;
		break;
	case OPT_USAGE:
		o->usage = true;
		break;
	case OPT_VERSION:
		o->version = true;
		break;
	case OPT_PARSABLE:
		o->parsable = true;
		break;
	case OPT_WAIT:
		o->wait = true;
		break;
	case OPT_TEST_ONLY:
		o->test_only = true;
		break;
	case OPT_HOLD:
		o->desc.hold = true;
		break;
	case OPT_SPREAD_JOB:
		o->desc.bitflags |= JOB_SPREAD;
		break;
	case OPT_OVERCOMMIT:
		o->desc.bitflags |= JOB_OVERCOMMIT;
		break;
	case OPT_CHECKPOINT:
		o->desc.bitflags |= JOB_CHECKPOINT;
		break;
	case OPT_CONTIGUOUS:
		o->desc.contiguous = 1;
		break;
	case OPT_IGNORE_PBS:
		o->ignore_pbs = true;
		break;
	case OPT_IMMEDIATE: {
		long secs = 0;

		if (arg && opt_long(arg, 0, 0xffff, &secs) < 0) {
			error("Invalid numeric value \"%s\" for immediate.", arg);
			opt_err_exit = 1;
			return -1;
		}
		o->desc.immediate = 1;
		o->immediate = (int) secs;
		break;
	}
	case OPT_VERBOSE:
		o->verbose++;
		break;
	case OPT_QUIET:
		o->quiet++;
		break;
	default:
		return -1;
	}
	return 0;
}

static int set_clusters(cli_job_opts_t *o, const char *arg,
			const cli_opt_def_t *d)
{
	xfree(o->clusters);
	o->clusters = xstrdup(arg);
	return 0;
}

static int set_wrap(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	char **f = d->id == OPT_WRAP ? &o->wrap : &o->export_file;

	xfree(*f);
	*f = xstrdup(arg);
	return 0;
}

static int set_u16(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	long v;

	if (opt_long(arg, 1, 0xfffd, &v) < 0)
		return opt_bad_number(arg, d);
	switch (d->id) {
	case OPT_CPUS_PER_TASK:
		o->desc.cpus_per_task = (uint16_t)v;
		break;
	case OPT_NTASKS_PER_NODE:
		o->desc.ntasks_per_node = (uint16_t)v;
		break;
	case OPT_SOCKETS_PER_NODE:
		o->desc.sockets_per_node = (uint16_t)v;
		break;
	case OPT_CORES_PER_SOCKET:
		o->desc.cores_per_socket = (uint16_t)v;
		break;
	case OPT_THREADS_PER_CORE:
		o->desc.threads_per_core = (uint16_t)v;
		break;
	default:
		return -1;
	}
	return 0;
}

static int set_u32(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	long v;
	long min = d->id == OPT_MINCPUS ? 0 : 1;

	if (opt_long(arg, min, (long)NO_VAL32 - 1, &v) < 0)
		return opt_bad_number(arg, d);
	switch (d->id) {
	case OPT_NTASKS:
		o->desc.num_tasks = (uint32_t)v;
		break;
	case OPT_MINCPUS:
		o->desc.min_cpus = (uint32_t)v;
		break;
	case OPT_NTASKS_PER_CORE:
		o->desc.ntasks_per_core = (uint32_t)v;
		break;
	case OPT_NTASKS_PER_GPU:
		o->ntasks_per_gpu = (uint32_t)v;
		break;
	default:
		return -1;
	}
	return 0;
}

/* -N min[-max] */
/* A node count: digits with an optional k (x1024) or m (x1048576). */
static int opt_node_count(const char *s, long *out)
{
	char *end;
	long v, mult = 1;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end == 'k' || *end == 'K')
		mult = 1024, end++;
	else if (*end == 'm' || *end == 'M')
		mult = 1024 * 1024, end++;
	if (errno || *end || v > ((long)NO_VAL32 - 1) / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/* -N min[-max]; "-N-3" is 1 to 3, as Slurm. */
static int set_nodes(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	char *min_s = xstrdup(arg), *max_s = strchr(min_s, '-');
	long min = 1, max;
	int rc = -1;

	if (max_s)
		*max_s++ = '\0';
	if ((*min_s || !max_s) && opt_node_count(min_s, &min) < 0) {
		error("\"%s\" is not a valid node count", min_s);
		goto cleanup;
	}
	max = min;
	if (max_s && opt_node_count(max_s, &max) < 0) {
		error("\"%s\" is not a valid node count", max_s);
		goto cleanup;
	}
	if (max < min) {
		error("Maximum node count %ld is less than minimum node count %ld",
		      max, min);
		goto cleanup;
	}
	o->desc.min_nodes = (uint32_t)min;
	o->desc.max_nodes = max_s ? (uint32_t)max : NO_VAL32;
	rc = 0;
cleanup:
	xfree(min_s);
	return rc;
}

/* Sizes: "4096", "4G", "512M", also "4GB" / "512MB". */
static int opt_mem(const char *arg, uint64_t *mb)
{
	char *copy;
	size_t n;
	int rc;

	if (!arg)
		return -1;
	copy = xstrdup(arg);
	n = strlen(copy);
	if (n >= 2 && (copy[n - 1] == 'B' || copy[n - 1] == 'b') &&
	    strchr("kKmMgGtT", copy[n - 2]))
		copy[n - 1] = '\0';
	rc = parse_mem_mb(copy, mb);
	xfree(copy);
	return rc;
}

/* --mem, --mem-per-cpu and --mem-per-gpu share one option id, so a
 * higher source replaces a lower one; two of them from the same source
 * is an error. */
static int opt_mem_kind(cli_job_opts_t *o, int kind)
{
	for (int k = 0; k < 3; k++) {
		if (k != kind && o->mem_kind_src[k] == o->cur_src &&
		    o->cur_src != CLI_SRC_NONE) {
			error("--mem, --mem-per-cpu, and --mem-per-gpu are "
			      "mutually exclusive.");
			return -1;
		}
	}
	o->mem_kind_src[kind] = (uint8_t)o->cur_src;
	return 0;
}

static int set_mem(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	bool per_cpu = !strcmp(d->name, "mem-per-cpu");
	uint64_t mb;

	if (opt_mem(arg, &mb) < 0)
		return opt_bad_spec(d);
	if (opt_mem_kind(o, per_cpu ? 1 : 0) < 0)
		return -1;
	o->desc.pn_min_memory = mb;
	o->desc.mem_per_cpu = per_cpu;
	xfree(o->desc.mem_per_tres);
	return 0;
}

static int set_tmp(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	uint64_t mb;

	if (opt_mem(arg, &mb) < 0 || mb > UINT32_MAX - 2)
		return opt_bad_spec(d);
	o->desc.tmp_disk = (uint32_t)mb;
	return 0;
}

static int set_time(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	uint32_t min;

	if (!arg || parse_duration_min(arg, &min) < 0 || min == NO_VAL32)
		return opt_bad_spec(d);
	if (min == 0)
		min = INFINITE32;     /* zero asks for no limit */
	if (d->id == OPT_TIME)
		o->desc.time_limit = min;
	else
		o->desc.time_min = min;
	return 0;
}

static int set_when(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	time_t t;

	if (!arg || parse_time(arg, time(NULL), &t) < 0) {
		fprintf(stderr, "Invalid time specification (pos=0): %s\n",
			arg ? arg : "");
		error("Invalid --%s specification", d->name);
		return -1;
	}
	if (d->id == OPT_BEGIN)
		o->desc.begin_time = t;
	else
		o->desc.deadline = t;
	return 0;
}

static int set_open_mode(cli_job_opts_t *o, const char *arg,
			 const cli_opt_def_t *d)
{
	if (arg && (arg[0] == 'a' || arg[0] == 'A')) {
		o->desc.open_mode = 1;
	} else if (arg && (arg[0] == 't' || arg[0] == 'T')) {
		o->desc.open_mode = 2;
	} else {
		error("Invalid --open-mode specification");
		return -1;
	}
	return 0;
}

static int set_shared(cli_job_opts_t *o, const char *arg,
		      const cli_opt_def_t *d)
{
	if (!strcmp(d->name, "oversubscribe")) {
		o->desc.shared = JOB_SHARED_OK;
	} else if (!arg || !*arg) {
		o->desc.shared = JOB_SHARED_NONE;
	} else if (!strcasecmp(arg, "user")) {
		o->desc.shared = JOB_SHARED_USER;
	} else if (!strcasecmp(arg, "mcs")) {
		o->desc.shared = JOB_SHARED_MCS;
	} else if (!strcasecmp(arg, "topo")) {
		o->desc.shared = JOB_SHARED_TOPO;
	} else {
		error("Invalid --exclusive specification");
		return -1;
	}
	return 0;
}

/* --hint: the thread and core counts it stands for (the controller
 * refuses them where a node has more threads per core than they allow);
 * memory_bound needs --ntasks-per-socket, which Sluice has not. */
static int set_hint(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	char **words = xstrsplit(arg ? arg : "", ",", NULL);
	int rc = 0;

	(void) d;
	for (size_t i = 0; words[i] && !rc; i++) {
		const char *w = words[i];

		if (!strcasecmp(w, "help")) {
			printf("Application hint options:\n"
			       "    --hint=             Bind tasks according "
			       "to application hints\n"
			       "        compute_bound   use all cores in each "
			       "socket\n"
			       "        memory_bound    use only one core in "
			       "each socket\n"
			       "        [no]multithread [don't] use extra threads "
			       "with in-core multi-threading\n"
			       "        help            show this help "
			       "message\n");
			exit(0);
		} else if (!strcasecmp(w, "compute_bound")) {
			o->desc.ntasks_per_core = 1;
		} else if (!strcasecmp(w, "nomultithread")) {
			o->desc.ntasks_per_core = 1;
			o->desc.threads_per_core = 1;
		} else if (!strcasecmp(w, "multithread")) {
			/* every thread of a core is a CPU: Sluice's default */
		} else if (!strcasecmp(w, "memory_bound")) {
			error("--hint=memory_bound: one task per socket "
			      "(--ntasks-per-socket) is not supported");
			rc = -1;
		} else {
			error("unrecognized --hint argument \"%s\", see "
			      "--hint=help", w);
			opt_err_exit = 1;    /* as Slurm's */
			rc = -1;
		}
	}
	xstrarray_free(words);
	return rc;
}

static int set_requeue(cli_job_opts_t *o, const char *arg,
		       const cli_opt_def_t *d)
{
	o->desc.requeue = strcmp(d->name, "requeue") ? 0 : 1;
	return 0;
}

static int set_no_kill(cli_job_opts_t *o, const char *arg,
		       const cli_opt_def_t *d)
{
	if (arg && !strcasecmp(arg, "off")) {
		o->desc.kill_on_node_fail = 1;
	} else if (!arg || !*arg || !strcasecmp(arg, "on") ||
		   !strcasecmp(arg, "set")) {
		o->desc.kill_on_node_fail = 0;
	} else {
		error("Invalid --no-kill specification");
		return -1;
	}
	return 0;
}

static int set_nice(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	long limit = (long)NICE_OFFSET - 3, v = 100;

	if (arg && opt_long(arg, -limit, limit, &v) < 0) {
		error("Invalid --nice value: %s", arg);
		return -1;
	}
	o->desc.nice = (uint32_t)(NICE_OFFSET + v);
	return 0;
}

static int set_priority(cli_job_opts_t *o, const char *arg,
			const cli_opt_def_t *d)
{
	long v;

	if (arg && !strcasecmp(arg, "TOP")) {
		o->desc.priority = NO_VAL32 - 1;
		return 0;
	}
	if (opt_long(arg, 0, (long)NO_VAL32 - 1, &v) < 0) {
		error("Priority must be >=0 and <%u", NO_VAL32);
		return -1;
	}
	o->desc.priority = (uint32_t)v;
	return 0;
}

/* 0-15, 1,3,5, 0-15:4, with an optional %max.  As Slurm's sbatch, the
 * controller judges the value (and answers "Invalid job array
 * specification"); only an empty one is refused here. */
static int set_array(cli_job_opts_t *o, const char *arg,
		     const cli_opt_def_t *d)
{
	if (!arg || !*arg) {
		error("Invalid job array specification");
		return -1;
	}
	xfree(o->desc.array_inx);
	o->desc.array_inx = xstrdup(arg);
	return 0;
}

static const char *const mail_types[] = {
	"NONE", "BEGIN", "END", "FAIL", "REQUEUE", "ALL", "INVALID_DEPEND",
	"STAGE_OUT", "TIME_LIMIT", "TIME_LIMIT_90", "TIME_LIMIT_80",
	"TIME_LIMIT_50", "ARRAY_TASKS", NULL
};

static bool mail_type_known(const char *t)
{
	for (size_t i = 0; mail_types[i]; i++)
		if (!strcasecmp(t, mail_types[i]))
			return true;
	return false;
}

static int set_mail_type(cli_job_opts_t *o, const char *arg,
			 const cli_opt_def_t *d)
{
	char **items = xstrsplit(arg ? arg : "", ",", NULL);
	int rc = 0;

	if (!items[0])
		rc = -1;
	for (size_t i = 0; items[i] && !rc; i++)
		if (!mail_type_known(items[i]))
			rc = -1;
	xstrarray_free(items);
	if (rc) {
		error("--mail-type=%s invalid", arg ? arg : "");
		return -1;
	}
	xfree(o->desc.mail_type);
	o->desc.mail_type = xstrdup(arg);
	return 0;
}

/* [{R|B}:]<sig>[@<sig_time>] */
static int set_signal(cli_job_opts_t *o, const char *arg,
		      const cli_opt_def_t *d)
{
	char *copy = xstrdup(arg ? arg : ""), *sig = copy, *at;
	long when = 60;
	int num, rc = -1;
	bool batch = false;

	if ((sig[0] == 'R' || sig[0] == 'B') && sig[1] == ':') {
		batch = sig[0] == 'B';
		sig += 2;
	} else if (!strncmp(sig, "RB:", 3) || !strncmp(sig, "BR:", 3)) {
		batch = true;
		sig += 3;
	}
	if ((at = strchr(sig, '@')))
		*at++ = '\0';
	num = cli_opt_signal_from_string(sig);
	if (num < 1 || num > 0xffff ||
	    (at && opt_long(at, 0, 0xffff, &when) < 0)) {
		error("Invalid --signal specification");
		goto cleanup;
	}
	o->desc.warn_signal = (uint16_t)num;
	o->desc.warn_time = (uint16_t)when;
	o->desc.warn_flags = batch ? KILL_JOB_BATCH : 0;
	xfree(o->signal);
	o->signal = xstrdup(arg);
	rc = 0;
cleanup:
	xfree(copy);
	return rc;
}

static int set_kill_inv_dep(cli_job_opts_t *o, const char *arg,
			    const cli_opt_def_t *d)
{
	bool v;

	if (!arg || parse_bool(arg, &v) < 0) {
		error("Invalid --kill-on-invalid-dep specification");
		return -1;
	}
	o->kill_on_invalid_dep = v;
	o->desc.kill_inv_dep = v ? 1 : 0;
	return 0;
}

/* --get-user-env[=timeout][mode]: seconds, then S or L */
static int set_get_user_env(cli_job_opts_t *o, const char *arg,
			    const cli_opt_def_t *d)
{
	const char *p = arg;

	while (p && isdigit((unsigned char)*p))
		p++;
	if (p && *p && (strchr("SsLl", *p) == NULL || p[1]))
		return opt_bad_spec(d);
	o->get_user_env = true;
	return 0;
}

static int set_propagate(cli_job_opts_t *o, const char *arg,
			 const cli_opt_def_t *d)
{
	xfree(o->propagate);
	o->propagate = xstrdup(arg && *arg ? arg : "ALL");
	return 0;
}

static int set_gpus(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	char *val;

	if (!arg || !*arg)
		return opt_bad_spec(d);
	val = xstrdup_printf("gres/gpu:%s", arg);
	switch (d->id) {
	case OPT_GPUS:
		xfree(o->desc.tres_per_job);
		o->desc.tres_per_job = val;
		return 0;
	case OPT_GPUS_PER_NODE:
		xfree(o->desc.gres);
		o->desc.gres = val;
		return 0;
	case OPT_GPUS_PER_TASK:
		xfree(o->desc.tres_per_task);
		o->desc.tres_per_task = val;
		return 0;
	default:
		xfree(val);
		return -1;
	}
}

static int set_per_gpu(cli_job_opts_t *o, const char *arg,
		       const cli_opt_def_t *d)
{
	uint64_t mb;
	long n;

	if (!strcmp(d->name, "mem-per-gpu")) {
		if (opt_mem(arg, &mb) < 0)
			return opt_bad_spec(d);
		if (opt_mem_kind(o, 2) < 0)
			return -1;
		o->desc.pn_min_memory = NO_VAL64;
		o->desc.mem_per_cpu = false;
		xfree(o->desc.mem_per_tres);
		o->desc.mem_per_tres = xstrdup_printf("gres/gpu:%llu",
						      (unsigned long long)mb);
		return 0;
	}
	if (opt_long(arg, 1, 0xfffd, &n) < 0)
		return opt_bad_number(arg, d);
	xfree(o->desc.cpus_per_tres);
	o->desc.cpus_per_tres = xstrdup_printf("gres/gpu:%ld", n);
	return 0;
}

static int set_uid(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	struct passwd *pw = arg ? getpwnam(arg) : NULL;
	long v;

	if (getuid() != 0) {
		error("--uid only permitted by root user");
		return -1;
	}
	if (pw) {
		o->desc.user_id = pw->pw_uid;
	} else if (opt_long(arg, 0, (long)NO_VAL32 - 1, &v) == 0) {
		o->desc.user_id = (uint32_t)v;
	} else {
		error("Invalid --uid specification");
		return -1;
	}
	o->uid_set = true;
	return 0;
}

static int set_gid(cli_job_opts_t *o, const char *arg, const cli_opt_def_t *d)
{
	struct group *gr = arg ? getgrnam(arg) : NULL;
	long v;

	if (getuid() != 0) {
		error("--gid only permitted by root user");
		return -1;
	}
	if (gr) {
		o->desc.group_id = gr->gr_gid;
	} else if (opt_long(arg, 0, (long)NO_VAL32 - 1, &v) == 0) {
		o->desc.group_id = (uint32_t)v;
	} else {
		error("Invalid --gid specification");
		return -1;
	}
	o->gid_set = true;
	return 0;
}

/* An option Slurm accepts and ignores in a configuration like Sluice's
 * (no burst buffer, no federation, no power plugin ...): taken, with a
 * warning that it has no effect. */
static int set_ignored(cli_job_opts_t *o, const char *arg,
		       const cli_opt_def_t *d)
{
	if (!o->quiet_getopt)
		fprintf(stderr, "%s: warning: --%s has no effect: %s\n",
			o->prog ? o->prog : "sluice", d->name, d->why);
	return 0;
}

/* An option Slurm acts on and Sluice cannot: refused, never dropped. */
static int set_refused(cli_job_opts_t *o, const char *arg,
		       const cli_opt_def_t *d)
{
	error("--%s is not supported: %s", d->name, d->why);
	return -1;
}

/* --gres-flags: enforce-binding is kept in the job's bitflags;
 * disable-binding and multiple-tasks-per-sharing are what Sluice does
 * without a flag (taken); one-task-per-sharing is refused, never
 * dropped; anything else, or enforce- with disable-binding, is Slurm's
 * error. */
static int set_gres_flags(cli_job_opts_t *o, const char *arg,
			  const cli_opt_def_t *d)
{
	char **w = xstrsplit(arg ? arg : "", ",", NULL);
	bool enforce = false, disable = false;
	int rc = 0;

	for (size_t k = 0; w[k] && !rc; k++) {
		if (!strcasecmp(w[k], "enforce-binding"))
			enforce = true;
		else if (!strcasecmp(w[k], "disable-binding"))
			disable = true;
		else if (!strcasecmp(w[k], "multiple-tasks-per-sharing"))
			continue;
		else if (!strcasecmp(w[k], "one-task-per-sharing")) {
			error("--%s=%s is not supported: %s", d->name, w[k],
			      d->why);
			rc = -1;
		} else {
			error("Invalid --gres-flags specification");
			rc = -1;
		}
	}
	if (!w[0] || (enforce && disable)) {
		error("Invalid --gres-flags specification");
		rc = -1;
	}
	xstrarray_free(w);
	if (rc < 0)
		return rc;
	o->desc.bitflags &= ~JOB_GRES_ENFORCE_BIND;
	if (enforce)
		o->desc.bitflags |= JOB_GRES_ENFORCE_BIND;
	return 0;
}

/* --container: the OCI bundle, made absolute against the working
 * directory; a path with ".." is refused here (the controller checks it
 * again, and whether oci.conf is there). */
static int set_container(cli_job_opts_t *o, const char *arg,
			 const cli_opt_def_t *d)
{
	char cwd[PATH_MAX], why[128], *path;

	if (arg[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		path = xstrdup(arg);
	else
		path = xstrdup_printf("%s/%s", cwd, arg);
	if (oci_bundle_path_check(path, why, sizeof(why)) < 0) {
		error("--%s=%s: Invalid container bundle path: %s", d->name,
		      arg, why);
		xfree(path);
		return -1;
	}
	xfree(o->desc.container);
	o->desc.container = path;
	return 0;
}

/* --x11[=all|first|last] (srun, salloc): the job is marked JOB_X11 so
 * the controller can refuse it without PrologFlags=X11. */
static int set_x11(cli_job_opts_t *o, const char *arg,
		   const cli_opt_def_t *d)
{
	uint16_t f = x11_flags_parse(arg);

	if (!f) {
		error("Invalid --%s specification: %s", d->name, arg);
		return -1;
	}
	o->x11 = f;
	o->desc.bitflags |= JOB_X11;
	return 0;
}

/* -S/--core-spec, --thread-spec: as Slurm when AllowSpecResourcesUsage
 * is No (the only value Sluice takes): said and ignored. */
static int set_spec(cli_job_opts_t *o, const char *arg,
		    const cli_opt_def_t *d)
{
	if (!o->quiet_getopt)
		error("Ignoring %s since it's not allowed by configuration "
		      "(AllowSpecResourcesUsage = No)",
		      d->short_opt == 'S' ? "-S" : "--thread-spec");
	return 0;
}

/* -m/--distribution for sbatch and salloc: the default of the job's
 * steps (srun checks it). */
static bool dist_word(const char *w, size_t n, bool first)
{
	static const char *const words[] = { "block", "cyclic", "*",
					     "fcyclic", "arbitrary" };
	size_t last = first ? 5 : 4;

	if (first && n > 6 && !strncasecmp(w, "plane=", 6)) {
		for (size_t i = 6; i < n; i++)
			if (!isdigit((unsigned char)w[i]))
				return false;
		return true;
	}
	for (size_t i = 0; i < last; i++) {
		if (first && i == 3)
			continue;       /* fcyclic: sockets and cores only */
		if (strlen(words[i]) == n && !strncasecmp(w, words[i], n))
			return true;
	}
	return false;
}

bool cli_dist_valid(const char *arg)
{
	const char *comma = strchr(arg, ','), *p = arg;
	size_t end = comma ? (size_t)(comma - arg) : strlen(arg);
	int level = 0;

	if (comma && strcasecmp(comma + 1, "Pack") &&
	    strcasecmp(comma + 1, "NoPack"))
		return false;
	while (p <= arg + end) {
		size_t n = strcspn(p, ":,");

		if (p + n > arg + end)
			n = (size_t)(arg + end - p);
		if (level > 2 || !dist_word(p, n, level == 0))
			return false;
		level++;
		p += n + 1;
	}
	return true;
}

static int set_distribution(cli_job_opts_t *o, const char *arg,
			    const cli_opt_def_t *d)
{
	if (!arg || !*arg || !cli_dist_valid(arg))
		return opt_bad_spec(d);
	xfree(o->distribution);
	o->distribution = xstrdup(arg);
	return 0;
}

static int set_tres_per_task(cli_job_opts_t *o, const char *arg,
			     const cli_opt_def_t *d)
{
	if (!arg || !*arg)
		return opt_bad_spec(d);
	xfree(o->desc.tres_per_task);
	o->desc.tres_per_task = xstrdup(arg);
	return 0;
}

/* --profile (profile.h): Slurm's words; lustre and network refused. */
static int set_profile(cli_job_opts_t *o, const char *arg,
		       const cli_opt_def_t *d)
{
	char why[256];

	(void) d;
	if (profile_parse(arg, &o->desc.profile, why, sizeof(why)) < 0) {
		error("invalid --profile=%s option", arg ? arg : "");
		error("%s", why);
		return -1;
	}
	return 0;
}

static int set_acctg_freq(cli_job_opts_t *o, const char *arg,
			  const cli_opt_def_t *d)
{
	char why[256];

	(void) d;
	if (acctg_freq_check(arg, why, sizeof(why)) < 0) {
		error("Invalid --acctg-freq specification: %s", arg ? arg : "");
		error("%s", why);
		return -1;
	}
	xfree(o->desc.acctg_freq);
	o->desc.acctg_freq = xstrdup(arg);
	return 0;
}

/* --switches=count[@max-time]: leaf switches at most, and how long to
 * wait for them (minutes, or [days-]hh:mm:ss as --time). */
static int set_switches(cli_job_opts_t *o, const char *arg,
			const cli_opt_def_t *d)
{
	char *dup = xstrdup(arg), *at = strchr(dup, '@');
	uint32_t n, secs = 0;
	int rc = 0;

	if (at)
		*at++ = '\0';
	if (parse_u32(dup, &n) < 0) {
		rc = opt_bad_number(dup, d);
	} else if (at && (parse_duration_sec(at, &secs) < 0 ||
			  secs == INFINITE32)) {
		error("Invalid --switches specification: %s", arg);
		rc = -1;
	} else {
		o->desc.req_switch = n;
		o->desc.wait4switch = at ? secs : INFINITE32;
	}
	xfree(dup);
	return rc;
}

/* --gpu-bind: checked here (Slurm's message), acted on by slurmstepd,
 * which reads it from the steps' SLURM_GPU_BIND. */
static int set_gpu_bind(cli_job_opts_t *o, const char *arg,
			const cli_opt_def_t *d)
{
	gpu_bind_t b;
	char err[256];

	(void) d;
	if (gpu_bind_parse(arg, &b, err, sizeof(err)) < 0) {
		error("%s", err);
		return -1;
	}
	gpu_bind_free(&b);
	xfree(o->gpu_bind);
	o->gpu_bind = xstrdup(arg);
	return 0;
}

static int set_segment(cli_job_opts_t *o, const char *arg,
		       const cli_opt_def_t *d)
{
	uint32_t n;

	(void) d;
	if (parse_u32(arg, &n) < 0 || !n || n >= NO_VAL16) {
		error("Invalid --segment specification: %s", arg);
		return -1;
	}
	o->desc.segment_size = (uint16_t) n;
	return 0;
}

/* ---- the table ---- */

#define STR(f) set_str, offsetof(job_desc_t, f)
#define FN(f)  f, 0
#define NOARG  no_argument
#define REQ    required_argument
#define OPT    optional_argument

/* Warned: Slurm ignores it too here (set_ignored); refused: Slurm acts
 * on it, Sluice cannot (set_refused). */
#define IGN(name, s, arg, why) \
	{ name, s, arg, OPT_IGNORED, ALL, { 0 }, FN(set_ignored), why }
#define REF(name, s, arg, why) \
	{ name, s, arg, OPT_REFUSED, ALL, { 0 }, FN(set_refused), why }

const cli_opt_def_t cli_opt_table[] = {
	{ "account", 'A', REQ, OPT_ACCOUNT, ALL,
	  { "SBATCH_ACCOUNT", "SALLOC_ACCOUNT", "SLURM_ACCOUNT" }, STR(account) },
	{ "array", 'a', REQ, OPT_ARRAY, SB,
	  { "SBATCH_ARRAY_INX" }, FN(set_array) },
	{ "begin", 'b', REQ, OPT_BEGIN, ALL, { 0 }, FN(set_when) },
	/* Sluice: a resumable job (ctld/job_ckpt.h) */
	{ "checkpoint", 0, NOARG, OPT_CHECKPOINT, SB | SR,
	  { "SBATCH_CHECKPOINT", NULL, NULL }, FN(set_flag) },
	{ "chdir", 'D', REQ, OPT_CHDIR, ALL,
	  { NULL, NULL, "SLURM_WORKING_DIR" }, STR(work_dir) },
	{ "clusters", 'M', REQ, OPT_CLUSTERS, SB | SA | SR,
	  { "SBATCH_CLUSTERS", "SALLOC_CLUSTERS", "SLURM_CLUSTERS" },
	  FN(set_clusters) },
	{ "comment", 0, REQ, OPT_COMMENT, ALL, { 0 }, STR(comment) },
	{ "constraint", 'C', REQ, OPT_CONSTRAINT, ALL,
	  { "SBATCH_CONSTRAINT", "SALLOC_CONSTRAINT", "SLURM_CONSTRAINT" },
	  STR(features) },
	{ "container", 0, REQ, OPT_CONTAINER, ALL,
	  { "SBATCH_CONTAINER", "SALLOC_CONTAINER", "SLURM_CONTAINER" },
	  FN(set_container) },
	{ "contiguous", 0, NOARG, OPT_CONTIGUOUS, ALL, { 0 }, FN(set_flag) },
	{ "cores-per-socket", 0, REQ, OPT_CORES_PER_SOCKET, ALL, { 0 },
	  FN(set_u16) },
	{ "cpus-per-gpu", 0, REQ, OPT_CPUS_PER_GPU, ALL,
	  { "SBATCH_CPUS_PER_GPU", "SALLOC_CPUS_PER_GPU", "SLURM_CPUS_PER_GPU" },
	  FN(set_per_gpu) },
	{ "cpus-per-task", 'c', REQ, OPT_CPUS_PER_TASK, ALL,
	  { NULL, NULL, "SLURM_CPUS_PER_TASK" }, FN(set_u16) },
	{ "deadline", 0, REQ, OPT_DEADLINE, ALL, { 0 }, FN(set_when) },
	{ "dependency", 'd', REQ, OPT_DEPENDENCY, ALL,
	  { NULL, NULL, "SLURM_DEPENDENCY" }, STR(dependency) },
	{ "error", 'e', REQ, OPT_ERROR, SB | SR,
	  { "SBATCH_ERROR", NULL, "SLURM_STDERRMODE" }, STR(std_err) },
	{ "exclude", 'x', REQ, OPT_EXCLUDE, ALL, { 0 }, STR(exc_nodes) },
	{ "exclusive", 0, OPT, OPT_SHARED, ALL,
	  { "SBATCH_EXCLUSIVE", "SALLOC_EXCLUSIVE", "SLURM_EXCLUSIVE" },
	  FN(set_shared) },
	{ "export", 0, REQ, OPT_EXPORT, SB | SR,
	  { "SBATCH_EXPORT", NULL, "SLURM_EXPORT_ENV" }, STR(export_env) },
	{ "get-user-env", 0, OPT, OPT_GET_USER_ENV, SB | SA,
	  { "SBATCH_GET_USER_ENV", "SALLOC_GET_USER_ENV" },
	  FN(set_get_user_env) },
	{ "gid", 0, REQ, OPT_GID, ALL, { 0 }, FN(set_gid) },
	{ "gpus", 'G', REQ, OPT_GPUS, ALL,
	  { "SBATCH_GPUS", "SALLOC_GPUS", "SLURM_GPUS" }, FN(set_gpus) },
	{ "gpus-per-node", 0, REQ, OPT_GPUS_PER_NODE, ALL,
	  { "SBATCH_GPUS_PER_NODE", "SALLOC_GPUS_PER_NODE",
	    "SLURM_GPUS_PER_NODE" }, FN(set_gpus) },
	{ "gpus-per-task", 0, REQ, OPT_GPUS_PER_TASK, ALL,
	  { "SBATCH_GPUS_PER_TASK", "SALLOC_GPUS_PER_TASK",
	    "SLURM_GPUS_PER_TASK" }, FN(set_gpus) },
	{ "gres", 0, REQ, OPT_GRES, ALL,
	  { "SBATCH_GRES", "SALLOC_GRES", "SLURM_GRES" }, STR(gres) },
	{ "help", 'h', NOARG, OPT_HELP, ALL, { 0 }, FN(set_flag) },
	{ "hold", 'H', NOARG, OPT_HOLD, SB | SA | SR, { 0 }, FN(set_flag) },
	{ "ignore-pbs", 0, NOARG, OPT_IGNORE_PBS, SB,
	  { "SBATCH_IGNORE_PBS" }, FN(set_flag) },
	{ "immediate", 'I', OPT, OPT_IMMEDIATE, SA | SR,
	  { NULL, "SALLOC_IMMEDIATE", "SLURM_IMMEDIATE" }, FN(set_flag) },
	{ "input", 'i', REQ, OPT_INPUT, SB | SR,
	  { "SBATCH_INPUT", NULL, "SLURM_STDINMODE" }, STR(std_in) },
	{ "job-name", 'J', REQ, OPT_JOB_NAME, ALL,
	  { "SBATCH_JOB_NAME", "SALLOC_JOB_NAME", "SLURM_JOB_NAME" },
	  STR(name) },
	{ "kill-on-invalid-dep", 0, REQ, OPT_KILL_INV_DEP, SB, { 0 },
	  FN(set_kill_inv_dep) },
	{ "licenses", 'L', REQ, OPT_LICENSES, ALL, { 0 }, STR(licenses) },
	{ "mail-type", 0, REQ, OPT_MAIL_TYPE, ALL, { 0 }, FN(set_mail_type) },
	{ "mail-user", 0, REQ, OPT_MAIL_USER, ALL, { 0 }, STR(mail_user) },
	{ "mem", 0, REQ, OPT_MEM, ALL,
	  { "SBATCH_MEM_PER_NODE", "SALLOC_MEM_PER_NODE",
	    "SLURM_MEM_PER_NODE" }, FN(set_mem) },
	{ "mem-per-cpu", 0, REQ, OPT_MEM, ALL,
	  { "SBATCH_MEM_PER_CPU", "SALLOC_MEM_PER_CPU", "SLURM_MEM_PER_CPU" },
	  FN(set_mem) },
	{ "mem-per-gpu", 0, REQ, OPT_MEM, ALL,
	  { "SBATCH_MEM_PER_GPU", "SALLOC_MEM_PER_GPU", "SLURM_MEM_PER_GPU" },
	  FN(set_per_gpu) },
	{ "mincpus", 0, REQ, OPT_MINCPUS, ALL, { 0 }, FN(set_u32) },
	{ "nice", 0, OPT, OPT_NICE, ALL, { 0 }, FN(set_nice) },
	{ "no-kill", 'k', OPT, OPT_NO_KILL, ALL,
	  { "SBATCH_NO_KILL", "SALLOC_NO_KILL", "SLURM_NO_KILL" },
	  FN(set_no_kill) },
	{ "no-requeue", 0, NOARG, OPT_REQUEUE, SB,
	  { "SBATCH_NO_REQUEUE" }, FN(set_requeue) },
	{ "nodelist", 'w', REQ, OPT_NODELIST, ALL, { 0 }, STR(req_nodes) },
	{ "nodes", 'N', REQ, OPT_NODES, ALL,
	  { NULL, NULL, "SLURM_NNODES" }, FN(set_nodes) },
	{ "ntasks", 'n', REQ, OPT_NTASKS, ALL,
	  { NULL, NULL, "SLURM_NTASKS|SLURM_NPROCS" }, FN(set_u32) },
	{ "ntasks-per-core", 0, REQ, OPT_NTASKS_PER_CORE, ALL,
	  { NULL, NULL, "SLURM_NTASKS_PER_CORE" }, FN(set_u32) },
	{ "ntasks-per-gpu", 0, REQ, OPT_NTASKS_PER_GPU, ALL,
	  { NULL, NULL, "SLURM_NTASKS_PER_GPU" }, FN(set_u32) },
	{ "ntasks-per-node", 0, REQ, OPT_NTASKS_PER_NODE, ALL,
	  { NULL, NULL, "SLURM_NTASKS_PER_NODE" }, FN(set_u16) },
	{ "open-mode", 0, REQ, OPT_OPEN_MODE, SB | SR,
	  { "SBATCH_OPEN_MODE", NULL, "SLURM_OPEN_MODE" }, FN(set_open_mode) },
	{ "output", 'o', REQ, OPT_OUTPUT, SB | SR,
	  { "SBATCH_OUTPUT", NULL, "SLURM_STDOUTMODE" }, STR(std_out) },
	{ "oversubscribe", 's', NOARG, OPT_SHARED, ALL, { 0 }, FN(set_shared) },
	{ "parsable", 0, NOARG, OPT_PARSABLE, SB, { 0 }, FN(set_flag) },
	{ "partition", 'p', REQ, OPT_PARTITION, ALL,
	  { "SBATCH_PARTITION", "SALLOC_PARTITION", "SLURM_PARTITION" },
	  STR(partition) },
	{ "priority", 0, REQ, OPT_PRIORITY, ALL, { 0 }, FN(set_priority) },
	{ "propagate", 0, OPT, OPT_PROPAGATE, SB | SR, { 0 }, FN(set_propagate) },
	{ "qos", 'q', REQ, OPT_QOS, ALL,
	  { "SBATCH_QOS", "SALLOC_QOS", "SLURM_QOS" }, STR(qos) },
	{ "quiet", 'Q', NOARG, OPT_QUIET, ALL, { 0 }, FN(set_flag) },
	{ "requeue", 0, NOARG, OPT_REQUEUE, SB,
	  { "SBATCH_REQUEUE" }, FN(set_requeue) },
	{ "reservation", 0, REQ, OPT_RESERVATION, ALL,
	  { "SBATCH_RESERVATION", "SALLOC_RESERVATION", "SLURM_RESERVATION" },
	  STR(reservation) },
	{ "signal", 0, REQ, OPT_SIGNAL, ALL,
	  { "SBATCH_SIGNAL", "SALLOC_SIGNAL", "SLURM_SIGNAL" }, FN(set_signal) },
	{ "sockets-per-node", 0, REQ, OPT_SOCKETS_PER_NODE, ALL, { 0 },
	  FN(set_u16) },
	{ "test-only", 0, NOARG, OPT_TEST_ONLY, SB | SR, { 0 }, FN(set_flag) },
	{ "threads-per-core", 0, REQ, OPT_THREADS_PER_CORE, ALL,
	  { "SBATCH_THREADS_PER_CORE", "SALLOC_THREADS_PER_CORE",
	    "SLURM_THREADS_PER_CORE" }, FN(set_u16) },
	{ "time", 't', REQ, OPT_TIME, ALL,
	  { "SBATCH_TIMELIMIT", "SALLOC_TIMELIMIT", "SLURM_TIMELIMIT" },
	  FN(set_time) },
	{ "time-min", 0, REQ, OPT_TIME_MIN, ALL, { 0 }, FN(set_time) },
	{ "tmp", 0, REQ, OPT_TMP, ALL, { 0 }, FN(set_tmp) },
	{ "uid", 0, REQ, OPT_UID, ALL, { 0 }, FN(set_uid) },
	{ "usage", 0, NOARG, OPT_USAGE, ALL, { 0 }, FN(set_flag) },
	{ "verbose", 'v', NOARG, OPT_VERBOSE, ALL, { 0 }, FN(set_flag) },
	{ "version", 'V', NOARG, OPT_VERSION, ALL, { 0 }, FN(set_flag) },
	{ "wait", 'W', NOARG, OPT_WAIT, SB, { "SBATCH_WAIT" }, FN(set_flag) },
	{ "wckey", 0, REQ, OPT_WCKEY, ALL,
	  { "SBATCH_WCKEY", "SALLOC_WCKEY", "SLURM_WCKEY" }, STR(wckey) },
	{ "wrap", 0, REQ, OPT_WRAP, SB, { 0 }, FN(set_wrap) },
	{ "export-file", 0, REQ, OPT_EXPORT_FILE, SB, { 0 }, FN(set_wrap) },
	{ "tres-per-task", 0, REQ, OPT_GPUS_PER_TASK, ALL,
	  { "SBATCH_TRES_PER_TASK", "SALLOC_TRES_PER_TASK",
	    "SLURM_TRES_PER_TASK" }, FN(set_tres_per_task) },
	{ "acctg-freq", 0, REQ, OPT_ACCTG_FREQ, ALL,
	  { "SBATCH_ACCTG_FREQ", "SALLOC_ACCTG_FREQ", "SLURM_ACCTG_FREQ" },
	  FN(set_acctg_freq) },
	{ "x11", 0, OPT, OPT_X11, SA | SR, { 0 }, FN(set_x11) },
	REF("batch", 0, REQ, "the batch host is always the first node"),
	IGN("bb", 0, REQ, "no burst buffer plugin is configured"),
	IGN("bbf", 0, REQ, "no burst buffer plugin is configured"),
	IGN("cluster-constraint", 0, REQ, "the cluster is not federated"),
	{ "core-spec", 'S', REQ, OPT_SPEC, ALL, { 0 }, FN(set_spec) },
	REF("cpu-freq", 0, REQ, "steps do not set CPU frequencies"),
	IGN("delay-boot", 0, REQ, "nodes are never rebooted for a job"),
	{ "distribution", 'm', REQ, OPT_DISTRIBUTION, SB | SA,
	  { "SBATCH_DISTRIBUTION", "SALLOC_DISTRIBUTION" },
	  FN(set_distribution) },
	REF("extra", 0, REQ, "jobs carry no extra field"),
	REF("extra-node-info", 'B', REQ, "sockets, cores and threads per node "
	    "are not requested this way"),
	{ "gpu-bind", 0, REQ, OPT_GPU_BIND, ALL,
	  { "SBATCH_GPU_BIND", "SALLOC_GPU_BIND", "SLURM_GPU_BIND" },
	  FN(set_gpu_bind) },
	REF("gpu-freq", 0, REQ, "steps do not set GPU frequencies"),
	{ "gres-flags", 0, REQ, OPT_REFUSED, ALL,
	  { "SBATCH_GRES_FLAGS", "SALLOC_GRES_FLAGS", "SLURM_GRES_FLAGS" },
	  FN(set_gres_flags),
	  "shared GRES (shard, mps) are not split per task" },
	REF("gpus-per-socket", 0, REQ, "GPUs are not placed per socket"),
	{ "hint", 0, REQ, OPT_HINT, ALL,
	  { "SBATCH_HINT", "SALLOC_HINT", "SLURM_HINT" }, FN(set_hint) },
	IGN("mcs-label", 0, REQ, "MCSPlugin is mcs/none"),
	REF("mem-bind", 0, REQ, "memory is not bound to NUMA nodes"),
	IGN("network", 0, REQ, "SwitchType is switch/none"),
	REF("nodefile", 'F', REQ, "give the nodes with --nodelist"),
	REF("ntasks-per-socket", 0, REQ, "tasks are not limited per socket"),
	{ "overcommit", 'O', NOARG, OPT_OVERCOMMIT, ALL,
	  { "SBATCH_OVERCOMMIT", "SALLOC_OVERCOMMIT", "SLURM_OVERCOMMIT" },
	  FN(set_flag) },
	IGN("power", 0, REQ, "no power plugin is configured"),
	REF("prefer", 0, REQ, "features are required (--constraint) or not "
	    "asked for"),
	{ "profile", 0, REQ, OPT_PROFILE, ALL,
	  { "SBATCH_PROFILE", "SALLOC_PROFILE", "SLURM_PROFILE" },
	  FN(set_profile) },
	IGN("reboot", 0, NOARG, "nodes are never rebooted for a job"),
	{ "spread-job", 0, NOARG, OPT_SPREAD_JOB, ALL,
	  { NULL, NULL, "SLURM_SPREAD_JOB" }, FN(set_flag) },
	{ "switches", 0, REQ, OPT_SWITCHES, ALL,
	  { "SBATCH_REQ_SWITCH", "SALLOC_REQ_SWITCH", "SLURM_REQ_SWITCH" },
	  FN(set_switches) },
	{ "segment", 0, REQ, OPT_SEGMENT, ALL, { 0 }, FN(set_segment) },
	{ "thread-spec", 0, REQ, OPT_SPEC, ALL, { 0 }, FN(set_spec) },
	REF("use-min-nodes", 0, NOARG, "the smallest node count is always "
	    "preferred"),
	IGN("wait-all-nodes", 0, REQ, "nodes are never booted for a job: "
	    "they are ready when the job starts"),
};

const size_t cli_opt_table_len = sizeof(cli_opt_table) / sizeof(cli_opt_table[0]);
