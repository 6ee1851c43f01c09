/* ha.h — several SlurmctldHost entries: which one we are, the lease in
 * StateSaveLocation that makes exactly one of them the controller, standby
 * mode (watch the others, take over after SlurmctldTimeout) and the
 * hand-over requests (REQUEST_CONTROL, REQUEST_TAKEOVER,
 * REQUEST_CONTROL_STATUS).
 *
 * The lease is the file StateSaveLocation/ctld_lease: the controller in
 * control holds an fcntl write lock (F_OFD_SETLK) on it for as long as it
 * runs (the kernel drops it when the process dies) and writes into it an
 * epoch that grows by one at every acquisition.  Only the holder reads or writes the
 * rest of StateSaveLocation; a standby never touches it.
 */
#ifndef SLUICE_CTLD_HA_H
#define SLUICE_CTLD_HA_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/conf.h"
#include "common/net.h"

/* Which SlurmctldHost entry this process is: SLUICE_CTLD_HOST=NAME (test
 * override, documented), else this host's name; a single entry is always
 * ours.  Also reads SLUICE_CTLD_STANDBY (set by a controller that handed
 * over and re-executed itself).  0 or -1 with err. */
int         ha_init(const slurm_conf_t *c, char *err, size_t errlen);
int         ha_index(void);
const char *ha_name(void);
/* Address to listen on: our entry's address when there are several
 * entries (they may share a port on one machine), else NULL (any). */
const char *ha_listen_addr(void);
/* Start in standby: a backup entry, or re-executed after a hand-over. */
bool        ha_start_standby(void);
/* Was this process started by the hand-over re-exec (already detached)? */
bool        ha_reexeced(void);

/* Take the lease without waiting: 1 taken, 0 another controller holds it,
 * -1 error (logged). */
int         ha_lease_try(void);
/* Still ours?  (The epoch in the file is the one we wrote.) */
bool        ha_lease_check(void);
void        ha_lease_release(void);
uint32_t    ha_lease_epoch(void);

/* Standby: serve pings and the hand-over requests on our address, answer
 * everything else ESLURM_IN_STANDBY_MODE, watch the other controllers.
 * Returns 0 once this process holds the lease (the caller then recovers
 * state and serves), 1 when told to shut down. */
int         ha_standby_run(void);

/* The controller in control: handlers for the rpc table. */
void        ha_rpc_control_status(net_conn_t *c, slurm_msg_t *m);
void        ha_rpc_control(net_conn_t *c, slurm_msg_t *m);
void        ha_rpc_takeover(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_CONTROL was accepted: the loop is ending; everything but pings
 * and status requests is answered ESLURM_IN_STANDBY_MODE meanwhile, and
 * the process re-executes itself as a standby after saving state. */
bool        ha_relinquishing(void);
/* Replace this process by a fresh slurmctld in standby (same argv). */
void        ha_reexec_standby(char **argv);
/* Before re-executing as the same controller (ctld_restart_from_disk):
 * the lease fd survives the exec and the new image adopts it in
 * ha_init (SLUICE_CTLD_LEASE_FD), keeping its lock and epoch.  0 or -1. */
int         ha_restart_keep_lease(void);
void        ha_set_control_time(time_t t);

#endif
