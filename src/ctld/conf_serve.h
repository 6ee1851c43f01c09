/* conf_serve.h — configless: the controller serves its configuration.
 *
 * With SlurmctldParameters=enable_configless, slurm.conf and the files
 * beside it (conf_files.h) are read into memory at start and at each
 * reconfigure (not per request: the loop does not read files while
 * serving), answered to REQUEST_CONFIG, and pushed to the slurmds with
 * REQUEST_RECONFIGURE_WITH_CONFIG by scontrol reconfigure, and to the
 * sackds that registered (login nodes).  Without it
 * REQUEST_CONFIG is refused with ESLURM_CONFIGLESS_DISABLED.
 */
#ifndef SLUICE_CTLD_CONF_SERVE_H
#define SLUICE_CTLD_CONF_SERVE_H

#include <stdbool.h>

#include "common/conf.h"
#include "common/msg_types.h"
#include "common/net.h"

/* Read the files again for c (start, reconfigure).  0, or -1 with err
 * when configless is on and slurm.conf cannot be read (the old files
 * stay served). */
int  conf_serve_reload(const slurm_conf_t *c, char *err, size_t errlen);
void conf_serve_fini(void);
/* The files being served, or NULL when configless is off. */
const config_files_msg_t *conf_serve_files(void);
/* True if params (SlurmctldParameters) has enable_configless. */
bool conf_serve_enabled(const char *params);
void conf_serve_rpc(net_conn_t *c, slurm_msg_t *m);

/* sackd: REQUEST_SACKD_REGISTER is answered like REQUEST_CONFIG and
 * remembers the sackd (its address and port, in memory, at most
 * CONF_SERVE_MAX_SACKDS); conf_serve_push_sackds (reconfigure) sends
 * each the files (REQUEST_RECONFIGURE_WITH_CONFIG), forgetting one that
 * does not take them. */
#define CONF_SERVE_MAX_SACKDS 4096
void conf_serve_rpc_sackd(net_conn_t *c, slurm_msg_t *m);
void conf_serve_push_sackds(int timeout_ms);

#endif
