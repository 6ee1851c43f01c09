/* dbd_acct_ext.c — the entities beyond the association tree: wckeys,
 * resources (remote licenses: a count on a license server and each
 * cluster's share of it), transactions (every committed change, who made
 * it and what it set) and job records (modify job: DerivedExitCode and
 * Comment, as sjobexitmod uses them). */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_acct_ext.h"
#include "dbd/dbd_private.h"
#include "dbd/dbd_rollup.h"
#include "slurm/slurm_errno.h"

#define NAME_MAX_LEN 64

/* ---- the entities ---- */

static const dbd_col_t wckey_cols[] = {
	{ "wckey", "t.name" }, { "cluster", "t.cluster" },
	{ "user", "t.user_name" }, { "id", "t.id" },
	{ "isdef", "t.is_def" }, { NULL, NULL }
};
static const dbd_cond_t wckey_conds[] = {
	{ "name", "t.name IN (%s)" }, { "wckey", "t.name IN (%s)" },
	{ "cluster", "t.cluster IN (%s)" }, { "user", "t.user_name IN (%s)" },
	{ "id", "t.id IN (%s)" }, { NULL, NULL }
};
static const dbd_setting_t no_sets[] = { { NULL } };

/* A cluster's share of a resource, in percent of its count. */
#define RES_PCT "IF(c.allowed IS NULL, c.percent_allowed, " \
	"c.allowed * 100 DIV GREATEST(t.count, 1))"
static const dbd_col_t res_cols[] = {
	{ "name", "t.name" }, { "server", "t.server" },
	{ "type", "ELT(t.type, 'License')" }, { "count", "t.count" },
	{ "allocated", "(SELECT COALESCE(SUM(" RES_PCT "), 0) FROM "
		       "res_clus_table c WHERE c.res_id=t.id AND "
		       "c.deleted=0)" },
	{ "servertype", "t.manager" }, { "descr", "t.description" },
	{ "id", "t.id" }, { NULL, NULL }
};
static const dbd_cond_t res_conds[] = {
	{ "name", "t.name IN (%s)" }, { "server", "t.server IN (%s)" },
	{ "servertype", "t.manager IN (%s)" }, { "id", "t.id IN (%s)" },
	{ "description", "t.description IN (%s)" },
	{ "cluster", "t.id IN (SELECT res_id FROM res_clus_table WHERE "
		     "deleted=0 AND cluster IN (%s))" },
	{ "type", "ELT(t.type, 'license') IN (%s)" },
	{ NULL, NULL }
};

static const dbd_col_t txn_cols[] = {
	{ "timestamp", "t.time_stamp" }, { "action", "t.action" },
	{ "actor", "t.actor" }, { "where", "t.name" }, { "info", "t.info" },
	{ "cluster", "t.cluster" }, { "id", "t.id" }, { NULL, NULL }
};
static const dbd_cond_t txn_conds[] = {
	{ "id", "t.id IN (%s)" }, { "actor", "t.actor IN (%s)" },
	{ "user", "t.actor IN (%s)" }, { "cluster", "t.cluster IN (%s)" },
	{ "action", "LOWER(t.action) IN (%s)" },
	{ "start", "t.time_stamp >= %s" }, { "end", "t.time_stamp <= %s" },
	{ NULL, NULL }
};

/* Listed: the records without an end (runaway candidates; sacctmgr
 * compares them with the controller's jobs). */
static const dbd_col_t job_cols[] = {
	{ "jobid", "t.id_job" }, { "name", "t.job_name" },
	{ "partition", "t.`partition`" }, { "cluster", "t.cluster" },
	{ "state", "t.state" }, { "timesubmit", "t.time_submit" },
	{ "timestart", "t.time_start" }, { "timeend", "t.time_end" },
	{ "dbinx", "t.job_db_inx" }, { NULL, NULL }
};
static const dbd_cond_t job_conds[] = {
	{ "jobid", "t.id_job IN (%s)" }, { "cluster", "t.cluster IN (%s)" },
	{ "dbinx", "t.job_db_inx IN (%s)" }, { NULL, NULL }
};

/* The TRES table (dbd_tres.h): its name is '' for a type alone. */
static const dbd_col_t tres_cols[] = {
	{ "type", "t.type" }, { "name", "t.name" }, { "id", "t.id" },
	{ NULL, NULL }
};
static const dbd_cond_t tres_conds[] = {
	{ "type", "t.type IN (%s)" }, { "name", "t.name IN (%s)" },
	{ "id", "t.id IN (%s)" }, { NULL, NULL }
};

