/* salloc_msg.h — salloc's listener for the controller's messages about
 * its allocation.
 *
 * salloc listens on a port of its own (any address, an ephemeral port)
 * and names it in the allocation request (job_desc_t.alloc_resp_port);
 * the controller keeps it with the address the request came from and
 * sends SRUN_USER_MSG there for `scontrol notify`, which salloc prints
 * on its standard error as "salloc: <message>".  Only root and SlurmUser
 * are heard; anything else is refused and logged at debug level.
 */
#ifndef SLUICE_CLI_SALLOC_MSG_H
#define SLUICE_CLI_SALLOC_MSG_H

#include <stdint.h>

/* Start the listener thread: its port, or 0 (and a debug line) when it
 * cannot listen: the allocation is made without one. */
uint16_t salloc_msg_start(void);

#endif
