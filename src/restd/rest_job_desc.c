/* rest_job_desc.c — the job_desc_msg property table, and the job/submit
 * and job/allocate bodies.
 *
 * Each row is one property: the data_parser versions that have it, the
 * converter that checks its value and stores it, and the job_desc_t
 * field it lands in.  A converter fills the field as sbatch's option
 * setter does (cli_opt_set.c), so the controller sees the same request
 * for "tasks": 4 as for --ntasks=4.  Rows marked UPD may appear in a
 * job update (rest_job_update.c).  doc/rest.md lists the table.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_job_desc.h"
#include "restd/rest_job_desc_int.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

#define VER_MIN 40
#define VER_MAX 43

/* memory_per_node / memory_per_cpu / memory_per_tres: one of them. */
enum { MEM_NODE = 1, MEM_CPU = 2, MEM_TRES = 4 };

typedef struct {
	job_desc_t      *d;
	rest_jd_extra_t *x;
	int              ver;
	unsigned         mem_kinds;
	json_object     *warnings;
	char           **err;
	int              rc;        /* code for the error being returned */
} jd_ctx_t;

typedef struct jd_prop jd_prop_t;
typedef int (*jd_conv_f)(const jd_prop_t *p, json_object *v,
			 const char *path, jd_ctx_t *c);

struct jd_prop {
	const char *name;
	uint8_t     vmin, vmax;  /* data_parser versions that have it */
	jd_conv_f   conv;
	size_t      off;         /* offsetof(job_desc_t, field) */
	int64_t     min, max;    /* integer rows: accepted range */
	const void *arg;         /* flag names, ... */
	bool        upd;         /* may be given in a job update */
};

#define JD_FIELD(c, p, type) ((type *)((char *)(c)->d + (p)->off))

static int refuse(jd_ctx_t *c, const char *path, const char *what)
{
	c->rc = ESLURM_NOT_SUPPORTED;
	return rest_val_fail(c->err, path, "%s", what);
}

static int refuse_flag(jd_ctx_t *c, const char *path, const char *flag)
{
	c->rc = ESLURM_NOT_SUPPORTED;
	return rest_val_fail(c->err, path, "%s: not supported by Sluice",
			     flag);
}

/* ---- converters: strings ---- */

static int cv_str(const jd_prop_t *p, json_object *v, const char *path,
		  jd_ctx_t *c)
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

static int cv_dir(const jd_prop_t *p, json_object *v, const char *path,
		  jd_ctx_t *c)
{
	if (cv_str(p, v, path, c) < 0)
		return -1;
	if (c->d->work_dir && c->d->work_dir[0] != '/') {
		xfree(c->d->work_dir);
		return rest_val_fail(c->err, path, "expected an absolute path");
	}
	return 0;
}

/* sbatch refuses an empty --array; the controller judges the rest. */
static int cv_array(const jd_prop_t *p, json_object *v, const char *path,
		    jd_ctx_t *c)
{
	if (cv_str(p, v, path, c) < 0)
		return -1;
	if (!c->d->array_inx)
		return rest_val_fail(c->err, path, "Invalid job array "
				     "specification");
	return 0;
}

static int cv_csv(const jd_prop_t *p, json_object *v, const char *path,
		  jd_ctx_t *c)
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

static int cv_strlist(const jd_prop_t *p, json_object *v, const char *path,
		      jd_ctx_t *c)
{
	char ***f = JD_FIELD(c, p, char **), **l;

	if (rest_val_strlist(v, path, &l, c->err) < 0)
		return -1;
	xstrarray_free(*f);
	*f = l;
	return 0;
}

