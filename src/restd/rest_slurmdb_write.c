/* rest_slurmdb_write.c — POST /slurmdb/v0.0.4N/accounts, users, qos,
 * clusters, associations, tres and config: add the records that do not
 * exist, change those that do (as Slurm's API), all in one slurmdbd
 * transaction (the operations of a sacctmgr load), so a request that
 * fails anywhere changes nothing.  A load is an Administrator's
 * (slurmdbd refuses others: 403).  POST config is all of them at once,
 * as `sacctmgr load` of a dump. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/acct_flatfile.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_ctld.h"
#include "restd/rest_dbd.h"
#include "restd/rest_dbd_body.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "restd/rest_val.h"
#include "slurm/slurm_errno.h"

typedef int (*parse_f)(json_object *body, rest_dbd_rec_t **recs, size_t *n,
		       char **err);

typedef struct {
	uint16_t    entity;
	parse_f     parse;
	const char *name_col;    /* the list's name column */
	const char *what;
} post_op_t;

/* The row of the existing record called name, or -1. */
static long find_row(const dbd_acct_resp_msg_t *m, const char *col,
		     const char *name)
{
	for (size_t i = 0; m && i < rest_dbd_rows(m); i++)
		if (!strcmp(rest_dbd_cell(m, i, col), name))
			return (long)i;
	return -1;
}

/* The existing records of recs' names; 0, or -1 after an error. */
static int existing(rest_req_t *r, const post_op_t *op,
		    const rest_dbd_rec_t *recs, size_t n,
		    dbd_acct_resp_msg_t **m)
{
	char *names = NULL, *w;
	char *where[2] = { NULL, NULL };
	int rc;

	for (size_t i = 0; i < n; i++)
		xstrfmtcat(&names, "%s%s", i ? "," : "", recs[i].name);
	w = xstrdup_printf("name=%s", names);
	where[0] = w;
	rc = rest_dbd_list(r, op->entity, 0, where, m, op->what);
	xfree(w);
	xfree(names);
	return rc;
}

/* One load operation per record that adds or changes something. */
/* Coordinators: "add coordinator account=A names=U,.." for an account,
 * "account=A,.. names=U" for a user (slurmdbd adds only those it
 * lacks), in *last: after every user and account the request adds, as
 * sacctmgr load does. */
static void coord_op(uint16_t entity, const rest_dbd_rec_t *rec,
		     size_t base, char ***last)
{
	char *list = NULL, *kv, *user[2] = { rec->name, NULL };

	for (size_t k = 0; entity == DBD_ENT_USER && rec->coords[k]; k++)
		xstrfmtcat(&list, "%s%s", k ? "," : "", rec->coords[k]);
	kv = xstrdup_printf("account=%s", list ? list : rec->name);
	char *set[2] = { kv, NULL };
	dbd_acct_msg_t m = { .op = DBD_OP_ADD, .entity = DBD_ENT_COORD,
			     .names = entity == DBD_ENT_USER ? user :
				      rec->coords, .set = set };
	char *enc = ff_encode((unsigned)(base + xstrarray_len(*last) + 1), &m);

	*last = xstrarray_append(*last, enc);
	xfree(enc);
	xfree(kv);
	xfree(list);
}

static int build_ops(rest_req_t *r, const post_op_t *op,
		     const rest_dbd_rec_t *recs, size_t n,
		     const dbd_acct_resp_msg_t *have, char ***ops,
		     char ***last)
{
	for (size_t i = 0; i < n; i++) {
		long row = find_row(have, op->name_col, recs[i].name);
		char *names[2] = { recs[i].name, NULL };
		char *w = xstrdup_printf("name=%s", recs[i].name);
		char *where[2] = { w, NULL };
		dbd_acct_msg_t m = { .entity = op->entity,
				     .set = recs[i].set };

		if (recs[i].id && (row < 0 || strtoll(rest_dbd_cell(
			have, (size_t)row, "id"), NULL, 10) != recs[i].id)) {
			rest_error(r, ESLURM_REST_INVALID_QUERY, op->what,
				   "[%zu]/id: %lld is not the id of %s "
				   "(Sluice does not rename)", i,
				   (long long)recs[i].id, recs[i].name);
			xfree(w);
			return -1;
		}
		if (row < 0) {
			m.op = DBD_OP_ADD;
			m.names = names;
		} else {
			m.op = DBD_OP_MODIFY;
			m.where = where;
		}
		if (recs[i].ignored)
			rest_warning(r, op->what, "%s: %s are what the "
				     "cluster's slurmctld registers; an add "
				     "does not take them (as in Slurm)",
				     recs[i].name, recs[i].ignored);
		if (row < 0 || recs[i].set) {
			char *enc = ff_encode((unsigned)xstrarray_len(*ops) + 1,
					      &m);

			*ops = xstrarray_append(*ops, enc);
			xfree(enc);
		}
		if (recs[i].coords)
			coord_op(op->entity, &recs[i], 1000, last);
		xfree(w);
	}
	return 0;
}