static const dbd_entity_desc_t ext_entities[] = {
	{ DBD_ENT_WCKEY, "wckeys", "wckey_table", "wckey_table t",
	  "t.deleted=0", "t.name, t.cluster, t.user_name", "t.id", NULL,
	  wckey_cols, wckey_conds, no_sets },
	{ DBD_ENT_RESOURCE, "resources", "res_table", "res_table t",
	  "t.deleted=0", "t.name, t.server", "t.id", NULL, res_cols,
	  res_conds, no_sets },
	{ DBD_ENT_TXN, "transactions", "txn_table", "txn_table t", "1",
	  "t.id", "t.id", NULL, txn_cols, txn_conds, no_sets },
	{ DBD_ENT_JOB, "jobs", "job_table", "job_table t",
	  "t.time_end=0 AND t.state<3",
	  "t.id_job", "t.job_db_inx", NULL, job_cols, job_conds, no_sets },
	{ DBD_ENT_TRES, "tres", "tres_table", "tres_table t", "t.deleted=0",
	  "t.id", "t.id", NULL, tres_cols, tres_conds, no_sets },
};

const dbd_entity_desc_t *dbd_acct_ext_find(uint16_t entity)
{
	for (size_t i = 0; i < sizeof(ext_entities) / sizeof(*ext_entities);
	     i++)
		if (ext_entities[i].entity == entity)
			return &ext_entities[i];
	return NULL;
}

/* show resource withclusters: one row per (resource, cluster). */
static const dbd_col_t res_clus_cols[] = {
	{ "cluster", "c.cluster" }, { "pctallowed", RES_PCT },
	{ "clustercount", "IF(c.allowed IS NULL, t.count * c.percent_allowed "
			  "DIV 100, c.allowed)" },
	{ NULL, NULL }
};
static const dbd_cond_t res_clus_conds[] = {
	{ "cluster", "c.cluster IN (%s)" }, { NULL, NULL }
};

bool dbd_acct_ext_with(const dbd_req_t *r, const char **from,
		       const char **order, const dbd_col_t **cols,
		       const dbd_cond_t **conds)
{
	if (r->req->entity != DBD_ENT_RESOURCE)
		return false;
	*from = "res_table t LEFT JOIN res_clus_table c ON c.res_id=t.id AND "
		"c.deleted=0";
	*order = "t.name, t.server, c.cluster";
	*cols = res_clus_cols;
	*conds = res_clus_conds;
	return true;
}

/* ---- helpers ---- */

static const char *kv(const dbd_req_t *r, const char *key)
{
	return dbd_kv_get(r->req->set, key);
}

static bool name_ok(const char *s)
{
	return s && *s && strlen(s) <= NAME_MAX_LEN &&
	       !strpbrk(s, " ,'\"=`\\@");
}

/* Only these "set" keys (add and modify). */
static int check_keys(dbd_req_t *r, const char *const *known)
{
	for (size_t i = 0; r->req->set && r->req->set[i]; i++) {
		const char *k = r->req->set[i];
		size_t n = strcspn(k, "=");
		bool ok = false;

		for (size_t j = 0; known[j] && !ok; j++)
			ok = strlen(known[j]) == n && !strncmp(known[j], k, n);
		if (!ok)
			return dbd_req_fail(r, SLURM_ERROR,
					    " Unknown option: %s", k);
	}
	return 0;
}

static int exec(dbd_req_t *r, const char *sql)
{
	if (dbd_db_exec(r->db, sql) < 0)
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	return 0;
}

static char **live_clusters(dbd_req_t *r)
{
	dbd_rows_t rows;
	char **out = NULL;

	if (dbd_db_select(r->db, "SELECT name FROM cluster_table WHERE "
			  "deleted=0 ORDER BY name", &rows) < 0)
		return NULL;
	for (uint32_t i = 0; i < rows.rows; i++)
		out = xstrarray_append(out, dbd_rows_get(&rows, i, 0));
	dbd_rows_free(&rows);
	return out;
}

/* Every name of list must exist in table (live rows). */
static int check_exist(dbd_req_t *r, const char *table, char *const *list,
		       const char *what)
{
	for (size_t i = 0; list && list[i]; i++) {
		char *sql = xstrdup_printf("SELECT 1 FROM %s WHERE deleted=0 "
					   "AND name=", table);
		int found;

		dbd_db_quote(r->db, &sql, list[i]);
		found = dbd_req_exists(r, sql);
		xfree(sql);
		if (found < 0)
			return -1;
		if (!found)
			return dbd_req_fail(r, SLURM_ERROR, " %s %s doesn't "
					    "exist.", what, list[i]);
	}
	return 0;
}

/* ---- wckeys ---- */

