/* controller.h — what every part of slurmctld may ask of the controller:
 * the current configuration, the event loop, who is an operator, and the
 * requests to schedule, save state or stop.
 *
 * All of it belongs to the loop thread; worker threads use none of it.
 */
#ifndef SLUICE_CTLD_CONTROLLER_H
#define SLUICE_CTLD_CONTROLLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "common/conf.h"
#include "common/conf_params.h"

struct event_base;

/* The configuration in force (replaced by reconfigure). */
const slurm_conf_t *ctld_conf(void);
struct event_base  *ctld_base(void);
time_t              ctld_boot_time(void);
/* root, SlurmUser, or an accounting Operator or Administrator
 * (rpc_privilege() decides) */
bool                ctld_is_operator(uid_t uid);
/* Does PrivateData hide `what` from uid? */
bool                ctld_hides(uint32_t what, uid_t uid);
/* Ask the loop to leave after the current iteration (state is saved). */
void                ctld_shutdown(void);
/* The journal refused changes that memory already holds: answer what is
 * owed, then re-execute (same pid, listening socket and lease) and
 * recover StateSaveLocation, so memory is again exactly what was
 * acknowledged.  Nothing is saved before. */
void                ctld_restart_from_disk(void);
bool                ctld_restarting(void);
/* Re-read slurm.conf; 0 or a slurm_err_t, the old config kept on error. */
int                 ctld_reconfigure(void);
/* scontrol setdebug: the log level until the next reconfigure (-1: the
 * config's again); the level in force. */
void                ctld_set_debug_level(int level);
int                 ctld_debug_level(void);

#endif
