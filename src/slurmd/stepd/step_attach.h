/* step_attach.h — sattach clients of a step stepd.
 *
 * REQUEST_REATTACH_TASKS (from slurmd, user_id = the asking user): if
 * that user owns the step or is root or SlurmUser, the stepd connects to
 * sattach's host:port and sends IO_INIT with sattach's io_key; from then
 * on the tasks' output, exits and IO_DONE go to sattach as to srun, and
 * sattach's IO_STDIN frames reach the tasks.  A client that goes away is
 * just dropped (unlike srun, whose loss kills the step).
 */
#ifndef SLUICE_STEPD_STEP_ATTACH_H
#define SLUICE_STEPD_STEP_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/msg_types.h"
#include "common/net.h"
#include "slurmd/stepd/step.h"

/* Answer the request (rc) and, if allowed, connect the new client. */
void step_attach_request(step_t *st, net_conn_t *conn,
			 const reattach_tasks_msg_t *r);
/* A frame (header + payload) for every attached client. */
void step_attach_send(step_t *st, const uint8_t *hdr, size_t hlen,
		      const void *p, size_t len);
/* No attached client has output left to write. */
bool step_attach_drained(const step_t *st);
void step_attach_free(step_t *st);

#endif
