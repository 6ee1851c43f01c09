/* rest_job_conv.c — the converters of the job_desc_msg property table:
 * each checks one property's value and stores it in the job_desc_t as
 * sbatch's option setter (cli_opt_set.c) does for the same option.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/profile.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_job_desc_int.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

#define JD_FIELD(c, p, type) ((type *)((char *)(c)->d + (p)->off))

int rest_jd_refuse(rest_jd_ctx_t *c, const char *path, const char *what)
{
	c->rc = ESLURM_NOT_SUPPORTED;
	return rest_val_fail(c->err, path, "%s", what);
}

static int refuse_flag(rest_jd_ctx_t *c, const char *path, const char *flag)
{
	c->rc = ESLURM_NOT_SUPPORTED;
	return rest_val_fail(c->err, path, "%s: not supported by Sluice",
			     flag);
}

/* ---- converters: strings ---- */

int rest_cv_str(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	char **f = JD_FIELD(c, p, char *), *s;

	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	if (!*s && !c->x->update)
		xfree(s);   /* "" asks for nothing, as an empty option */
	xfree(*f);
	*f = s;
	return 0;
}

int rest_cv_dir(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	if (rest_cv_str(p, v, path, c) < 0)
		return -1;
	if (c->d->work_dir && c->d->work_dir[0] != '/') {
		xfree(c->d->work_dir);
		return rest_val_fail(c->err, path, "expected an absolute path");
	}
	return 0;
}

/* sbatch refuses an empty --array; the controller judges the rest. */
int rest_cv_array(const rest_jd_prop_t *p, json_object *v,
		  const char *path, rest_jd_ctx_t *c)
{
	if (rest_cv_str(p, v, path, c) < 0)
		return -1;
	if (!c->d->array_inx)
		return rest_val_fail(c->err, path, "Invalid job array "
				     "specification");
	return 0;
}

int rest_cv_csv(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	char **f = JD_FIELD(c, p, char *), *s;

	if (rest_val_csv(v, path, &s, c->err) < 0)
		return -1;
	if (!s && c->x->update)
		s = xstrdup("");
	xfree(*f);
	*f = s;
	return 0;
}

int rest_cv_strlist(const rest_jd_prop_t *p, json_object *v,
		    const char *path, rest_jd_ctx_t *c)
{
	char ***f = JD_FIELD(c, p, char **), **l;

	if (rest_val_strlist(v, path, &l, c->err) < 0)
		return -1;
	xstrarray_free(*f);
	*f = l;
	return 0;
}

/* ["K=V", ...]: each entry needs a name and '='. */
int rest_cv_env(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	char **env;

	if (rest_cv_strlist(p, v, path, c) < 0)
		return -1;
	env = c->d->environment;
	for (size_t i = 0; env[i]; i++) {
		char *eq = strchr(env[i], '=');

		if (!eq || eq == env[i]) {
			char *ip = xstrdup_printf("%s[%zu]", path, i);

			rest_val_fail(c->err, ip, "expected \"NAME=value\"");
			xfree(ip);
			return -1;
		}
	}
	return 0;
}

/* ---- converters: numbers ---- */

int rest_cv_u16(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	int64_t n;

	if (rest_val_int(v, path, p->min, p->max, &n, c->err) < 0)
		return -1;
	*JD_FIELD(c, p, uint16_t) = (uint16_t) n;
	return 0;
}

int rest_cv_u32(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	int64_t n;

	if (rest_val_int(v, path, p->min, p->max, &n, c->err) < 0)
		return -1;
	*JD_FIELD(c, p, uint32_t) = (uint32_t) n;
	return 0;
}

/* --mincpus; minimum_cpus and minimum_cpus_per_node both ask it. */
int rest_cv_min_cpus(const rest_jd_prop_t *p, json_object *v,
		     const char *path, rest_jd_ctx_t *c)
{
	uint32_t before = c->d->min_cpus;

	if (rest_cv_u32(p, v, path, c) < 0)
		return -1;
	if (before != NO_VAL32 && before != c->d->min_cpus)
		return rest_val_fail(c->err, path, "differs from the other "
				     "minimum CPU count given");
	return 0;
}

