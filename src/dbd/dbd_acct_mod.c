/* dbd_acct_mod.c — modify and delete (sacctmgr modify/delete): find the
 * records the where clause names, then change them and their
 * associations.  Deleted records are marked, not removed, so that job
 * records keep pointing at something. */
#include <string.h>

#include "common/log.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_acct_int.h"
#include "slurm/slurm_errno.h"

static const char *kind_of(uint16_t entity)
{
	switch (entity) {
	case DBD_ENT_CLUSTER:
		return "cluster";
	case DBD_ENT_ACCOUNT:
		return "account";
	case DBD_ENT_USER:
		return "user";
	case DBD_ENT_QOS:
		return "qos";
	default:
		return "assoc";
	}
}

static const dbd_setting_t *setting_find(const dbd_entity_desc_t *e,
					 const char *key, size_t n)
{
	for (const dbd_setting_t *s = e->sets; s->key; s++)
		if (strlen(s->key) == n && !strncmp(s->key, key, n))
			return s;
	return NULL;
}

/* "col=value, ..." for the main table and for associations. */
static int build_sets(dbd_req_t *r, const dbd_entity_desc_t *e,
		      char **main_set, char **assoc_set)
{
	char *const *set = r->req->set;

	for (size_t i = 0; set && set[i]; i++) {
		const char *eq = strchr(set[i], '=');
		const dbd_setting_t *s = eq ? setting_find(e, set[i],
							   eq - set[i]) : NULL;
		char **dst;

		if (!s)
			return dbd_req_fail(r, SLURM_ERROR,
					    " Unknown option: %s", set[i]);
		if (s->type == SET_WCKEY)
			continue;       /* set_default_wckey() */
		dst = s->on_assoc ? assoc_set : main_set;
		xstrfmtcat(dst, "%s`%s`=", *dst ? ", " : "", s->column);
		if (s->type == SET_TRES) {
			/* checked here, merged row by row later */
			char *check = NULL;
			int rc = dbd_req_set_value(r, s, eq + 1, &check);

			xfree(check);
			if (rc < 0)
				return -1;
			xstrfmtcat(dst, "`%s`", s->column);
			continue;
		}
		if (dbd_req_set_value(r, s, eq + 1, dst) < 0)
			return -1;
	}
	return 0;
}

/* TRES limits change per TRES, as Slurm's: "GrpTRES=cpu=4" keeps the
 * row's other TRES, "cpu=-1" drops cpu.  table's rows matched by match
 * get each TRES setting of the request merged into their value. */
