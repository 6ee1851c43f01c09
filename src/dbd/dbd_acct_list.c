/* dbd_acct_list.c — list (sacctmgr show): one row per record, a column
 * per field of the entity's description; with DBD_ACCT_WITH_ASSOC the
 * accounts or users are joined with their associations. */
#include <string.h>

#include "common/log.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_acct_ext.h"
#include "dbd/dbd_acct_int.h"
#include "dbd/dbd_private.h"
#include "slurm/slurm_errno.h"

/* Association columns added by withassoc (table alias a). */
static const dbd_col_t with_assoc_cols[] = {
	{ "cluster", "a.cluster" }, { "parentname", "a.parent_acct" },
	{ "assocaccount", "a.acct" }, { "assocuser", "a.user_name" },
	{ "partition", "a.`partition`" }, { "share", "a.shares" },
	{ "priority", "a.priority" }, { "grpjobs", "a.grp_jobs" },
	{ "grpsubmit", "a.grp_submit" }, { "grpwall", "a.grp_wall" },
	{ "maxjobs", "a.max_jobs" }, { "maxsubmit", "a.max_submit" },
	{ "maxwall", "a.max_wall" }, { "grptres", "a.grp_tres" },
	{ "maxtres", "a.max_tres" }, { "maxtrespn", "a.max_tres_pn" },
	{ "grptresmins", "a.grp_tres_mins" },
	{ "grptresrunmins", "a.grp_tres_run_mins" },
	{ "maxtresmins", "a.max_tres_mins" },
	{ "qos", "a.qos" },
	{ "defqos", "a.def_qos" }, { NULL, NULL }
};

static void add_cols(char **sql, const char ***names, size_t *n,
		     const dbd_col_t *cols)
{
	for (const dbd_col_t *c = cols; c->name; c++) {
		if (*n)
			xstrcat(sql, ", ");
		xstrcat(sql, c->expr);
		*names = xrealloc(*names, (*n + 2) * sizeof(char *));
		(*names)[(*n)++] = c->name;
		(*names)[*n] = NULL;
	}
}

/* withassoc: conditions on the association rows themselves. */
static const dbd_cond_t with_assoc_conds[] = {
	{ "cluster", "a.cluster IN (%s)" },
	{ "user", "a.user_name IN (%s)" },
	{ "partition", "a.`partition` IN (%s)" },
	{ NULL, NULL }
};
static const dbd_cond_t with_assoc_user_conds[] = {
	{ "account", "a.acct IN (%s)" },
	{ "cluster", "a.cluster IN (%s)" },
	{ "partition", "a.`partition` IN (%s)" },
	{ NULL, NULL }
};

/* FROM and ORDER BY for a withassoc listing, or NULL if not one. */
static bool with_assoc_from(const dbd_req_t *r, const char **from,
			    const char **order)
{
	if (!(r->req->flags & DBD_ACCT_WITH_ASSOC))
		return false;
	if (r->req->entity == DBD_ENT_ACCOUNT) {
		*from = "acct_table t JOIN assoc_table a ON a.acct=t.name AND "
			"a.deleted=0";
		*order = "t.name, a.cluster, a.user_name";
		return true;
	}
	if (r->req->entity == DBD_ENT_USER) {
		*from = "user_table t JOIN assoc_table a ON a.user_name=t.name "
			"AND a.deleted=0";
		*order = "t.name, a.cluster, a.acct";
		return true;
	}
	return false;
}

/* PrivateData (slurmdbd.conf) for a user below Operator: "users" shows
 * only its own user record and associations (a coordinator also the
 * associations of its accounts and below); "accounts" only the accounts
 * it coordinates. */
static void private_where(dbd_req_t *r, bool with, char **sql)
{
	uint16_t ent = r->req->entity;
	char *name, *own = NULL;
	const char *assoc = NULL;   /* alias of the association rows */

	if (ent == DBD_ENT_ASSOC)
		assoc = "t";
	else if (with && (ent == DBD_ENT_USER || ent == DBD_ENT_ACCOUNT))
		assoc = "a";
	/* a set-aside record carries a job's whole record: its owner's */
	if (ent == DBD_ENT_PROBLEM &&
	    dbd_admin_level(r->db, r->ctx->conf, r->ctx->uid) <
	    DBD_ADMIN_OPERATOR)
		xstrfmtcat(sql, " AND t.id_user=%u", (unsigned)r->ctx->uid);
	if (ent == DBD_ENT_ACCOUNT &&
	    dbd_private_limits(r->db, r->ctx, DBD_PRIVATE_ACCOUNTS))
		dbd_private_where(r->db, r->ctx->uid, "0", "t.name", sql);
	if (!dbd_private_limits(r->db, r->ctx, DBD_PRIVATE_USERS))
		return;
	name = dbd_user_name(r->ctx->uid);
	if (ent == DBD_ENT_USER) {
		xstrcat(&own, "t.name=");
		dbd_db_quote(r->db, &own, name ? name : "");
		xstrfmtcat(sql, " AND %s", own);
		xfree(own);
	}
	if (assoc) {
		xstrfmtcat(&own, "%s.user_name=", assoc);
		dbd_db_quote(r->db, &own, name ? name : "");
		if (ent == DBD_ENT_USER) {
			xstrfmtcat(sql, " AND %s", own);
		} else {
			char *col = xstrdup_printf("%s.acct", assoc);

			dbd_private_where(r->db, r->ctx->uid, own, col, sql);
			xfree(col);
		}
		xfree(own);
	}
	xfree(name);
}