/* ["K=V", ...]: each entry needs a name and '='. */
static int cv_env(const jd_prop_t *p, json_object *v, const char *path,
		  jd_ctx_t *c)
{
	char **env;

	if (cv_strlist(p, v, path, c) < 0)
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

static int cv_u16(const jd_prop_t *p, json_object *v, const char *path,
		  jd_ctx_t *c)
{
	int64_t n;

	if (rest_val_int(v, path, p->min, p->max, &n, c->err) < 0)
		return -1;
	*JD_FIELD(c, p, uint16_t) = (uint16_t) n;
	return 0;
}

static int cv_u32(const jd_prop_t *p, json_object *v, const char *path,
		  jd_ctx_t *c)
{
	int64_t n;

	if (rest_val_int(v, path, p->min, p->max, &n, c->err) < 0)
		return -1;
	*JD_FIELD(c, p, uint32_t) = (uint32_t) n;
	return 0;
}

/* --mincpus; minimum_cpus and minimum_cpus_per_node both ask it. */
static int cv_min_cpus(const jd_prop_t *p, json_object *v, const char *path,
		       jd_ctx_t *c)
{
	uint32_t before = c->d->min_cpus;

	if (cv_u32(p, v, path, c) < 0)
		return -1;
	if (before != NO_VAL32 && before != c->d->min_cpus)
		return rest_val_fail(c->err, path, "differs from the other "
				     "minimum CPU count given");
	return 0;
}

/* A no_val number into a uint16/uint32 field. */
static int cv_noval(const jd_prop_t *p, json_object *v, const char *path,
		    jd_ctx_t *c)
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

/* Minutes; 0 asks for no limit, as --time=0. */
static int cv_time(const jd_prop_t *p, json_object *v, const char *path,
		   jd_ctx_t *c)
{
	if (cv_noval(p, v, path, c) < 0)
		return -1;
	if (*JD_FIELD(c, p, uint32_t) == 0)
		*JD_FIELD(c, p, uint32_t) = INFINITE32;
	return 0;
}

/* Seconds since the epoch, or a time as --begin takes it ("now+1hour"). */
static int cv_stamp(const jd_prop_t *p, json_object *v, const char *path,
		    jd_ctx_t *c)
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
static int cv_mem(const jd_prop_t *p, json_object *v, const char *path,
		  jd_ctx_t *c)
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
	c->mem_kinds |= p->arg ? MEM_CPU : MEM_NODE;
	return 0;
}

static int cv_mem_tres(const jd_prop_t *p, json_object *v, const char *path,
		       jd_ctx_t *c)
{
	if (cv_str(p, v, path, c) < 0)
		return -1;
	if (c->d->mem_per_tres)
		c->mem_kinds |= MEM_TRES;
	return 0;
}

static int cv_nice(const jd_prop_t *p, json_object *v, const char *path,
		   jd_ctx_t *c)
{
	int64_t lim = (int64_t) NICE_OFFSET - 3, n;

	if (rest_val_int(v, path, -lim, lim, &n, c->err) < 0)
		return -1;
	c->d->nice = (uint32_t) ((int64_t) NICE_OFFSET + n);
	return 0;
}

/* infinite is --priority=TOP. */
static int cv_priority(const jd_prop_t *p, json_object *v, const char *path,
		       jd_ctx_t *c)
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
static int cv_nodes(const jd_prop_t *p, json_object *v, const char *path,
		    jd_ctx_t *c)
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

static int cv_bool16(const jd_prop_t *p, json_object *v, const char *path,
		     jd_ctx_t *c)
{
	bool b;

	if (rest_val_bool(v, path, &b, c->err) < 0)
		return -1;
	*JD_FIELD(c, p, uint16_t) = b ? 1 : 0;
	return 0;
}

static int cv_hold(const jd_prop_t *p, json_object *v, const char *path,
		   jd_ctx_t *c)
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
static int cv_shared(const jd_prop_t *p, json_object *v, const char *path,
		     jd_ctx_t *c)
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
static int cv_exclusive(const jd_prop_t *p, json_object *v, const char *path,
			jd_ctx_t *c)
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
static int cv_oversubscribe(const jd_prop_t *p, json_object *v,
			    const char *path, jd_ctx_t *c)
{
	bool b;

	if (rest_val_bool(v, path, &b, c->err) < 0)
		return -1;
	if (b)
		c->d->shared = JOB_SHARED_OK;
	return 0;
}

static const char *const open_mode_names[] = { "APPEND", "TRUNCATE", NULL };

static int cv_open_mode(const jd_prop_t *p, json_object *v, const char *path,
			jd_ctx_t *c)
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

static int cv_mail_type(const jd_prop_t *p, json_object *v, const char *path,
			jd_ctx_t *c)
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