/* Has user a default wckey on cluster?  1, 0, or -1 (failed). */
static int has_default(dbd_req_t *r, const char *cluster, const char *user)
{
	char *sql = xstrdup("SELECT COUNT(*) FROM wckey_table WHERE "
			    "deleted=0 AND is_def=1 AND cluster=");
	dbd_rows_t rows;
	int rc;

	dbd_db_quote(r->db, &sql, cluster);
	xstrcat(&sql, " AND user_name=");
	dbd_db_quote(r->db, &sql, user);
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		xfree(sql);
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		return -1;
	}
	xfree(sql);
	rc = strtoul(dbd_rows_get(&rows, 0, 0), NULL, 10) > 0;
	dbd_rows_free(&rows);
	return rc;
}

static int wckey_add(dbd_req_t *r)
{
	static const char *const keys[] = { "user", "cluster", NULL };
	char **users = dbd_kv_list(r->req->set, "user");
	char **clusters = dbd_kv_list(r->req->set, "cluster");
	int rc = -1;

	if (check_keys(r, keys) < 0)
		goto out;
	if (!users) {
		dbd_req_fail(r, SLURM_ERROR, " Need name of user to add "
			     "wckeys to.");
		goto out;
	}
	if (!clusters)
		clusters = live_clusters(r);
	if (check_exist(r, "user_table", users, "User") < 0 ||
	    check_exist(r, "cluster_table", clusters, "Cluster") < 0)
		goto out;
	rc = 0;
	for (size_t n = 0; r->req->names[n] && !rc; n++)
	for (size_t c = 0; clusters && clusters[c] && !rc; c++)
	for (size_t u = 0; users[u] && !rc; u++) {
		char *sql = xstrdup("INSERT INTO wckey_table (name, cluster, "
				    "user_name, creation_time, mod_time, "
				    "is_def) VALUES (");
		/* a user's first wckey on a cluster is its default */
		int def = has_default(r, clusters[c], users[u]);

		if (def < 0) {
			xfree(sql);
			rc = -1;
			break;
		}
		dbd_db_quote(r->db, &sql, r->req->names[n]);
		xstrcatc(&sql, ',');
		dbd_db_quote(r->db, &sql, clusters[c]);
		xstrcatc(&sql, ',');
		dbd_db_quote(r->db, &sql, users[u]);
		xstrfmtcat(&sql, ",%ld,%ld,%d) ON DUPLICATE KEY UPDATE "
			   "mod_time=IF(deleted=1,VALUES(mod_time),mod_time), "
			   "is_def=IF(deleted=1,VALUES(is_def),is_def), "
			   "deleted=0", (long)r->now, (long)r->now, !def);
		rc = exec(r, sql);
		/* 1 row: inserted; 2: brought back; 0: already there */
		if (!rc && dbd_db_affected(r->db) > 0)
			dbd_req_change(r, "wckey", r->req->names[n],
				       clusters[c], NULL, users[u]);
		xfree(sql);
	}
out:
	xstrarray_free(users);
	xstrarray_free(clusters);
	return rc;
}

static int wckey_delete(dbd_req_t *r, const dbd_entity_desc_t *e)
{
	char *sql = xstrdup("SELECT t.id, t.name, t.cluster, t.user_name "
			    "FROM wckey_table t WHERE t.deleted=0");
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
	for (uint32_t i = 0; i < rows.rows && !rc; i++) {
		char *u = xstrdup_printf("UPDATE wckey_table SET deleted=1, "
					 "is_def=0, mod_time=%ld WHERE id=%s",
					 (long)r->now,
					 dbd_rows_get(&rows, i, 0));

		rc = exec(r, u);
		xfree(u);
		if (!rc)
			dbd_req_change(r, "wckey", dbd_rows_get(&rows, i, 1),
				       dbd_rows_get(&rows, i, 2), NULL,
				       dbd_rows_get(&rows, i, 3));
	}
	dbd_rows_free(&rows);
out:
	xfree(sql);
	return rc;
}

/* ---- resources ---- */

static const char *const res_keys[] = {
	"server", "count", "type", "servertype", "description", "cluster",
	"percentallowed", "allowed", "flags", NULL
};

/* PercentAllowed= / Allowed= for res_clus_table: "percent_allowed=N,
 * allowed=NULL" or "allowed=N"; NULL (and *sql untouched) if neither. */
static int share_sets(dbd_req_t *r, char **sql)
{
	const char *pct = kv(r, "percentallowed"), *abs = kv(r, "allowed");
	uint32_t n;

	if (pct && abs)
		return dbd_req_fail(r, SLURM_ERROR, " PercentAllowed and "
				    "Allowed can not both be given");
	if (pct) {
		if (parse_u32(pct, &n) < 0 || n > 100)
			return dbd_req_fail(r, SLURM_ERROR, " Invalid "
					    "PercentAllowed: %s (0-100)", pct);
		xstrfmtcat(sql, "percent_allowed=%u, allowed=NULL", n);
	} else if (abs) {
		if (parse_u32(abs, &n) < 0)
			return dbd_req_fail(r, SLURM_ERROR, " Invalid Allowed:"
					    " %s", abs);
		xstrfmtcat(sql, "percent_allowed=0, allowed=%u", n);
	}
	return 0;
}

