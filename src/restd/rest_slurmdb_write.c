/* rest_slurmdb_write.c — POST /slurmdb/v0.0.4N/accounts, users and qos:
 * add the records that do not exist, change those that do (as Slurm's
 * API), all in one slurmdbd transaction (the operations of a sacctmgr load), so a
 * request that fails anywhere changes nothing.  A load is an
 * Administrator's (slurmdbd refuses others: 403). */
#include <stdlib.h>
#include <string.h>

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

static void post_records(rest_req_t *r, const post_op_t *op)
{
	json_object *body = rest_ctld_body(r, op->what);
	dbd_acct_resp_msg_t *have = NULL, *done = NULL;
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
	    build_ops(r, op, recs, n, have, &ops) < 0 || !ops)
		goto out;
	{
		dbd_acct_msg_t load = { .op = DBD_OP_LOAD,
					.entity = op->entity,
					.flags = DBD_ACCT_COMMIT,
					.names = ops };

		(void)rest_dbd_acct(r, &load, &done, op->what);
	}
out:
	rest_dbd_free(have);
	rest_dbd_free(done);
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
