/* msg_trigger.c — the body of REQUEST_TRIGGER_SET/GET/CLEAR and
 * RESPONSE_TRIGGER_GET (msg_types.h): a count, then each trigger by its
 * field table.  The controller's journal record of its triggers
 * (ctld/trigger.c) is this same body after the next trigger id.  The
 * count is checked against TRIGGER_MSG_MAX and the bytes left before
 * anything is allocated. */
#include <stddef.h>

#include "common/fields.h"
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

#define T(m, t) FIELD(trigger_info_t, m, t)
static const field_desc_t trigger_fields[] = {
	T(trig_id, FT_U32), T(res_type, FT_U16), T(res_id, FT_STR),
	T(trig_type, FT_U32), T(offset, FT_U32), T(user_id, FT_U32),
	T(group_id, FT_U32), T(flags, FT_U16), T(program, FT_STR),
	FIELD_END
};
#undef T

/* The smallest packed trigger: the fixed fields and two string lengths. */
#define TRIGGER_MIN_BYTES 24

void trigger_info_free_members(trigger_info_t *t)
{
	if (t)
		fields_free(trigger_fields, t);
}

void trigger_info_msg_free(trigger_info_msg_t *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->cnt; i++)
		fields_free(trigger_fields, &m->triggers[i]);
	xfree(m->triggers);
	xfree(m);
}

void msg_trigger_pack(buf_t *b, const void *data)
{
	const trigger_info_msg_t *m = data;

	pack32(b, m->cnt);
	for (uint32_t i = 0; i < m->cnt; i++)
		fields_pack(b, trigger_fields, &m->triggers[i]);
}

void msg_trigger_free(void *data)
{
	trigger_info_msg_free(data);
}

int msg_trigger_unpack(buf_t *b, void **data)
{
	trigger_info_msg_t *m = xmalloc(sizeof(*m));
	uint32_t n;

	*data = NULL;
	if (unpack32(b, &n) < 0 || n > TRIGGER_MSG_MAX ||
	    n > buf_remaining(b) / TRIGGER_MIN_BYTES)
		goto error;
	m->triggers = xcalloc(n ? n : 1, sizeof(*m->triggers));
	for (; m->cnt < n; m->cnt++)
		if (fields_unpack(b, trigger_fields, &m->triggers[m->cnt]) < 0)
			goto error;
	*data = m;
	return 0;
error:
	trigger_info_msg_free(m);
	return -1;
}
