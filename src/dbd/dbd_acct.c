/* dbd_acct.c — request dispatch, permission check, the entity
 * descriptions and the helpers the operations share. */
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/acct_flatfile.h"
#include "common/acct_limits.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_acct_ext.h"
#include "dbd/dbd_acct_int.h"
#include "dbd/dbd_private.h"
#include "slurm/slurm_errno.h"

/* ---- the entities ---- */

#define LIMIT_SETS(assoc)                                               \
	{ "grpjobs", SET_NUM, assoc, "grp_jobs" },                      \
	{ "grpsubmitjobs", SET_NUM, assoc, "grp_submit" },              \
	{ "grpwall", SET_WALL, assoc, "grp_wall" },                     \
	{ "maxjobs", SET_NUM, assoc, "max_jobs" },                      \
	{ "maxsubmitjobs", SET_NUM, assoc, "max_submit" },              \
	{ "maxwall", SET_WALL, assoc, "max_wall" },                     \
	{ "grptres", SET_TRES, assoc, "grp_tres" },                     \
	{ "maxtres", SET_TRES, assoc, "max_tres" },                     \
	{ "maxtrespj", SET_TRES, assoc, "max_tres" },                   \
	{ "maxtresperjob", SET_TRES, assoc, "max_tres" },               \
	{ "maxtrespn", SET_TRES, assoc, "max_tres_pn" },                \
	{ "maxtrespernode", SET_TRES, assoc, "max_tres_pn" },           \
	{ "grptresmins", SET_TRES, assoc, "grp_tres_mins" },            \
	{ "grptresrunmins", SET_TRES, assoc, "grp_tres_run_mins" },     \
	{ "maxtresmins", SET_TRES, assoc, "max_tres_mins" },            \
	{ "maxtresminsperjob", SET_TRES, assoc, "max_tres_mins" },      \
	{ "maxtresminspj", SET_TRES, assoc, "max_tres_mins" }
#define ASSOC_SETS(assoc)                                               \
	{ "fairshare", SET_SHARES, assoc, "shares" },                   \
	{ "priority", SET_NUM, assoc, "priority" },                     \
	{ "qos", SET_QOSLIST, assoc, "qos" },                           \
	{ "defaultqos", SET_STR, assoc, "def_qos" },                    \
	LIMIT_SETS(assoc)
#define LIMIT_COLS(p)                                                   \
	{ "grpjobs", p "grp_jobs" }, { "grpsubmit", p "grp_submit" },   \
	{ "grpwall", p "grp_wall" }, { "maxjobs", p "max_jobs" },       \
	{ "maxsubmit", p "max_submit" }, { "maxwall", p "max_wall" },   \
	{ "grptres", p "grp_tres" }, { "maxtres", p "max_tres" },       \
	{ "maxtrespn", p "max_tres_pn" },                               \
	{ "grptresmins", p "grp_tres_mins" },                           \
	{ "grptresrunmins", p "grp_tres_run_mins" },                    \
	{ "maxtresmins", p "max_tres_mins" }

static const dbd_col_t cluster_cols[] = {
	{ "cluster", "c.name" }, { "controlhost", "c.control_host" },
	{ "controlport", "c.control_port" }, { "rpc", "c.rpc_version" },
	{ "share", "a.shares" }, { "qos", "a.qos" }, { "defqos", "a.def_qos" },
	LIMIT_COLS("a."), { NULL, NULL }
};
static const dbd_cond_t cluster_conds[] = {
	{ "name", "c.name IN (%s)" }, { "cluster", "c.name IN (%s)" },
	{ NULL, NULL }
};
static const dbd_setting_t cluster_sets[] = { ASSOC_SETS(true), { NULL } };

static const dbd_col_t account_cols[] = {
	{ "account", "t.name" }, { "descr", "t.description" },
	{ "org", "t.organization" }, { NULL, NULL }
};
static const dbd_cond_t account_conds[] = {
	{ "name", "t.name IN (%s)" }, { "account", "t.name IN (%s)" },
	{ "description", "t.description IN (%s)" },
	{ "organization", "t.organization IN (%s)" },
	{ "cluster", "t.name IN (SELECT acct FROM assoc_table WHERE "
		     "deleted=0 AND cluster IN (%s))" },
	{ "parent", "t.name IN (SELECT acct FROM assoc_table WHERE deleted=0 "
		    "AND user_name='' AND parent_acct IN (%s))" },
	{ "user", "t.name IN (SELECT acct FROM assoc_table WHERE deleted=0 "
		  "AND user_name IN (%s))" },
	{ "partition", "t.name IN (SELECT acct FROM assoc_table WHERE "
		       "deleted=0 AND `partition` IN (%s))" },
	{ NULL, NULL }
};
static const dbd_setting_t account_sets[] = {
	{ "description", SET_STR, false, "description" },
	{ "organization", SET_STR, false, "organization" },
	{ "parent", SET_ACCOUNT, true, "parent_acct" },
	ASSOC_SETS(true), { NULL }
};