/* The operations in one transaction (nothing to do: nothing sent). */
static void send_load(rest_req_t *r, char **ops, const char *what)
{
	dbd_acct_msg_t load = { .op = DBD_OP_LOAD, .entity = DBD_ENT_ASSOC,
				.flags = DBD_ACCT_COMMIT, .names = ops };
	dbd_acct_resp_msg_t *done = NULL;

	if (ops && rest_dbd_acct(r, &load, &done, what) == 0)
		rest_dbd_free(done);
}

static void append_all(char ***ops, char **more)
{
	for (size_t i = 0; more && more[i]; i++)
		*ops = xstrarray_append(*ops, more[i]);
}

/* The operations for body's records of op, appended to *ops.  0, or -1
 * after an error. */
static int collect_records(rest_req_t *r, const post_op_t *op,
			   json_object *body, char ***ops, char ***last)
{
	dbd_acct_resp_msg_t *have = NULL;
	rest_dbd_rec_t *recs = NULL;
	char *err = NULL;
	size_t n = 0;
	int rc = -1;

	if (op->parse(body, &recs, &n, &err) < 0)
		rest_error(r, ESLURM_REST_FAIL_PARSING, op->what, "%s", err);
	else if (existing(r, op, recs, n, &have) == 0 &&
		 build_ops(r, op, recs, n, have, ops, last) == 0)
		rc = 0;
	rest_dbd_free(have);
	rest_dbd_recs_free(recs, n);
	xfree(err);
	return rc;
}

static void post_records(rest_req_t *r, const post_op_t *op)
{
	json_object *body = rest_ctld_body(r, op->what);
	char **ops = NULL, **last = NULL;

	if (!body)
		return;
	if (collect_records(r, op, body, &ops, &last) == 0) {
		append_all(&ops, last);
		send_load(r, ops, op->what);
	}
	xstrarray_free(ops);
	xstrarray_free(last);
	json_object_put(body);
}

static const post_op_t accounts_op = { DBD_ENT_ACCOUNT,
				       rest_dbd_accounts_parse, "account",
				       "slurmdb_accounts_add" };
static const post_op_t users_op = { DBD_ENT_USER, rest_dbd_users_parse,
				    "user", "slurmdb_users_add" };
static const post_op_t qos_op = { DBD_ENT_QOS, rest_dbd_qos_parse,
				  "name", "slurmdb_qos_add" };
static const post_op_t clusters_op = { DBD_ENT_CLUSTER,
				       rest_dbd_clusters_parse, "cluster",
				       "slurmdb_clusters_add" };

void rest_op_dbd_accounts_post(rest_req_t *r)
{
	post_records(r, &accounts_op);
}

void rest_op_dbd_users_post(rest_req_t *r)
{
	post_records(r, &users_op);
}

void rest_op_dbd_qos_post(rest_req_t *r)
{
	post_records(r, &qos_op);
}

void rest_op_dbd_clusters_post(rest_req_t *r)
{
	post_records(r, &clusters_op);
}

/* ---- associations ---- */

#define ASSOC_WHAT "slurmdb_associations_add"

/* The existing association rec names: its row in *have, or -1. */
static long assoc_row(rest_req_t *r, const rest_dbd_rec_t *rec,
		      dbd_acct_resp_msg_t **have)
{
	char *w0 = xstrdup_printf("cluster=%s", rec->cluster);
	char *w1 = xstrdup_printf("account=%s", rec->account);
	char *where[3] = { w0, w1, NULL };
	long row = -1;

	if (rest_dbd_list(r, DBD_ENT_ASSOC, 0, where, have, ASSOC_WHAT) < 0)
		row = -2;
	for (size_t i = 0; row == -1 && i < rest_dbd_rows(*have); i++)
		if (!strcmp(rest_dbd_cell(*have, i, "user"), rec->user) &&
		    !strcmp(rest_dbd_cell(*have, i, "partition"),
			    rec->partition))
			row = (long)i;
	xfree(w0);
	xfree(w1);
	return row;
}

/* Add (as sacctmgr add account / add user would) or change one
 * association; its operation appended to *ops.  -1 after an error. */