static int cv_job_flags(const jd_prop_t *p, json_object *v, const char *path,
			jd_ctx_t *c)
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
static int cv_warn_flags(const jd_prop_t *p, json_object *v, const char *path,
			 jd_ctx_t *c)
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

static int cv_signal(const jd_prop_t *p, json_object *v, const char *path,
		     jd_ctx_t *c)
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
static int cv_user(const jd_prop_t *p, json_object *v, const char *path,
		   jd_ctx_t *c)
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

static int cv_group(const jd_prop_t *p, json_object *v, const char *path,
		    jd_ctx_t *c)
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
static int cv_job_id(const jd_prop_t *p, json_object *v, const char *path,
		     jd_ctx_t *c)
{
	char *s;

	if (!c->x->update && rest_val_is_empty(v))
		return 0;
	if (!c->x->update)
		return refuse(c, path, "a submitted job cannot choose its "
			      "job id in Sluice");
	if (rest_val_str(v, path, &s, c->err) < 0)
		return -1;
	xfree(c->x->job_id);
	c->x->job_id = s;
	return 0;
}

/* ---- converters: refused, ignored ---- */

/* Something Sluice does not do: an empty value asks nothing. */
static int cv_refuse(const jd_prop_t *p, json_object *v, const char *path,
		     jd_ctx_t *c)
{
	if (rest_val_is_empty(v))
		return 0;
	return refuse(c, path, p->arg ? (const char *) p->arg :
		      "not supported by Sluice");
}

/* Slurm ignores it too (a deprecated property). */
static int cv_ignore(const jd_prop_t *p, json_object *v, const char *path,
		     jd_ctx_t *c)
{
	return 0;
}

/* ---- the table ---- */

#define OFF(f) offsetof(job_desc_t, f)
#define ALLV 40, 43
#define U16 1, 0xfffd
#define U32 1, (int64_t) NO_VAL32 - 1
#define NOARGS 0, 0, 0, NULL
#define S(name, f, upd) { name, ALLV, cv_str, OFF(f), 0, 0, NULL, upd }
#define RF(name) { name, ALLV, cv_refuse, NOARGS, false }
#define RFV(name, v0, v1) { name, v0, v1, cv_refuse, NOARGS, false }
#define UPD true
#define NOU false