/* A no_val number into a uint16/uint32 field. */
int rest_cv_noval(const rest_jd_prop_t *p, json_object *v,
		  const char *path, rest_jd_ctx_t *c)
{
	uint64_t n = 0;
	int kind;
	bool wide = p->max > 0xffff;

	if (rest_val_noval(v, path, (uint64_t) p->max, &kind, &n, c->err) < 0)
		return -1;
	if (kind == REST_NOVAL_UNSET)
		n = wide ? NO_VAL32 : NO_VAL16;
	else if (kind == REST_NOVAL_INFINITE)
		n = wide ? INFINITE32 : INFINITE16;
	if (wide)
		*JD_FIELD(c, p, uint32_t) = (uint32_t) n;
	else
		*JD_FIELD(c, p, uint16_t) = (uint16_t) n;
	return 0;
}

/* Minutes; 0 asks for no limit in a submit, as --time=0 (an update
 * sends it as scontrol's TimeLimit=0 does). */
int rest_cv_time(const rest_jd_prop_t *p, json_object *v,
		 const char *path, rest_jd_ctx_t *c)
{
	if (rest_cv_noval(p, v, path, c) < 0)
		return -1;
	if (*JD_FIELD(c, p, uint32_t) == 0 && !c->x->update)
		*JD_FIELD(c, p, uint32_t) = INFINITE32;
	return 0;
}

/* Seconds since the epoch, or a time as --begin takes it ("now+1hour"). */
int rest_cv_stamp(const rest_jd_prop_t *p, json_object *v,
		  const char *path, rest_jd_ctx_t *c)
{
	time_t *f = JD_FIELD(c, p, time_t), t;
	uint64_t n = 0;
	int kind;
	const char *s;

	if (json_object_is_type(v, json_type_string) &&
	    (s = json_object_get_string(v)) && *s &&
	    strspn(s, "0123456789") != strlen(s)) {
		if (parse_time(s, time(NULL), &t) < 0)
			return rest_val_fail(c->err, path, "Invalid time "
					     "specification \"%s\"", s);
		*f = t;
		return 0;
	}
	if (rest_val_noval(v, path, INT64_MAX - 1, &kind, &n, c->err) < 0)
		return -1;
	if (kind == REST_NOVAL_INFINITE)
		return rest_val_fail(c->err, path, "expected a time, not "
				     "infinite");
	*f = kind == REST_NOVAL_UNSET ? 0 : (time_t) n;
	return 0;
}

/* MB per node or per CPU (p->arg non-NULL). */
int rest_cv_mem(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	uint64_t n = 0;
	int kind;

	if (rest_val_noval(v, path, NO_VAL64 - 1, &kind, &n, c->err) < 0)
		return -1;
	if (kind == REST_NOVAL_UNSET)
		return 0;
	if (kind == REST_NOVAL_INFINITE)
		return rest_val_fail(c->err, path, "expected a number of "
				     "megabytes, not infinite");
	c->d->pn_min_memory = n;
	c->d->mem_per_cpu = p->arg != NULL;
	c->mem_kinds |= p->arg ? RJ_MEM_CPU : RJ_MEM_NODE;
	return 0;
}

int rest_cv_mem_tres(const rest_jd_prop_t *p, json_object *v,
		     const char *path, rest_jd_ctx_t *c)
{
	if (rest_cv_str(p, v, path, c) < 0)
		return -1;
	if (c->d->mem_per_tres)
		c->mem_kinds |= RJ_MEM_TRES;
	return 0;
}

int rest_cv_nice(const rest_jd_prop_t *p, json_object *v,
		 const char *path, rest_jd_ctx_t *c)
{
	int64_t lim = (int64_t) NICE_OFFSET - 3, n;

	if (rest_val_int(v, path, -lim, lim, &n, c->err) < 0)
		return -1;
	c->d->nice = (uint32_t) ((int64_t) NICE_OFFSET + n);
	return 0;
}

/* infinite is --priority=TOP. */
int rest_cv_priority(const rest_jd_prop_t *p, json_object *v,
		     const char *path, rest_jd_ctx_t *c)
{
	uint64_t n = 0;
	int kind;

	if (rest_val_noval(v, path, NO_VAL32 - 1, &kind, &n, c->err) < 0)
		return -1;
	if (kind == REST_NOVAL_INFINITE)
		c->d->priority = NO_VAL32 - 1;
	else if (kind == 0)
		c->d->priority = (uint32_t) n;
	return 0;
}

