/* rest_slurmdb_acct.c — /slurmdb/v0.0.4N/ accounts, account/{name},
 * users, user/{name}, associations, association, qos, qos/{qos},
 * clusters, cluster/{name}, tres and config: slurmdbd's answer to
 * sacctmgr's list, as sacctmgr show --json prints it (the same
 * cli_sacctmgr_json() tables).  What slurmdbd's PrivateData hides from
 * the caller stays hidden: the list goes as the request's user.
 *
 * A query parameter becomes one of sacctmgr's where conditions; a flag
 * Sluice has nothing to change for is accepted, anything else refused
 * by name (nothing accepted and silently ignored).
 *
 * DELETE account/{name}, user/{name}, qos/{qos}, cluster/{name} and
 * association(s) are
 * sacctmgr -i delete: slurmdbd decides who may (403 otherwise) and
 * reports what it removed. */
#include <string.h>

#include "cli/cli_sacctmgr.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_dbd.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

/* One query parameter: the where key it becomes (NULL: no effect). */
typedef struct {
	const char *param;
	const char *where;
} param_t;

typedef struct {
	uint16_t       entity;
	const char    *what;        /* the Slurm API call, for errors */
	const param_t *params;
} list_op_t;

/* Accepted everywhere: the deprecated format, and flags whose effect
 * is Sluice's answer already (limits are an association's own; a
 * user's wckeys are listed by GET wckeys, not embedded). */
static const char *const no_effect[] = {
	"format", "without_parent_limits", "Exclude limits from parents",
	"with_wckeys",
};

/* where NULL: a flag this operation's answer honours (with_assocs and
 * WithAssociations: list_answer adds the associations) */
static const param_t account_params[] = {
	{ "description", "description" }, { "WithAssociations", NULL },
	{ "with_assocs", NULL }, { NULL, NULL }
};
static const param_t user_params[] = {
	{ "default_account", "defaultaccount" }, { "with_coords", NULL },
	{ "with_assocs", NULL }, { NULL, NULL }
};
static const param_t account_name_params[] = {
	{ "with_assocs", NULL }, { NULL, NULL }
};
static const param_t user_name_params[] = {
	{ "with_assocs", NULL }, { "with_coords", NULL }, { NULL, NULL }
};
static const param_t assoc_params[] = {
	{ "account", "account" }, { "cluster", "cluster" },
	{ "partition", "partition" }, { "user", "user" }, { "id", "id" },
	{ "parent_account", "parent" }, { NULL, NULL }
};
static const param_t qos_params[] = {
	{ "name", "name" }, { "id", "id" }, { NULL, NULL }
};
static const param_t cluster_params[] = {
	{ "cluster", "cluster" }, { NULL, NULL }
};
static const param_t wckey_params[] = {
	{ "cluster", "cluster" }, { "user", "user" }, { "name", "name" },
	{ "id", "id" }, { NULL, NULL }
};
static const param_t no_params[] = { { NULL, NULL } };

static bool no_effect_param(const char *name)
{
	for (size_t i = 0; i < sizeof(no_effect) / sizeof(no_effect[0]); i++)
		if (!strcmp(no_effect[i], name))
			return true;
	return false;
}

/* where conditions from the query; -1 after a 400 for one refused */
static int build_where(rest_req_t *r, const list_op_t *op, char ***where)
{
	for (size_t i = 0; i < r->nquery; i++) {
		const rest_kv_t *q = &r->query[i];
		const param_t *p;

		for (p = op->params; p->param; p++)
			if (!strcmp(p->param, q->name))
				break;
		if (p->param) {
			char *w;

			if (!p->where || !*q->value)
				continue;
			w = xstrdup_printf("%s=%s", p->where, q->value);
			*where = xstrarray_append(*where, w);
			xfree(w);
			continue;
		}
		if (no_effect_param(q->name))
			continue;
		rest_error(r, ESLURM_REST_INVALID_QUERY, op->what,
			   "%s: not supported by Sluice", q->name);
		return -1;
	}
	return 0;
}

/* with_assocs: each user's (account's) associations, as the caller may
 * see them. */
static void add_assocs(rest_req_t *r, const list_op_t *op, json_object *list)
{
	dbd_acct_resp_msg_t *a = NULL;

	if (rest_dbd_list(r, DBD_ENT_ASSOC, 0, NULL, &a, op->what) == 0)
		cli_sacctmgr_json_assocs(list, op->entity, a);
	rest_dbd_free(a);
}

/* Each account's coordinators (an account document always lists them). */
static void add_coords(rest_req_t *r, const list_op_t *op, json_object *list)
{
	dbd_acct_resp_msg_t *c = NULL;

	if (rest_dbd_list(r, DBD_ENT_COORD, 0, NULL, &c, op->what) == 0)
		cli_sacctmgr_json_coords(list, c);
	rest_dbd_free(c);
}

