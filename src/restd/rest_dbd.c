/* rest_dbd.c — a handler's messages to slurmdbd (rest_dbd.h). */
#include "restd/rest_dbd.h"

#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_sacct.h"
#include "common/msg.h"
#include "common/net.h"
#include "common/xstring.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

int rest_dbd_acct(rest_req_t *r, const dbd_acct_msg_t *req,
		  dbd_acct_resp_msg_t **out, const char *what)
{
	const slurm_conf_t *c = cli_conf();
	const char *host = c->accounting_storage_host ?
		c->accounting_storage_host : "localhost";
	slurm_msg_t resp = { 0 };
	dbd_acct_resp_msg_t *m;
	int rc;

	*out = NULL;
	rc = net_rpc(host, c->accounting_storage_port, REQUEST_DBD_ACCT, req,
		     &resp, c->message_timeout * 1000 * 3);
	if (rc) {
		rest_error(r, ESLURM_DB_CONNECTION, what,
			   "Problem talking to the database: %s",
			   slurm_strerror(rc));
		return -1;
	}
	if (resp.type != RESPONSE_DBD_ACCT || !resp.data) {
		rc = cli_resp_rc(&resp);
		msg_free(&resp);
		rc = rc ? rc : SLURM_UNEXPECTED_MSG_ERROR;
		rest_error(r, rc, what, "%s", slurm_strerror(rc));
		return -1;
	}
	m = resp.data;
	resp.data = NULL;
	msg_free(&resp);
	if (m->rc == SLURM_ERROR) {
		/* slurmdbd refused what was asked (a name it does not know,
		 * a user without an account, ...): the request's fault */
		rest_error_http(r, 400, m->rc, what, "%s", m->msg && *m->msg ?
				m->msg : slurm_strerror(m->rc));
		rest_dbd_free(m);
		return -1;
	}
	if (m->rc) {
		rest_error(r, m->rc, what, "%s", m->msg && *m->msg ? m->msg :
			   slurm_strerror(m->rc));
		rest_dbd_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

int rest_dbd_list(rest_req_t *r, uint16_t entity, uint16_t flags,
		  char **where, dbd_acct_resp_msg_t **out, const char *what)
{
	dbd_acct_msg_t req = { .op = DBD_OP_LIST, .entity = entity,
			       .flags = flags, .where = where };

	return rest_dbd_acct(r, &req, out, what);
}

void rest_dbd_free(dbd_acct_resp_msg_t *m)
{
	if (m)
		msg_body_free(RESPONSE_DBD_ACCT, m);
}

int rest_dbd_jobs(rest_req_t *r, dbd_job_cond_msg_t *cond,
		  dbd_jobs_msg_t **out)
{
	int rc = sacct_query(cond, out);

	if (rc == 0)
		return 0;
	rest_error(r, rc == ESLURM_ACCESS_DENIED ? rc : ESLURM_DB_CONNECTION,
		   "slurmdb_jobs_get", "Problem talking to the database: %s",
		   slurm_strerror(rc));
	return -1;
}

size_t rest_dbd_rows(const dbd_acct_resp_msg_t *m)
{
	size_t ncols = xstrarray_len(m->cols);

	return ncols ? xstrarray_len(m->cells) / ncols : 0;
}

const char *rest_dbd_cell(const dbd_acct_resp_msg_t *m, size_t row,
			  const char *col)
{
	size_t ncols = xstrarray_len(m->cols);

	for (size_t i = 0; i < ncols; i++)
		if (!strcmp(m->cols[i], col))
			return m->cells[row * ncols + i] ?
			       m->cells[row * ncols + i] : "";
	return "";
}
