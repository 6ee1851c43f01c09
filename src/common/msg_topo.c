/* msg_topo.c — RESPONSE_TOPO_INFO's body (msg_types.h): scontrol show
 * topology's lines, as the controller's topology prints them. */
#include <stddef.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"

#define T(m, t) FIELD(topo_info_msg_t, m, t)
const field_desc_t msg_topo_fields[] = {
	T(text, FT_STR), T(configured, FT_BOOL),
	FIELD_END
};
#undef T
