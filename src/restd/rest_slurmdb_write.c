/* rest_slurmdb_write.c — POST /slurmdb/v0.0.4N/accounts, users, qos and
 * associations: add the records that do not exist, change those that do
 * (as Slurm's API), all in one slurmdbd transaction (the operations of a sacctmgr load), so a
 * request that fails anywhere changes nothing.  A load is an
 * Administrator's (slurmdbd refuses others: 403). */
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
static int build_ops(rest_req_t *r, const post_op_t *op,
		     const rest_dbd_rec_t *recs, size_t n,
		     const dbd_acct_resp_msg_t *have, char ***ops)
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
		if (row < 0 || recs[i].set) {
			char *enc = ff_encode((unsigned)i + 1, &m);

			*ops = xstrarray_append(*ops, enc);
			xfree(enc);
		}
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

static void post_records(rest_req_t *r, const post_op_t *op)
{
	json_object *body = rest_ctld_body(r, op->what);
	dbd_acct_resp_msg_t *have = NULL;
	rest_dbd_rec_t *recs = NULL;
	char *err = NULL, **ops = NULL;
	size_t n = 0;

	if (!body)
		return;
	if (op->parse(body, &recs, &n, &err) < 0) {
		rest_error(r, ESLURM_REST_FAIL_PARSING, op->what, "%s", err);
		goto out;
	}
	if (existing(r, op, recs, n, &have) < 0 ||
	    build_ops(r, op, recs, n, have, &ops) < 0)
		goto out;
	send_load(r, ops, op->what);
out:
	rest_dbd_free(have);
	rest_dbd_recs_free(recs, n);
	xstrarray_free(ops);
	xfree(err);
	json_object_put(body);
}

void rest_op_dbd_accounts_post(rest_req_t *r)
{
	static const post_op_t op = { DBD_ENT_ACCOUNT,
				      rest_dbd_accounts_parse, "account",
				      "slurmdb_accounts_add" };

	post_records(r, &op);
}

void rest_op_dbd_users_post(rest_req_t *r)
{
	static const post_op_t op = { DBD_ENT_USER, rest_dbd_users_parse,
				      "user", "slurmdb_users_add" };

	post_records(r, &op);
}

void rest_op_dbd_qos_post(rest_req_t *r)
{
	static const post_op_t op = { DBD_ENT_QOS, rest_dbd_qos_parse,
				      "name", "slurmdb_qos_add" };

	post_records(r, &op);
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
	enc = ff_encode((unsigned)i + 1, &m);
	*ops = xstrarray_append(*ops, enc);
	xfree(enc);
	rc = 0;
out:
	rest_dbd_free(have);
	xstrarray_free(set);
	xfree(w);
	return rc;
}

void rest_op_dbd_assocs_post(rest_req_t *r)
{
	json_object *body = rest_ctld_body(r, ASSOC_WHAT);
	const char *cluster = cli_conf()->cluster_name;
	rest_dbd_rec_t *recs = NULL;
	char *err = NULL, **ops = NULL;
	size_t n = 0;

	if (!body)
		return;
	if (rest_dbd_assocs_parse(body, &recs, &n, &err) < 0) {
		rest_error(r, ESLURM_REST_FAIL_PARSING, ASSOC_WHAT, "%s", err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!*recs[i].cluster && cluster) {
			xfree(recs[i].cluster);
			recs[i].cluster = xstrdup(cluster);
		}
		if (assoc_op(r, i, &recs[i], &ops) < 0)
			goto out;
	}
	send_load(r, ops, ASSOC_WHAT);
out:
	rest_dbd_recs_free(recs, n);
	xstrarray_free(ops);
	xfree(err);
	json_object_put(body);
}
