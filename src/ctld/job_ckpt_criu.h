/* job_ckpt_criu.h — CheckpointType=checkpoint/criu, the controller's
 * side: the batch host's slurmd is asked (off the loop, on an agent
 * worker) to have the job's batch stepd dump its processes with CRIU.
 * A failure is recorded as an event of the job with CRIU's reason, and
 * the checkpoint goes on as a plain one (signal, requeue): the job is
 * never lost to it.
 */
#ifndef SLUICE_CTLD_JOB_CKPT_CRIU_H
#define SLUICE_CTLD_JOB_CKPT_CRIU_H

#include <stdint.h>

#include "ctld/job_mgr.h"

/* Ask j's batch host to dump j's processes into dir/criu. */
void job_ckpt_criu_dump(job_record_t *j, const char *dir);
/* (job_ckpt.c) The dump of job_id failed: why, as the node said. */
void job_ckpt_criu_failed(uint32_t job_id, const char *why);
/* (job_ckpt.c) The dump of job_id succeeded. */
void job_ckpt_criu_done(uint32_t job_id);

#endif