/* The list of op (with where, and name=key when key): its records under
 * their document key in r->resp (an empty list after a failure). */
static void list_answer(rest_req_t *r, const list_op_t *op,
			const char *name_key, const char *name)
{
	dbd_acct_resp_msg_t *m = NULL;
	char **where = NULL;
	const char *key = NULL;
	json_object *list = NULL, *empty;

	/* the document key, also for an answer that fails */
	empty = cli_sacctmgr_json(op->entity, &(dbd_acct_resp_msg_t){ 0 },
				  &key);
	if (build_where(r, op, &where) < 0)
		goto out;
	if (name && (!*name || strpbrk(name, ",="))) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, op->what,
			   "Invalid name %s", name);
		goto out;
	}
	if (name) {
		char *w = xstrdup_printf("%s=%s", name_key, name);

		where = xstrarray_append(where, w);
		xfree(w);
	}
	if (rest_dbd_list(r, op->entity, 0, where, &m, op->what) < 0)
		goto out;
	list = cli_sacctmgr_json(op->entity, m, &key);
	if (name && !json_object_array_length(list))
		rest_error(r, ESLURM_REST_EMPTY_RESULT, op->what,
			   "Nothing found for %s", name);
	else if (rest_query(r, "with_assocs") ||
		 rest_query(r, "WithAssociations"))
		add_assocs(r, op, list);
	if (op->entity == DBD_ENT_ACCOUNT && list &&
	    json_object_array_length(list))
		add_coords(r, op, list);
out:
	json_object_object_add(r->resp, key, list ? list :
			       json_object_get(empty));
	json_object_put(empty);
	xstrarray_free(where);
	rest_dbd_free(m);
}

static const list_op_t accounts_op = {
	DBD_ENT_ACCOUNT, "slurmdb_accounts_get", account_params };
static const list_op_t users_op = {
	DBD_ENT_USER, "slurmdb_users_get", user_params };
static const list_op_t assocs_op = {
	DBD_ENT_ASSOC, "slurmdb_associations_get", assoc_params };
static const list_op_t qos_op = {
	DBD_ENT_QOS, "slurmdb_qos_get", qos_params };
static const list_op_t clusters_op = {
	DBD_ENT_CLUSTER, "slurmdb_clusters_get", cluster_params };
static const list_op_t wckeys_op = {
	DBD_ENT_WCKEY, "slurmdb_wckeys_get", wckey_params };
static const list_op_t by_name_op[] = {
	{ DBD_ENT_ACCOUNT, "slurmdb_accounts_get", account_name_params },
	{ DBD_ENT_USER, "slurmdb_users_get", user_name_params },
	{ DBD_ENT_QOS, "slurmdb_qos_get", no_params },
	{ DBD_ENT_CLUSTER, "slurmdb_clusters_get", no_params },
	{ DBD_ENT_WCKEY, "slurmdb_wckeys_get", no_params },
};

void rest_op_dbd_accounts(rest_req_t *r)
{
	list_answer(r, &accounts_op, NULL, NULL);
}

void rest_op_dbd_account_get(rest_req_t *r)
{
	list_answer(r, &by_name_op[0], "name", r->param[0]);
}

void rest_op_dbd_users(rest_req_t *r)
{
	list_answer(r, &users_op, NULL, NULL);
}

void rest_op_dbd_user_get(rest_req_t *r)
{
	list_answer(r, &by_name_op[1], "name", r->param[0]);
}

void rest_op_dbd_assocs(rest_req_t *r)
{
	list_answer(r, &assocs_op, NULL, NULL);
}

void rest_op_dbd_qos(rest_req_t *r)
{
	list_answer(r, &qos_op, NULL, NULL);
}

void rest_op_dbd_qos_get(rest_req_t *r)
{
	list_answer(r, &by_name_op[2], "name", r->param[0]);
}

void rest_op_dbd_clusters(rest_req_t *r)
{
	list_answer(r, &clusters_op, NULL, NULL);
}

void rest_op_dbd_cluster_get(rest_req_t *r)
{
	list_answer(r, &by_name_op[3], "name", r->param[0]);
}

/* wckeys (sacctmgr show wckey): this slurmdbd's, by id for wckey/{id} */
void rest_op_dbd_wckeys(rest_req_t *r)
{
	list_answer(r, &wckeys_op, NULL, NULL);
}

void rest_op_dbd_wckey_get(rest_req_t *r)
{
	list_answer(r, &by_name_op[4], "id", r->param[0]);
}

/* slurmdbd's TRES table, registered TRES included (sacctmgr show
 * tres --json from the same rows). */
void rest_op_dbd_tres(rest_req_t *r)
{
	static const list_op_t tres_op = {
		DBD_ENT_TRES, "slurmdb_tres_get", no_params };

	list_answer(r, &tres_op, NULL, NULL);
}

