/* cli_shares.h — the fair-share table as a document: sshare --json and
 * slurmrestd's GET shares (Slurm 25.05's shares_resp_msg). */
#ifndef SLUICE_CLI_SHARES_H
#define SLUICE_CLI_SHARES_H

#include <json-c/json.h>

#include "common/msg_types.h"

/* {"shares": [assoc_shares_obj...], "total_shares": N} from the
 * controller's RESPONSE_SHARE_INFO table. */
json_object *cli_shares_json(const table_resp_msg_t *t);

#endif