static int assoc_op(rest_req_t *r, size_t i, const rest_dbd_rec_t *rec,
		    char ***ops)
{
	dbd_acct_resp_msg_t *have = NULL;
	long row = assoc_row(r, rec, &have);
	dbd_acct_msg_t m = { 0 };
	char *names[2] = { NULL, NULL }, *w = NULL, *where[2] = { NULL };
	char **set = NULL, *enc;
	int rc = -1;

	if (row == -2)
		goto out;
	if (rec->id && (row < 0 || strtoll(rest_dbd_cell(have, (size_t)row,
							"id"), NULL, 10)
			!= rec->id)) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, ASSOC_WHAT,
			   "associations[%zu]/id: %lld is not the id of that "
			   "association", i, (long long)rec->id);
		goto out;
	}
	if (row >= 0 && *rec->parent && strcmp(rec->parent, rest_dbd_cell(
		have, (size_t)row, "parentname"))) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, ASSOC_WHAT,
			   "associations[%zu]/parent_account: moving an "
			   "association is not supported here (sacctmgr "
			   "modify account set parent=)", i);
		goto out;
	}
	for (size_t k = 0; rec->set && rec->set[k]; k++)
		set = xstrarray_append(set, rec->set[k]);
	if (row >= 0) {
		rc = 0;
		if (!set)
			goto out;    /* nothing to change */
		w = xstrdup_printf("id=%s", rest_dbd_cell(have, (size_t)row,
							  "id"));
		where[0] = w;
		m.op = DBD_OP_MODIFY;
		m.entity = DBD_ENT_ASSOC;
		m.where = where;
	} else {
		char *kv = xstrdup_printf("cluster=%s", rec->cluster);

		set = xstrarray_append(set, kv);
		xfree(kv);
		if (*rec->user) {
			kv = xstrdup_printf("account=%s", rec->account);
			set = xstrarray_append(set, kv);
			xfree(kv);
			if (*rec->partition) {
				kv = xstrdup_printf("partition=%s",
						    rec->partition);
				set = xstrarray_append(set, kv);
				xfree(kv);
			}
			names[0] = rec->user;
			m.entity = DBD_ENT_USER;
		} else if (*rec->partition) {
			rest_error(r, ESLURM_REST_INVALID_QUERY, ASSOC_WHAT,
				   "associations[%zu]/partition: an "
				   "account's association has none", i);
			goto out;
		} else {
			if (*rec->parent) {
				kv = xstrdup_printf("parent=%s", rec->parent);
				set = xstrarray_append(set, kv);
				xfree(kv);
			}
			names[0] = rec->account;
			m.entity = DBD_ENT_ACCOUNT;
		}
		m.op = DBD_OP_ADD;
		m.names = names;
	}
	m.set = set;
	enc = ff_encode((unsigned)xstrarray_len(*ops) + 1, &m);
	*ops = xstrarray_append(*ops, enc);
	xfree(enc);
	rc = 0;
out:
	rest_dbd_free(have);
	xstrarray_free(set);
	xfree(w);
	return rc;
}

static int collect_assocs(rest_req_t *r, json_object *body, char ***ops)
{
	const char *cluster = cli_conf()->cluster_name;
	rest_dbd_rec_t *recs = NULL;
	char *err = NULL;
	size_t n = 0;
	int rc = -1;

	if (rest_dbd_assocs_parse(body, &recs, &n, &err) < 0) {
		rest_error(r, ESLURM_REST_FAIL_PARSING, ASSOC_WHAT, "%s", err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!*recs[i].cluster && cluster) {
			xfree(recs[i].cluster);
			recs[i].cluster = xstrdup(cluster);
		}
		if (assoc_op(r, i, &recs[i], ops) < 0)
			goto out;
	}
	rc = 0;
out:
	rest_dbd_recs_free(recs, n);
	xfree(err);
	return rc;
}

void rest_op_dbd_assocs_post(rest_req_t *r)
{
	json_object *body = rest_ctld_body(r, ASSOC_WHAT);
	char **ops = NULL;

	if (!body)
		return;
	if (collect_assocs(r, body, &ops) == 0)
		send_load(r, ops, ASSOC_WHAT);
	xstrarray_free(ops);
	json_object_put(body);
}

/* ---- TRES: Sluice's are fixed ---- */

#define TRES_WHAT "slurmdb_tres_add"

/* Each record of list names one of Sluice's TRES (type, name, and id
 * when given): nothing to add.  0, or -1 after a 400 or 501. */
