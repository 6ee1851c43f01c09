/* msg_archive.c — the body of REQUEST_DBD_ARCHIVE (msg_types.h):
 * `sacctmgr archive dump` and `sacctmgr archive load`. */
#include "common/msg_types.h"
#include "common/msg_types_int.h"

#define A(m, t) FIELD(dbd_archive_msg_t, m, t)
const field_desc_t msg_dbd_archive_fields[] = {
	A(op, FT_U16), A(kinds, FT_U16), A(dir, FT_STR),
	A(purge_event, FT_STR), A(purge_job, FT_STR), A(purge_step, FT_STR),
	A(purge_suspend, FT_STR), A(file, FT_STR),
	FIELD_END
};
#undef A
