/* msg_profile.c — the bodies of REQUEST_JOB_PROFILE (slurmstepd ->
 * controller: a profiled step's usage samples on one node) and
 * RESPONSE_DBD_PROFILE (slurmdbd -> sacct --profile), msg_types.h.
 *
 * Both are a few fixed fields and then rows of acct_profile_rec_t, each
 * by its field table.  The row count is bounded before anything is
 * allocated: by JOB_PROFILE_MAX for a node's batch, and for an answer
 * by what the bytes left could hold (a row takes at least 4 bytes). */
#include <string.h>

#include "common/fields.h"
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

static void pack_rows(buf_t *b, const acct_profile_rec_t *r, uint32_t cnt)
{
	pack32(b, cnt);
	for (uint32_t i = 0; i < cnt; i++)
		fields_pack(b, acct_profile_rec_fields, &r[i]);
}

static void free_rows(acct_profile_rec_t *r, uint32_t cnt)
{
	for (uint32_t i = 0; r && i < cnt; i++)
		fields_free(acct_profile_rec_fields, &r[i]);
	xfree(r);
}

static int unpack_rows(buf_t *b, acct_profile_rec_t **out, uint32_t *cnt,
		       uint32_t max)
{
	uint32_t n;

	*out = NULL;
	*cnt = 0;
	if (unpack32(b, &n) < 0 || n > max || n > PACK_MAX_ARRAY_LEN ||
	    n > buf_remaining(b) / 4)
		return -1;
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (; *cnt < n; (*cnt)++)
		if (fields_unpack(b, acct_profile_rec_fields, &(*out)[*cnt]) < 0)
			return -1;
	return 0;
}

void msg_job_profile_pack(buf_t *b, const void *data)
{
	const job_profile_msg_t *m = data;

	pack32(b, m->job_id);
	pack32(b, m->step_id);
	packstr(b, m->node_name);
	pack_rows(b, m->recs, m->cnt);
}

void msg_job_profile_free(void *data)
{
	job_profile_msg_t *m = data;

	if (!m)
		return;
	xfree(m->node_name);
	free_rows(m->recs, m->cnt);
	xfree(m);
}

int msg_job_profile_unpack(buf_t *b, void **data)
{
	job_profile_msg_t *m = xmalloc(sizeof(*m));

	*data = NULL;
	if (unpack32(b, &m->job_id) < 0 || unpack32(b, &m->step_id) < 0 ||
	    unpackstr(b, &m->node_name) < 0 ||
	    unpack_rows(b, &m->recs, &m->cnt, JOB_PROFILE_MAX) < 0) {
		msg_job_profile_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

void msg_dbd_profile_pack(buf_t *b, const void *data)
{
	const dbd_profile_msg_t *m = data;

	pack32(b, (uint32_t) m->rc);
	pack_rows(b, m->recs, m->cnt);
}

void msg_dbd_profile_free(void *data)
{
	dbd_profile_msg_t *m = data;

	if (!m)
		return;
	free_rows(m->recs, m->cnt);
	xfree(m);
}

int msg_dbd_profile_unpack(buf_t *b, void **data)
{
	dbd_profile_msg_t *m = xmalloc(sizeof(*m));
	uint32_t rc;

	*data = NULL;
	if (unpack32(b, &rc) < 0 ||
	    unpack_rows(b, &m->recs, &m->cnt, UINT32_MAX) < 0) {
		msg_dbd_profile_free(m);
		return -1;
	}
	m->rc = (int32_t) rc;
	*data = m;
	return 0;
}
