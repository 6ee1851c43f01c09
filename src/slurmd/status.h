/* status.h — REQUEST_DAEMON_STATUS (scontrol show slurmd): what this
 * slurmd says of itself.  Anyone may ask, as of Slurm's. */
#ifndef SLUICE_SLURMD_STATUS_H
#define SLUICE_SLURMD_STATUS_H

#include "common/net.h"
#include "slurmd/slurmd.h"

void status_reply(slurmd_t *sd, net_conn_t *conn);

#endif
