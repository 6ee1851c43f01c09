/* acct_limits.c — the string limits table (acct_limits.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/acct_limits.h"
#include "common/job_info.h"
#include "common/msg_types.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define NAME_MAX_BYTES  64u       /* VARCHAR(64): names */
#define TEXT_MAX_BYTES  65535u    /* TEXT */
#define PATH_MAX_BYTES  4096u     /* PATH_MAX */
#define LINE_MAX_BYTES  1048576u  /* the command line: Slurm's default
				   * max_submit_line_size (MEDIUMTEXT) */

typedef enum { COL_NAME, COL_TEXT } col_kind_t;

typedef struct {
	const char *name;
	uint32_t    max;
	col_kind_t  kind;
	int         err;
} limit_row_t;

/* Slurm refuses every over-long string of a request with this one error
 * (its text names paths "or other parameter"). */
#define TOO_LONG ESLURM_PATHNAME_TOO_LONG

static const limit_row_t limits[ACCT_LIM_CNT] = {
	[ACCT_LIM_CLUSTER]      = { "cluster", NAME_MAX_BYTES, COL_NAME, TOO_LONG },
	[ACCT_LIM_ACCOUNT]      = { "account", NAME_MAX_BYTES, COL_NAME, TOO_LONG },
	[ACCT_LIM_USER]         = { "user", NAME_MAX_BYTES, COL_NAME, TOO_LONG },
	[ACCT_LIM_PARTITION]    = { "partition", NAME_MAX_BYTES, COL_NAME, TOO_LONG },
	[ACCT_LIM_QOS]          = { "qos", NAME_MAX_BYTES, COL_NAME, TOO_LONG },
	[ACCT_LIM_WCKEY]        = { "wckey", NAME_MAX_BYTES, COL_NAME, TOO_LONG },
	[ACCT_LIM_JOB_NAME]     = { "name", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_STEP_NAME]    = { "step name", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_COMMENT]      = { "comment", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_SUBMIT_LINE]  = { "submit line", LINE_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_CONSTRAINTS]  = { "constraints", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_ARRAY]        = { "array", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_RESV_NAME]    = { "reservation", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_RESV_USERS]   = { "users", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_RESV_ACCOUNTS] = { "accounts", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_NODE_REASON]  = { "reason", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_DESCRIPTION]  = { "description", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_ORGANIZATION] = { "organization", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_QOS_LIST]     = { "qos list", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_DB_ERROR]     = { "database error", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_PATH]         = { "path", PATH_MAX_BYTES, COL_TEXT, TOO_LONG },
	[ACCT_LIM_TRACK_NAME]   = { "name", 200, COL_NAME, TOO_LONG },
	[ACCT_LIM_TRACK_TEXT]   = { "value", 1024, COL_TEXT, TOO_LONG },
	[ACCT_LIM_OTHER]        = { "parameter", TEXT_MAX_BYTES, COL_TEXT, TOO_LONG },
};

uint32_t acct_limit_max(acct_limit_t f)
{
	return f < ACCT_LIM_CNT ? limits[f].max : 0;
}

const char *acct_limit_name(acct_limit_t f)
{
	return f < ACCT_LIM_CNT ? limits[f].name : "?";
}

int acct_limit_check(acct_limit_t f, const char *s)
{
	if (f >= ACCT_LIM_CNT)
		return SLURM_ERROR;
	if (!s || strnlen(s, (size_t)limits[f].max + 1) <= limits[f].max)
		return 0;
	return limits[f].err;
}

const char *acct_limit_sql_type(acct_limit_t f)
{
	static char names[ACCT_LIM_CNT][24];

	if (f >= ACCT_LIM_CNT)
		return "TEXT";
	if (limits[f].kind == COL_NAME && limits[f].max <= 255) {
		if (!names[f][0])
			snprintf(names[f], sizeof(names[f]), "VARCHAR(%u)",
				 limits[f].max);
		return names[f];
	}
	return limits[f].max <= 65535 ? "TEXT" :
	       limits[f].max <= 16777215 ? "MEDIUMTEXT" : "LONGTEXT";
}

/* ---- what each request carries ---- */

typedef struct {
	size_t       off;         /* of a char * in the request */
	acct_limit_t lim;
	const char  *name;        /* NULL: the row's */
} str_field_t;

#define S(st, m, l) { offsetof(st, m), l, NULL }
#define SN(st, m, l, n) { offsetof(st, m), l, n }
#define S_END { 0, ACCT_LIM_CNT, NULL }

