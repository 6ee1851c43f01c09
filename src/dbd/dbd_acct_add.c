/* dbd_acct_add.c — add (sacctmgr add): clusters with their root
 * associations, accounts under a parent on each cluster, users with an
 * association per account and cluster, QOS.  Records already there are
 * left alone and not reported, so the caller can tell "Nothing new
 * added."  A record deleted earlier is brought back. */
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_acct_int.h"
#include "slurm/slurm_errno.h"

#define NAME_MAX_LEN 64

/* Settings accepted by add besides the entity's own "set" keys. */
static const char *const add_only_keys[] = {
	"cluster", "parent", "account", "partition", NULL
};

static bool add_key_known(const dbd_entity_desc_t *e, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : strlen(kv);

	for (const dbd_setting_t *s = e->sets; s->key; s++)
		if (strlen(s->key) == n && !strncmp(s->key, kv, n))
			return true;
	if (e->entity == DBD_ENT_QOS || e->entity == DBD_ENT_CLUSTER)
		return false;
	if (e->entity == DBD_ENT_COORD)
		return n == 7 && !strncmp(kv, "account", 7);
	for (size_t i = 0; add_only_keys[i]; i++)
		if (strlen(add_only_keys[i]) == n &&
		    !strncmp(add_only_keys[i], kv, n))
			return true;
	return false;
}

static int check_request(dbd_req_t *r, const dbd_entity_desc_t *e)
{
	char *const *names = r->req->names;

	if (!names || !names[0])
		return dbd_req_fail(r, SLURM_ERROR,
				    " Need name of %s to add.", e->what);
	for (size_t i = 0; names[i]; i++)
		if (!names[i][0] || strlen(names[i]) > NAME_MAX_LEN ||
		    strpbrk(names[i], " ,'\"=`\\"))
			return dbd_req_fail(r, SLURM_ERROR,
					    " Invalid name: %s", names[i]);
	for (size_t i = 0; r->req->set && r->req->set[i]; i++)
		if (!add_key_known(e, r->req->set[i]))
			return dbd_req_fail(r, SLURM_ERROR,
					    " Unknown option: %s",
					    r->req->set[i]);
	return 0;
}

static int exists(dbd_req_t *r, const char *table, const char *col,
		  const char *name)
{
	char *sql = xstrdup_printf("SELECT 1 FROM %s WHERE deleted=0 AND "
				   "%s=", table, col);
	int rc;

	dbd_db_quote(r->db, &sql, name);
	rc = dbd_req_exists(r, sql);
	xfree(sql);
	return rc;
}

static int assoc_exists(dbd_req_t *r, const char *cluster, const char *acct,
			const char *user)
{
	char *sql = xstrdup("SELECT 1 FROM assoc_table WHERE deleted=0 AND "
			    "`partition`='' AND cluster=");
	int rc;

	dbd_db_quote(r->db, &sql, cluster);
	xstrcat(&sql, " AND acct=");
	dbd_db_quote(r->db, &sql, acct);
	xstrcat(&sql, " AND user_name=");
	dbd_db_quote(r->db, &sql, user);
	rc = dbd_req_exists(r, sql);
	xfree(sql);
	return rc;
}

/* The QOS list an account's association passes to its children. */
static char *parent_qos(dbd_req_t *r, const char *cluster, const char *acct)
{
	char *sql = xstrdup("SELECT qos FROM assoc_table WHERE deleted=0 AND "
			    "user_name='' AND cluster=");
	dbd_rows_t rows;
	char *qos = NULL;

	dbd_db_quote(r->db, &sql, cluster);
	xstrcat(&sql, " AND acct=");
	dbd_db_quote(r->db, &sql, acct);
	if (dbd_db_select(r->db, sql, &rows) == 0) {
		if (rows.rows)
			qos = xstrdup(dbd_rows_get(&rows, 0, 0));
		dbd_rows_free(&rows);
	}
	xfree(sql);
	return qos ? qos : xstrdup("normal");
}

/* Several keys may name one column (MaxTRES, MaxTRESPerJob): the first
 * stands for all of them. */
static bool first_of_column(const dbd_entity_desc_t *e,
			    const dbd_setting_t *s)
{
	for (const dbd_setting_t *o = e->sets; o != s; o++)
		if (!strcmp(o->column, s->column))
			return false;
	return true;
}

