/* msg_crontab.c — the bodies of scrontab's messages (msg_types.h):
 * REQUEST_UPDATE_CRONTAB (the user, the text, then each entry: its job
 * request by job_desc_fields, its time fields and lines), its answer
 * (the job ids made), REQUEST_CRONTAB and RESPONSE_CRONTAB (field
 * tables).  Counts are checked against CRONTAB_MAX_ENTRIES and the bytes
 * left, and the text against CRONTAB_MAX_BYTES, before anything is
 * allocated for them. */
#include <stddef.h>
#include <string.h>

#include "common/fields.h"
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

#define E(m, t) FIELD(crontab_entry_t, m, t)
static const field_desc_t entry_fields[] = {
	E(cronspec, FT_STR), E(line_start, FT_U32), E(line_end, FT_U32),
	FIELD_END
};
#undef E

#define R(m, t) FIELD(crontab_request_msg_t, m, t)
const field_desc_t msg_crontab_request_fields[] = {
	R(user_id, FT_U32),
	FIELD_END
};
#undef R

#define C(m, t) FIELD(crontab_resp_msg_t, m, t)
const field_desc_t msg_crontab_resp_fields[] = {
	C(crontab, FT_STR), C(disabled_lines, FT_STR),
	FIELD_END
};
#undef C

#define U(m, t) FIELD(crontab_update_resp_msg_t, m, t)
static const field_desc_t update_resp_fields[] = {
	U(rc, FT_U32), U(err_msg, FT_STR), U(failed_lines, FT_STR),
	FIELD_END
};
#undef U

/* The smallest packed entry: far more than this (every job_desc_t field
 * has at least 1 byte); enough to bound a count by the bytes left. */
#define ENTRY_MIN_BYTES 64

void crontab_update_msg_free(crontab_update_msg_t *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->entry_cnt; i++) {
		fields_free(job_desc_fields, &m->entries[i].desc);
		fields_free(entry_fields, &m->entries[i]);
	}
	xfree(m->entries);
	xfree(m->crontab);
	xfree(m);
}

void msg_crontab_update_pack(buf_t *b, const void *data)
{
	const crontab_update_msg_t *m = data;

	pack32(b, m->user_id);
	pack32(b, m->group_id);
	packstr(b, m->crontab);
	pack32(b, m->entry_cnt);
	for (uint32_t i = 0; i < m->entry_cnt; i++) {
		fields_pack(b, job_desc_fields, &m->entries[i].desc);
		fields_pack(b, entry_fields, &m->entries[i]);
	}
}

void msg_crontab_update_free(void *data)
{
	crontab_update_msg_t *m = data;

	crontab_update_msg_free(m);
}

int msg_crontab_update_unpack(buf_t *b, void **data)
{
	crontab_update_msg_t *m = xmalloc(sizeof(*m));
	uint32_t n;

	*data = NULL;
	if (unpack32(b, &m->user_id) < 0 || unpack32(b, &m->group_id) < 0 ||
	    unpackstr(b, &m->crontab) < 0 ||
	    (m->crontab && strlen(m->crontab) > CRONTAB_MAX_BYTES) ||
	    unpack32(b, &n) < 0 || n > CRONTAB_MAX_ENTRIES ||
	    n > buf_remaining(b) / ENTRY_MIN_BYTES)
		goto error;
	m->entries = xcalloc(n ? n : 1, sizeof(*m->entries));
	for (; m->entry_cnt < n; m->entry_cnt++) {
		crontab_entry_t *e = &m->entries[m->entry_cnt];

		if (fields_unpack(b, job_desc_fields, &e->desc) < 0)
			goto error;
		if (fields_unpack(b, entry_fields, e) < 0) {
			fields_free(job_desc_fields, &e->desc);
			goto error;
		}
	}
	*data = m;
	return 0;
error:
	crontab_update_msg_free(m);
	return -1;
}

void msg_crontab_update_resp_pack(buf_t *b, const void *data)
{
	const crontab_update_resp_msg_t *r = data;

	fields_pack(b, update_resp_fields, r);
	pack32(b, r->job_cnt);
	for (uint32_t i = 0; i < r->job_cnt; i++)
		pack32(b, r->job_ids[i]);
}

void msg_crontab_update_resp_free(void *data)
{
	crontab_update_resp_msg_t *r = data;

	if (!r)
		return;
	fields_free(update_resp_fields, r);
	xfree(r->job_ids);
	xfree(r);
}

int msg_crontab_update_resp_unpack(buf_t *b, void **data)
{
	crontab_update_resp_msg_t *r = xmalloc(sizeof(*r));
	uint32_t n;

	*data = NULL;
	if (fields_unpack(b, update_resp_fields, r) < 0) {
		xfree(r);
		return -1;
	}
	if (unpack32(b, &n) < 0 || n > CRONTAB_MAX_ENTRIES ||
	    n > buf_remaining(b) / 4)
		goto error;
	r->job_ids = xcalloc(n ? n : 1, sizeof(*r->job_ids));
	for (; r->job_cnt < n; r->job_cnt++)
		if (unpack32(b, &r->job_ids[r->job_cnt]) < 0)
			goto error;
	*data = r;
	return 0;
error:
	msg_crontab_update_resp_free(r);
	return -1;
}
