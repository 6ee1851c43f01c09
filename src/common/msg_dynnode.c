/* msg_dynnode.c — scontrol create/delete NodeName= bodies (msg_types.h). */
#include <stddef.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"

const field_desc_t msg_dyn_node_fields[] = {
	FIELD(dyn_node_msg_t, node_line, FT_STR),
	FIELD_END
};
