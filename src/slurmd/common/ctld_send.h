/* ctld_send.h — messages from a node to the controller that must arrive.
 *
 * Registration, batch completion and epilog completion are queued here and
 * sent in order by one background thread, each retried with backoff (to
 * every SlurmctldHost in turn) until some controller answers.  A controller
 * that is restarting therefore still gets the message once it is back.
 * Any answer counts as acknowledged; a non-zero rc is only logged.
 *
 * The controller may answer a batch completion that ended a job with the
 * job's REQUEST_TERMINATE_JOB for this node instead of a return code (it
 * then sends slurmd none): the notify byte says so, and whether the
 * controller counted the node done already (TERM_NODE_DONE).
 */
#ifndef SLUICE_SLURMD_CTLD_SEND_H
#define SLUICE_SLURMD_CTLD_SEND_H

#include <stdint.h>

#include "common/conf.h"

typedef struct ctld_sender ctld_sender_t;

/* What the notify byte says. */
#define CTLD_SEND_ACKED 1       /* answered */
#define CTLD_SEND_ENDED 2       /* answered with the job's terminate */
#define CTLD_SEND_DONE  3       /* the same, and the node is done
				 * (TERM_NODE_DONE: no epilog report) */

/* conf must outlive the sender.  Starts the thread. */
ctld_sender_t *ctld_sender_create(const slurm_conf_t *conf);
/* The same, for a process that sends one or two messages and may wait
 * for each (a slurmstepd): a message is tried once in the caller's
 * thread (up to MessageTimeout per controller); only if no controller
 * answered does the thread start and retry it and what follows.  A
 * thread costs ~0.6 ms of CPU to start and end in a new process here. */
ctld_sender_t *ctld_sender_create_direct(const slurm_conf_t *conf);
/* Queue a message (or send it now, see ctld_sender_create_direct); the
 * sender owns data (freed with msg_body_free).
 * If notify_fd >= 0, one byte (CTLD_SEND_*) is written to it once
 * acknowledged. */
void ctld_sender_queue(ctld_sender_t *s, uint16_t type, void *data,
		       int notify_fd);
/* Messages of this type are brought up to date just before each try
 * (in the sender's thread): fn(data, arg) may replace what the message
 * says of the node's present state (a registration's running jobs, so
 * one that waited in the queue does not report a job launched meanwhile
 * as missing).  One hook per sender. */
void ctld_sender_set_refresh(ctld_sender_t *s, uint16_t type,
			     void (*fn)(void *data, void *arg), void *arg);
/* Wait until everything queued so far is acknowledged; timeout_ms < 0
 * waits forever.  0, or -1 on timeout. */
int  ctld_sender_flush(ctld_sender_t *s, int timeout_ms);
/* Stop the thread; messages not yet acknowledged are dropped. */
void ctld_sender_destroy(ctld_sender_t *s);

#endif