/* ---- DBD_ACCT_PARENT_LIMITS: what sacctmgr show prints, as Slurm's ---- */

#define INH_CNT 8
static const char *const inh_cols[INH_CNT] = {
	"maxjobs", "maxsubmit", "maxwall", "priority", "defqos",
	"maxtres", "maxtrespn", "maxtresmins",
};
static const char *const inh_sql =
	"SELECT cluster, acct, parent_acct, max_jobs, max_submit, max_wall, "
	"priority, def_qos, max_tres, max_tres_pn, max_tres_mins FROM "
	"assoc_table WHERE deleted=0 AND user_name='' AND `partition`=''";

static int col_index(dbd_req_t *r, const char *name)
{
	for (int i = 0; r->resp->cols && r->resp->cols[i]; i++)
		if (!strcmp(r->resp->cols[i], name))
			return i;
	return -1;
}

static int acct_row(const dbd_rows_t *a, const char *cluster,
		    const char *acct)
{
	for (uint32_t i = 0; i < a->rows; i++)
		if (!strcmp(dbd_rows_get(a, i, 0), cluster) &&
		    !strcmp(dbd_rows_get(a, i, 1), acct))
			return (int)i;
	return -1;
}

/* Fill one cell from the account associations above (TRES: per TRES,
 * the nearest one's value of each TRES). */
static void inherit_cell(const dbd_rows_t *a, int up, int k, char **cell)
{
	for (int depth = 0; up >= 0 && depth < 64; depth++) {
		const char *v = dbd_rows_get(a, (uint32_t)up, 3 + k);

		if (*v && k >= 5) {
			char err[128];
			char *both = xstrdup_printf("%s,%s", v, *cell);
			char *m = tres_limit_canon(both, err, sizeof(err));

			if (m) {
				xfree(*cell);
				*cell = m;
			}
			xfree(both);
		} else if (*v && !**cell) {
			xfree(*cell);
			*cell = xstrdup(v);
			return;
		}
		up = acct_row(a, dbd_rows_get(a, (uint32_t)up, 0),
			      dbd_rows_get(a, (uint32_t)up, 2));
	}
}

static void inherit_limits(dbd_req_t *r, bool with)
{
	int ncols = 0, ccl, cacct, cuser, cpar, ci[INH_CNT];
	dbd_rows_t a;

	if (!(r->req->flags & DBD_ACCT_PARENT_LIMITS) ||
	    (r->req->entity != DBD_ENT_ASSOC && !with))
		return;
	while (r->resp->cols && r->resp->cols[ncols])
		ncols++;
	ccl = col_index(r, "cluster");
	cacct = col_index(r, with ? "assocaccount" : "account");
	cuser = col_index(r, with ? "assocuser" : "user");
	cpar = col_index(r, "parentname");
	for (int k = 0; k < INH_CNT; k++)
		ci[k] = col_index(r, inh_cols[k]);
	if (!ncols || ccl < 0 || cacct < 0 || cuser < 0 || cpar < 0 ||
	    dbd_db_select(r->db, inh_sql, &a) < 0)
		return;
	for (size_t row = 0; row * ncols < r->ncells; row++) {
		char **c = &r->cells[row * ncols];
		int up = acct_row(&a, c[ccl], c[cuser][0] ? c[cacct] : c[cpar]);

		for (int k = 0; k < INH_CNT && up >= 0; k++)
			if (ci[k] >= 0 && (k >= 5 || !c[ci[k]][0]))
				inherit_cell(&a, up, k, &c[ci[k]]);
	}
	dbd_rows_free(&a);
}

int dbd_acct_list(dbd_req_t *r)
{
	const dbd_entity_desc_t *e = dbd_entity_find(r->req->entity);
	const char *from = e->from, *order = e->order;
	const char **names = NULL;
	bool with = with_assoc_from(r, &from, &order);
	char *sql = xstrdup("SELECT ");
	dbd_rows_t rows;
	size_t n = 0;
	int rc = -1;

	const dbd_col_t *ext_cols = NULL;
	const dbd_cond_t *ext_conds = NULL;

	if (!with && (r->req->flags & DBD_ACCT_WITH_ASSOC))
		dbd_acct_ext_with(r, &from, &order, &ext_cols, &ext_conds);
	add_cols(&sql, &names, &n, e->cols);
	if (with) {
		add_cols(&sql, &names, &n, with_assoc_cols);
		r->conds_first = e->entity == DBD_ENT_USER ?
			with_assoc_user_conds : with_assoc_conds;
	} else if (ext_cols) {
		add_cols(&sql, &names, &n, ext_cols);
		r->conds_first = ext_conds;
	}
	xstrfmtcat(&sql, " FROM %s WHERE %s", from, e->alive);
	if (dbd_req_where_sql(r, e, &sql) < 0)
		goto out;
	private_where(r, with, &sql);
	xstrfmtcat(&sql, " ORDER BY %s", order);
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		goto out;
	}
	dbd_req_cols(r, (const char *const *)names);
	for (size_t i = 0; i < (size_t)rows.rows * rows.cols; i++)
		dbd_req_cell(r, rows.cells[i]);
	dbd_rows_free(&rows);
	inherit_limits(r, with);
	rc = 0;
out:
	xfree(names);
	xfree(sql);
	return rc;
}
