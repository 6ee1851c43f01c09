/* msg_debug.c — the bodies of REQUEST_SET_DEBUG_LEVEL and
 * REQUEST_SET_DEBUG_FLAGS (msg_types.h): `scontrol setdebug` and
 * `scontrol setdebugflags`. */
#include "common/msg_types.h"
#include "common/msg_types_int.h"

const field_desc_t msg_set_debug_level_fields[] = {
	FIELD(set_debug_level_msg_t, debug_level, FT_U32),
	FIELD_END
};

const field_desc_t msg_set_debug_flags_fields[] = {
	FIELD(set_debug_flags_msg_t, debug_flags_minus, FT_U64),
	FIELD(set_debug_flags_msg_t, debug_flags_plus, FT_U64),
	FIELD_END
};