static const jd_prop_t jd_props[] = {
	S("account", account, UPD),
	RF("account_gather_frequency"),
	RF("admin_comment"),
	S("allocation_node_list", submit_host, NOU),
	RF("allocation_node_port"),
	{ "argv", ALLV, cv_strlist, OFF(argv), 0, 0, NULL, NOU },
	{ "array", ALLV, cv_array, OFF(array_inx), 0, 0, NULL, NOU },
	RF("batch_features"),
	{ "begin_time", ALLV, cv_stamp, OFF(begin_time), 0, 0, NULL, UPD },
	RF("burst_buffer"),
	RF("cluster_constraint"),
	{ "clusters", ALLV, cv_refuse, 0, 0, 0,
	  "not supported by Sluice (one cluster, no federation)", NOU },
	S("comment", comment, UPD),
	S("constraints", features, UPD),
	S("container", container, NOU),
	RF("container_id"),
	{ "contiguous", ALLV, cv_bool16, OFF(contiguous), 0, 0, NULL, NOU },
	RF("core_specification"),
	{ "cores_per_socket", 40, 40, cv_u16, OFF(cores_per_socket), U16,
	  NULL, NOU },
	RF("cpu_binding"),
	RF("cpu_binding_flags"),
	RF("cpu_frequency"),
	{ "cpus_per_task", ALLV, cv_u16, OFF(cpus_per_task), U16, NULL, NOU },
	S("cpus_per_tres", cpus_per_tres, NOU),
	RF("crontab"),
	{ "current_working_directory", ALLV, cv_dir, OFF(work_dir), 0, 0,
	  NULL, NOU },
	{ "deadline", ALLV, cv_stamp, OFF(deadline), 0, 0, NULL, NOU },
	RF("delay_boot"),
	S("dependency", dependency, UPD),
	RF("distribution"),
	RF("distribution_plane_size"),
	RF("end_time"),
	{ "environment", ALLV, cv_env, OFF(environment), 0, 0, NULL, NOU },
	{ "excluded_nodes", ALLV, cv_csv, OFF(exc_nodes), 0, 0, NULL, UPD },
	{ "exclusive", 40, 41, cv_exclusive, OFF(shared), 0, 0, NULL, NOU },
	RF("extra"),
	{ "flags", ALLV, cv_job_flags, OFF(bitflags), 0, 0, NULL, NOU },
	{ "group_id", ALLV, cv_group, OFF(group_id), 0, 0, NULL, NOU },
	{ "hetjob_group", ALLV, cv_refuse, 0, 0, 0,
	  "heterogeneous jobs are not supported by Sluice", NOU },
	{ "hold", ALLV, cv_hold, OFF(hold), 0, 0, NULL, UPD },
	{ "immediate", ALLV, cv_refuse, 0, 0, 0,
	  "not supported by Sluice for a batch job (as sbatch)", NOU },
	{ "job_id", ALLV, cv_job_id, 0, 0, 0, NULL, UPD },
	{ "kill_on_node_fail", ALLV, cv_bool16, OFF(kill_on_node_fail), 0, 0,
	  NULL, NOU },
	{ "kill_warning_delay", ALLV, cv_noval, OFF(warn_time), 0, 0xfffd,
	  NULL, NOU },
	{ "kill_warning_flags", ALLV, cv_warn_flags, OFF(warn_flags), 0, 0,
	  NULL, NOU },
	{ "kill_warning_signal", ALLV, cv_signal, OFF(warn_signal), 0, 0,
	  NULL, NOU },
	S("licenses", licenses, NOU),
	{ "mail_type", ALLV, cv_mail_type, OFF(mail_type), 0, 0, NULL, NOU },
	S("mail_user", mail_user, NOU),
	RF("maximum_cpus"),
	{ "maximum_nodes", ALLV, cv_u32, OFF(max_nodes), U32, NULL, UPD },
	RF("mcs_label"),
	RF("memory_binding"),
	RF("memory_binding_type"),
	{ "memory_per_cpu", ALLV, cv_mem, OFF(pn_min_memory), 0, 0, "cpu",
	  NOU },
	{ "memory_per_node", ALLV, cv_mem, OFF(pn_min_memory), 0, 0, NULL,
	  NOU },
	{ "memory_per_tres", ALLV, cv_mem_tres, OFF(mem_per_tres), 0, 0, NULL,
	  NOU },
	RF("minimum_boards_per_node"),
	{ "minimum_cpus", ALLV, cv_min_cpus, OFF(min_cpus), 0,
	  (int64_t) NO_VAL32 - 1, NULL, NOU },
	{ "minimum_cpus_per_node", ALLV, cv_min_cpus, OFF(min_cpus), 0,
	  (int64_t) NO_VAL32 - 1, NULL, NOU },
	{ "minimum_nodes", ALLV, cv_u32, OFF(min_nodes), U32, NULL, UPD },
	RF("minimum_sockets_per_board"),
	S("name", name, UPD),
	RF("network"),
	{ "nice", ALLV, cv_nice, OFF(nice), 0, 0, NULL, UPD },
	{ "nodes", ALLV, cv_nodes, OFF(min_nodes), 0, 0, NULL, UPD },
	RF("ntasks_per_tres"),
	RFV("oom_kill_step", 42, 43),
	{ "open_mode", ALLV, cv_open_mode, OFF(open_mode), 0, 0, NULL, NOU },
	RF("overcommit"),
	{ "oversubscribe", 40, 41, cv_oversubscribe, OFF(shared), 0, 0, NULL,
	  NOU },
	S("partition", partition, UPD),
	{ "power_flags", ALLV, cv_ignore, 0, 0, 0, NULL, NOU },
	RF("prefer"),
	{ "priority", ALLV, cv_priority, OFF(priority), 0, 0, NULL, UPD },
	RF("profile"),
	S("qos", qos, UPD),
	RF("reboot"),
	{ "requeue", ALLV, cv_bool16, OFF(requeue), 0, 0, NULL, UPD },
	{ "required_nodes", ALLV, cv_csv, OFF(req_nodes), 0, 0, NULL, UPD },
	RF("required_switches"),
	S("reservation", reservation, UPD),
	RF("reserve_ports"),
	RFV("resv_mpi_ports", 41, 41),
	{ "rlimits", ALLV, cv_refuse, 0, 0, 0, "not supported by Sluice "
	  "(the job takes the node's limits)", NOU },
	S("script", script, NOU),
	RFV("segment_size", 41, 43),
	RF("selinux_context"),
	{ "shared", ALLV, cv_shared, OFF(shared), 0, 0, NULL, NOU },
	RF("site_factor"),
	{ "sockets_per_node", ALLV, cv_u16, OFF(sockets_per_node), U16, NULL,
	  NOU },
	RF("spank_environment"),
	S("standard_error", std_err, NOU),
	S("standard_input", std_in, NOU),
	S("standard_output", std_out, NOU),
	{ "tasks", ALLV, cv_u32, OFF(num_tasks), U32, NULL, NOU },
	RF("tasks_per_board"),
	{ "tasks_per_core", ALLV, cv_u32, OFF(ntasks_per_core), U32, NULL,
	  NOU },
	{ "tasks_per_node", ALLV, cv_u16, OFF(ntasks_per_node), U16, NULL,
	  NOU },
	RF("tasks_per_socket"),
	{ "temporary_disk_per_node", ALLV, cv_u32, OFF(tmp_disk), 0,
	  (int64_t) UINT32_MAX - 2, NULL, NOU },
	RF("thread_specification"),
	{ "threads_per_core", ALLV, cv_u16, OFF(threads_per_core), U16, NULL,
	  NOU },
	{ "time_limit", ALLV, cv_time, OFF(time_limit), 0,
	  (int64_t) NO_VAL32 - 1, NULL, UPD },
	{ "time_minimum", ALLV, cv_time, OFF(time_min), 0,
	  (int64_t) NO_VAL32 - 1, NULL, NOU },
	RF("tres_bind"),
	RF("tres_freq"),
	S("tres_per_job", tres_per_job, NOU),
	S("tres_per_node", gres, NOU),
	RF("tres_per_socket"),
	S("tres_per_task", tres_per_task, NOU),
	{ "user_id", ALLV, cv_user, OFF(user_id), 0, 0, NULL, NOU },
	RF("wait_all_nodes"),
	RF("wait_for_switch"),
	S("wckey", wckey, NOU),
	RF("x11"),
	RF("x11_magic_cookie"),
	RF("x11_target_host"),
	RF("x11_target_port"),
};
#define N_PROPS (sizeof(jd_props) / sizeof(jd_props[0]))