static int merge_tres(dbd_req_t *r, const dbd_entity_desc_t *e,
		      bool on_assoc, const char *table, const char *match)
{
	char *const *set = r->req->set;

	for (size_t i = 0; set && set[i]; i++) {
		const char *eq = strchr(set[i], '=');
		const dbd_setting_t *s = setting_find(e, set[i], eq - set[i]);
		char *sql;
		dbd_rows_t rows;
		int rc = 0;

		if (s->type != SET_TRES || s->on_assoc != on_assoc)
			continue;
		sql = xstrdup_printf("SELECT id, `%s` FROM %s WHERE deleted=0 "
				     "AND %s", s->column, table, match);
		if (dbd_db_select(r->db, sql, &rows) < 0) {
			xfree(sql);
			return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		}
		xfree(sql);
		for (uint32_t k = 0; k < rows.rows && rc == 0; k++) {
			char err[256];
			char *both = xstrdup_printf("%s,%s",
						    dbd_rows_get(&rows, k, 1),
						    eq + 1);
			char *merged = tres_limit_canon(both, err, sizeof(err));

			sql = xstrdup_printf("UPDATE %s SET `%s`=", table,
					     s->column);
			dbd_db_quote(r->db, &sql, merged ? merged : "");
			xstrfmtcat(&sql, " WHERE id=%s",
				   dbd_rows_get(&rows, k, 0));
			if (dbd_db_exec(r->db, sql) < 0)
				rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
			xfree(sql);
			xfree(merged);
			xfree(both);
		}
		dbd_rows_free(&rows);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Every user's new default account must be one of its associations. */
static int check_default_account(dbd_req_t *r, const char *keys)
{
	const char *acct = dbd_kv_get(r->req->set, "defaultaccount");
	char *sql, *lower;
	dbd_rows_t rows;
	int rc = 0;

	if (r->req->entity != DBD_ENT_USER || !acct)
		return 0;
	lower = xstrtolower(xstrdup(acct));
	sql = xstrdup_printf("SELECT name FROM user_table WHERE name IN (%s) "
			     "AND name NOT IN (SELECT user_name FROM "
			     "assoc_table WHERE deleted=0 AND acct=", keys);
	dbd_db_quote(r->db, &sql, lower);
	xstrcat(&sql, ")");
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	} else {
		if (rows.rows)
			rc = dbd_req_fail(r, SLURM_ERROR,
				" Can't modify because these users aren't "
				"associated with new default account '%s'...\n"
				"  %s", lower, dbd_rows_get(&rows, 0, 0));
		dbd_rows_free(&rows);
	}
	xfree(lower);
	xfree(sql);
	return rc;
}

/* DefaultWCKey=W: on each cluster (of the where clause's, if it names
 * any) where a matched user has wckey W, W becomes the default and the
 * user's other wckeys there are not; refused, nothing changed, if a
 * user has W on none of them. */
static int set_default_wckey(dbd_req_t *r, const char *keys)
{
	const char *w = dbd_kv_get(r->req->set, "defaultwckey");
	char **cl = dbd_kv_list(r->req->where, "cluster");
	char *on = NULL, *sql = NULL;
	dbd_rows_t rows = { 0 };
	int rc = -1;

	if (r->req->entity != DBD_ENT_USER || !w) {
		xstrarray_free(cl);
		return 0;
	}
	if (!*w) {
		rc = dbd_req_fail(r, SLURM_ERROR, " DefaultWCKey needs a "
				  "wckey name");
		goto out;
	}
	on = xstrdup("deleted=0 AND name=");
	dbd_db_quote(r->db, &on, w);
	if (cl) {
		char *q = dbd_req_quoted(r, cl);

		xstrfmtcat(&on, " AND cluster IN (%s)", q);
		xfree(q);
	}
	sql = xstrdup_printf("SELECT name FROM user_table WHERE name IN (%s) "
			     "AND name NOT IN (SELECT user_name FROM "
			     "wckey_table WHERE %s) ORDER BY name", keys, on);
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		goto out;
	}
	if (rows.rows) {
		rc = dbd_req_fail(r, SLURM_ERROR, " Can't modify because "
				  "these users aren't associated with new "
				  "default wckey '%s'...\n  %s", w,
				  dbd_rows_get(&rows, 0, 0));
		goto out;
	}
	dbd_rows_free(&rows);
	xfree(sql);
	sql = xstrdup_printf("SELECT user_name, cluster FROM wckey_table "
			     "WHERE user_name IN (%s) AND %s ORDER BY "
			     "user_name, cluster", keys, on);
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		goto out;
	}
	rc = 0;
	for (uint32_t i = 0; i < rows.rows && !rc; i++) {
		const char *u = dbd_rows_get(&rows, i, 0);
		const char *c = dbd_rows_get(&rows, i, 1);

		xfree(sql);
		sql = xstrdup("UPDATE wckey_table SET is_def=(name=");
		dbd_db_quote(r->db, &sql, w);
		xstrfmtcat(&sql, "), mod_time=%ld WHERE deleted=0 AND "
			   "user_name=", (long)r->now);
		dbd_db_quote(r->db, &sql, u);
		xstrcat(&sql, " AND cluster=");
		dbd_db_quote(r->db, &sql, c);
		if (dbd_db_exec(r->db, sql) < 0) {
			rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
			break;
		}
		if (dbd_db_affected(r->db) > 0)
			dbd_req_change(r, "user", u, c, NULL, NULL);
	}
out:
	dbd_rows_free(&rows);
	xstrarray_free(cl);
	xfree(sql);
	xfree(on);
	return rc;
}

/* Parent of acct's association (any cluster), "" at the top. */
static char *parent_of(dbd_req_t *r, const char *acct)
{
	char *sql = xstrdup("SELECT parent_acct FROM assoc_table WHERE "
			    "deleted=0 AND user_name='' AND acct=");
	dbd_rows_t rows;
	char *p = NULL;

	dbd_db_quote(r->db, &sql, acct);
	xstrcat(&sql, " LIMIT 1");
	if (dbd_db_select(r->db, sql, &rows) == 0) {
		p = xstrdup(rows.rows ? dbd_rows_get(&rows, 0, 0) : "");
		dbd_rows_free(&rows);
	}
	xfree(sql);
	return p;
}