/* One -N count: digits with an optional k/m suffix. */
static int node_count(const char *s, uint32_t *out)
{
	uint64_t n = 0, mult = 1;
	const char *q = s;

	if (!*q)
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		n = n * 10 + (uint64_t) (*q - '0');
		if (n >= NO_VAL32)
			return -1;
	}
	if (q == s)
		return -1;
	if (*q == 'k' || *q == 'K')
		mult = 1024, q++;
	else if (*q == 'm' || *q == 'M')
		mult = 1024 * 1024, q++;
	if (*q || n * mult >= NO_VAL32)
		return -1;
	*out = (uint32_t) (n * mult);
	return 0;
}

/* "min[-max]" as -N takes it ("-3" is 1 to 3). */
int rest_cv_nodes(const rest_jd_prop_t *p, json_object *v,
		  const char *path, rest_jd_ctx_t *c)
{
	char *s, *dash;
	uint32_t min = 1, max = NO_VAL32;
	int rc = -1;

	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	if ((dash = strchr(s, '-')))
		*dash++ = '\0';
	if ((*s || !dash) && node_count(s, &min) < 0)
		goto bad;
	if (dash && node_count(dash, &max) < 0)
		goto bad;
	if (dash && max < min) {
		rest_val_fail(c->err, path, "Maximum node count %u is less "
			      "than minimum node count %u", max, min);
		goto out;
	}
	c->d->min_nodes = min;
	c->d->max_nodes = max;
	rc = 0;
	goto out;
bad:
	rest_val_fail(c->err, path, "expected a node count or range such as "
		      "\"2\" or \"2-4\"");
out:
	xfree(s);
	return rc;
}

/* ---- converters: booleans and flag sets ---- */

/* true/false as 1/0 (--requeue/--no-requeue); a row with arg set is a
 * flag option (--contiguous): false leaves it unset, as its absence. */
int rest_cv_bool16(const rest_jd_prop_t *p, json_object *v,
		   const char *path, rest_jd_ctx_t *c)
{
	bool b;

	if (rest_val_bool(v, path, &b, c->err) < 0)
		return -1;
	if (b || !p->arg)   /* arg: a flag option, false is its absence */
		*JD_FIELD(c, p, uint16_t) = b ? 1 : 0;
	return 0;
}

int rest_cv_hold(const rest_jd_prop_t *p, json_object *v,
		 const char *path, rest_jd_ctx_t *c)
{
	bool b;

	if (rest_val_bool(v, path, &b, c->err) < 0)
		return -1;
	c->d->hold = b;
	c->x->hold = b ? 1 : 0;
	return 0;
}

/* The single name of a one-of flag set; -1 (error set) if several. */
static int one_flag(json_object *v, const char *path, const char *const *names,
		    char **err)
{
	uint64_t m;

	if (rest_val_flags(v, path, names, &m, err) < 0)
		return -1;
	if (!m)
		return -2;   /* empty: nothing asked */
	if (m & (m - 1))
		return rest_val_fail(err, path, "expected one value");
	return __builtin_ctzll(m);
}

static const char *const shared_names[] = {
	"none", "oversubscribe", "user", "mcs", "topo", NULL
};
static const uint16_t shared_values[] = {
	JOB_SHARED_NONE, JOB_SHARED_OK, JOB_SHARED_USER, JOB_SHARED_MCS,
	JOB_SHARED_TOPO,
};

/* shared: "none" is --exclusive, "oversubscribe" -s, "user"
 * --exclusive=user ... ("topo" from v0.0.41). */
int rest_cv_shared(const rest_jd_prop_t *p, json_object *v,
		   const char *path, rest_jd_ctx_t *c)
{
	int i = one_flag(v, path, shared_names, c->err);

	if (i == -1)
		return -1;
	if (i == 4 && c->ver < 41)
		return rest_val_fail(c->err, path, "unknown flag \"topo\"");
	if (i >= 0)
		c->d->shared = shared_values[i];
	return 0;
}

static const char *const exclusive_names[] = {
	"true", "false", "user", "mcs", "topo", NULL
};