/* No cluster may be given more than the whole count (in percent, the
 * shares of all clusters together at most 100). */
static int res_check_total(dbd_req_t *r, const char *res_id)
{
	char *sql = xstrdup_printf(
		"SELECT t.name, t.server FROM res_table t WHERE t.id=%s AND "
		"(SELECT COALESCE(SUM(" RES_PCT "), 0) FROM res_clus_table c "
		"WHERE c.res_id=t.id AND c.deleted=0) > 100", res_id);
	dbd_rows_t rows;
	int rc = 0;

	if (dbd_db_select(r->db, sql, &rows) < 0) {
		xfree(sql);
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	}
	if (rows.rows)
		rc = dbd_req_fail(r, SLURM_ERROR, " Invalid value: the "
				  "clusters of %s@%s would be allowed more "
				  "than 100%% of it", dbd_rows_get(&rows, 0, 0),
				  dbd_rows_get(&rows, 0, 1));
	dbd_rows_free(&rows);
	xfree(sql);
	return rc;
}

/* The id of name@server (live), "" if none, NULL on error. */
static char *res_id(dbd_req_t *r, const char *name, const char *server)
{
	char *sql = xstrdup("SELECT id FROM res_table WHERE deleted=0 AND "
			    "name="), *id = NULL;
	dbd_rows_t rows;

	dbd_db_quote(r->db, &sql, name);
	xstrcat(&sql, " AND server=");
	dbd_db_quote(r->db, &sql, server);
	if (dbd_db_select(r->db, sql, &rows) == 0) {
		id = xstrdup(rows.rows ? dbd_rows_get(&rows, 0, 0) : "");
		dbd_rows_free(&rows);
	} else {
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	}
	xfree(sql);
	return id;
}

static int res_add_clusters(dbd_req_t *r, const char *id, const char *name,
			    char **clusters)
{
	char *share = NULL;
	int rc = share_sets(r, &share);

	for (size_t c = 0; clusters && clusters[c] && !rc; c++) {
		char *sql = xstrdup_printf("INSERT INTO res_clus_table "
					   "(res_id, cluster, creation_time, "
					   "mod_time) VALUES (%s,", id);

		dbd_db_quote(r->db, &sql, clusters[c]);
		xstrfmtcat(&sql, ",%ld,%ld) ON DUPLICATE KEY UPDATE "
			   "deleted=0, mod_time=VALUES(mod_time)",
			   (long)r->now, (long)r->now);
		if (share)
			xstrfmtcat(&sql, ", %s", share);
		else
			xstrcat(&sql, ", percent_allowed=0, allowed=NULL");
		rc = exec(r, sql);
		if (!rc)
			dbd_req_change(r, "rescluster", name, clusters[c],
				       NULL, NULL);
		xfree(sql);
		if (!rc && share) {
			sql = xstrdup_printf("UPDATE res_clus_table SET %s "
					     "WHERE res_id=%s AND cluster=",
					     share, id);
			dbd_db_quote(r->db, &sql, clusters[c]);
			rc = exec(r, sql);
			xfree(sql);
		}
	}
	xfree(share);
	return rc ? rc : res_check_total(r, id);
}

static int res_add_one(dbd_req_t *r, const char *name, const char *server,
		       char **clusters)
{
	const char *count = kv(r, "count"), *type = kv(r, "type");
	const char *mgr = kv(r, "servertype"), *descr = kv(r, "description");
	char *id = res_id(r, name, server), *full, *sql;
	uint32_t n = 0;
	int rc = 0;

	if (!id)
		return -1;
	full = xstrdup_printf("%s@%s", name, server);
	if (!*id) {
		if (!type)
			rc = dbd_req_fail(r, SLURM_ERROR, " Need to designate "
					  "a resource type to initially add "
					  "'%s'.", name);
		else if (strcasecmp(type, "license"))
			rc = dbd_req_fail(r, SLURM_ERROR, " Unknown resource "
					  "type: '%s'.  Valid resources is "
					  "'License'.", type);
		else if (!count || parse_u32(count, &n) < 0)
			rc = dbd_req_fail(r, SLURM_ERROR, " Need a valid "
					  "Count to initially add '%s'.",
					  name);
		if (rc)
			goto out;
		sql = xstrdup("INSERT INTO res_table (name, server, type, "
			      "count, manager, description, creation_time, "
			      "mod_time) VALUES (");
		dbd_db_quote(r->db, &sql, name);
		xstrcatc(&sql, ',');
		dbd_db_quote(r->db, &sql, server);
		xstrfmtcat(&sql, ",1,%u,", n);
		dbd_db_quote(r->db, &sql, mgr ? mgr : "");
		xstrcatc(&sql, ',');
		dbd_db_quote(r->db, &sql, descr ? descr : name);
		xstrfmtcat(&sql, ",%ld,%ld) ON DUPLICATE KEY UPDATE deleted=0,"
			   " type=1, count=VALUES(count), manager=VALUES("
			   "manager), description=VALUES(description), "
			   "mod_time=VALUES(mod_time)", (long)r->now,
			   (long)r->now);
		rc = exec(r, sql);
		xfree(sql);
		if (rc)
			goto out;
		/* the old rows of a resource deleted and added again */
		sql = xstrdup_printf("UPDATE res_clus_table c JOIN res_table t "
				     "ON t.id=c.res_id SET c.deleted=1 WHERE "
				     "t.deleted=0 AND t.name=");
		dbd_db_quote(r->db, &sql, name);
		xstrcat(&sql, " AND t.server=");
		dbd_db_quote(r->db, &sql, server);
		rc = exec(r, sql);
		xfree(sql);
		xfree(id);
		if (rc || !(id = res_id(r, name, server)))
			goto out;
		dbd_req_change(r, "resource", full, NULL, NULL, NULL);
	} else if (!clusters) {
		goto out;                /* there already: nothing new */
	}
	rc = res_add_clusters(r, id, full, clusters);
out:
	xfree(full);
	xfree(id);
	return rc;
}

