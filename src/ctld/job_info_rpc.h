/* job_info_rpc.h — REQUEST_JOB_INFO (squeue, scontrol show job) and
 * REQUEST_BATCH_SCRIPT. */
#ifndef SLUICE_CTLD_JOB_INFO_RPC_H
#define SLUICE_CTLD_JOB_INFO_RPC_H

#include "common/msg.h"
#include "common/net.h"

void job_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_BATCH_SCRIPT: the job's user, operators, root, SlurmUser.  The
 * script is read from StateSaveLocation on the loop (one pread). */
void job_mgr_rpc_batch_script(net_conn_t *c, slurm_msg_t *m);

#endif