static const dbd_col_t user_cols[] = {
	{ "user", "t.name" }, { "defacct", "t.default_acct" },
	/* the default wckey (of the first cluster by name that has one) */
	{ "defwckey", "(SELECT w.name FROM wckey_table w WHERE w.deleted=0 "
		      "AND w.is_def=1 AND w.user_name=t.name ORDER BY "
		      "w.cluster LIMIT 1)" },
	{ "admin", "ELT(t.admin_level, 'None', 'Operator', 'Administrator')" },
	{ "coords", "(SELECT GROUP_CONCAT(c.acct ORDER BY c.acct) FROM "
		    "coord_table c WHERE c.deleted=0 AND c.user_name=t.name)" },
	{ NULL, NULL }
};
static const dbd_cond_t user_conds[] = {
	{ "name", "t.name IN (%s)" }, { "user", "t.name IN (%s)" },
	{ "defaultaccount", "t.default_acct IN (%s)" },
	{ "account", "t.name IN (SELECT user_name FROM assoc_table WHERE "
		     "deleted=0 AND acct IN (%s))" },
	{ "cluster", "t.name IN (SELECT user_name FROM assoc_table WHERE "
		     "deleted=0 AND cluster IN (%s))" },
	{ "partition", "t.name IN (SELECT user_name FROM assoc_table WHERE "
		       "deleted=0 AND `partition` IN (%s))" },
	{ NULL, NULL }
};
static const dbd_setting_t user_sets[] = {
	{ "defaultaccount", SET_ACCOUNT, false, "default_acct" },
	{ "adminlevel", SET_ADMIN, false, "admin_level" },
	{ "defaultwckey", SET_WCKEY, false, "is_def" },
	ASSOC_SETS(true), { NULL }
};

static const dbd_col_t qos_cols[] = {
	{ "id", "t.id" }, { "name", "t.name" }, { "descr", "t.description" },
	{ "priority", "t.priority" }, { "usagefactor", "t.usage_factor" },
	{ "grpjobs", "t.grp_jobs" }, { "grpsubmit", "t.grp_submit" },
	{ "grpwall", "t.grp_wall" }, { "maxjobspu", "t.max_jobs" },
	{ "maxsubmitpu", "t.max_submit" }, { "maxwall", "t.max_wall" },
	{ "preempt", "t.preempt" }, { "gracetime", "t.grace_time" },
	{ "flags", "CONCAT_WS(',', IF(t.flags & 1, 'DenyOnLimit', NULL), "
		   "IF(t.flags & 2, 'OverPartQOS', NULL))" },
	{ "grptres", "t.grp_tres" }, { "maxtres", "t.max_tres" },
	{ "maxtrespu", "t.max_tres_pu" },
	{ "grptresmins", "t.grp_tres_mins" },
	{ "grptresrunmins", "t.grp_tres_run_mins" },
	{ "maxtresmins", "t.max_tres_mins" },
	{ NULL, NULL }
};
static const dbd_cond_t qos_conds[] = {
	{ "name", "t.name IN (%s)" }, { "qos", "t.name IN (%s)" },
	{ "id", "t.id IN (%s)" }, { NULL, NULL }
};
static const dbd_setting_t qos_sets[] = {
	{ "description", SET_STR, false, "description" },
	{ "priority", SET_SHARES, false, "priority" },
	{ "grpjobs", SET_NUM, false, "grp_jobs" },
	{ "grpsubmitjobs", SET_NUM, false, "grp_submit" },
	{ "grpwall", SET_WALL, false, "grp_wall" },
	{ "maxjobspu", SET_NUM, false, "max_jobs" },
	{ "maxjobsperuser", SET_NUM, false, "max_jobs" },
	{ "maxsubmitjobspu", SET_NUM, false, "max_submit" },
	{ "maxsubmitjobsperuser", SET_NUM, false, "max_submit" },
	{ "maxwall", SET_WALL, false, "max_wall" },
	{ "usagefactor", SET_DOUBLE, false, "usage_factor" },
	{ "preempt", SET_QOSLIST, false, "preempt" },
	{ "gracetime", SET_SECS, false, "grace_time" },
	{ "flags", SET_QOSFLAGS, false, "flags" },
	{ "grptres", SET_TRES, false, "grp_tres" },
	{ "maxtres", SET_TRES, false, "max_tres" },
	{ "maxtresperjob", SET_TRES, false, "max_tres" },
	{ "maxtrespj", SET_TRES, false, "max_tres" },
	{ "maxtrespu", SET_TRES, false, "max_tres_pu" },
	{ "maxtresperuser", SET_TRES, false, "max_tres_pu" },
	{ "grptresmins", SET_TRES, false, "grp_tres_mins" },
	{ "grptresrunmins", SET_TRES, false, "grp_tres_run_mins" },
	{ "maxtresmins", SET_TRES, false, "max_tres_mins" },
	{ "maxtresminsperjob", SET_TRES, false, "max_tres_mins" },
	{ "maxtresminspj", SET_TRES, false, "max_tres_mins" },
	{ NULL }
};

static const dbd_col_t coord_cols[] = {
	{ "user", "t.user_name" }, { "account", "t.acct" }, { NULL, NULL }
};
static const dbd_cond_t coord_conds[] = {
	{ "user", "t.user_name IN (%s)" }, { "name", "t.user_name IN (%s)" },
	{ "account", "t.acct IN (%s)" }, { NULL, NULL }
};
static const dbd_setting_t coord_sets[] = { { NULL } };

