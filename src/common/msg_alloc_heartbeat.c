/* msg_alloc_heartbeat.c — the bodies of REQUEST_ALLOC_HEARTBEAT and
 * RESPONSE_ALLOC_HEARTBEAT (msg_types.h): InactiveLimit's heartbeat from
 * the srun or salloc that made an allocation, and the controller's
 * answer. */
#include "common/msg_types.h"
#include "common/msg_types_int.h"

const field_desc_t msg_alloc_heartbeat_fields[] = {
	FIELD(alloc_heartbeat_msg_t, job_id, FT_U32),
	FIELD_END
};

const field_desc_t msg_alloc_heartbeat_resp_fields[] = {
	FIELD(alloc_heartbeat_resp_msg_t, job_id, FT_U32),
	FIELD(alloc_heartbeat_resp_msg_t, rc, FT_U32),
	FIELD(alloc_heartbeat_resp_msg_t, inactive_limit, FT_U16),
	FIELD_END
};
