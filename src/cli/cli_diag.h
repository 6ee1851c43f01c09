/* cli_diag.h — the controller's statistics as a document: sdiag --json
 * and slurmrestd's GET diag (the stats_msg of Slurm 25.05). */
#ifndef SLUICE_CLI_DIAG_H
#define SLUICE_CLI_DIAG_H

#include <json-c/json.h>

#include "common/msg_types.h"

/* The "statistics" object. */
json_object *cli_diag_json(const stats_info_response_msg_t *s);

#endif