static const str_field_t job_desc_strs[] = {
	S(job_desc_t, name, ACCT_LIM_JOB_NAME),
	S(job_desc_t, partition, ACCT_LIM_PARTITION),
	S(job_desc_t, account, ACCT_LIM_ACCOUNT),
	S(job_desc_t, qos, ACCT_LIM_QOS),
	S(job_desc_t, comment, ACCT_LIM_COMMENT),
	SN(job_desc_t, work_dir, ACCT_LIM_PATH, "work_dir"),
	SN(job_desc_t, std_out, ACCT_LIM_PATH, "std_out"),
	SN(job_desc_t, std_err, ACCT_LIM_PATH, "std_err"),
	SN(job_desc_t, std_in, ACCT_LIM_PATH, "std_in"),
	SN(job_desc_t, container, ACCT_LIM_PATH, "container"),
	/* informational: the controller trusts the credential */
	SN(job_desc_t, user_name, ACCT_LIM_OTHER, "user_name"),
	SN(job_desc_t, req_nodes, ACCT_LIM_OTHER, "req_nodes"),
	SN(job_desc_t, exc_nodes, ACCT_LIM_OTHER, "exc_nodes"),
	S(job_desc_t, features, ACCT_LIM_CONSTRAINTS),
	SN(job_desc_t, submit_host, ACCT_LIM_OTHER, "submit_host"),
	S(job_desc_t, submit_line, ACCT_LIM_SUBMIT_LINE),
	S(job_desc_t, array_inx, ACCT_LIM_ARRAY),
	SN(job_desc_t, dependency, ACCT_LIM_OTHER, "dependency"),
	SN(job_desc_t, gres, ACCT_LIM_OTHER, "gres"),
	SN(job_desc_t, licenses, ACCT_LIM_OTHER, "licenses"),
	S(job_desc_t, reservation, ACCT_LIM_RESV_NAME),
	S(job_desc_t, wckey, ACCT_LIM_WCKEY),
	SN(job_desc_t, mail_type, ACCT_LIM_OTHER, "mail_type"),
	SN(job_desc_t, mail_user, ACCT_LIM_OTHER, "mail_user"),
	SN(job_desc_t, export_env, ACCT_LIM_OTHER, "export"),
	SN(job_desc_t, cpus_per_tres, ACCT_LIM_OTHER, "cpus_per_tres"),
	SN(job_desc_t, mem_per_tres, ACCT_LIM_OTHER, "mem_per_tres"),
	SN(job_desc_t, tres_per_task, ACCT_LIM_OTHER, "tres_per_task"),
	SN(job_desc_t, tres_per_job, ACCT_LIM_OTHER, "tres_per_job"),
	S_END
};

static const str_field_t job_update_strs[] = {
	SN(job_update_msg_t, job_id_str, ACCT_LIM_OTHER, "job_id"),
	S(job_update_msg_t, name, ACCT_LIM_JOB_NAME),
	S(job_update_msg_t, comment, ACCT_LIM_COMMENT),
	S(job_update_msg_t, partition, ACCT_LIM_PARTITION),
	S(job_update_msg_t, features, ACCT_LIM_CONSTRAINTS),
	SN(job_update_msg_t, exc_nodes, ACCT_LIM_OTHER, "exc_nodes"),
	SN(job_update_msg_t, req_nodes, ACCT_LIM_OTHER, "req_nodes"),
	SN(job_update_msg_t, dependency, ACCT_LIM_OTHER, "dependency"),
	S(job_update_msg_t, account, ACCT_LIM_ACCOUNT),
	S(job_update_msg_t, qos, ACCT_LIM_QOS),
	S(job_update_msg_t, reservation, ACCT_LIM_RESV_NAME),
	S_END
};

static const str_field_t step_create_strs[] = {
	SN(job_step_create_request_msg_t, node_list, ACCT_LIM_OTHER, "node_list"),
	SN(job_step_create_request_msg_t, exc_nodes, ACCT_LIM_OTHER, "exc_nodes"),
	S(job_step_create_request_msg_t, name, ACCT_LIM_STEP_NAME),
	SN(job_step_create_request_msg_t, host, ACCT_LIM_OTHER, "host"),
	S(job_step_create_request_msg_t, container, ACCT_LIM_PATH),
	SN(job_step_create_request_msg_t, tres_per_step, ACCT_LIM_OTHER,
	   "tres_per_step"),
	SN(job_step_create_request_msg_t, tres_per_node, ACCT_LIM_OTHER,
	   "tres_per_node"),
	SN(job_step_create_request_msg_t, tres_per_task, ACCT_LIM_OTHER,
	   "tres_per_task"),
	S_END
};

