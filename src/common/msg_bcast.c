/* msg_bcast.c — the bodies of sbcast, sgather and srun --bcast
 * (msg_types.h): the credential request and answer are plain field
 * tables; a block carries bytes (NUL bytes too) after its fields, as a
 * counted block bounded by BCAST_BLOCK_MAX before anything is
 * allocated, and its signature list is checked to match its nodes. */
#include <string.h>

#include "common/fields.h"
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define F(st, m, t) FIELD(st, m, t)

#define R(m, t) F(sbcast_cred_request_msg_t, m, t)
const field_desc_t msg_sbcast_cred_req_fields[] = {
	R(job_id, FT_U32), R(het_offset, FT_U32), R(step_id, FT_U32),
	FIELD_END
};
#undef R

#define C(m, t) F(sbcast_cred_msg_t, m, t)
const field_desc_t msg_sbcast_cred_fields[] = {
	C(job_id, FT_U32), C(step_id, FT_U32), C(node_list, FT_STR),
	C(node_names, FT_STRLIST), C(node_addrs, FT_STRLIST),
	C(cred_payload, FT_STR), C(cred_sigs, FT_STRLIST),
	FIELD_END
};
#undef C

#define B(m, t) F(file_bcast_msg_t, m, t)
static const field_desc_t bcast_fields[] = {
	B(job_id, FT_U32), B(step_id, FT_U32), B(uid, FT_U32), B(gid, FT_U32),
	B(fname, FT_STR), B(block_no, FT_U32), B(flags, FT_U16),
	B(compress, FT_U16), B(mode, FT_U32), B(atime, FT_TIME),
	B(mtime, FT_TIME), B(file_size, FT_U64), B(offset, FT_U64),
	B(block_len, FT_U32), B(cred_payload, FT_STR),
	B(node_names, FT_STRLIST), B(cred_sigs, FT_STRLIST),
	FIELD_END
};
#undef B

#define G(m, t) F(file_gather_msg_t, m, t)
const field_desc_t msg_file_gather_fields[] = {
	G(job_id, FT_U32), G(step_id, FT_U32), G(uid, FT_U32), G(gid, FT_U32),
	G(fname, FT_STR), G(offset, FT_U64), G(max_len, FT_U32),
	G(flags, FT_U16), G(compress, FT_U16), G(cred_payload, FT_STR),
	G(cred_sig, FT_STR),
	FIELD_END
};
#undef G

#define A(m, t) F(file_gather_resp_msg_t, m, t)
static const field_desc_t gather_resp_fields[] = {
	A(file_size, FT_U64), A(offset, FT_U64), A(mode, FT_U32),
	A(atime, FT_TIME), A(mtime, FT_TIME), A(compress, FT_U16),
	A(block_len, FT_U32), A(names, FT_STRLIST),
	FIELD_END
};
#undef A

/* The counted bytes after the fields: *data gets len bytes and a NUL. */
static int _unpack_data(buf_t *b, char **data, uint32_t *len)
{
	void *bytes = NULL;
	uint32_t n = 0;

	if (unpackmem(b, &bytes, &n, BCAST_BLOCK_MAX + BCAST_BLOCK_MAX / 64 +
		      1024) < 0)
		return -1;
	*data = xmalloc(n + 1);
	if (n)
		memcpy(*data, bytes, n);
	*len = n;
	xfree(bytes);
	return 0;
}

void msg_file_bcast_pack(buf_t *b, const void *data)
{
	const file_bcast_msg_t *m = data;

	fields_pack(b, bcast_fields, m);
	packmem(b, m->data, m->data ? m->data_len : 0);
}

void msg_file_bcast_free(void *data)
{
	file_bcast_msg_t *m = data;

	if (!m)
		return;
	fields_free(bcast_fields, m);
	xfree(m->data);
	xfree(m);
}

int msg_file_bcast_unpack(buf_t *b, void **data)
{
	file_bcast_msg_t *m = xmalloc(sizeof(*m));
	size_t nn, ns;

	*data = NULL;
	if (fields_unpack(b, bcast_fields, m) < 0 ||
	    _unpack_data(b, &m->data, &m->data_len) < 0)
		goto error;
	nn = xstrarray_len(m->node_names);
	ns = xstrarray_len(m->cred_sigs);
	if (nn != ns || nn > BCAST_NODES_MAX || m->block_len > BCAST_BLOCK_MAX)
		goto error;
	*data = m;
	return 0;
error:
	msg_file_bcast_free(m);
	return -1;
}

void msg_file_gather_resp_pack(buf_t *b, const void *data)
{
	const file_gather_resp_msg_t *m = data;

	fields_pack(b, gather_resp_fields, m);
	packmem(b, m->data, m->data ? m->data_len : 0);
}

void msg_file_gather_resp_free(void *data)
{
	file_gather_resp_msg_t *m = data;

	if (!m)
		return;
	fields_free(gather_resp_fields, m);
	xfree(m->data);
	xfree(m);
}

int msg_file_gather_resp_unpack(buf_t *b, void **data)
{
	file_gather_resp_msg_t *m = xmalloc(sizeof(*m));

	*data = NULL;
	if (fields_unpack(b, gather_resp_fields, m) < 0 ||
	    _unpack_data(b, &m->data, &m->data_len) < 0 ||
	    m->block_len > BCAST_BLOCK_MAX) {
		msg_file_gather_resp_free(m);
		return -1;
	}
	*data = m;
	return 0;
}