/* v0.0.40/41 exclusive: "false" asks for nothing (the partition
 * decides), as no --exclusive. */
int rest_cv_exclusive(const rest_jd_prop_t *p, json_object *v,
		      const char *path, rest_jd_ctx_t *c)
{
	static const uint16_t val[] = {
		JOB_SHARED_NONE, JOB_SHARED_UNSET, JOB_SHARED_USER,
		JOB_SHARED_MCS, JOB_SHARED_TOPO,
	};
	int i = one_flag(v, path, exclusive_names, c->err);

	if (i == -1)
		return -1;
	if (i == 4 && c->ver < 41)
		return rest_val_fail(c->err, path, "unknown flag \"topo\"");
	if (i >= 0 && i != 1)
		c->d->shared = val[i];
	return 0;
}

/* v0.0.40/41 oversubscribe: true is -s. */
int rest_cv_oversubscribe(const rest_jd_prop_t *p, json_object *v,
			  const char *path, rest_jd_ctx_t *c)
{
	bool b;

	if (rest_val_bool(v, path, &b, c->err) < 0)
		return -1;
	if (b)
		c->d->shared = JOB_SHARED_OK;
	return 0;
}

static const char *const open_mode_names[] = { "APPEND", "TRUNCATE", NULL };

int rest_cv_open_mode(const rest_jd_prop_t *p, json_object *v,
		      const char *path, rest_jd_ctx_t *c)
{
	int i = one_flag(v, path, open_mode_names, c->err);

	if (i == -1)
		return -1;
	if (i >= 0)
		c->d->open_mode = (uint16_t) (i + 1);
	return 0;
}

/* The schema's names, and the --mail-type words they are. */
static const char *const mail_names[] = {
	"BEGIN", "END", "FAIL", "REQUEUE", "TIME=100%", "TIME=90%",
	"TIME=80%", "TIME=50%", "STAGE_OUT", "ARRAY_TASKS",
	"INVALID_DEPENDENCY", NULL
};
static const char *const mail_words[] = {
	"BEGIN", "END", "FAIL", "REQUEUE", "TIME_LIMIT", "TIME_LIMIT_90",
	"TIME_LIMIT_80", "TIME_LIMIT_50", "STAGE_OUT", "ARRAY_TASKS",
	"INVALID_DEPEND",
};

int rest_cv_mail_type(const rest_jd_prop_t *p, json_object *v,
		      const char *path, rest_jd_ctx_t *c)
{
	uint64_t m;
	char *s = NULL;

	if (rest_val_flags(v, path, mail_names, &m, c->err) < 0)
		return -1;
	for (size_t i = 0; mail_names[i]; i++)
		if (m & (1ull << i))
			xstrfmtcat(&s, "%s%s", s ? "," : "", mail_words[i]);
	xfree(c->d->mail_type);
	c->d->mail_type = s;
	return 0;
}

/* --profile: the schema's ACCT_GATHER_PROFILE flags (profile.h);
 * LUSTRE and NETWORK are refused as sbatch refuses them. */
static const char *const profile_names[] = {
	"NOT_SET", "NONE", "ENERGY", "LUSTRE", "NETWORK", "TASK", NULL
};

int rest_cv_profile(const rest_jd_prop_t *p, json_object *v,
		    const char *path, rest_jd_ctx_t *c)
{
	uint64_t m;
	uint32_t out = 0;

	if (rest_val_flags(v, path, profile_names, &m, c->err) < 0)
		return -1;
	if (m & (1u << 3))
		return refuse_flag(c, path, "LUSTRE");
	if (m & (1u << 4))
		return refuse_flag(c, path, "NETWORK");
	if (m & (1u << 1))
		out |= PROFILE_NONE;
	if (m & (1u << 2))
		out |= PROFILE_ENERGY;
	if (m & (1u << 5))
		out |= PROFILE_TASK;
	c->d->profile = out;
	return 0;
}

/* --acctg-freq as a string ("task=10,energy=30"). */
int rest_cv_acctg_freq(const rest_jd_prop_t *p, json_object *v,
		       const char *path, rest_jd_ctx_t *c)
{
	char why[256], *s;

	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	if (!*s) {
		xfree(s);
		return 0;
	}
	if (acctg_freq_check(s, why, sizeof(why)) < 0) {
		xfree(s);
		return rest_val_fail(c->err, path, "%s", why);
	}
	xfree(c->d->acctg_freq);
	c->d->acctg_freq = s;
	return 0;
}

