/* msg_part.c — the field table of REQUEST_CREATE/UPDATE/DELETE_PARTITION
 * (part_update_msg_t, msg_types.h). */
#include <stddef.h>

#include "common/fields.h"
#include "common/msg_types.h"
#include "common/msg_types_int.h"

const field_desc_t msg_part_update_fields[] = {
	FIELD(part_update_msg_t, name, FT_STR),
	FIELD(part_update_msg_t, words, FT_STRLIST),
	FIELD_END
};
