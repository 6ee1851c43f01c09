/* msg_power.c — REQUEST_POWER_NODES's body (msg_types.h): scontrol power
 * up|down [asap|force] <nodes> [reason=]. */
#include <stddef.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"

#define P(m, t) FIELD(power_msg_t, m, t)
const field_desc_t msg_power_fields[] = {
	P(node_list, FT_STR), P(reason, FT_STR), P(flags, FT_U16),
	FIELD_END
};
#undef P