static const dbd_col_t assoc_cols[] = {
	{ "id", "t.id" }, { "cluster", "t.cluster" }, { "account", "t.acct" },
	{ "user", "t.user_name" }, { "partition", "t.`partition`" },
	{ "parentname", "t.parent_acct" }, { "share", "t.shares" },
	{ "priority", "t.priority" }, { "qos", "t.qos" },
	{ "defqos", "t.def_qos" }, LIMIT_COLS("t."), { NULL, NULL }
};
static const dbd_cond_t assoc_conds[] = {
	{ "id", "t.id IN (%s)" }, { "cluster", "t.cluster IN (%s)" },
	{ "account", "t.acct IN (%s)" }, { "user", "t.user_name IN (%s)" },
	{ "partition", "t.`partition` IN (%s)" },
	{ "parent", "t.parent_acct IN (%s)" }, { NULL, NULL }
};
static const dbd_setting_t assoc_sets[] = { ASSOC_SETS(false), { NULL } };

/* Reservations the controller reported: those started by now. */
static const dbd_col_t resv_cols[] = {
	{ "cluster", "t.cluster" }, { "name", "t.resv_name" },
	{ "id", "t.id_resv" }, { "tres", "t.tres" },
	{ "timestart", "t.time_start" }, { "timeend", "t.time_end" },
	{ "unusedwall", "t.unused_wall" }, { "flags", "t.flags" },
	{ "nodes", "t.nodelist" }, { NULL, NULL }
};
static const dbd_cond_t resv_conds[] = {
	{ "name", "t.resv_name IN (%s)" }, { "cluster", "t.cluster IN (%s)" },
	{ "id", "t.id_resv IN (%s)" }, { NULL, NULL }
};
static const dbd_setting_t resv_sets[] = { { NULL } };

/* Accounting records the database refused for their content
 * (dbd_jobs.h), as "sacctmgr show problem" lists them. */
static const dbd_col_t problem_cols[] = {
	{ "cluster", "t.cluster" }, { "account", "t.account" },
	{ "user", "t.user_name" }, { "jobid", "t.id_job" },
	{ "problem", "CONCAT(ELT(t.kind, 'Cluster', 'Job', 'Step of job', "
		     "'Node event', 'Reservation'), ' ', t.id_job, ' record "
		     "set aside: ', t.db_error)" },
	{ "timestart", "t.time_set" }, { NULL, NULL }
};
static const dbd_cond_t problem_conds[] = {
	{ "cluster", "t.cluster IN (%s)" }, { "account", "t.account IN (%s)" },
	{ "user", "t.user_name IN (%s)" }, { "id", "t.id_job IN (%s)" },
	{ NULL, NULL }
};
static const dbd_setting_t problem_sets[] = { { NULL } };

/* Node events (DOWN, DRAIN, ... with their reason), as "sacctmgr show
 * event" lists them.  start/end are epoch seconds the command computed:
 * events that overlap the window. */
static const dbd_col_t event_cols[] = {
	{ "cluster", "t.cluster" }, { "nodename", "t.node_name" },
	{ "timestart", "t.time_start" }, { "timeend", "t.time_end" },
	{ "state", "t.state" }, { "reason", "t.reason" },
	{ "reasonuid", "t.reason_uid" }, { "tres", "t.tres" },
	{ NULL, NULL }
};
static const dbd_cond_t event_conds[] = {
	{ "cluster", "t.cluster IN (%s)" }, { "nodes", "t.node_name IN (%s)" },
	{ "reason", "t.reason IN (%s)" }, { "user", "t.reason_uid IN (%s)" },
	{ "start", "(t.time_end = 0 OR t.time_end >= %s)" },
	{ "end", "t.time_start <= %s" },
	{ "event", "(t.node_name <> '') = ('node' IN (%s))" },
	{ NULL, NULL }
};
static const dbd_setting_t event_sets[] = { { NULL } };