/* Every version's job flags; only the first three ask for something
 * Sluice does (--kill-on-invalid-dep, --spread-job). */
static const char *const job_flag_names[] = {
	"KILL_INVALID_DEPENDENCY", "NO_KILL_INVALID_DEPENDENCY", "SPREAD_JOB",
	"HAS_STATE_DIRECTORY", "TESTING_BACKFILL", "GRES_BINDING_ENFORCED",
	"TEST_NOW_ONLY", "SEND_JOB_ENVIRONMENT", "PREFER_MINIMUM_NODE_COUNT",
	"JOB_KILL_HURRY", "SKIP_TRES_STRING_ACCOUNTING",
	"SIBLING_CLUSTER_UPDATE_ONLY", "HETEROGENEOUS_JOB",
	"EXACT_TASK_COUNT_REQUESTED", "EXACT_CPU_COUNT_REQUESTED",
	"TESTING_WHOLE_NODE_BACKFILL", "TOP_PRIORITY_JOB",
	"ACCRUE_COUNT_CLEARED", "GRES_BINDING_DISABLED", "JOB_WAS_RUNNING",
	"JOB_ACCRUE_TIME_RESET", "CRON_JOB", "EXACT_MEMORY_REQUESTED",
	"USING_DEFAULT_ACCOUNT", "USING_DEFAULT_PARTITION",
	"USING_DEFAULT_QOS", "USING_DEFAULT_WCKEY", "DEPENDENT", "MAGNETIC",
	"PARTITION_ASSIGNED", "BACKFILL_ATTEMPTED", "SCHEDULING_ATTEMPTED",
	"SAVE_BATCH_SCRIPT", "GRES_ONE_TASK_PER_SHARING",
	"GRES_MULTIPLE_TASKS_PER_SHARING", "GRES_ALLOW_TASK_SHARING",
	"STEPMGR_ENABLED", "EXTERNAL_JOB", NULL
};

int rest_cv_job_flags(const rest_jd_prop_t *p, json_object *v,
		      const char *path, rest_jd_ctx_t *c)
{
	uint64_t m;

	if (rest_val_flags(v, path, job_flag_names, &m, c->err) < 0)
		return -1;
	if ((m & 3) == 3)
		return rest_val_fail(c->err, path, "KILL_INVALID_DEPENDENCY "
				     "and NO_KILL_INVALID_DEPENDENCY both given");
	for (int i = 3; job_flag_names[i]; i++)
		if (m & (1ull << i))
			return refuse_flag(c, path, job_flag_names[i]);
	if (m & 1)
		c->d->kill_inv_dep = 1;
	if (m & 2)
		c->d->kill_inv_dep = 0;
	if (m & 4)
		c->d->bitflags |= JOB_SPREAD;
	return 0;
}

static const char *const warn_flag_names[] = {
	"BATCH_JOB", "ARRAY_TASK", "FULL_STEPS_ONLY", "FULL_JOB",
	"FEDERATION_REQUEUE", "HURRY", "OUT_OF_MEMORY", "NO_SIBLING_JOBS",
	"RESERVATION_JOB", "NO_CRON_JOBS", "VERBOSE", "CRON_JOBS",
	"WARNING_SENT", NULL
};

/* BATCH_JOB is --signal=B:...; the others are not requests. */
int rest_cv_warn_flags(const rest_jd_prop_t *p, json_object *v,
		       const char *path, rest_jd_ctx_t *c)
{
	uint64_t m;

	if (rest_val_flags(v, path, warn_flag_names, &m, c->err) < 0)
		return -1;
	for (int i = 1; warn_flag_names[i]; i++)
		if (m & (1ull << i))
			return refuse_flag(c, path, warn_flag_names[i]);
	c->d->warn_flags = (m & 1) ? KILL_JOB_BATCH : 0;
	return 0;
}