/* The value the request gives s's column under any of its keys. */
static const char *setting_value(dbd_req_t *r, const dbd_entity_desc_t *e,
				 const dbd_setting_t *s)
{
	const char *v = NULL;

	for (const dbd_setting_t *o = e->sets; o->key; o++)
		if (!strcmp(o->column, s->column) && !v)
			v = dbd_kv_get(r->req->set, o->key);
	return v;
}

/* Columns and values of an association's settings: defaults, then
 * whatever the request sets. */
static int assoc_values(dbd_req_t *r, const char *qos, char **cols,
			char **vals, char **update)
{
	const dbd_entity_desc_t *a = dbd_entity_find(DBD_ENT_ASSOC);

	for (const dbd_setting_t *s = a->sets; s->key; s++) {
		const char *v = setting_value(r, a, s);

		if (!first_of_column(a, s))
			continue;
		xstrfmtcat(cols, ", `%s`", s->column);
		xstrcat(vals, ", ");
		if (v) {
			if (dbd_req_set_value(r, s, v, vals) < 0)
				return -1;
		} else if (s->type == SET_SHARES) {
			xstrcat(vals, "1");
		} else if (s->type == SET_QOSLIST) {
			dbd_db_quote(r->db, vals, qos);
		} else if (s->type == SET_STR || s->type == SET_TRES) {
			xstrcat(vals, "''");
		} else {
			xstrcat(vals, "NULL");
		}
		xstrfmtcat(update, ", `%s`=VALUES(`%s`)", s->column,
			   s->column);
	}
	return 0;
}

static int insert_assoc(dbd_req_t *r, const char *cluster, const char *acct,
			const char *user, const char *parent)
{
	char *qos = parent[0] ? parent_qos(r, cluster, parent) :
		xstrdup("normal");
	char *cols = NULL, *vals = NULL, *update = NULL, *sql;
	int rc = -1;

	if (assoc_values(r, qos, &cols, &vals, &update) < 0)
		goto out;
	sql = xstrdup_printf("INSERT INTO assoc_table (cluster, acct, "
			     "user_name, parent_acct, creation_time, mod_time"
			     "%s) VALUES (", cols);
	dbd_db_quote(r->db, &sql, cluster);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, acct);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, user);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, parent);
	xstrfmtcat(&sql, ", %ld, %ld%s) ON DUPLICATE KEY UPDATE deleted=0, "
		   "parent_acct=VALUES(parent_acct), "
		   "mod_time=VALUES(mod_time)%s", (long)r->now, (long)r->now,
		   vals, update);
	rc = dbd_db_exec(r->db, sql);
	if (rc < 0)
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	xfree(sql);
out:
	xfree(qos);
	xfree(cols);
	xfree(vals);
	xfree(update);
	return rc;
}

/* Live clusters, or the ones the request names (each must exist). */
static char **clusters_of(dbd_req_t *r)
{
	char **want = dbd_kv_list(r->req->set, "cluster");
	dbd_rows_t rows;
	char **out = NULL;

	if (want) {
		for (size_t i = 0; want[i]; i++) {
			int rc = exists(r, "cluster_table", "name", want[i]);

			if (rc == 0)
				dbd_req_fail(r, SLURM_ERROR,
					" This cluster '%s' doesn't exist.\n"
					"        Contact your admin to add it "
					"to accounting.", want[i]);
			if (rc <= 0) {
				xstrarray_free(want);
				return NULL;
			}
		}
		return want;
	}
	if (dbd_db_select(r->db, "SELECT name FROM cluster_table WHERE "
			  "deleted=0 ORDER BY name", &rows) < 0) {
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		return NULL;
	}
	for (uint32_t i = 0; i < rows.rows; i++)
		out = xstrarray_append(out, dbd_rows_get(&rows, i, 0));
	dbd_rows_free(&rows);
	if (!out)
		dbd_req_fail(r, SLURM_ERROR, " No clusters in the database; "
			     "add one with 'sacctmgr add cluster' first");
	return out;
}

static char **names_of(dbd_req_t *r)
{
	char **names = xstrarray_dup(r->req->names);

	for (size_t i = 0; names[i]; i++)
		xstrtolower(names[i]);
	return names;
}

/* ---- clusters ---- */

