/* msg_config.c — configless messages' bodies (msg_types.h): what asks
 * for the configuration, the files the controller answers with, and a
 * sackd's registration for the files of later reconfigures. */
#include <stddef.h>

#include "common/msg_types.h"
#include "common/msg_types_int.h"

const field_desc_t msg_config_request_fields[] = {
	FIELD(config_request_msg_t, flags, FT_U32),
	FIELD(config_request_msg_t, node_name, FT_STR),
	FIELD_END
};

const field_desc_t msg_config_files_fields[] = {
	FIELD(config_files_msg_t, names, FT_STRLIST),
	FIELD(config_files_msg_t, texts, FT_STRLIST),
	FIELD_END
};

const field_desc_t msg_sackd_register_fields[] = {
	FIELD(sackd_register_msg_t, port, FT_U16),
	FIELD_END
};