static int check_tres(rest_req_t *r, json_object *list)
{
	json_object *have = cli_sacctmgr_tres_json();
	size_t n = json_object_array_length(list);
	int rc = 0;

	for (size_t i = 0; !rc && i < n; i++) {
		json_object *t = json_object_array_get_idx(list, i);
		json_object *ty = rest_json_get(t, "type");
		json_object *nm = rest_json_get(t, "name");
		json_object *id = rest_json_get(t, "id");
		const char *type, *name;
		bool found = false;

		if (!json_object_is_type(t, json_type_object) ||
		    !json_object_is_type(ty, json_type_string) ||
		    (nm && !json_object_is_type(nm, json_type_string)) ||
		    (id && !json_object_is_type(id, json_type_int))) {
			rest_error(r, ESLURM_REST_FAIL_PARSING, TRES_WHAT,
				   "TRES[%zu]: expected {type, name, id, "
				   "count}", i);
			rc = -1;
			break;
		}
		type = json_object_get_string(ty);
		name = nm ? json_object_get_string(nm) : "";
		for (size_t k = 0; k < json_object_array_length(have); k++) {
			json_object *h = json_object_array_get_idx(have, k);

			if (!strcmp(type, json_object_get_string(
				rest_json_get(h, "type"))) &&
			    !strcmp(name, json_object_get_string(
				rest_json_get(h, "name"))) &&
			    (!id || json_object_get_int64(id) ==
			     json_object_get_int64(rest_json_get(h, "id"))))
				found = true;
		}
		if (!found) {
			rest_error_http(r, 501, ESLURM_NOT_SUPPORTED, TRES_WHAT,
					"TRES[%zu]: %s%s%s: Sluice's TRES are "
					"fixed (GET tres lists them); it adds "
					"none", i, type, *name ? "/" : "",
					name);
			rc = -1;
		}
	}
	json_object_put(have);
	return rc;
}

/* The body's list under key: NULL (and an error) if it has none. */
static json_object *only_list(rest_req_t *r, json_object *body,
			      const char *key, const char *what)
{
	json_object *list = rest_json_get(body, key);

	if (!list || !json_object_is_type(list, json_type_array)) {
		rest_error(r, ESLURM_REST_FAIL_PARSING, what,
			   "%s: expected a list of records", key);
		return NULL;
	}
	return list;
}

void rest_op_dbd_tres_post(rest_req_t *r)
{
	json_object *body = rest_ctld_body(r, TRES_WHAT), *list;

	if (!body)
		return;
	if ((list = only_list(r, body, "TRES", TRES_WHAT)))
		(void)check_tres(r, list);
	json_object_put(body);
}

/* ---- config: sacctmgr load of a whole dump ---- */

#define CONFIG_WHAT "slurmdb_config_add"

/* {key: body[key]} when body has a non-empty list there, else NULL. */
static json_object *section(json_object *body, const char *key)
{
	json_object *list = rest_json_get(body, key), *o;

	if (!list || !json_object_is_type(list, json_type_array) ||
	    !json_object_array_length(list))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, key, json_object_get(list));
	return o;
}

/* Members config takes; wckeys and instances only empty (Sluice has
 * neither). */
static int config_members(rest_req_t *r, json_object *body)
{
	static const char *const known[] = {
		"clusters", "accounts", "users", "qos", "associations",
		"tres", "wckeys", "instances", "meta", "errors", "warnings",
	};

	json_object_object_foreach(body, k, v) {
		size_t i;

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(k, known[i]))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			rest_error(r, ESLURM_REST_FAIL_PARSING, CONFIG_WHAT,
				   "%s: not supported by Sluice", k);
			return -1;
		}
		if ((!strcmp(k, "wckeys") || !strcmp(k, "instances")) &&
		    json_object_is_type(v, json_type_array) &&
		    json_object_array_length(v)) {
			rest_error_http(r, 501, ESLURM_NOT_SUPPORTED,
					CONFIG_WHAT, "%s: Sluice has no %s", k,
					!strcmp(k, "wckeys") ? "wckeys" :
					"cloud instances");
			return -1;
		}
	}
	return 0;
}

void rest_op_dbd_config_post(rest_req_t *r)
{
	static const struct {
		const char      *key;
		const post_op_t *op;     /* NULL: associations */
	} order[] = {
		{ "clusters", &clusters_op },
		{ "accounts", &accounts_op },
		{ "users", &users_op },
		{ "qos", &qos_op },
		{ "associations", NULL },
	};
	json_object *body = rest_ctld_body(r, CONFIG_WHAT), *tres;
	char **ops = NULL, **last = NULL;
	int rc = 0;

	if (!body)
		return;
	if (config_members(r, body) < 0)
		goto out;
	tres = rest_json_get(body, "tres");
	if (tres && (!json_object_is_type(tres, json_type_array) ||
		     check_tres(r, tres) < 0)) {
		if (!json_object_is_type(tres, json_type_array))
			rest_error(r, ESLURM_REST_FAIL_PARSING, CONFIG_WHAT,
				   "tres: expected a list of records");
		goto out;
	}
	for (size_t i = 0; !rc && i < sizeof(order) / sizeof(order[0]); i++) {
		json_object *sec = section(body, order[i].key);

		if (!sec)
			continue;
		rc = order[i].op ? collect_records(r, order[i].op, sec, &ops,
						   &last) :
			collect_assocs(r, sec, &ops);
		json_object_put(sec);
	}
	if (!rc) {
		append_all(&ops, last);
		send_load(r, ops, CONFIG_WHAT);
	}
out:
	xstrarray_free(ops);
	xstrarray_free(last);
	json_object_put(body);
}
