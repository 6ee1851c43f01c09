/* cli_lic.h — licenses in the commands: scontrol show licenses (text,
 * --json, --yaml) and the records REST's GET .../licenses/ answers with.
 */
#ifndef SLUICE_CLI_LIC_H
#define SLUICE_CLI_LIC_H

#include <stdbool.h>

#include <json-c/json.h>

#include "cli/cli_show.h"
#include "common/msg_types.h"

/* name NULL: all.  The command's exit code. */
int scontrol_lic_show(const char *name, bool one_liner, cli_doc_t doc);
/* The licenses of m (name NULL: all), sorted by name, as the
 * data_parser's license records (LicenseName, Total, Used, ...). */
json_object *cli_lic_json(const license_info_msg_t *m, const char *name);

#endif