/* "USR1", "SIGUSR1" or a number, as --signal takes it. */
static int signal_number(const char *s)
{
	char *end;
	long n;

	if (*s >= '0' && *s <= '9') {
		n = strtol(s, &end, 10);
		return (*end || n < 1 || n > 0xffff) ? -1 : (int) n;
	}
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *a = sigabbrev_np(i);

		if (a && !strcasecmp(s, a))
			return i;
	}
	return -1;
}

int rest_cv_signal(const rest_jd_prop_t *p, json_object *v,
		   const char *path, rest_jd_ctx_t *c)
{
	char *s;
	int n;

	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	n = *s ? signal_number(s) : 0;
	if (n < 0) {
		rest_val_fail(c->err, path, "unknown signal \"%s\"", s);
		xfree(s);
		return -1;
	}
	xfree(s);
	c->d->warn_signal = n ? (uint16_t) n : NO_VAL16;
	return 0;
}

/* ---- converters: identities ---- */

static int id_number(const char *s, uint32_t *out)
{
	char *end;
	unsigned long n;

	if (!(*s >= '0' && *s <= '9'))
		return -1;
	n = strtoul(s, &end, 10);
	if (*end || n >= NO_VAL32)
		return -1;
	*out = (uint32_t) n;
	return 0;
}

/* A user name or uid, as --uid (the controller honours it for
 * operators only). */
int rest_cv_user(const rest_jd_prop_t *p, json_object *v,
		 const char *path, rest_jd_ctx_t *c)
{
	char *s;
	uid_t uid;
	int rc = 0;

	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	if (!*s)
		;
	else if (id_number(s, &c->d->user_id) == 0)
		;
	else if (uid_cache_by_name(s, &uid, NULL) == 0)
		c->d->user_id = (uint32_t) uid;
	else
		rc = rest_val_fail(c->err, path, "unknown user \"%s\"", s);
	xfree(s);
	return rc;
}

int rest_cv_group(const rest_jd_prop_t *p, json_object *v,
		  const char *path, rest_jd_ctx_t *c)
{
	struct group gr, *res = NULL;
	char buf[4096], *s;
	int rc = 0;

	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	if (!*s)
		;
	else if (id_number(s, &c->d->group_id) == 0)
		;
	else if (getgrnam_r(s, &gr, buf, sizeof(buf), &res) == 0 && res)
		c->d->group_id = (uint32_t) res->gr_gid;
	else
		rc = rest_val_fail(c->err, path, "unknown group \"%s\"", s);
	xfree(s);
	return rc;
}

/* A submit cannot choose its id; an update names its job with it. */
int rest_cv_job_id(const rest_jd_prop_t *p, json_object *v,
		   const char *path, rest_jd_ctx_t *c)
{
	char *s;

	if (!c->x->update && rest_val_is_empty(v))
		return 0;
	if (!c->x->update)
		return rest_jd_refuse(c, path, "a submitted job cannot choose its "
			      "job id in Sluice");
	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	xfree(c->x->job_id);
	c->x->job_id = s;
	return 0;
}

/* ---- converters: refused, ignored ---- */

/* Something Sluice does not do: an empty value asks nothing. */
int rest_cv_refuse(const rest_jd_prop_t *p, json_object *v,
		   const char *path, rest_jd_ctx_t *c)
{
	if (rest_val_is_empty(v))
		return 0;
	return rest_jd_refuse(c, path, p->arg ? (const char *) p->arg :
		      "not supported by Sluice");
}

/* x11*: Sluice forwards X11 per step through srun's own connection
 * (srun/salloc --x11), so a REST submission has no display to relay:
 * refused with Slurm's ESLURM_X11_NOT_AVAIL.  An empty value asks
 * nothing. */
int rest_cv_x11(const rest_jd_prop_t *p, json_object *v,
		const char *path, rest_jd_ctx_t *c)
{
	if (rest_val_is_empty(v))
		return 0;
	c->rc = ESLURM_X11_NOT_AVAIL;
	return rest_val_fail(c->err, path, "%s (use srun or salloc --x11)",
			     slurm_strerror(ESLURM_X11_NOT_AVAIL));
}

/* Slurm ignores it too (a deprecated property). */
int rest_cv_ignore(const rest_jd_prop_t *p, json_object *v,
		   const char *path, rest_jd_ctx_t *c)
{
	return 0;
}
