/* rest_job_output.c — GET /sluice/v1/job/{job_id}/output (doc/rest.md
 * "Sluice endpoints"): part of a job's StdOut or StdErr, for the job's
 * user, operators, root and SlurmUser (REQUEST_JOB_OUTPUT; the
 * controller decides, whatever PrivateData says, and has the batch
 * host's slurmd read the file as the job's user).
 *
 * Query: stream=stdout|stderr (stdout), bytes=1..65536 (65536), and
 * offset=N to read from byte N instead of the last `bytes`.  Answer:
 * {"output": {job_id, stream, path, node, size, offset, bytes, text}}:
 * text is the bytes read, a byte that is no part of valid UTF-8 (a tail
 * cut in the middle of a character, binary output) as U+FFFD. */
#include <errno.h>
#include <string.h>

#include "cli/cli_common.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "restd/rest_handlers.h"
#include "restd/rest_resp.h"
#include "slurm/slurm_errno.h"

#define WHAT "sluice_job_output"

/* The query into q: 0, or -1 with a 400 reported. */
static int _query(rest_req_t *r, job_output_request_msg_t *q)
{
	const char *v;

	for (size_t i = 0; i < r->nquery; i++) {
		const char *n = r->query[i].name;

		if (strcmp(n, "stream") && strcmp(n, "bytes") &&
		    strcmp(n, "offset")) {
			rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
				   "Unknown query parameter %s (stream, bytes "
				   "and offset are taken)", n);
			return -1;
		}
	}
	q->stream = JOB_OUTPUT_STDOUT;
	q->bytes = JOB_OUTPUT_MAX;
	q->offset = NO_VAL64;
	if ((v = rest_query(r, "stream"))) {
		if (!strcmp(v, "stdout")) {
			q->stream = JOB_OUTPUT_STDOUT;
		} else if (!strcmp(v, "stderr")) {
			q->stream = JOB_OUTPUT_STDERR;
		} else {
			rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
				   "stream must be stdout or stderr");
			return -1;
		}
	}
	if ((v = rest_query(r, "bytes")) &&
	    (parse_u32(v, &q->bytes) < 0 || !q->bytes ||
	     q->bytes > JOB_OUTPUT_MAX)) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
			   "bytes must be a number from 1 to %u",
			   JOB_OUTPUT_MAX);
		return -1;
	}
	if ((v = rest_query(r, "offset")) &&
	    (parse_u64(v, &q->offset) < 0 || q->offset > (uint64_t) INT64_MAX)) {
		rest_error(r, ESLURM_REST_INVALID_QUERY, WHAT,
			   "offset must be a number of bytes");
		return -1;
	}
	return 0;
}

/* data[0..len) (data[len] is a NUL) as UTF-8 text, bad bytes as U+FFFD;
 * a tail starts at the next character.  Caller xfree()s. */
static char *_text(const char *data, uint32_t len, bool tail, uint32_t *skip)
{
	const unsigned char *p = (const unsigned char *) data;
	char *out = xmalloc((size_t) len * 3 + 1);
	size_t o = 0, i = 0;

	while (tail && i < len && i < 3 && (p[i] & 0xc0) == 0x80)
		i++;
	*skip = (uint32_t) i;
	while (i < len) {
		size_t n = p[i] ? rest_utf8_seq(p + i) : 1;

		if (n && i + n <= len) {
			memcpy(out + o, p + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

static json_object *_output_json(const job_output_msg_t *m, bool tail)
{
	json_object *o = json_object_new_object();
	uint32_t skip;
	char *text = _text(m->data, m->len, tail && m->offset > 0, &skip);

	json_object_object_add(o, "job_id", json_object_new_int64(m->job_id));
	json_object_object_add(o, "stream", json_object_new_string(
		m->stream == JOB_OUTPUT_STDERR ? "stderr" : "stdout"));
	json_object_object_add(o, "path",
			       json_object_new_string(m->path ? m->path : ""));
	json_object_object_add(o, "node", json_object_new_string(
		m->node_name ? m->node_name : ""));
	json_object_object_add(o, "size", json_object_new_int64(
		(int64_t) m->file_size));
	json_object_object_add(o, "offset", json_object_new_int64(
		(int64_t) (m->offset + skip)));
	json_object_object_add(o, "bytes", json_object_new_int64(
		m->len - skip));
	json_object_object_add(o, "text", json_object_new_string(text));
	xfree(text);
	return o;
}

/* The HTTP status of a refusal: an errno value from the node says what
 * is wrong with the file. */
static int _status(int rc)
{
	switch (rc) {
	case ENOENT:
	case EINVAL:            /* not a regular file */
		return 404;
	case EACCES:
	case EPERM:
		return 403;
	case EAGAIN:            /* the controller has enough reads going */
	case ETIMEDOUT:         /* the node's reader took too long */
		return 503;
	default:
		return rest_http_status(rc);
	}
}

void rest_op_sluice_job_output(rest_req_t *r)
{
	job_output_request_msg_t q = { 0 };
	slurm_msg_t resp;
	int rc;

	if (parse_u32(r->param[0], &q.job_id) < 0 || !q.job_id ||
	    q.job_id >= NO_VAL32) {
		rest_error(r, ESLURM_INVALID_JOB_ID, WHAT, "Invalid job id %s",
			   r->param[0]);
		return;
	}
	if (_query(r, &q) < 0)
		return;
	rc = cli_ctld_rpc(REQUEST_JOB_OUTPUT, &q, &resp);
	if (rc) {
		rest_error(r, rc, WHAT, "%s", cli_comm_strerror(rc));
		return;
	}
	if (resp.type == RESPONSE_JOB_OUTPUT && resp.data) {
		json_object_object_add(r->resp, "output",
				       _output_json(resp.data,
						    q.offset == NO_VAL64));
	} else {
		const return_code_msg_t *m = resp.type == RESPONSE_SLURM_RC ?
			resp.data : NULL;

		rc = m && m->rc ? m->rc : SLURM_UNEXPECTED_MSG_ERROR;
		rest_error_http(r, _status(rc), rc, WHAT, "%s",
				m && m->msg && *m->msg ? m->msg :
				slurm_strerror(rc));
	}
	msg_free(&resp);
}