static const dbd_entity_desc_t entities[] = {
	{ DBD_ENT_CLUSTER, "clusters", "cluster_table",
	  "cluster_table c LEFT JOIN assoc_table a ON a.cluster=c.name AND "
	  "a.acct='root' AND a.user_name='' AND a.`partition`='' AND "
	  "a.deleted=0", "c.deleted=0", "c.name", "c.name",
	  "cluster IN (%s) AND acct='root' AND user_name=''",
	  cluster_cols, cluster_conds, cluster_sets },
	{ DBD_ENT_ACCOUNT, "accounts", "acct_table", "acct_table t",
	  "t.deleted=0", "t.name", "t.name",
	  "acct IN (%s) AND user_name=''",
	  account_cols, account_conds, account_sets },
	{ DBD_ENT_USER, "users", "user_table", "user_table t", "t.deleted=0",
	  "t.name", "t.name", "user_name IN (%s)",
	  user_cols, user_conds, user_sets },
	{ DBD_ENT_QOS, "qos", "qos_table", "qos_table t", "t.deleted=0",
	  "t.id", "t.name", NULL, qos_cols, qos_conds, qos_sets },
	{ DBD_ENT_ASSOC, "associations", "assoc_table", "assoc_table t",
	  "t.deleted=0", "t.cluster, t.acct, t.user_name, t.`partition`",
	  "t.id", NULL, assoc_cols, assoc_conds, assoc_sets },
	{ DBD_ENT_COORD, "coordinators", "coord_table", "coord_table t",
	  "t.deleted=0", "t.user_name, t.acct", "t.user_name", NULL,
	  coord_cols, coord_conds, coord_sets },
	{ DBD_ENT_RESV, "reservations", "resv_table", "resv_table t",
	  "t.time_start <= UNIX_TIMESTAMP()", "t.cluster, t.id_resv, "
	  "t.time_start", "t.id_resv", NULL, resv_cols, resv_conds,
	  resv_sets },
	{ DBD_ENT_PROBLEM, "problems", "set_aside_table", "set_aside_table t",
	  "1", "t.cluster, t.time_set, t.seq", "t.seq", NULL, problem_cols,
	  problem_conds, problem_sets },
	{ DBD_ENT_EVENT, "events", "event_table", "event_table t", "1",
	  "t.cluster, t.time_start, t.node_name", "t.node_name", NULL,
	  event_cols, event_conds, event_sets },
};

const dbd_entity_desc_t *dbd_entity_find(uint16_t entity)
{
	for (size_t i = 0; i < sizeof(entities) / sizeof(entities[0]); i++)
		if (entities[i].entity == entity)
			return &entities[i];
	return dbd_acct_ext_find(entity);
}

/* ---- admin levels ---- */

int dbd_acct_admin_parse(const char *s)
{
	if (!xstrcasecmp(s, "None"))
		return DBD_ADMIN_NONE;
	if (!xstrcasecmp(s, "Operator"))
		return DBD_ADMIN_OPERATOR;
	if (!xstrcasecmp(s, "Administrator") || !xstrcasecmp(s, "Admin"))
		return DBD_ADMIN_SUPER;
	return -1;
}

const char *dbd_acct_admin_name(int level)
{
	switch (level) {
	case DBD_ADMIN_OPERATOR:
		return "Operator";
	case DBD_ADMIN_SUPER:
		return "Administrator";
	default:
		return "None";
	}
}

/* ---- request helpers ---- */

const char *dbd_kv_get(char *const *kvs, const char *key)
{
	const char *found = NULL;
	size_t n = strlen(key);

	for (size_t i = 0; kvs && kvs[i]; i++)
		if (!strncmp(kvs[i], key, n) && kvs[i][n] == '=')
			found = kvs[i] + n + 1;
	return found;
}

char **dbd_kv_list(char *const *kvs, const char *key)
{
	const char *v = dbd_kv_get(kvs, key);
	char **list;

	if (!v)
		return NULL;
	list = xstrsplit(v, ",", NULL);
	for (size_t i = 0; list[i]; i++)
		xstrtolower(list[i]);
	return list;
}

