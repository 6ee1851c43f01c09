/* msg_hetjob.c — REQUEST_SUBMIT_BATCH_HET_JOB's body (msg_types.h): a
 * heterogeneous job's components, each a job_desc_t by job_desc_fields.
 * The count is bounded (HET_JOB_MAX_COMPONENTS, and by the bytes left)
 * before anything is allocated. */
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

/* Far less than any packed job_desc_t (every field takes a byte at
 * least): enough to bound a count by the bytes left. */
#define DESC_MIN_BYTES 64

void het_job_desc_msg_free(het_job_desc_msg_t *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->cnt; i++)
		job_desc_free_members(&m->desc[i]);
	xfree(m->desc);
	xfree(m);
}

void msg_het_job_desc_pack(buf_t *b, const void *data)
{
	const het_job_desc_msg_t *m = data;

	pack32(b, m->cnt);
	for (uint32_t i = 0; i < m->cnt; i++)
		fields_pack(b, job_desc_fields, &m->desc[i]);
}

void msg_het_job_desc_free(void *data)
{
	het_job_desc_msg_free(data);
}

int msg_het_job_desc_unpack(buf_t *b, void **data)
{
	het_job_desc_msg_t *m = xmalloc(sizeof(*m));
	uint32_t n;

	*data = NULL;
	if (unpack32(b, &n) < 0 || !n || n > HET_JOB_MAX_COMPONENTS ||
	    n > buf_remaining(b) / DESC_MIN_BYTES)
		goto error;
	m->desc = xcalloc(n, sizeof(*m->desc));
	for (; m->cnt < n; m->cnt++)
		if (fields_unpack(b, job_desc_fields, &m->desc[m->cnt]) < 0)
			goto error;
	*data = m;
	return 0;
error:
	het_job_desc_msg_free(m);
	return -1;
}