static int add_cluster(dbd_req_t *r, const char *name)
{
	char *sql;
	int rc = exists(r, "cluster_table", "name", name);

	if (rc > 0)
		dbd_req_change(r, "exists", name, NULL, NULL, NULL);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	sql = xstrdup("INSERT INTO cluster_table (name, creation_time, "
		      "mod_time) VALUES (");
	dbd_db_quote(r->db, &sql, name);
	xstrfmtcat(&sql, ", %ld, %ld) ON DUPLICATE KEY UPDATE deleted=0, "
		   "control_host='', control_port=0, rpc_version=0, "
		   "mod_time=VALUES(mod_time)", (long)r->now, (long)r->now);
	rc = dbd_db_exec(r->db, sql);
	xfree(sql);
	if (rc < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	if (insert_assoc(r, name, "root", "", "") < 0 ||
	    insert_assoc(r, name, "root", "root", "root") < 0)
		return -1;
	dbd_req_change(r, "cluster", name, NULL, NULL, NULL);
	return 0;
}

/* ---- accounts ---- */

/* A new account's organization: its own name under root, else its
 * parent's name. */
static char *default_org(const char *name, const char *parent)
{
	return xstrdup(strcmp(parent, "root") ? parent : name);
}

static int insert_account(dbd_req_t *r, const char *name, const char *parent)
{
	const char *desc = dbd_kv_get(r->req->set, "description");
	const char *org = dbd_kv_get(r->req->set, "organization");
	char *def_org = org ? NULL : default_org(name, parent);
	char *sql = xstrdup("INSERT INTO acct_table (name, description, "
			    "organization, creation_time, mod_time) VALUES (");
	int rc;

	dbd_db_quote(r->db, &sql, name);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, desc ? desc : name);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, org ? org : def_org);
	xstrfmtcat(&sql, ", %ld, %ld) ON DUPLICATE KEY UPDATE deleted=0, "
		   "description=VALUES(description), "
		   "organization=VALUES(organization), "
		   "mod_time=VALUES(mod_time)", (long)r->now, (long)r->now);
	rc = dbd_db_exec(r->db, sql);
	if (rc < 0)
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	xfree(sql);
	xfree(def_org);
	return rc;
}

static int add_account(dbd_req_t *r, const char *name, const char *parent,
		       char **clusters)
{
	int rc = exists(r, "acct_table", "name", name);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (insert_account(r, name, parent) < 0)
			return -1;
		dbd_req_change(r, "account", name, NULL, NULL, NULL);
	}
	for (size_t i = 0; clusters[i]; i++) {
		rc = assoc_exists(r, clusters[i], name, "");
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		if (insert_assoc(r, clusters[i], name, "", parent) < 0)
			return -1;
		dbd_req_change(r, "assoc", parent, clusters[i], name, NULL);
	}
	return 0;
}

/* The clusters where parent has an association; the others are
 * reported.  NULL (failed) when there is none. */
static char **parent_clusters(dbd_req_t *r, const char *parent,
			      char **clusters)
{
	char **ok = NULL;

	for (size_t i = 0; clusters[i]; i++) {
		int rc = assoc_exists(r, clusters[i], parent, "");

		if (rc < 0) {
			xstrarray_free(ok);
			return NULL;
		}
		if (rc > 0)
			ok = xstrarray_append(ok, clusters[i]);
		else
			dbd_req_warn(r, " Parent account '%s' doesn't exist on "
				     "cluster %s\n        Contact your admin to "
				     "add this account.", parent, clusters[i]);
	}
	if (!ok)
		dbd_req_fail_warned(r, " No associations created.");
	return ok;
}

/* ---- users ---- */

static int insert_user(dbd_req_t *r, const char *name, const char *def_acct)
{
	const char *admin = dbd_kv_get(r->req->set, "adminlevel");
	int level = admin ? dbd_acct_admin_parse(admin) : DBD_ADMIN_NONE;
	char *sql;
	int rc;

	if (level < 0)
		return dbd_req_fail(r, SLURM_ERROR, " Unknown AdminLevel: %s",
				    admin);
	sql = xstrdup("INSERT INTO user_table (name, admin_level, "
		      "default_acct, creation_time, mod_time) VALUES (");
	dbd_db_quote(r->db, &sql, name);
	xstrfmtcat(&sql, ", %d, ", level);
	dbd_db_quote(r->db, &sql, def_acct);
	xstrfmtcat(&sql, ", %ld, %ld) ON DUPLICATE KEY UPDATE deleted=0, "
		   "admin_level=VALUES(admin_level), "
		   "default_acct=VALUES(default_acct), "
		   "mod_time=VALUES(mod_time)", (long)r->now, (long)r->now);
	rc = dbd_db_exec(r->db, sql);
	if (rc < 0)
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	xfree(sql);
	return rc;
}

/* Every account must exist; the (cluster, account) pairs where it has
 * an association are returned as "cluster\naccount" strings, the others
 * reported.  NULL (failed) when there is no pair at all. */
