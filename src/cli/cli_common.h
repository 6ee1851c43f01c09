/* cli_common.h — what every command does first, and how it talks to the
 * controller.
 *
 * cli_init() sets up logging on stderr as "prog: error: msg" (verbosity
 * from -v counts), loads slurm.conf (on failure prints
 * "prog: error: ..." naming file:line and exits 1), and loads the auth
 * plugin.  Commands that work without a controller (scontrol show
 * hostnames) may call cli_init_noconf() instead.
 */
#ifndef SLUICE_CLI_COMMON_H
#define SLUICE_CLI_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/msg.h"

void cli_init(const char *prog, int verbosity);
void cli_init_noconf(const char *prog, int verbosity);
/* slurm.conf, read once per process and kept (the SPANK stack needs it
 * before cli_init()): NULL with err filled when it cannot be loaded. */
const slurm_conf_t *cli_conf_load(char *err, size_t errlen);
const slurm_conf_t *cli_conf(void);
/* SLURM_CONF_SERVER ("host[:port][,host2[:port]]", no SLURM_CONF): the
 * controller's files (configless), fetched with auth/munge's default
 * socket into a directory of this process removed at exit, then loaded.
 * NULL with err (cli_conf_server.c). */
slurm_conf_t *cli_conf_fetch(const char *servers, char *err, size_t errlen);
/* Where a configless node or login node keeps the files for the
 * commands (Slurm's path). */
#define CLI_CONF_CACHE "/run/slurm/conf"
const char *cli_prog(void);

/* One request to the controller (tries each SlurmctldHost in order, with
 * MessageTimeout).  Returns 0 and fills resp (caller msg_free()s), or a
 * slurm_err_t (SLURM_COMMUNICATIONS_CONNECTION_ERROR when no controller
 * answers). */
int cli_ctld_rpc(uint16_t type, const void *req, slurm_msg_t *resp);
/* cli_ctld_rpc expecting a reply of type reply with a body: 0, or 1 with
 * "<what> error: <why>" on stderr (resp freed). */
int cli_ctld_load(uint16_t type, const void *req, uint16_t reply,
		  slurm_msg_t *resp, const char *what);
/* For RC-answered requests: transport error, or 0 with *rc set.  A text
 * the controller sends with the code is printed on stderr. */
int cli_ctld_rpc_rc(uint16_t type, const void *req, int *rc);
/* One request to SlurmctldHost[inx] only (scontrol takeover, shutdown,
 * ping): transport error, or 0 with resp filled. */
int cli_ctld_rpc_at(size_t inx, uint16_t type, const void *req,
		    slurm_msg_t *resp);
/* Send cli_ctld_rpc's requests to another cluster's controller at
 * host:port (-M, cli_clusters.h); host NULL: slurm.conf's again. */
void cli_ctld_set_remote(const char *host, uint16_t port);
/* If resp is RESPONSE_SLURM_RC, its code; else 0. */
int cli_resp_rc(const slurm_msg_t *resp);

/* "Unable to contact slurm controller (connect failure)" style message
 * for a transport error, as Slurm's commands word it. */
const char *cli_comm_strerror(int err);
/* Errors of the transport (the request may not have reached a
 * controller): after them another controller may still answer. */
bool cli_err_is_transport(int rc);

/* "J+K[.S]" (a hetjob component, as squeue and sacct name it): the
 * component's own job id into *job_id and the rest (".S" or "") into
 * *rest.  1 if spec has no '+' (nothing set), 0, or -1 when it is
 * malformed or the controller knows no such component. */
int cli_het_comp(const char *spec, uint32_t *job_id, const char **rest);

#endif