static const str_field_t resv_desc_strs[] = {
	S(resv_desc_t, name, ACCT_LIM_RESV_NAME),
	SN(resv_desc_t, node_list, ACCT_LIM_OTHER, "nodes"),
	S(resv_desc_t, users, ACCT_LIM_RESV_USERS),
	S(resv_desc_t, accounts, ACCT_LIM_RESV_ACCOUNTS),
	SN(resv_desc_t, groups, ACCT_LIM_OTHER, "groups"),
	S(resv_desc_t, partition, ACCT_LIM_PARTITION),
	SN(resv_desc_t, features, ACCT_LIM_OTHER, "features"),
	S_END
};

static const str_field_t node_update_strs[] = {
	SN(node_update_msg_t, node_names, ACCT_LIM_OTHER, "node_names"),
	S(node_update_msg_t, reason, ACCT_LIM_NODE_REASON),
	SN(node_update_msg_t, features, ACCT_LIM_OTHER, "features"),
	SN(node_update_msg_t, gres, ACCT_LIM_OTHER, "gres"),
	SN(node_update_msg_t, comment, ACCT_LIM_OTHER, "comment"),
	SN(node_update_msg_t, node_addr, ACCT_LIM_OTHER, "node_addr"),
	SN(node_update_msg_t, node_hostname, ACCT_LIM_OTHER, "node_hostname"),
	S_END
};

static int too_long(acct_limit_t f, const char *name, const char *s,
		    char **why)
{
	int rc = acct_limit_check(f, s);

	if (rc && why)
		*why = xstrdup_printf("%s is %zu bytes, longer than its limit "
				      "of %u", name ? name : limits[f].name,
				      strlen(s), limits[f].max);
	return rc;
}

static int check_strs(const str_field_t *t, const void *data, char **why)
{
	int rc;

	for (; t->lim != ACCT_LIM_CNT; t++) {
		const char *s = *(char *const *)((const char *)data + t->off);

		if ((rc = too_long(t->lim, t->name, s, why)))
			return rc;
	}
	return 0;
}

/* A job without --job-name is named after its command. */
static int check_job_desc(const void *data, char **why)
{
	const job_desc_t *d = data;
	int rc = check_strs(job_desc_strs, data, why);

	if (!rc && d->argv && d->argv[0])
		rc = too_long(ACCT_LIM_JOB_NAME, "command", d->argv[0], why);
	return rc;
}

/* Each component of a heterogeneous job as a job of its own. */
static int check_het_job_desc(const void *data, char **why)
{
	const het_job_desc_msg_t *m = data;
	int rc = 0;

	for (uint32_t i = 0; i < m->cnt && !rc; i++)
		rc = check_job_desc(&m->desc[i], why);
	return rc;
}

/* scontrol track: an artifact's name is its path. */
static int check_job_track(const void *data, char **why)
{
	const job_track_msg_t *t = data;

	if (t->kind == TRACK_ARTIFACT)
		return too_long(ACCT_LIM_PATH, NULL, t->name, why);
	return too_long(ACCT_LIM_TRACK_NAME, NULL, t->name, why) ?:
	       too_long(ACCT_LIM_TRACK_TEXT, NULL, t->text, why);
}

/* sacctmgr: the names added, and the values of name-like keys (each
 * of a comma list) and of free text. */
static const struct {
	const char  *key;
	acct_limit_t lim;
	int          list;        /* a comma list of names */
} dbd_keys[] = {
	{ "account", ACCT_LIM_ACCOUNT, 1 }, { "parent", ACCT_LIM_ACCOUNT, 1 },
	{ "defaultaccount", ACCT_LIM_ACCOUNT, 1 },
	{ "cluster", ACCT_LIM_CLUSTER, 1 }, { "user", ACCT_LIM_USER, 1 },
	{ "partition", ACCT_LIM_PARTITION, 1 },
	{ "qos", ACCT_LIM_QOS, 1 }, { "defaultqos", ACCT_LIM_QOS, 1 },
	{ "preempt", ACCT_LIM_QOS, 1 },
	{ "description", ACCT_LIM_DESCRIPTION, 0 },
	{ "organization", ACCT_LIM_ORGANIZATION, 0 },
};

