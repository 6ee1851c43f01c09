/* msg_step_abort.c — the body of REQUEST_STEP_ABORT (msg_types.h): srun
 * ends a step it created but could not launch, so the step does not stay
 * behind holding the allocation's CPUs. */
#include "common/msg_types.h"
#include "common/msg_types_int.h"

const field_desc_t msg_step_abort_fields[] = {
	FIELD(step_abort_msg_t, job_id, FT_U32),
	FIELD(step_abort_msg_t, step_id, FT_U32),
	FIELD(step_abort_msg_t, rc, FT_U32),
	FIELD_END
};
