/* cli_ping.h — is each SlurmctldHost up, is slurmdbd up: scontrol ping,
 * sacctmgr ping and slurmrestd's GET ping (/slurm/ and /slurmdb/), from
 * one place. */
#ifndef SLUICE_CLI_PING_H
#define SLUICE_CLI_PING_H

#include <json-c/json.h>
#include <stdbool.h>

/* One controller_ping object per SlurmctldHost, in order ({hostname,
 * pinged "UP"/"DOWN", responding, latency (us), mode "primary"/"backup"/
 * "backupN", primary}); *down counts those that did not answer. */
json_object *cli_ping_ctlds(int *down);
/* The slurmdbd_ping object of AccountingStorageHost ({hostname,
 * responding, latency (us), primary}); *up: it answered. */
json_object *cli_ping_dbd(bool *up);

#endif
