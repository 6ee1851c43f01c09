/* rest_slurmdb_add.c — POST /slurmdb/v0.0.4N/accounts_association and
 * users_association: Slurm's "add_cond" requests, which are one
 * `sacctmgr add account|user NAMES cluster=.. [account=.. partition=..]
 * settings` each: sent to slurmdbd as a one-operation load (one
 * transaction, an Administrator's or a coordinator's, as slurmdbd
 * decides), answered with what it added, as sacctmgr prints it. */
#include <string.h>

#include "common/acct_flatfile.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_ctld.h"
#include "restd/rest_dbd.h"
#include "restd/rest_dbd_body.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

typedef int (*add_parse_f)(json_object *body, rest_dbd_add_t *a, char **err);

typedef struct {
	uint16_t     entity;
	add_parse_f  parse;
	const char  *kind;       /* the change rows' kind of the records */
	const char  *heading;    /* sacctmgr's */
	const char  *key;        /* the answer's member */
	const char  *what;
} add_op_t;

/* What the change rows (kind, name, cluster, account, user) say was
 * added, in sacctmgr's words. */
static char *added_text(const add_op_t *op, const dbd_acct_resp_msg_t *m)
{
	size_t n = m ? xstrarray_len(m->cells) / 5 : 0;
	char *s = xstrdup("");
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		char *const *row = &m->cells[i * 5];

		if (strcmp(row[0], op->kind))
			continue;
		if (!any)
			xstrfmtcat(&s, " %s\n", op->heading);
		any = true;
		xstrfmtcat(&s, "  %s\n", row[1]);
	}
	any = false;
	for (size_t i = 0; i < n; i++) {
		char *const *row = &m->cells[i * 5];

		if (strcmp(row[0], "assoc"))
			continue;
		if (!any)
			xstrfmtcat(&s, " Associations =\n");
		any = true;
		if (*row[4])
			xstrfmtcat(&s, "  U = %s A = %s C = %s\n", row[4],
				   row[3], row[2]);
		else
			xstrfmtcat(&s, "  A = %s C = %s\n", row[3], row[2]);
	}
	return s;
}

static void add_cond(rest_req_t *r, const add_op_t *op)
{
	json_object *body = rest_ctld_body(r, op->what);
	rest_dbd_add_t a = { 0 };
	dbd_acct_resp_msg_t *done = NULL;
	char *err = NULL, *text = NULL;

	if (!body)
		goto out;
	if (op->parse(body, &a, &err) < 0) {
		rest_error(r, ESLURM_REST_FAIL_PARSING, op->what, "%s", err);
	} else {
		dbd_acct_msg_t m = { .op = DBD_OP_ADD, .entity = op->entity,
				     .names = a.names, .set = a.set };
		char *ops[2] = { ff_encode(1, &m), NULL };
		dbd_acct_msg_t load = { .op = DBD_OP_LOAD,
					.entity = DBD_ENT_ASSOC,
					.flags = DBD_ACCT_COMMIT,
					.names = ops };

		if (rest_dbd_acct(r, &load, &done, op->what) == 0)
			text = added_text(op, done);
		xfree(ops[0]);
	}
out:
	json_object_object_add(r->resp, op->key,
			       json_object_new_string(text ? text : ""));
	rest_dbd_free(done);
	rest_dbd_add_free(&a);
	xfree(text);
	xfree(err);
	json_object_put(body);
}

void rest_op_dbd_accounts_assoc_post(rest_req_t *r)
{
	static const add_op_t op = {
		DBD_ENT_ACCOUNT, rest_dbd_accounts_add_parse, "account",
		"Adding Account(s)", "added_accounts",
		"slurmdb_accounts_add_cond" };

	add_cond(r, &op);
}

void rest_op_dbd_users_assoc_post(rest_req_t *r)
{
	static const add_op_t op = {
		DBD_ENT_USER, rest_dbd_users_add_parse, "user",
		"Adding User(s)", "added_users", "slurmdb_users_add_cond" };

	add_cond(r, &op);
}