static acct_limit_t dbd_name_limit(uint16_t entity)
{
	switch (entity) {
	case DBD_ENT_CLUSTER:
		return ACCT_LIM_CLUSTER;
	case DBD_ENT_ACCOUNT:
		return ACCT_LIM_ACCOUNT;
	case DBD_ENT_QOS:
		return ACCT_LIM_QOS;
	case DBD_ENT_USER:
	case DBD_ENT_COORD:
		return ACCT_LIM_USER;
	default:
		return ACCT_LIM_OTHER;
	}
}

static int check_kv(const char *kv, uint16_t entity, char **why)
{
	const char *eq = strchr(kv, '=');
	const char *v = eq ? eq + 1 : kv;
	size_t n = eq ? (size_t)(eq - kv) : 0;
	acct_limit_t lim = ACCT_LIM_OTHER;
	int list = 0, rc = 0;
	char **items;

	if (n == 4 && !strncasecmp(kv, "name", 4)) {
		lim = dbd_name_limit(entity);
		list = 1;
	}
	for (size_t i = 0; n && i < sizeof(dbd_keys) / sizeof(dbd_keys[0]);
	     i++)
		if (strlen(dbd_keys[i].key) == n &&
		    !strncasecmp(dbd_keys[i].key, kv, n)) {
			lim = dbd_keys[i].lim;
			list = dbd_keys[i].list;
		}
	if ((rc = too_long(lim == ACCT_LIM_QOS ? ACCT_LIM_QOS_LIST :
			   list ? ACCT_LIM_OTHER : lim, NULL, v, why)) ||
	    !list)
		return rc;
	items = xstrsplit(v, ",", NULL);
	for (size_t i = 0; items[i] && !rc; i++) {
		const char *it = items[i];

		/* "qos=+a", "qos-=b": the name after the sign */
		while (lim == ACCT_LIM_QOS && (*it == '+' || *it == '-'))
			it++;
		rc = too_long(lim, NULL, it, why);
	}
	xstrarray_free(items);
	return rc;
}

static int check_dbd_acct(const void *data, char **why)
{
	const dbd_acct_msg_t *m = data;
	acct_limit_t lim = dbd_name_limit(m->entity);
	int rc = 0;

	if (m->op != DBD_OP_ADD && m->op != DBD_OP_MODIFY)
		return 0;
	for (size_t i = 0; m->names && m->names[i] && !rc; i++)
		rc = too_long(lim, NULL, m->names[i], why);
	for (size_t i = 0; m->set && m->set[i] && !rc; i++)
		rc = check_kv(m->set[i], m->entity, why);
	/* an add's where= names what the new rows belong to */
	for (size_t i = 0; m->op == DBD_OP_ADD && m->where && m->where[i] &&
	     !rc; i++)
		rc = check_kv(m->where[i], m->entity, why);
	return rc;
}

static const struct {
	uint16_t           type;
	const str_field_t *strs;
	int              (*fn)(const void *data, char **why);
} msg_checks[] = {
	{ REQUEST_SUBMIT_BATCH_JOB, NULL, check_job_desc },
	{ REQUEST_SUBMIT_BATCH_HET_JOB, NULL, check_het_job_desc },
	{ REQUEST_HET_JOB_ALLOCATION, NULL, check_het_job_desc },
	{ REQUEST_RESOURCE_ALLOCATION, NULL, check_job_desc },
	{ REQUEST_JOB_WILL_RUN, NULL, check_job_desc },
	{ REQUEST_UPDATE_JOB, job_update_strs, NULL },
	{ REQUEST_JOB_STEP_CREATE, step_create_strs, NULL },
	{ REQUEST_CREATE_RESERVATION, resv_desc_strs, NULL },
	{ REQUEST_UPDATE_RESERVATION, resv_desc_strs, NULL },
	{ REQUEST_UPDATE_NODE, node_update_strs, NULL },
	{ REQUEST_DBD_ACCT, NULL, check_dbd_acct },
	{ REQUEST_JOB_TRACK, NULL, check_job_track },
};

int acct_limits_msg(uint16_t type, const void *data, char **why)
{
	if (why)
		*why = NULL;
	if (!data)
		return 0;
	for (size_t i = 0; i < sizeof(msg_checks) / sizeof(msg_checks[0]);
	     i++) {
		if (msg_checks[i].type != type)
			continue;
		return msg_checks[i].fn ? msg_checks[i].fn(data, why) :
		       check_strs(msg_checks[i].strs, data, why);
	}
	return 0;
}