/* GET config: everything at once, as sacctmgr dump would read it. */
void rest_op_dbd_config(rest_req_t *r)
{
	static const list_op_t *const ops[] = {
		&clusters_op, &accounts_op, &users_op, &qos_op, &assocs_op,
	};
	size_t nquery = r->nquery;

	r->nquery = 0;          /* config takes no parameters */
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		list_answer(r, ops[i], NULL, NULL);
	r->nquery = nquery;
	json_object_object_add(r->resp, "tres", cli_sacctmgr_tres_json());
	json_object_object_add(r->resp, "wckeys", json_object_new_array());
	json_object_object_add(r->resp, "instances", json_object_new_array());
}

/* ---- DELETE: sacctmgr -i delete, as the request's user ---- */

/* Delete entity where ...; the change rows slurmdbd sent back ((kind,
 * name, cluster, account, user) each) in *out, or -1 after an error. */
static int delete_where(rest_req_t *r, uint16_t entity, char **where,
			dbd_acct_resp_msg_t **out, const char *what)
{
	dbd_acct_msg_t req = { .op = DBD_OP_DELETE, .entity = entity,
			       .flags = DBD_ACCT_COMMIT, .where = where };

	if (rest_dbd_acct(r, &req, out, what) < 0)
		return -1;
	if (xstrarray_len((*out)->cells) < 5) {
		rest_error(r, ESLURM_REST_EMPTY_RESULT, what,
			   "Nothing deleted");
		rest_dbd_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* The names of kind among the change rows, as a string_list. */
static json_object *changed(const dbd_acct_resp_msg_t *m, const char *kind)
{
	json_object *a = json_object_new_array();
	size_t n = m ? xstrarray_len(m->cells) / 5 : 0;

	for (size_t i = 0; i < n; i++) {
		char *const *row = &m->cells[i * 5];

		if (!strcmp(row[0], kind) && strcmp(kind, "assoc"))
			json_object_array_add(a, json_object_new_string(row[1]));
		else if (!strcmp(row[0], kind)) {
			char *s = xstrdup_printf("C = %s A = %s U = %s",
						 row[2], row[3], row[4]);

			json_object_array_add(a, json_object_new_string(s));
			xfree(s);
		}
	}
	return a;
}

/* DELETE of the one record name names; its removed names under key
 * (NULL: the answer is a bare openapi_resp). */
static void delete_named(rest_req_t *r, uint16_t entity, const char *kind,
			 const char *key, const char *what)
{
	char *w = xstrdup_printf("name=%s", r->param[0]);
	char *where[2] = { w, NULL };
	dbd_acct_resp_msg_t *m = NULL;

	if (r->nquery) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, what,
			   "%s: not supported by Sluice", r->query[0].name);
	} else if (strchr(r->param[0], ',') || !*r->param[0]) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, what,
			   "Invalid name %s", r->param[0]);
	} else {
		(void)delete_where(r, entity, where, &m, what);
	}
	if (key)
		json_object_object_add(r->resp, key, changed(m, kind));
	rest_dbd_free(m);
	xfree(w);
}

void rest_op_dbd_account_delete(rest_req_t *r)
{
	delete_named(r, DBD_ENT_ACCOUNT, "account", "removed_accounts",
		     "slurmdb_accounts_remove");
}

void rest_op_dbd_user_delete(rest_req_t *r)
{
	delete_named(r, DBD_ENT_USER, "user", NULL, "slurmdb_users_remove");
}

void rest_op_dbd_cluster_delete(rest_req_t *r)
{
	delete_named(r, DBD_ENT_CLUSTER, "cluster", "deleted_clusters",
		     "slurmdb_clusters_remove");
}

void rest_op_dbd_qos_delete(rest_req_t *r)
{
	delete_named(r, DBD_ENT_QOS, "qos", "removed_qos",
		     "slurmdb_qos_remove");
}

/* DELETE association(s)?account=..&user=..: at least one filter (a
 * request without one would remove every association). */
void rest_op_dbd_assocs_delete(rest_req_t *r)
{
	static const list_op_t op = {
		DBD_ENT_ASSOC, "slurmdb_associations_remove", assoc_params };
	dbd_acct_resp_msg_t *m = NULL;
	char **where = NULL;

	if (build_where(r, &op, &where) == 0 && !where)
		rest_error(r, ESLURM_REST_INVALID_QUERY, op.what,
			   "Refusing to remove every association: give "
			   "account, cluster, partition, user, id or "
			   "parent_account");
	else if (where)
		(void)delete_where(r, DBD_ENT_ASSOC, where, &m, op.what);
	json_object_object_add(r->resp, "removed_associations",
			       changed(m, "assoc"));
	rest_dbd_free(m);
	xstrarray_free(where);
}