static int res_add(dbd_req_t *r)
{
	const char *server = kv(r, "server");
	char **clusters = dbd_kv_list(r->req->set, "cluster");
	int rc = check_keys(r, res_keys);

	if (!rc && server && !name_ok(server))
		rc = dbd_req_fail(r, SLURM_ERROR, " Invalid server: %s",
				  server);
	if (!rc)
		rc = check_exist(r, "cluster_table", clusters, "Cluster");
	for (size_t i = 0; r->req->names[i] && !rc; i++) {
		char *name = xstrdup(r->req->names[i]);
		char *at = strchr(name, '@');

		if (at)
			*at++ = '\0';
		if (!name_ok(name) || (at && !name_ok(at)))
			rc = dbd_req_fail(r, SLURM_ERROR, " Invalid name: %s",
					  r->req->names[i]);
		else
			rc = res_add_one(r, name, at ? at : server ? server :
					 "slurmdb", clusters);
		xfree(name);
	}
	xstrarray_free(clusters);
	return rc;
}

/* The matched resources: rows of (id, name@server). */
static int res_match(dbd_req_t *r, const dbd_entity_desc_t *e,
		     dbd_rows_t *rows)
{
	char *sql = xstrdup_printf("SELECT t.id, CONCAT(t.name, '@', "
				   "t.server) FROM res_table t WHERE "
				   "t.deleted=0");
	int rc = 0;

	if (!r->req->where || !r->req->where[0])
		rc = dbd_req_fail(r, SLURM_ERROR, " No conditions given");
	else if (dbd_req_where_sql(r, e, &sql) < 0)
		rc = -1;
	else if (dbd_db_select(r->db, sql, rows) < 0)
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	xfree(sql);
	return rc;
}

/* The res_clus_table rows of resource id a where's cluster= names (all
 * of its clusters without one). */
static char *clus_match(dbd_req_t *r, const char *id)
{
	char **cl = dbd_kv_list(r->req->where, "cluster");
	char *q = cl ? dbd_req_quoted(r, cl) : NULL;
	char *m = xstrdup_printf("res_id=%s AND deleted=0", id);

	if (q)
		xstrfmtcat(&m, " AND cluster IN (%s)", q);
	xfree(q);
	xstrarray_free(cl);
	return m;
}

/* Each matched cluster row, reported as a change. */
static int clus_report(dbd_req_t *r, const char *match, const char *name)
{
	char *sql = xstrdup_printf("SELECT cluster FROM res_clus_table WHERE "
				   "%s ORDER BY cluster", match);
	dbd_rows_t rows;

	if (dbd_db_select(r->db, sql, &rows) < 0) {
		xfree(sql);
		return dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	}
	for (uint32_t i = 0; i < rows.rows; i++)
		dbd_req_change(r, "rescluster", name,
			       dbd_rows_get(&rows, i, 0), NULL, NULL);
	dbd_rows_free(&rows);
	xfree(sql);
	return 0;
}

