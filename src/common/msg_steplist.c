/* msg_steplist.c — the processes of a node's steps (msg_types.h:
 * REQUEST_STEP_PIDS, RESPONSE_STEP_PIDS). */
#include <stddef.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

const field_desc_t msg_step_pids_request_fields[] = {
	FIELD(step_pids_request_msg_t, job_id, FT_U32),
	FIELD_END
};

#define COLS 6

static uint32_t **_col(step_pids_msg_t *m, int i)
{
	uint32_t **c[COLS] = { &m->job_ids, &m->step_ids, &m->pids, &m->lids,
			       &m->gtids, &m->uids };

	return c[i];
}

void msg_step_pids_pack(buf_t *b, const void *data)
{
	step_pids_msg_t *m = (step_pids_msg_t *) data;

	for (int i = 0; i < COLS; i++)
		pack32_array(b, *_col(m, i), m->cnt);
}

void msg_step_pids_free(void *data)
{
	step_pids_msg_t *m = data;

	if (!m)
		return;
	for (int i = 0; i < COLS; i++)
		xfree(*_col(m, i));
	xfree(m);
}

int msg_step_pids_unpack(buf_t *b, void **data)
{
	step_pids_msg_t *m = xmalloc(sizeof(*m));

	for (int i = 0; i < COLS; i++) {
		uint32_t n = 0;

		/* every column as long as the first */
		if (unpack32_array(b, _col(m, i), &n, STEP_PIDS_MAX) < 0 ||
		    (i && n != m->cnt)) {
			msg_step_pids_free(m);
			return -1;
		}
		m->cnt = n;
	}
	*data = m;
	return 0;
}