static char **user_pairs(dbd_req_t *r, char **accts, char **clusters)
{
	char **pairs = NULL;
	int rc = 0;

	for (size_t a = 0; accts[a] && rc >= 0; a++) {
		rc = exists(r, "acct_table", "name", accts[a]);
		if (rc == 0)
			rc = dbd_req_fail(r, SLURM_ERROR, " This account '%s' "
				"doesn't exist.\n        Contact your admin to "
				"add this account.\n No associations or wckeys "
				"created.", accts[a]);
	}
	for (size_t c = 0; rc >= 0 && clusters[c]; c++) {
		for (size_t a = 0; rc >= 0 && accts[a]; a++) {
			rc = assoc_exists(r, clusters[c], accts[a], "");
			if (rc > 0) {
				char *p = xstrdup_printf("%s\n%s", clusters[c],
							 accts[a]);

				pairs = xstrarray_append(pairs, p);
				xfree(p);
			} else if (rc == 0) {
				dbd_req_warn(r, " This account '%s' doesn't "
					"exist on cluster %s\n        Contact "
					"your admin to add this account.",
					accts[a], clusters[c]);
			}
		}
	}
	if (rc >= 0 && !pairs)
		dbd_req_fail_warned(r, " No associations or wckeys created.");
	if (rc < 0 || !pairs) {
		xstrarray_free(pairs);
		return NULL;
	}
	return pairs;
}