static int res_modify(dbd_req_t *r, const dbd_entity_desc_t *e)
{
	static const char *const keys[] = {
		"count", "servertype", "description", "percentallowed",
		"allowed", "flags", NULL
	};
	const char *count = kv(r, "count"), *mgr = kv(r, "servertype");
	const char *descr = kv(r, "description");
	char *main = NULL, *share = NULL;
	dbd_rows_t rows = { 0 };
	uint32_t n;
	int rc = check_keys(r, keys);

	if (!rc && (!r->req->set || !r->req->set[0]))
		rc = dbd_req_fail(r, SLURM_ERROR, " You didn't give me "
				  "anything to set");
	if (!rc && count && parse_u32(count, &n) < 0)
		rc = dbd_req_fail(r, SLURM_ERROR, " Invalid Count: %s", count);
	if (!rc && count)
		xstrfmtcat(&main, "count=%u", n);
	if (!rc && mgr) {
		xstrfmtcat(&main, "%smanager=", main ? ", " : "");
		dbd_db_quote(r->db, &main, mgr);
	}
	if (!rc && descr) {
		xstrfmtcat(&main, "%sdescription=", main ? ", " : "");
		dbd_db_quote(r->db, &main, descr);
	}
	if (!rc)
		rc = share_sets(r, &share);
	if (!rc)
		rc = res_match(r, e, &rows);
	for (uint32_t i = 0; !rc && i < rows.rows; i++) {
		const char *id = dbd_rows_get(&rows, i, 0);
		const char *name = dbd_rows_get(&rows, i, 1);
		char *sql;

		if (main) {
			sql = xstrdup_printf("UPDATE res_table SET %s, "
					     "mod_time=%ld WHERE id=%s", main,
					     (long)r->now, id);
			rc = exec(r, sql);
			xfree(sql);
			if (!rc)
				dbd_req_change(r, "resource", name, NULL,
					       NULL, NULL);
		}
		if (!rc && share) {
			char *m = clus_match(r, id);

			rc = clus_report(r, m, name);
			sql = xstrdup_printf("UPDATE res_clus_table SET %s, "
					     "mod_time=%ld WHERE %s", share,
					     (long)r->now, m);
			if (!rc)
				rc = exec(r, sql);
			xfree(sql);
			xfree(m);
		}
		if (!rc)
			rc = res_check_total(r, id);
	}
	dbd_rows_free(&rows);
	xfree(main);
	xfree(share);
	return rc;
}

static int res_delete(dbd_req_t *r, const dbd_entity_desc_t *e)
{
	bool by_cluster = dbd_kv_get(r->req->where, "cluster") != NULL;
	dbd_rows_t rows = { 0 };
	int rc = res_match(r, e, &rows);

	for (uint32_t i = 0; !rc && i < rows.rows; i++) {
		const char *id = dbd_rows_get(&rows, i, 0);
		const char *name = dbd_rows_get(&rows, i, 1);
		char *m = clus_match(r, id), *sql;

		if (!by_cluster)
			dbd_req_change(r, "resource", name, NULL, NULL, NULL);
		rc = clus_report(r, m, name);
		sql = xstrdup_printf("UPDATE res_clus_table SET deleted=1, "
				     "mod_time=%ld WHERE %s", (long)r->now, m);
		if (!rc)
			rc = exec(r, sql);
		xfree(sql);
		if (!rc && !by_cluster) {
			sql = xstrdup_printf("UPDATE res_table SET deleted=1, "
					     "mod_time=%ld WHERE id=%s",
					     (long)r->now, id);
			rc = exec(r, sql);
			xfree(sql);
		}
		xfree(m);
	}
	dbd_rows_free(&rows);
	return rc;
}

/* ---- jobs ---- */

/* Runaway jobs (records of jobs the controller no longer has): ended
 * at the latest of their start, eligible and submit times, COMPLETED;
 * usage rolled up again from the earliest submit.  Operators and
 * administrators only (checked by the caller). */
static int job_fix_runaway(dbd_req_t *r, const dbd_entity_desc_t *e)
{
	char *sql = xstrdup("SELECT t.job_db_inx, t.id_job, t.time_submit, "
			    "t.cluster FROM job_table t WHERE t.time_end=0 "
			    "AND t.state<3"), *inx = NULL;
	dbd_rows_t rows = { 0 };
	int rc = -1;

	if (!dbd_kv_get(r->req->where, "dbinx") ||
	    dbd_req_where_sql(r, e, &sql) < 0) {
		if (!r->resp->rc)
			dbd_req_fail(r, SLURM_ERROR, " No runaway jobs given");
		goto out;
	}
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		goto out;
	}
	rc = 0;
	for (uint32_t i = 0; i < rows.rows; i++) {
		xstrfmtcat(&inx, "%s%s", i ? "," : "", dbd_rows_get(&rows, i, 0));
		dbd_req_change(r, "job", dbd_rows_get(&rows, i, 1),
			       dbd_rows_get(&rows, i, 3),
			       dbd_rows_get(&rows, i, 2), NULL);
	}
	if (!inx)
		goto out;
	xfree(sql);
	sql = xstrdup_printf("UPDATE job_table SET time_end=GREATEST("
			     "time_start, time_eligible, time_submit), "
			     "state=%d, mod_time=%ld WHERE job_db_inx IN (%s)",
			     3, (long)r->now, inx);
	rc = exec(r, sql);
	xfree(sql);
	sql = xstrdup_printf("UPDATE step_table s JOIN job_table j ON "
			     "j.job_db_inx=s.job_db_inx SET s.time_end="
			     "GREATEST(s.time_start, j.time_end), s.state=3 "
			     "WHERE s.time_end=0 AND s.job_db_inx IN (%s)",
			     inx);
	if (!rc)
		rc = exec(r, sql);
	for (uint32_t i = 0; i < rows.rows && !rc; i++)
		if (dbd_rollup_reset(r->db, dbd_rows_get(&rows, i, 3),
				     (time_t)strtoll(dbd_rows_get(&rows, i, 2),
						     NULL, 10)) < 0)
			rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
	if (!rc)
		info("%s: uid %u fixed runaway jobs (db index %s)",
		     r->ctx->peer, (unsigned)r->ctx->uid, inx);
