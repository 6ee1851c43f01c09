/* salloc_msg.h — salloc's listener for the controller's messages about
 * its allocation.
 *
 * salloc listens on a port of its own (any address, an ephemeral port)
 * and names it in the allocation request (job_desc_t.alloc_resp_port);
 * the controller keeps it with the address the request came from and
 * sends SRUN_USER_MSG there for `scontrol notify`, which salloc prints
 * on its standard error as "salloc: <message>", and SRUN_JOB_COMPLETE
 * when the allocation ends under it (scancel, time limit): salloc says
 * "Job allocation N has been revoked." (or that the job exceeded its
 * time limit), sends its command the --kill-command signal if one was
 * asked for, and, once the command exits, does not release the
 * allocation again.  Only root and SlurmUser are heard; anything else
 * is refused and logged at debug level.
 */
#ifndef SLUICE_CLI_SALLOC_MSG_H
#define SLUICE_CLI_SALLOC_MSG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Start the listener thread: its port, or 0 (and a debug line) when it
 * cannot listen: the allocation is made without one. */
uint16_t salloc_msg_start(void);

/* The command salloc runs (0: none yet) and the signal it gets when
 * the allocation is revoked (0: none, salloc's default).  A revocation
 * that came before the command started signals it now. */
void salloc_msg_command(pid_t pid, int kill_signal);

/* salloc is about to release the allocation itself: false if the
 * controller said it had ended already (nothing to release).  News
 * coming later is not printed. */
bool salloc_msg_release(void);

#endif
