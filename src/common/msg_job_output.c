/* msg_job_output.c — RESPONSE_JOB_OUTPUT's body (msg_types.h): a piece
 * of a job's output file.  Its bytes are whatever the job wrote (NUL
 * bytes too), so they travel as a counted block, not as a string; the
 * block is bounded by JOB_OUTPUT_MAX before anything is allocated. */
#include <string.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

void msg_job_output_pack(buf_t *b, const void *data)
{
	const job_output_msg_t *m = data;

	pack32(b, m->job_id);
	pack16(b, m->stream);
	packstr(b, m->path);
	packstr(b, m->node_name);
	pack64(b, m->file_size);
	pack64(b, m->offset);
	packmem(b, m->data, m->data ? m->len : 0);
}

void msg_job_output_free(void *data)
{
	job_output_msg_t *m = data;

	if (!m)
		return;
	xfree(m->path);
	xfree(m->node_name);
	xfree(m->data);
	xfree(m);
}

int msg_job_output_unpack(buf_t *b, void **data)
{
	job_output_msg_t *m = xmalloc(sizeof(*m));
	void *bytes = NULL;
	uint32_t len = 0;

	*data = NULL;
	if (unpack32(b, &m->job_id) < 0 || unpack16(b, &m->stream) < 0 ||
	    unpackstr(b, &m->path) < 0 || unpackstr(b, &m->node_name) < 0 ||
	    unpack64(b, &m->file_size) < 0 || unpack64(b, &m->offset) < 0 ||
	    unpackmem(b, &bytes, &len, JOB_OUTPUT_MAX) < 0)
		goto error;
	/* a NUL after the bytes, so text can be used as a string */
	m->data = xmalloc(len + 1);
	if (len)
		memcpy(m->data, bytes, len);
	m->len = len;
	xfree(bytes);
	*data = m;
	return 0;
error:
	msg_job_output_free(m);
	return -1;
}