static bool in_rows(const dbd_rows_t *rows, const char *name)
{
	for (uint32_t i = 0; i < rows->rows; i++)
		if (!strcmp(dbd_rows_get(rows, i, 0), name))
			return true;
	return false;
}

/* Moving accounts: the new parent must exist on every cluster the
 * accounts are on and must not be one of them or below them. */
static int check_parent(dbd_req_t *r, const dbd_rows_t *rows,
			const char *keys)
{
	const char *v = dbd_kv_get(r->req->set, "parent");
	char *parent, *cur, *sql;
	int rc = 0, found;

	if (r->req->entity != DBD_ENT_ACCOUNT || !v)
		return 0;
	parent = xstrtolower(xstrdup(v));
	sql = xstrdup_printf("SELECT 1 FROM assoc_table a WHERE deleted=0 AND "
			     "user_name='' AND acct IN (%s) AND NOT EXISTS "
			     "(SELECT 1 FROM assoc_table p WHERE p.deleted=0 "
			     "AND p.user_name='' AND p.cluster=a.cluster AND "
			     "p.acct=", keys);
	dbd_db_quote(r->db, &sql, parent);
	xstrcat(&sql, ")");
	found = dbd_req_exists(r, sql);
	xfree(sql);
	if (found != 0) {
		if (found > 0)
			dbd_req_fail(r, SLURM_ERROR, " error: Parent account "
				     "'%s' doesn't exist", parent);
		xfree(parent);
		return -1;
	}
	cur = parent;
	for (int depth = 0; rc == 0 && cur && cur[0] && depth < 64; depth++) {
		char *next;

		if (in_rows(rows, cur)) {
			rc = dbd_req_fail(r, SLURM_ERROR, " error: Account "
					  "'%s' can not be moved below itself",
					  cur);
			break;
		}
		next = parent_of(r, cur);
		xfree(cur);
		cur = next;
	}
	xfree(cur);
	return rc;
}

/* Report the association rows a change touches, then change them. */
static int update_assocs(dbd_req_t *r, const char *match, const char *what)
{
	char *sql = xstrdup_printf("SELECT cluster, acct, user_name, "
				   "parent_acct FROM assoc_table WHERE "
				   "deleted=0 AND %s ORDER BY cluster, acct, "
				   "user_name", match);
	dbd_rows_t rows;
	int rc = 0;

	if (dbd_db_select(r->db, sql, &rows) < 0) {
		xfree(sql);
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	}
	for (uint32_t i = 0; i < rows.rows; i++)
		dbd_req_change(r, "assoc", dbd_rows_get(&rows, i, 3),
			       dbd_rows_get(&rows, i, 0),
			       dbd_rows_get(&rows, i, 1),
			       dbd_rows_get(&rows, i, 2));
	dbd_rows_free(&rows);
	xfree(sql);
	sql = xstrdup_printf("UPDATE assoc_table SET %s, mod_time=%ld WHERE "
			     "deleted=0 AND %s", what, (long)r->now, match);
	if (dbd_db_exec(r->db, sql) < 0)
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	xfree(sql);
	return rc;
}

static char *keys_of(dbd_req_t *r, const dbd_rows_t *rows)
{
	char *out = NULL;

	for (uint32_t i = 0; i < rows->rows; i++) {
		if (i)
			xstrcatc(&out, ',');
		dbd_db_quote(r->db, &out, dbd_rows_get(rows, i, 0));
	}
	return out;
}

/* A user's associations a change touches: with "where account=" (or
 * cluster=, partition=) only those, as Slurm's. */
static void narrow_user_assocs(dbd_req_t *r, char **match)
{
	static const char *const keys[][2] = {
		{ "account", "acct" }, { "cluster", "cluster" },
		{ "partition", "`partition`" },
	};

	if (r->req->entity != DBD_ENT_USER)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		char **v = dbd_kv_list(r->req->where, keys[k][0]);
		char *q = v ? dbd_req_quoted(r, v) : NULL;

		if (q)
			xstrfmtcat(match, " AND %s IN (%s)", keys[k][1], q);
		xfree(q);
		xstrarray_free(v);
	}
}