static const jd_prop_t *prop_find(const char *name, int ver)
{
	for (size_t i = 0; i < N_PROPS; i++)
		if (!strcmp(jd_props[i].name, name) &&
		    ver >= jd_props[i].vmin && ver <= jd_props[i].vmax)
			return &jd_props[i];
	return NULL;
}

bool rest_jd_version_ok(int ver)
{
	return ver >= VER_MIN && ver <= VER_MAX;
}

/* ---- checks across properties (as cli_opt_validate) ---- */

static int jd_check(jd_ctx_t *c, const char *base)
{
	job_desc_t *d = c->d;
	char *path = NULL;
	int rc = 0;

	if (__builtin_popcount(c->mem_kinds) > 1) {
		rc = rest_val_fail(c->err, base, "memory_per_node, "
				   "memory_per_cpu and memory_per_tres are "
				   "mutually exclusive");
	} else if (c->mem_kinds == MEM_TRES) {
		d->pn_min_memory = NO_VAL64;   /* as --mem-per-gpu */
		d->mem_per_cpu = false;
	} else if (d->deadline && d->begin_time &&
		   d->begin_time > d->deadline) {
		path = xstrdup_printf("%s.begin_time", base);
		rc = rest_val_fail(c->err, path, "Incompatible begin and "
				   "deadline time specification");
	} else if (d->min_nodes != NO_VAL32 && d->max_nodes != NO_VAL32 &&
		   d->max_nodes < d->min_nodes) {
		path = xstrdup_printf("%s.maximum_nodes", base);
		rc = rest_val_fail(c->err, path, "Maximum node count %u is "
				   "less than minimum node count %u",
				   d->max_nodes, d->min_nodes);
	}
	xfree(path);
	if (rc || c->x->update)
		return rc;
	/* --signal=SIG without @time warns 60 s before the limit */
	if (d->warn_signal != NO_VAL16 && d->warn_time == NO_VAL16)
		d->warn_time = 60;
	if (d->num_tasks != NO_VAL32 && d->min_nodes != NO_VAL32 &&
	    d->num_tasks < d->min_nodes) {
		path = xstrdup_printf("%s.tasks", base);
		rest_warn(c->warnings, path, "can't run %u processes on %u "
			  "nodes, setting nnodes to %u", d->num_tasks,
			  d->min_nodes, d->num_tasks);
		xfree(path);
		d->min_nodes = d->num_tasks;
		if (d->max_nodes != NO_VAL32 && d->max_nodes > d->num_tasks)
			d->max_nodes = d->num_tasks;
	}
	return 0;
}

