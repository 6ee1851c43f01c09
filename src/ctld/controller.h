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

struct event_base;

/* The configuration in force (replaced by reconfigure). */
const slurm_conf_t *ctld_conf(void);
struct event_base  *ctld_base(void);
time_t              ctld_boot_time(void);
/* root or SlurmUser */
bool                ctld_is_operator(uid_t uid);
/* PrivateData=: what it hides from users who are not operators. */
enum {
	PRIVATE_DATA_JOBS         = 1 << 0,
	PRIVATE_DATA_NODES        = 1 << 1,
	PRIVATE_DATA_PARTITIONS   = 1 << 2,
	PRIVATE_DATA_USAGE        = 1 << 3,
	PRIVATE_DATA_USERS        = 1 << 4,
	PRIVATE_DATA_ACCOUNTS     = 1 << 5,
	PRIVATE_DATA_RESERVATIONS = 1 << 6,
	PRIVATE_DATA_EVENTS       = 1 << 7,
};
/* Parse a PrivateData value into PRIVATE_DATA_* bits.  0, or -1 with a
 * message in err naming an unknown word. */
int                 ctld_parse_private_data(const char *val, uint32_t *out,
					    char *err, size_t errlen);
/* Does PrivateData hide `what` from uid? */
bool                ctld_hides(uint32_t what, uid_t uid);
/* Ask the loop to leave after the current iteration (state is saved). */
void                ctld_shutdown(void);
/* Re-read slurm.conf; 0 or a slurm_err_t, the old config kept on error. */
int                 ctld_reconfigure(void);

#endif