static int add_user(dbd_req_t *r, const char *name, char **pairs,
		    const char *def_acct)
{
	int rc = exists(r, "user_table", "name", name);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		if (insert_user(r, name, def_acct) < 0)
			return -1;
		dbd_req_change(r, "user", name, NULL, NULL, NULL);
	}
	for (size_t i = 0; pairs[i]; i++) {
		char *cluster = pairs[i], *acct = strchr(pairs[i], '\n') + 1;

		acct[-1] = '\0';
		rc = assoc_exists(r, cluster, acct, name);
		if (rc == 0 && insert_assoc(r, cluster, acct, name, acct) == 0)
			dbd_req_change(r, "assoc", NULL, cluster, acct, name);
		else if (rc == 0)
			rc = -1;
		acct[-1] = '\n';
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int add_users(dbd_req_t *r, char **names, char **clusters)
{
	char **accts = dbd_kv_list(r->req->set, "account");
	char *def = xstrdup(dbd_kv_get(r->req->set, "defaultaccount"));
	char **pairs = NULL;
	int rc = -1;

	xstrtolower(def);
	if (!accts && def)
		accts = xstrarray_append(NULL, def);
	if (!accts) {
		dbd_req_fail(r, SLURM_ERROR,
			     " Need name of account to add user to.");
		goto out;
	}
	if (!def)
		def = xstrdup(accts[0]);
	pairs = user_pairs(r, accts, clusters);
	if (!pairs)
		goto out;
	rc = 0;
	for (size_t i = 0; names[i] && rc == 0; i++)
		rc = add_user(r, names[i], pairs, def);
out:
	xstrarray_free(accts);
	xstrarray_free(pairs);
	xfree(def);
	return rc;
}

/* ---- QOS ---- */

static int add_qos(dbd_req_t *r, const char *name)
{
	const dbd_entity_desc_t *e = dbd_entity_find(DBD_ENT_QOS);
	char *cols = NULL, *vals = NULL, *update = NULL, *sql;
	int rc = exists(r, "qos_table", "name", name);

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (!dbd_kv_get(r->req->set, "description")) {
		cols = xstrdup(", description");
		vals = xstrdup(", ");
		dbd_db_quote(r->db, &vals, name);
		update = xstrdup(", description=VALUES(description)");
	}
	for (const dbd_setting_t *s = e->sets; s->key; s++) {
		const char *v = setting_value(r, e, s);

		if (!v || !first_of_column(e, s))
			continue;
		xstrfmtcat(&cols, ", `%s`", s->column);
		xstrcat(&vals, ", ");
		xstrfmtcat(&update, ", `%s`=VALUES(`%s`)", s->column,
			   s->column);
		if (dbd_req_set_value(r, s, v, &vals) < 0) {
			rc = -1;
			goto out;
		}
	}
	sql = xstrdup_printf("INSERT INTO qos_table (name, creation_time, "
			     "mod_time%s) VALUES (", cols);
	dbd_db_quote(r->db, &sql, name);
	xstrfmtcat(&sql, ", %ld, %ld%s) ON DUPLICATE KEY UPDATE deleted=0, "
		   "mod_time=VALUES(mod_time)%s", (long)r->now, (long)r->now,
		   vals, update);
	rc = dbd_db_exec(r->db, sql);
	xfree(sql);
	if (rc < 0)
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	else
		dbd_req_change(r, "qos", name, NULL, NULL, NULL);
out:
	xfree(cols);
	xfree(vals);
	xfree(update);
	return rc;
}

/* ---- coordinators ---- */

static int add_coord(dbd_req_t *r, const char *user, const char *acct)
{
	char *sql = xstrdup("SELECT 1 FROM coord_table WHERE deleted=0 AND "
			    "user_name=");
	int rc;

	dbd_db_quote(r->db, &sql, user);
	xstrcat(&sql, " AND acct=");
	dbd_db_quote(r->db, &sql, acct);
	rc = dbd_req_exists(r, sql);
	xfree(sql);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	sql = xstrdup("INSERT INTO coord_table (user_name, acct, "
		      "creation_time, mod_time) VALUES (");
	dbd_db_quote(r->db, &sql, user);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, acct);
	xstrfmtcat(&sql, ", %ld, %ld) ON DUPLICATE KEY UPDATE deleted=0, "
		   "mod_time=VALUES(mod_time)", (long)r->now, (long)r->now);
	rc = dbd_db_exec(r->db, sql);
	xfree(sql);
	if (rc < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	dbd_req_change(r, "coord", user, NULL, acct, user);
	return 0;
}

/* "add coordinator account=a,b names=u,v": every user and account must
 * exist. */
static int add_coords(dbd_req_t *r, char **names)
{
	char **accts = dbd_kv_list(r->req->set, "account");
	int rc = 0;

	if (!accts)
		return dbd_req_fail(r, SLURM_ERROR, " You need to specify an "
				    "account list here.");
	for (size_t i = 0; names[i] && rc >= 0; i++) {
		rc = exists(r, "user_table", "name", names[i]);
		if (rc == 0)
			rc = dbd_req_fail(r, SLURM_ERROR, " You specified a "
					  "non-existent user '%s'.", names[i]);
	}
	for (size_t i = 0; accts[i] && rc >= 0; i++) {
		rc = exists(r, "acct_table", "name", accts[i]);
		if (rc == 0)
			rc = dbd_req_fail(r, SLURM_ERROR, " You specified a "
					  "non-existent account '%s'.", accts[i]);
	}
	for (size_t u = 0; names[u] && rc >= 0; u++)
		for (size_t a = 0; accts[a] && rc >= 0; a++)
			rc = add_coord(r, names[u], accts[a]);
	xstrarray_free(accts);
	return rc < 0 ? -1 : 0;
}

/* ---- entry ---- */

static int add_accounts(dbd_req_t *r, char **names, char **clusters)
{
	char *parent = xstrdup(dbd_kv_get(r->req->set, "parent"));
	char **ok;
	int rc = -1;

	xstrtolower(parent);
	if (!parent)
		parent = xstrdup("root");
	ok = parent_clusters(r, parent, clusters);
	if (ok) {
		rc = 0;
		for (size_t i = 0; names[i] && rc == 0; i++)
			rc = add_account(r, names[i], parent, ok);
	}
	xstrarray_free(ok);
	xfree(parent);
	return rc;
}

int dbd_acct_add(dbd_req_t *r)
{
	const dbd_entity_desc_t *e = dbd_entity_find(r->req->entity);
	char **names = NULL, **clusters = NULL;
	int rc = -1;

	if (e->entity == DBD_ENT_ASSOC)
		return dbd_req_fail(r, SLURM_ERROR,
				    " Associations are added with 'add "
				    "account' or 'add user'");
	if (check_request(r, e) < 0)
		return -1;
	names = names_of(r);
	if (e->entity == DBD_ENT_COORD) {
		rc = add_coords(r, names);
		goto out;
	}
	if (e->entity == DBD_ENT_CLUSTER || e->entity == DBD_ENT_QOS) {
		rc = 0;
		for (size_t i = 0; names[i] && rc == 0; i++)
			rc = e->entity == DBD_ENT_QOS ?
				add_qos(r, names[i]) : add_cluster(r, names[i]);
		goto out;
	}
	clusters = clusters_of(r);
	if (!clusters)
		goto out;
	if (e->entity == DBD_ENT_ACCOUNT)
		rc = add_accounts(r, names, clusters);
	else
		rc = add_users(r, names, clusters);
out:
	xstrarray_free(names);
	xstrarray_free(clusters);
	return rc;
}