/* A coordinator's change: refused unless every association it touches
 * is in the accounts it coordinates (or below). */
static int coord_check(dbd_req_t *r, const char *match)
{
	char *q, *sql;
	int found;

	if (!r->coord_accts)
		return 0;
	q = dbd_req_quoted(r, r->coord_accts);
	sql = xstrdup_printf("SELECT 1 FROM assoc_table WHERE deleted=0 AND "
			     "%s AND acct NOT IN (%s) LIMIT 1", match, q);
	found = dbd_req_exists(r, sql);
	xfree(sql);
	xfree(q);
	if (found < 0)
		return -1;
	if (found) {
		info("%s: uid %u is not a coordinator of every association "
		     "it would change", r->ctx->peer, (unsigned)r->ctx->uid);
		return dbd_req_fail(r, ESLURM_ACCESS_DENIED, NULL);
	}
	return 0;
}

static const char *key_column(const dbd_entity_desc_t *e)
{
	return e->entity == DBD_ENT_ASSOC ? "id" : "name";
}

int dbd_acct_modify(dbd_req_t *r)
{
	const dbd_entity_desc_t *e = dbd_entity_find(r->req->entity);
	char *main_set = NULL, *assoc_set = NULL, *keys = NULL, *sql = NULL;
	char *match = NULL;
	dbd_rows_t rows = { 0 };
	int rc = -1;

	if (e->entity == DBD_ENT_COORD)
		return dbd_req_fail(r, SLURM_ERROR, " Coordinators can only be "
				    "added or removed");
	if (build_sets(r, e, &main_set, &assoc_set) < 0 ||
	    dbd_req_match(r, e, &rows) < 0)
		goto out;
	if (!rows.rows) {
		rc = 0;                  /* nothing matched: no changes */
		goto out;
	}
	keys = keys_of(r, &rows);
	if (check_default_account(r, keys) < 0 ||
	    check_parent(r, &rows, keys) < 0 ||
	    set_default_wckey(r, keys) < 0)
		goto out;
	if (main_set && e->entity == DBD_ENT_ASSOC) {
		match = xstrdup_printf("id IN (%s)", keys);
		if (coord_check(r, match) < 0 ||
		    update_assocs(r, match, main_set) < 0 ||
		    merge_tres(r, e, false, "assoc_table", match) < 0)
			goto out;
	} else if (main_set) {
		sql = xstrdup_printf("UPDATE %s SET %s, mod_time=%ld WHERE "
				     "name IN (%s)", e->table, main_set,
				     (long)r->now, keys);
		if (dbd_db_exec(r->db, sql) < 0) {
			dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
			goto out;
		}
		for (uint32_t i = 0; i < rows.rows; i++)
			dbd_req_change(r, kind_of(e->entity),
				       dbd_rows_get(&rows, i, 0), NULL, NULL,
				       NULL);
		xfree(sql);
		sql = xstrdup_printf("name IN (%s)", keys);
		if (e->entity == DBD_ENT_QOS &&
		    merge_tres(r, e, false, e->table, sql) < 0)
			goto out;
	}
	if (assoc_set && e->assoc_match) {
		match = xstrdup_printf(e->assoc_match, keys);
		narrow_user_assocs(r, &match);
		if (coord_check(r, match) < 0 ||
		    update_assocs(r, match, assoc_set) < 0 ||
		    merge_tres(r, e, true, "assoc_table", match) < 0)
			goto out;
	}
	rc = 0;
out:
	dbd_rows_free(&rows);
	xfree(main_set);
	xfree(assoc_set);
	xfree(keys);
	xfree(sql);
	xfree(match);
	return rc;
}

/* ---- delete ---- */

