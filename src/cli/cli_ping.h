/* cli_ping.h — is each SlurmctldHost up: scontrol ping and slurmrestd's
 * GET ping, from one place. */
#ifndef SLUICE_CLI_PING_H
#define SLUICE_CLI_PING_H

#include <json-c/json.h>

/* One controller_ping object per SlurmctldHost, in order ({hostname,
 * pinged "UP"/"DOWN", responding, latency (us), mode "primary"/"backup"/
 * "backupN", primary}); *down counts those that did not answer. */
json_object *cli_ping_ctlds(int *down);

#endif
