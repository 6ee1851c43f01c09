/* job_will_run.h — REQUEST_JOB_WILL_RUN (sbatch --test-only): validate a
 * request as a submit would, then say when, where and on how many CPUs it
 * would start, without creating a job.  The start is now if it fits on the
 * free resources, else the end time of the running job after which it
 * first fits (running jobs ending in end time order). */
#ifndef SLUICE_CTLD_JOB_WILL_RUN_H
#define SLUICE_CTLD_JOB_WILL_RUN_H

#include "common/net.h"

void job_mgr_rpc_will_run(net_conn_t *c, slurm_msg_t *m);

#endif
