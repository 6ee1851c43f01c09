/* msg_reboot.c — REQUEST_REBOOT_NODES's body (msg_types.h): which nodes
 * to reboot, why, ASAP or not, and the state each takes once back. */
#include <stddef.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"

#define R(m, t) FIELD(reboot_msg_t, m, t)
const field_desc_t msg_reboot_fields[] = {
	R(node_list, FT_STR), R(reason, FT_STR), R(flags, FT_U16),
	R(next_state, FT_U32),
	FIELD_END
};
#undef R
