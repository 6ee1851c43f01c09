/* server.h — requests on the stepd's Unix socket (from slurmd only):
 * REQUEST_SIGNAL_JOB and REQUEST_TERMINATE_JOB with a node_signal_msg_t.
 * Senders other than root and SlurmUser get ESLURM_ACCESS_DENIED. */
#ifndef SLUICE_STEPD_SERVER_H
#define SLUICE_STEPD_SERVER_H

#include "slurmd/stepd/stepd.h"

/* Listen on sd->sock_path and serve on sd->base.  0 or -1. */
int  server_start(stepd_t *sd);
void server_stop(stepd_t *sd);

#endif