static int check_delete(dbd_req_t *r, const dbd_rows_t *rows,
			const char *keys)
{
	char *sql;
	int found;

	if (r->req->entity != DBD_ENT_ACCOUNT)
		return 0;
	for (uint32_t i = 0; i < rows->rows; i++)
		if (!strcmp(dbd_rows_get(rows, i, 0), "root"))
			return dbd_req_fail(r, SLURM_ERROR,
				" You can not delete the root account");
	sql = xstrdup_printf("SELECT 1 FROM assoc_table WHERE deleted=0 AND "
			     "user_name='' AND parent_acct IN (%s) AND acct "
			     "NOT IN (%s)", keys, keys);
	found = dbd_req_exists(r, sql);
	xfree(sql);
	if (found > 0)
		return dbd_req_fail(r, SLURM_ERROR,
			" Can't delete an account that has sub-accounts; "
			"delete or move them first");
	return found < 0 ? -1 : 0;
}

/* Which association rows go with the deleted records. */
static char *assoc_delete_match(uint16_t entity, const char *keys)
{
	switch (entity) {
	case DBD_ENT_CLUSTER:
		return xstrdup_printf("cluster IN (%s)", keys);
	case DBD_ENT_ACCOUNT:
		return xstrdup_printf("acct IN (%s)", keys);
	case DBD_ENT_USER:
		return xstrdup_printf("user_name IN (%s)", keys);
	default:
		return NULL;
	}
}

/* Coordinators: rows (user, account) matched by where. */
static int delete_coords(dbd_req_t *r, const dbd_entity_desc_t *e)
{
	char *sql = xstrdup("SELECT t.user_name, t.acct FROM coord_table t "
			    "WHERE t.deleted=0");
	dbd_rows_t rows;
	int rc = -1;

	if (!r->req->where || !r->req->where[0]) {
		xfree(sql);
		return dbd_req_fail(r, SLURM_ERROR, " No conditions given");
	}
	if (dbd_req_where_sql(r, e, &sql) < 0)
		goto out;
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		goto out;
	}
	rc = 0;
	for (uint32_t i = 0; i < rows.rows && rc == 0; i++) {
		char *u = xstrdup("UPDATE coord_table SET deleted=1, mod_time=");

		xstrfmtcat(&u, "%ld WHERE user_name=", (long)r->now);
		dbd_db_quote(r->db, &u, dbd_rows_get(&rows, i, 0));
		xstrcat(&u, " AND acct=");
		dbd_db_quote(r->db, &u, dbd_rows_get(&rows, i, 1));
		if (dbd_db_exec(r->db, u) < 0)
			rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		else
			dbd_req_change(r, "coord", dbd_rows_get(&rows, i, 0),
				       NULL, dbd_rows_get(&rows, i, 1),
				       dbd_rows_get(&rows, i, 0));
		xfree(u);
	}
	dbd_rows_free(&rows);
out:
	xfree(sql);
	return rc;
}

int dbd_acct_delete(dbd_req_t *r)
{
	const dbd_entity_desc_t *e = dbd_entity_find(r->req->entity);
	char *keys = NULL, *sql = NULL, *match = NULL;
	dbd_rows_t rows = { 0 };
	int rc = -1;

	if (r->req->set && r->req->set[0]) {
		dbd_req_fail(r, SLURM_ERROR, " Unknown option: %s",
			     r->req->set[0]);
		goto out;
	}
	if (e->entity == DBD_ENT_COORD)
		return delete_coords(r, e);
	if (dbd_req_match(r, e, &rows) < 0)
		goto out;
	if (!rows.rows) {
		rc = 0;
		goto out;
	}
	keys = keys_of(r, &rows);
	if (check_delete(r, &rows, keys) < 0)
		goto out;
	sql = xstrdup_printf("UPDATE %s SET deleted=1, mod_time=%ld WHERE "
			     "%s IN (%s)", e->table, (long)r->now,
			     key_column(e), keys);
	match = assoc_delete_match(e->entity, keys);
	if (e->entity == DBD_ENT_ASSOC)
		match = xstrdup_printf("id IN (%s)", keys);
	if (match && update_assocs(r, match, "deleted=1") < 0)
		goto out;
	if (dbd_db_exec(r->db, sql) < 0) {
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		goto out;
	}
	for (uint32_t i = 0; e->entity != DBD_ENT_ASSOC && i < rows.rows; i++)
		dbd_req_change(r, kind_of(e->entity),
			       dbd_rows_get(&rows, i, 0), NULL, NULL, NULL);
	rc = 0;
out:
	dbd_rows_free(&rows);
	xfree(keys);
	xfree(sql);
	xfree(match);
	return rc;
}