out:
	dbd_rows_free(&rows);
	xfree(sql);
	xfree(inx);
	return rc;
}

/* modify job where jobid=N [cluster=C] set DerivedExitCode=E Comment=T:
 * the job's owner, operators and administrators. */
static int job_modify(dbd_req_t *r, const dbd_entity_desc_t *e)
{
	static const char *const keys[] = { "derivedexitcode", "comment",
					    NULL };
	const char *dec = kv(r, "derivedexitcode"), *cmt = kv(r, "comment");
	bool admin = dbd_admin_level(r->db, r->ctx->conf, r->ctx->uid) >=
		DBD_ADMIN_OPERATOR;
	char *sql = NULL, *set = NULL;
	dbd_rows_t rows = { 0 };
	uint32_t n = 0;
	int rc;

	if (kv(r, "fixrunaway")) {
		if (!admin)
			return dbd_req_fail(r, ESLURM_ACCESS_DENIED, NULL);
		return job_fix_runaway(r, e);
	}
	if (kv(r, "admincomment"))
		return dbd_req_fail(r, SLURM_ERROR, " AdminComment is not "
				    "kept by Sluice's accounting: set "
				    "Comment or DerivedExitCode");
	rc = check_keys(r, keys);
	if (!rc && !dbd_kv_get(r->req->where, "jobid"))
		rc = dbd_req_fail(r, SLURM_ERROR, " You need to specify a "
				  "JobID (where JobID=<id>)");
	if (!rc && !dec && !cmt)
		rc = dbd_req_fail(r, SLURM_ERROR, " You didn't give me "
				  "anything to set");
	if (!rc && dec && parse_u32(dec, &n) < 0)
		rc = dbd_req_fail(r, SLURM_ERROR, " Invalid DerivedExitCode: "
				  "%s", dec);
	if (rc)
		return rc;
	if (dec)
		xstrfmtcat(&set, "derived_ec=%u", n);
	if (cmt) {
		xstrfmtcat(&set, "%scomment=", set ? ", " : "");
		dbd_db_quote(r->db, &set, cmt);
	}
	sql = xstrdup("SELECT t.job_db_inx, t.id_job, t.time_submit, "
		      "t.cluster FROM job_table t WHERE 1");
	if (dbd_req_where_sql(r, e, &sql) < 0) {
		rc = -1;
		goto out;
	}
	if (!admin)
		xstrfmtcat(&sql, " AND t.id_user=%u", (unsigned)r->ctx->uid);
	/* the latest submission of each id (a requeued job's record) */
	xstrcat(&sql, " AND t.time_submit=(SELECT MAX(x.time_submit) FROM "
		"job_table x WHERE x.cluster=t.cluster AND x.id_job=t.id_job)"
		" ORDER BY t.id_job");
	if (dbd_db_select(r->db, sql, &rows) < 0) {
		rc = dbd_req_fail(r, ESLURM_DB_CONNECTION, NULL);
		goto out;
	}
	for (uint32_t i = 0; i < rows.rows && !rc; i++) {
		char *u = xstrdup_printf("UPDATE job_table SET %s, mod_time=%ld"
					 " WHERE job_db_inx=%s", set,
					 (long)r->now,
					 dbd_rows_get(&rows, i, 0));

		rc = exec(r, u);
		xfree(u);
		if (!rc)
			dbd_req_change(r, "job", dbd_rows_get(&rows, i, 1),
				       dbd_rows_get(&rows, i, 3),
				       dbd_rows_get(&rows, i, 2), NULL);
	}
	if (!rc && !rows.rows && !admin)
		info("%s: uid %u: modify job: no job of its own matches",
		     r->ctx->peer, (unsigned)r->ctx->uid);
out:
	dbd_rows_free(&rows);
	xfree(sql);
	xfree(set);
	return rc;
}