/* ---- the walk ---- */

int rest_jd_walk(json_object *job, const char *base, int ver, job_desc_t *d,
		 rest_jd_extra_t *x, json_object *warnings, char **err)
{
	jd_ctx_t c = {
		.d = d, .x = x, .ver = ver, .warnings = warnings, .err = err,
	};

	if (!job || !json_object_is_type(job, json_type_object)) {
		rest_val_fail(err, base, "expected an object");
		return ESLURM_REST_FAIL_PARSING;
	}
	json_object_object_foreach(job, key, val) {
		const jd_prop_t *p = prop_find(key, ver);
		char *path = xstrdup_printf("%s.%s", base, key);
		int rc = 0;

		if (!p)
			rest_warn(warnings, path, "Ignoring unknown field "
				  "\"%s\" of type %s in job_desc_msg", key,
				  json_type_to_name(json_object_get_type(val)));
		else if (!val || json_object_is_type(val, json_type_null))
			;   /* null: not given */
		else if (x->update && !p->upd) {
			if (!rest_val_is_empty(val))   /* empty: asks nothing */
				rc = refuse(&c, path, "not supported by Sluice "
					    "in a job update");
		} else {
			c.rc = ESLURM_REST_FAIL_PARSING;
			rc = p->conv(p, val, path, &c);
		}
		xfree(path);
		if (rc)
			return c.rc;
	}
	return jd_check(&c, base) ? ESLURM_REST_FAIL_PARSING : 0;
}

/* ---- public: one description, submit, allocate ---- */

static int jd_fail(job_desc_t *d, int rc)
{
	job_desc_free_members(d);
	job_desc_init(d);
	return rc;
}

static int jd_version(int ver, job_desc_t *d, char **err)
{
	job_desc_init(d);
	if (rest_jd_version_ok(ver))
		return 0;
	rest_val_fail(err, "version", "data_parser v0.0.%d is not served",
		      ver);
	return ESLURM_REST_FAIL_PARSING;
}

int rest_job_desc_parse(json_object *job, int ver, job_desc_t *d,
			json_object *warnings, char **err)
{
	rest_jd_extra_t x = { .hold = -1 };
	int rc;

	if ((rc = jd_version(ver, d, err)))
		return rc;
	rc = rest_jd_walk(job, "job", ver, d, &x, warnings, err);
	xfree(x.job_id);
	return rc ? jd_fail(d, rc) : 0;
}

