/* msg_ckpt.c — the bodies of checkpointing (msg_types.h):
 * REQUEST_CHECKPOINT (the job to checkpoint, as scontrol names it: "123"
 * or "123_4") and REQUEST_CHECKPOINT_TASKS (controller -> slurmd -> batch
 * stepd: the job and its checkpoint directory). */
#include "common/msg_types.h"
#include "common/msg_types_int.h"
#include "common/xmalloc.h"

void msg_ckpt_pack(buf_t *b, const void *data)
{
	const checkpoint_msg_t *m = data;

	packstr(b, m->job_id_str);
}

void msg_ckpt_free(void *data)
{
	checkpoint_msg_t *m = data;

	if (!m)
		return;
	xfree(m->job_id_str);
	xfree(m);
}

int msg_ckpt_unpack(buf_t *b, void **data)
{
	checkpoint_msg_t *m = xmalloc(sizeof(*m));

	*data = NULL;
	if (unpackstr(b, &m->job_id_str) < 0) {
		msg_ckpt_free(m);
		return -1;
	}
	*data = m;
	return 0;
}

/* REQUEST_CHECKPOINT_TASKS: the job and its checkpoint directory. */
void msg_ckpt_tasks_pack(buf_t *b, const void *data)
{
	const checkpoint_tasks_msg_t *m = data;

	pack32(b, m->job_id);
	packstr(b, m->dir);
}

void msg_ckpt_tasks_free(void *data)
{
	checkpoint_tasks_msg_t *m = data;

	if (!m)
		return;
	xfree(m->dir);
	xfree(m);
}

int msg_ckpt_tasks_unpack(buf_t *b, void **data)
{
	checkpoint_tasks_msg_t *m = xmalloc(sizeof(*m));

	*data = NULL;
	if (unpack32(b, &m->job_id) < 0 || unpackstr(b, &m->dir) < 0) {
		msg_ckpt_tasks_free(m);
		return -1;
	}
	*data = m;
	return 0;
}