bool dbd_acct_ext_own_perm(const dbd_acct_msg_t *req)
{
	return req->entity == DBD_ENT_JOB && req->op == DBD_OP_MODIFY;
}

int dbd_acct_ext_change(dbd_req_t *r)
{
	const dbd_entity_desc_t *e = dbd_acct_ext_find(r->req->entity);
	uint16_t op = r->req->op;

	switch (e->entity) {
	case DBD_ENT_WCKEY:
		if (op == DBD_OP_ADD)
			return wckey_add(r);
		if (op == DBD_OP_DELETE)
			return wckey_delete(r, e);
		return dbd_req_fail(r, SLURM_ERROR, " WCKeys can only be "
				    "added or removed");
	case DBD_ENT_RESOURCE:
		if (op == DBD_OP_ADD)
			return res_add(r);
		if (op == DBD_OP_MODIFY)
			return res_modify(r, e);
		return res_delete(r, e);
	case DBD_ENT_JOB:
		if (op == DBD_OP_MODIFY)
			return job_modify(r, e);
		return dbd_req_fail(r, SLURM_ERROR, " Jobs can only be "
				    "modified");
	default:
		return dbd_req_fail(r, ESLURM_ACCESS_DENIED, NULL);
	}
}

/* ---- transactions ---- */

static const char *action_word(uint16_t op)
{
	switch (op) {
	case DBD_OP_ADD:
		return "Add";
	case DBD_OP_MODIFY:
		return "Modify";
	case DBD_OP_DELETE:
		return "Remove";
	default:
		return "Load";
	}
}

static const char *entity_word(uint16_t entity)
{
	static const char *const words[] = {
		[DBD_ENT_CLUSTER] = "Clusters", [DBD_ENT_ACCOUNT] = "Accounts",
		[DBD_ENT_USER] = "Users", [DBD_ENT_QOS] = "QOS",
		[DBD_ENT_ASSOC] = "Associations",
		[DBD_ENT_COORD] = "Coordinators", [DBD_ENT_WCKEY] = "WCKeys",
		[DBD_ENT_RESOURCE] = "Resources", [DBD_ENT_JOB] = "Jobs",
	};

	if (entity < sizeof(words) / sizeof(*words) && words[entity])
		return words[entity];
	return "Files";
}

/* "k='v' && k2='a,b'" or "a,b" (names). */
static char *join_kvs(char *const *kvs, const char *sep, bool quote)
{
	char *out = NULL;

	for (size_t i = 0; kvs && kvs[i]; i++) {
		const char *eq = strchr(kvs[i], '=');

		if (i)
			xstrcat(&out, sep);
		if (quote && eq)
			xstrfmtcat(&out, "%.*s='%s'", (int)(eq - kvs[i]),
				   kvs[i], eq + 1);
		else
			xstrcat(&out, kvs[i]);
	}
	return out ? out : xstrdup("");
}

int dbd_acct_txn_record(dbd_req_t *r)
{
	const dbd_acct_msg_t *q = r->req;
	struct passwd *pw = getpwuid(r->ctx->uid);
	const char *cl = dbd_kv_get(q->where, "cluster");
	char *where, *info, *sql, *action;
	char uidbuf[16];
	int rc;

	if (!cl)
		cl = dbd_kv_get(q->set, "cluster");
	snprintf(uidbuf, sizeof(uidbuf), "%u", (unsigned)r->ctx->uid);
	action = xstrdup_printf("%s %s", action_word(q->op),
				entity_word(q->op == DBD_OP_LOAD ? 0 :
					    q->entity));
	where = q->op == DBD_OP_ADD ? join_kvs(q->names, ",", false) :
		q->op == DBD_OP_LOAD ? xstrdup_printf("%zu lines",
			xstrarray_len(q->names)) :
		join_kvs(q->where, " && ", true);
	info = q->op == DBD_OP_LOAD ? xstrdup("") :
		join_kvs(q->set, ", ", true);
	sql = xstrdup_printf("INSERT INTO txn_table (time_stamp, action, "
			     "actor, cluster, name, info) VALUES (%ld,",
			     (long)r->now);
	dbd_db_quote(r->db, &sql, action);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, pw ? pw->pw_name : uidbuf);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, cl && !strchr(cl, ',') ? cl : "");
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, where);
	xstrcatc(&sql, ',');
	dbd_db_quote(r->db, &sql, info);
	xstrcatc(&sql, ')');
	rc = dbd_db_exec(r->db, sql) < 0 ? -1 : 0;
	if (rc)
		error("%s: uid %u: unable to record the transaction (%s)",
		      r->ctx->peer, (unsigned)r->ctx->uid, action);
	xfree(sql);
	xfree(action);
	xfree(where);
	xfree(info);
	return rc;
}