/* The one job of "job", or of a one-element "jobs"/"hetjob" list. */
static int one_job(json_object *body, const char *list_key, int ver,
		   job_desc_t *d, json_object *warnings, char **err)
{
	json_object *job = NULL, *list = NULL;
	const char *base = "job";

	json_object_object_get_ex(body, "job", &job);
	json_object_object_get_ex(body, list_key, &list);
	if (job && json_object_is_type(job, json_type_null))
		job = NULL;
	if (list && json_object_is_type(list, json_type_null))
		list = NULL;
	if (list && !json_object_is_type(list, json_type_array)) {
		rest_val_fail(err, list_key, "expected an array of job "
			      "descriptions");
		return ESLURM_REST_INVALID_JOBS_DESC;
	}
	if (list && json_object_array_length(list) > 1) {
		rest_val_fail(err, list_key, "heterogeneous jobs are not "
			      "supported by Sluice");
		return ESLURM_NOT_SUPPORTED;
	}
	if (list && json_object_array_length(list) == 1) {
		if (job) {
			rest_val_fail(err, list_key, "give either job or %s, "
				      "not both", list_key);
			return ESLURM_REST_INVALID_JOBS_DESC;
		}
		job = json_object_array_get_idx(list, 0);
		base = !strcmp(list_key, "jobs") ? "jobs[0]" : "hetjob[0]";
	}
	if (!job) {
		rest_val_fail(err, "job", "Jobs description entry not found, "
			      "empty or not dictionary or list");
		return ESLURM_REST_INVALID_JOBS_DESC;
	}
	{
		rest_jd_extra_t x = { .hold = -1 };
		int rc = rest_jd_walk(job, base, ver, d, &x, warnings, err);

		xfree(x.job_id);
		return rc;
	}
}

/* Members of a request body besides the job descriptions. */
static void body_unknown(json_object *body, const char *const *known,
			 json_object *warnings)
{
	json_object_object_foreach(body, key, val) {
		size_t i = 0;

		while (known[i] && strcmp(known[i], key))
			i++;
		if (!known[i])
			rest_warn(warnings, key, "Ignoring unknown field \"%s\" "
				  "of type %s", key, json_type_to_name(
					  json_object_get_type(val)));
	}
}

static int body_object(json_object *body, char **err)
{
	if (body && json_object_is_type(body, json_type_object))
		return 0;
	rest_val_fail(err, "body", "expected a JSON object");
	return ESLURM_REST_FAIL_PARSING;
}

int rest_job_submit_parse(json_object *body, int ver, job_desc_t *d,
			  json_object *warnings, char **err)
{
	static const char *const known[] = { "script", "job", "jobs", NULL };
	json_object *sv = NULL;
	char *script = NULL;
	int rc;

	if ((rc = jd_version(ver, d, err)) || (rc = body_object(body, err)))
		return rc;
	body_unknown(body, known, warnings);
	if (json_object_object_get_ex(body, "script", &sv) &&
	    !json_object_is_type(sv, json_type_null) &&
	    rest_val_str(sv, "script", &script, err) < 0)
		return ESLURM_REST_FAIL_PARSING;
	if ((rc = one_job(body, "jobs", ver, d, warnings, err)))
		goto fail;
	if (script && *script && d->script && strcmp(script, d->script)) {
		rest_val_fail(err, "script", "differs from job.script (give "
			      "one of them)");
		rc = ESLURM_REST_FAIL_PARSING;
		goto fail;
	}
	if (script && *script && !d->script) {
		d->script = script;
		script = NULL;
	}
	if (!d->script || !*d->script) {
		rest_val_fail(err, "script", "%s",
			      slurm_strerror(ESLURM_JOB_SCRIPT_MISSING));
		rc = ESLURM_JOB_SCRIPT_MISSING;
		goto fail;
	}
	xfree(script);
	return 0;
fail:
	xfree(script);
	return jd_fail(d, rc);
}

int rest_job_alloc_parse(json_object *body, int ver, job_desc_t *d,
			 json_object *warnings, char **err)
{
	static const char *const known[] = { "job", "hetjob", NULL };
	int rc;

	if ((rc = jd_version(ver, d, err)) || (rc = body_object(body, err)))
		return rc;
	body_unknown(body, known, warnings);
	if ((rc = one_job(body, "hetjob", ver, d, warnings, err)))
		return jd_fail(d, rc);
	if (d->script) {
		rest_val_fail(err, "job.script", "an allocation runs no "
			      "script (use job/submit)");
		return jd_fail(d, ESLURM_REST_FAIL_PARSING);
	}
	if (d->array_inx) {
		rest_val_fail(err, "job.array", "an allocation cannot be a "
			      "job array (as salloc)");
		return jd_fail(d, ESLURM_REST_FAIL_PARSING);
	}
	return 0;
}
