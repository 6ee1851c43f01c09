/* msg_notify.c — scontrol notify's message (msg_types.h:
 * REQUEST_JOB_NOTIFY, SRUN_USER_MSG) and the
 * end of a salloc's allocation (SRUN_JOB_COMPLETE). */
#include <stddef.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"

const field_desc_t msg_job_notify_fields[] = {
	FIELD(job_notify_msg_t, job_id, FT_U32),
	FIELD(job_notify_msg_t, message, FT_STR),
	FIELD_END
};

const field_desc_t msg_srun_job_complete_fields[] = {
	FIELD(srun_job_complete_msg_t, job_id, FT_U32),
	FIELD(srun_job_complete_msg_t, job_state, FT_U32),
	FIELD_END
};