int dbd_req_fail(dbd_req_t *r, int rc, const char *fmt, ...)
{
	va_list ap;

	r->resp->rc = rc;
	xfree(r->resp->msg);
	if (fmt) {
		va_start(ap, fmt);
		xvstrfmtcat(&r->resp->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void dbd_req_warn(dbd_req_t *r, const char *fmt, ...)
{
	va_list ap;

	if (r->resp->msg)
		xstrcatc(&r->resp->msg, '\n');
	va_start(ap, fmt);
	xvstrfmtcat(&r->resp->msg, fmt, ap);
	va_end(ap);
	r->warned = true;
}

int dbd_req_fail_warned(dbd_req_t *r, const char *last)
{
	dbd_req_warn(r, "%s", last);
	r->resp->rc = SLURM_ERROR;
	return -1;
}

void dbd_req_cols(dbd_req_t *r, const char *const *cols)
{
	xstrarray_free(r->resp->cols);
	r->resp->cols = NULL;
	for (size_t i = 0; cols[i]; i++)
		r->resp->cols = xstrarray_append(r->resp->cols, cols[i]);
}

void dbd_req_cell(dbd_req_t *r, const char *v)
{
	r->cells = xrealloc(r->cells, (r->ncells + 2) * sizeof(char *));
	r->cells[r->ncells++] = xstrdup(v ? v : "");
	r->cells[r->ncells] = NULL;
}

void dbd_req_change(dbd_req_t *r, const char *kind, const char *name,
		    const char *cluster, const char *acct, const char *user)
{
	static const char *const cols[] = { "kind", "name", "cluster",
					    "account", "user", NULL };

	if (!r->resp->cols)
		dbd_req_cols(r, cols);
	dbd_req_cell(r, kind);
	dbd_req_cell(r, name);
	dbd_req_cell(r, cluster);
	dbd_req_cell(r, acct);
	dbd_req_cell(r, user);
}

char *dbd_req_quoted(dbd_req_t *r, char *const *values)
{
	char *out = NULL;

	for (size_t i = 0; values && values[i]; i++) {
		if (i)
			xstrcatc(&out, ',');
		dbd_db_quote(r->db, &out, values[i]);
	}
	return out;
}

static const dbd_cond_t *cond_in(const dbd_cond_t *c, const char *key,
				 size_t n)
{
	for (; c && c->key; c++)
		if (strlen(c->key) == n && !strncmp(c->key, key, n))
			return c;
	return NULL;
}

static const dbd_cond_t *cond_find(const dbd_req_t *r,
				   const dbd_entity_desc_t *e,
				   const char *key, size_t n)
{
	const dbd_cond_t *c = cond_in(r->conds_first, key, n);

	return c ? c : cond_in(e->conds, key, n);
}

int dbd_req_where_sql(dbd_req_t *r, const dbd_entity_desc_t *e, char **sql)
{
	char *const *w = r->req->where;

	for (size_t i = 0; w && w[i]; i++) {
		const char *eq = strchr(w[i], '=');
		const dbd_cond_t *c = eq ? cond_find(r, e, w[i], eq - w[i]) :
			NULL;
		char **vals;
		char *q;

		if (!c)
			return dbd_req_fail(r, SLURM_ERROR,
					    " Unknown condition: %s", w[i]);
		vals = xstrsplit(eq + 1, ",", NULL);
		for (size_t j = 0; vals[j]; j++)
			xstrtolower(vals[j]);
		q = dbd_req_quoted(r, vals);
		xstrcat(sql, " AND ");
		xstrfmtcat(sql, c->sql, q ? q : "''");
		xfree(q);
		xstrarray_free(vals);
	}
	return 0;
}

int dbd_req_match(dbd_req_t *r, const dbd_entity_desc_t *e, dbd_rows_t *rows)
{
	char *sql = xstrdup_printf("SELECT DISTINCT %s FROM %s WHERE %s",
				   e->key_expr, e->from, e->alive);
	int rc = dbd_req_where_sql(r, e, &sql);

	if (rc == 0 && dbd_db_select(r->db, sql, rows) < 0)
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	xfree(sql);
	return rc;
}

int dbd_req_exists(dbd_req_t *r, const char *sql)
{
	dbd_rows_t rows;
	int found;

	if (dbd_db_select(r->db, sql, &rows) < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	found = rows.rows > 0;
	dbd_rows_free(&rows);
	return found;
}

static int set_number(dbd_req_t *r, const dbd_setting_t *s, const char *val,
		      char **sql)
{
	uint32_t n;

	if (!strcmp(val, "-1")) {
		/* unset: no limit; Fairshare back to 1, QOS Priority 0 */
		if (s->type != SET_SHARES)
			xstrcat(sql, "NULL");
		else
			xstrcat(sql, strcmp(s->column, "priority") ? "1" : "0");
		return 0;
	}
	if (s->type == SET_SHARES && strcmp(s->column, "priority") &&
	    !strcasecmp(val, "parent")) {
		/* Fairshare=parent: stored as Slurm stores it */
		xstrcat(sql, "2147483647");
		return 0;
	}
	if (s->type == SET_SECS) {
		/* GraceTime: a bare number is seconds */
		if (parse_u32(val, &n) < 0 && parse_duration_sec(val, &n) < 0)
			return dbd_req_fail(r, SLURM_ERROR,
					    " Bad GraceTime format: %s", val);
	} else if (s->type == SET_WALL) {
		if (parse_duration_min(val, &n) < 0)
			return dbd_req_fail(r, SLURM_ERROR,
					    " Bad MaxWall time format: %s", val);
		if (n == INFINITE32) {
			xstrcat(sql, "NULL");
			return 0;
		}
	} else if (parse_u32(val, &n) < 0) {
		return dbd_req_fail(r, SLURM_ERROR,
				    " Bad value for %s: %s", s->key, val);
	}
	xstrfmtcat(sql, "%u", n);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	/* "+x"/"-x" sort by their name */
	if (*x == '+' || *x == '-')
		x++;
	if (*y == '+' || *y == '-')
		y++;
	return strcasecmp(x, y);
}

static int set_qos_list(dbd_req_t *r, const char *val, char **sql)
{
	char **names = xstrsplit(val, ",", NULL);
	char *joined = NULL, *q;
	size_t cnt = xstrarray_len(names);
	int rc = 0;

	/* stored (and shown) in name order, as Slurm shows them */
	qsort(names, cnt, sizeof(*names), cmp_str);
	for (size_t i = 0; names[i] && rc == 0; i++) {
		const char *n = names[i][0] == '+' || names[i][0] == '-' ?
			names[i] + 1 : names[i];

		xstrtolower(names[i]);
		q = xstrdup("SELECT 1 FROM qos_table WHERE deleted=0 AND name=");
		dbd_db_quote(r->db, &q, n);
		rc = dbd_req_exists(r, q);
		xfree(q);
		if (rc == 0)
			rc = dbd_req_fail(r, SLURM_ERROR, " Invalid qos: %s", n);
		else if (rc > 0)
			rc = 0;
		if (joined)
			xstrcatc(&joined, ',');
		xstrcat(&joined, n);
	}
	if (rc == 0)
		dbd_db_quote(r->db, sql, joined ? joined : "");
	xfree(joined);
	xstrarray_free(names);
	return rc;
}

static int set_tres(dbd_req_t *r, const char *val, char **sql)
{
	char err[256];
	char *canon = tres_limit_canon(val, err, sizeof(err));

	if (!canon)
		return dbd_req_fail(r, SLURM_ERROR, " %s", err);
	dbd_db_quote(r->db, sql, canon);
	xfree(canon);
	return 0;
}

static int set_double(dbd_req_t *r, const char *val, char **sql)
{
	char *end = NULL;
	double d = strtod(val, &end);

	if (!strcmp(val, "-1")) {
		xstrcat(sql, "1");
		return 0;
	}
	if (!*val || *end || !(d >= 0) || d > 1e9)
		return dbd_req_fail(r, SLURM_ERROR, " Bad UsageFactor: %s",
				    val);
	xstrfmtcat(sql, "%.6f", d);
	return 0;
}

static int set_qos_flags(dbd_req_t *r, const char *val, char **sql)
{
	char **flags = xstrsplit(val, ",", NULL);
	unsigned bits = 0;
	int rc = 0;

	for (size_t i = 0; flags[i] && rc == 0; i++) {
		if (!xstrcasecmp(flags[i], "DenyOnLimit"))
			bits |= 1;
		else if (!xstrcasecmp(flags[i], "OverPartQOS"))
			bits |= 2;
		else if (xstrcasecmp(flags[i], "-1") &&
			 xstrcasecmp(flags[i], "None"))
			rc = dbd_req_fail(r, SLURM_ERROR, " Unknown QOS flag "
					  "used in:\n  '%s'\n Valid QOS flags are"
					  "\n  'DenyOnLimit'\n  'OverPartQOS'",
					  flags[i]);
	}
	xstrarray_free(flags);
	if (rc == 0)
		xstrfmtcat(sql, "%u", bits);
	return rc;
}

int dbd_req_set_value(dbd_req_t *r, const dbd_setting_t *s, const char *val,
		      char **sql)
{
	int level;

	switch (s->type) {
	case SET_STR:
		if (!strcmp(s->column, "def_qos") && *val &&
		    strcmp(val, "-1")) {
			char *q = xstrdup("SELECT 1 FROM qos_table WHERE "
					  "deleted=0 AND name=");
			int found;

			dbd_db_quote(r->db, &q, val);
			found = dbd_req_exists(r, q);
			xfree(q);
			if (found < 0)
				return -1;
			if (!found)
				return dbd_req_fail(r, SLURM_ERROR,
					"You gave a bad default qos '%s'.  "
					"Use 'list qos' to get complete list.",
					val);
		}
		dbd_db_quote(r->db, sql, val);
		return 0;
	case SET_NUM:
	case SET_SHARES:
	case SET_WALL:
		return set_number(r, s, val, sql);
	case SET_SECS:
		return set_number(r, s, val, sql);
	case SET_TRES:
		return set_tres(r, val, sql);
	case SET_DOUBLE:
		return set_double(r, val, sql);
	case SET_QOSFLAGS:
		return set_qos_flags(r, val, sql);
	case SET_ADMIN:
		level = dbd_acct_admin_parse(val);
		if (level < 0)
			return dbd_req_fail(r, SLURM_ERROR,
					    " Unknown AdminLevel: %s", val);
		xstrfmtcat(sql, "%d", level);
		return 0;
	case SET_QOSLIST:
		return set_qos_list(r, val, sql);
	case SET_WCKEY:         /* not a column: set_default_wckey() */
		return dbd_req_fail(r, SLURM_ERROR, " Unknown option: "
				    "DefaultWCKey");
	case SET_ACCOUNT: {
		char *lower = xstrtolower(xstrdup(val));

		dbd_db_quote(r->db, sql, lower);
		xfree(lower);
		return 0;
	}
	}
	return -1;
}

/* ---- permission ---- */

static int admin_level(dbd_req_t *r, uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	dbd_rows_t rows;
	char *sql;
	int level = DBD_ADMIN_NONE;

	if (uid == 0 || uid == r->ctx->conf->slurm_user_id)
		return DBD_ADMIN_SUPER;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) != 0 || !res)
		return DBD_ADMIN_NONE;
	sql = xstrdup("SELECT admin_level FROM user_table WHERE deleted=0 "
		      "AND name=");
	dbd_db_quote(r->db, &sql, pw.pw_name);
	if (dbd_db_select(r->db, sql, &rows) == 0) {
		if (rows.rows)
			level = atoi(dbd_rows_get(&rows, 0, 0));
		dbd_rows_free(&rows);
	}
	xfree(sql);
	return level;
}

static bool all_in(char *const *want, char *const *have)
{
	if (!want || !want[0])
		return false;
	for (size_t i = 0; want[i]; i++) {
		bool found = false;

		for (size_t k = 0; have && have[k] && !found; k++)
			found = !strcmp(want[i], have[k]);
		if (!found)
			return false;
	}
	return true;
}

/* A coordinator adds users to the accounts it coordinates (and those
 * below) and sub-accounts under them; nothing else. */
static bool coord_may_add(dbd_req_t *r)
{
	const char *key = r->req->entity == DBD_ENT_USER ? "account" :
		"parent";
	char **want, **have;
	bool ok;

	if (r->req->op != DBD_OP_ADD || dbd_kv_get(r->req->set, "adminlevel") ||
	    (r->req->entity != DBD_ENT_USER &&
	     r->req->entity != DBD_ENT_ACCOUNT))
		return false;
	want = dbd_kv_list(r->req->set, key);
	if (!want && r->req->entity == DBD_ENT_USER)
		want = dbd_kv_list(r->req->set, "defaultaccount");
	have = dbd_coord_accounts(r->db, r->ctx->uid);
	ok = all_in(want, have);
	xstrarray_free(want);
	xstrarray_free(have);
	return ok;
}

/* A coordinator changes the association settings (limits, fairshare,
 * QOS) of users and accounts, and associations, below the accounts it
 * coordinates; dbd_acct_modify checks that every association changed is
 * there (r->coord_accts). */
static bool coord_may_modify(dbd_req_t *r)
{
	const dbd_entity_desc_t *e = dbd_entity_find(r->req->entity);
	char *const *set = r->req->set;

	if (r->req->op != DBD_OP_MODIFY || !set || !set[0] ||
	    (e->entity != DBD_ENT_USER && e->entity != DBD_ENT_ACCOUNT &&
	     e->entity != DBD_ENT_ASSOC))
		return false;
	for (size_t i = 0; set[i]; i++) {
		const char *eq = strchr(set[i], '=');
		const dbd_setting_t *s = NULL;

		for (const dbd_setting_t *x = e->sets; eq && x->key; x++)
			if (strlen(x->key) == (size_t)(eq - set[i]) &&
			    !strncmp(x->key, set[i], eq - set[i]))
				s = x;
		if (!s || (!s->on_assoc && e->entity != DBD_ENT_ASSOC) ||
		    s->type == SET_ACCOUNT)
			return false;
	}
	r->coord_accts = dbd_coord_accounts(r->db, r->ctx->uid);
	return r->coord_accts && r->coord_accts[0];
}

static bool may_change(dbd_req_t *r)
{
	int level = admin_level(r, r->ctx->uid);

	if (level >= DBD_ADMIN_SUPER)
		return true;
	if (level >= DBD_ADMIN_OPERATOR && !dbd_kv_get(r->req->set,
						       "adminlevel"))
		return true;
	return coord_may_add(r) || coord_may_modify(r);
}

/* ---- dispatch ---- */

static int run_op(dbd_req_t *r)
{
	char *why = NULL;
	int rc;

	/* a string longer than its column (acct_limits.h), in a request
	 * or a line of a loaded file: nothing changes */
	if ((rc = acct_limits_msg(REQUEST_DBD_ACCT, r->req, &why))) {
		info("%s: uid %u: %s: %s", r->ctx->peer,
		     (unsigned)r->ctx->uid, slurm_strerror(rc), why);
		dbd_req_fail(r, rc, "%s: %s", slurm_strerror(rc), why);
		xfree(why);
		return -1;
	}
	if (r->req->entity >= DBD_ENT_WCKEY)
		return dbd_acct_ext_change(r);
	switch (r->req->op) {
	case DBD_OP_ADD:
		return dbd_acct_add(r);
	case DBD_OP_MODIFY:
		return dbd_acct_modify(r);
	case DBD_OP_DELETE:
		return dbd_acct_delete(r);
	}
	return dbd_req_fail(r, SLURM_ERROR, "unknown operation %u",
			    r->req->op);
}

/* A change: one transaction, committed if the request says so (and never
 * for a caller who may not change: they only see what would happen).
 * Returns the operation's result; warnings leave it at 0. */
static int run_change(dbd_req_t *r, bool allowed)
{
	int rc;

	if (dbd_db_begin(r->db) < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	rc = run_op(r);
	if (rc < 0 || !allowed || !(r->req->flags & DBD_ACCT_COMMIT)) {
		dbd_db_rollback(r->db);
		return rc;
	}
	/* what changed is recorded with it (sacctmgr show transaction) */
	if (r->ncells && dbd_acct_txn_record(r) < 0) {
		dbd_db_rollback(r->db);
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	}
	if (dbd_db_commit(r->db) < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	return 0;
}

/* ---- load (sacctmgr load) ---- */

static void drop_cells(dbd_req_t *r, size_t keep)
{
	while (r->ncells > keep)
		xfree(r->cells[--r->ncells]);
	if (r->cells)
		r->cells[r->ncells] = NULL;
}

/* One operation of a load; -1 (message naming the line) if it failed
 * or could only be done in part. */
static int load_one(dbd_req_t *r, const char *enc)
{
	dbd_acct_msg_t sub;
	unsigned line = 0;
	size_t before = r->ncells;
	int rc;

	if (ff_decode(enc, &line, &sub) < 0 || !dbd_entity_find(sub.entity) ||
	    sub.op < DBD_OP_ADD || sub.op > DBD_OP_DELETE)
		return dbd_req_fail(r, SLURM_ERROR, " Bad load request");
	r->req = &sub;
	r->warned = false;
	rc = run_op(r);
	if (rc == 0 && r->warned)
		rc = -1;
	if (rc < 0) {
		if (!r->resp->rc)
			r->resp->rc = SLURM_ERROR;
		if (line)
			xstrfmtcat(&r->resp->msg, "%s Problem with line(%u)",
				   r->resp->msg && *r->resp->msg ? "\n" : "",
				   line);
	} else if (sub.op == DBD_OP_MODIFY) {
		drop_cells(r, before);     /* only what is added/removed */
	} else if (sub.op == DBD_OP_DELETE) {
		for (size_t i = before; i + 4 < r->ncells; i += 5) {
			char *k = xstrdup_printf("del-%s", r->cells[i]);

			xfree(r->cells[i]);
			r->cells[i] = k;
		}
	}
	xstrarray_free(sub.names);
	xstrarray_free(sub.where);
	xstrarray_free(sub.set);
	return rc;
}

/* Every operation of the file in one transaction: the first that fails
 * rolls all back.  Administrators (and root/SlurmUser) only. */
static int run_load(dbd_req_t *r)
{
	const dbd_acct_msg_t *top = r->req;
	int rc = 0;

	if (admin_level(r, r->ctx->uid) < DBD_ADMIN_SUPER) {
		info("%s: uid %u may not load", r->ctx->peer,
		     (unsigned)r->ctx->uid);
		return dbd_req_fail(r, ESLURM_ACCESS_DENIED, " Your user does "
				    "not have sufficient privileges to load "
				    "files.");
	}
	if (dbd_db_begin(r->db) < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	for (size_t i = 0; top->names && top->names[i] && rc == 0; i++)
		rc = load_one(r, top->names[i]);
	r->req = top;
	r->warned = false;
	if (rc == 0 && (top->flags & DBD_ACCT_COMMIT) &&
	    dbd_acct_txn_record(r) < 0)
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	if (rc < 0 || !(top->flags & DBD_ACCT_COMMIT)) {
		dbd_db_rollback(r->db);
		return rc;
	}
	if (dbd_db_commit(r->db) < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	return 0;
}

/* Not allowed to change: an add still reports what it would have added
 * (sacctmgr prints it before the refusal); others are refused at once. */
static int refuse_change(dbd_req_t *r)
{
	int rc = 0;

	info("%s: uid %u may not change %s", r->ctx->peer,
	     (unsigned)r->ctx->uid, dbd_entity_find(r->req->entity)->what);
	if (r->req->op == DBD_OP_ADD)
		rc = run_change(r, false);
	xfree(r->resp->msg);
	r->resp->rc = ESLURM_ACCESS_DENIED;
	return rc < 0 ? -1 : 0;
}

void dbd_acct_handle(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		     const dbd_acct_msg_t *req, dbd_acct_resp_msg_t *resp)
{
	dbd_req_t r = { .db = db, .ctx = ctx, .req = req, .resp = resp,
			.now = time(NULL) };
	int rc;

	if (req->op == DBD_OP_LOAD)
		rc = run_load(&r);
	else if (!dbd_entity_find(req->entity))
		rc = dbd_req_fail(&r, SLURM_ERROR, "unknown entity %u",
				  req->entity);
	else if (req->op == DBD_OP_LIST && req->entity == DBD_ENT_RESV &&
		 dbd_private_limits(db, ctx, DBD_PRIVATE_RESERVATIONS)) {
		/* as Slurm: only operators and admins list reservations */
		info("%s: uid %u may not list reservations (PrivateData)",
		     ctx->peer, (unsigned)ctx->uid);
		rc = dbd_req_fail(&r, ESLURM_ACCESS_DENIED, NULL);
	} else if (req->op == DBD_OP_LIST && req->entity == DBD_ENT_JOB &&
		   admin_level(&r, ctx->uid) < DBD_ADMIN_OPERATOR) {
		/* runaway candidates: operators and administrators */
		info("%s: uid %u may not list runaway jobs", ctx->peer,
		     (unsigned)ctx->uid);
		rc = dbd_req_fail(&r, ESLURM_ACCESS_DENIED, NULL);
	}
	else if (req->op == DBD_OP_LIST)
		rc = dbd_acct_list(&r);
	else if (req->entity == DBD_ENT_RESV ||   /* the controller's */
		 req->entity == DBD_ENT_EVENT || req->entity == DBD_ENT_TXN ||
		 req->entity == DBD_ENT_PROBLEM ||  /* and slurmdbd's records */
		 req->entity == DBD_ENT_TRES)       /* (registered TRES) */
		rc = dbd_req_fail(&r, ESLURM_ACCESS_DENIED, NULL);
	else if (!dbd_acct_ext_own_perm(req) && !may_change(&r))
		rc = refuse_change(&r);
	else
		rc = run_change(&r, true);
	if (rc == 0 && r.warned && resp->rc == 0)
		resp->rc = SLURM_ERROR;
	if (rc < 0) {
		xstrarray_free(r.cells);
		r.cells = NULL;
	}
	xstrarray_free(r.coord_accts);
	resp->cells = r.cells;
}
