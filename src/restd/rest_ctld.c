/* rest_ctld.c — a handler's messages to slurmctld, and its body. */
#include "restd/rest_ctld.h"

#include <string.h>

#include "cli/cli_common.h"
#include "common/msg_types.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

int rest_ctld_info(rest_req_t *r, uint16_t type, const void *req,
		   uint16_t want, slurm_msg_t *resp, const char *what)
{
	int err = cli_ctld_rpc(type, req, resp), rc;

	if (err) {
		rest_error(r, err, what, "%s", cli_comm_strerror(err));
		return -1;
	}
	if (resp->type != want || !resp->data) {
		rc = cli_resp_rc(resp);
		msg_free(resp);
		rc = rc ? rc : SLURM_UNEXPECTED_MSG_ERROR;
		rest_error(r, rc, what, "%s", slurm_strerror(rc));
		return -1;
	}
	return 0;
}

int rest_ctld_rc(rest_req_t *r, uint16_t type, const void *req,
		 const char *what)
{
	slurm_msg_t resp;
	int err = cli_ctld_rpc(type, req, &resp), rc;

	if (err) {
		rest_error(r, err, what, "%s", cli_comm_strerror(err));
		return err;
	}
	rc = resp.type == RESPONSE_SLURM_RC ? cli_resp_rc(&resp) :
		SLURM_UNEXPECTED_MSG_ERROR;
	if (rc) {
		const return_code_msg_t *m = resp.type == RESPONSE_SLURM_RC ?
			resp.data : NULL;

		rest_error(r, rc, what, "%s",
			   m && m->msg && *m->msg ? m->msg : slurm_strerror(rc));
	}
	msg_free(&resp);
	return rc;
}

json_object *rest_ctld_body(rest_req_t *r, const char *what)
{
	struct json_tokener *tok;
	json_object *o;
	size_t end;

	if (!r->body || !r->body_len) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, what,
			   "The request has no body");
		return NULL;
	}
	tok = json_tokener_new_ex(64);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				    JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, r->body, (int)r->body_len);
	end = json_tokener_get_parse_end(tok);
	while (o && end < r->body_len && r->body[end] &&
	       strchr(" \t\r\n", r->body[end]))
		end++;
	if (!o || end != r->body_len) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		rest_error(r, ESLURM_REST_FAIL_PARSING, what,
			   "JSON parsing failed at byte %zu of %zu: %s",
			   json_tokener_get_parse_end(tok), r->body_len,
			   o ? "data after the JSON value" :
			   e == json_tokener_continue ? "unexpected end of data" :
			   json_tokener_error_desc(e));
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}
