/* step_list.h — REQUEST_STEP_PIDS at slurmd: the processes of every
 * step of this node (scontrol listpids, listjobs, liststeps, pidinfo),
 * gathered from each stepd's socket in the spool directory.  Any user
 * may ask; one who is not root or SlurmUser sees only his jobs' rows. */
#ifndef SLUICE_SLURMD_STEP_LIST_H
#define SLUICE_SLURMD_STEP_LIST_H

#include "common/net.h"
#include "slurmd/slurmd.h"

void step_list_req(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);
/* REQUEST_JOB_NOTIFY (from the controller): to the job's stepds here. */
void step_list_notify(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);

#endif
