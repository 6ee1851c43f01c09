/* cli_heartbeat.h — InactiveLimit, the client's half: the srun or
 * salloc that made an allocation tells the controller every
 * InactiveLimit/3 seconds that it is alive (REQUEST_ALLOC_HEARTBEAT),
 * from a thread of its own, so a command that is stopped (or hangs)
 * stops telling.  The controller's answer carries its InactiveLimit,
 * which sets the next interval (HEARTBEAT_SLOW_SEC while it is 0). */
#ifndef SLUICE_CLI_HEARTBEAT_H
#define SLUICE_CLI_HEARTBEAT_H

#include <stdint.h>

#include "common/job_info.h"

/* The request asks to be judged by InactiveLimit (srun, salloc). */
void cli_heartbeat_mark(job_desc_t *d);
/* Start the heartbeat thread for job_id (once per process). */
void cli_heartbeat_start(uint32_t job_id);
/* Stop it (before the allocation is released); no-op if not started. */
void cli_heartbeat_stop(void);

#endif
