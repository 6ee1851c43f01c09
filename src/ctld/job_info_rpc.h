/* job_info_rpc.h — REQUEST_JOB_INFO (squeue, scontrol show job) and
 * REQUEST_BATCH_SCRIPT. */
#ifndef SLUICE_CTLD_JOB_INFO_RPC_H
#define SLUICE_CTLD_JOB_INFO_RPC_H

#include <time.h>

#include "common/msg.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "ctld/rpc.h"

/* Every job r asks for that v may see (RESPONSE_JOB_INFO's body, packed at
 * version) in steps, the loop serving between them: _begin notes the jobs
 * there are now (r's ids are borrowed until the end); each _step packs
 * up to max more of them as they are then and returns the body (caller
 * frees; p is freed) once all are in, else NULL; _abort gives up. */
typedef struct job_info_pack job_info_pack_t;
job_info_pack_t *job_info_pack_begin(const job_info_request_msg_t *r,
				     const rpc_viewer_t *v, uint16_t version,
				     time_t now);
buf_t           *job_info_pack_step(job_info_pack_t *p, size_t max);
void             job_info_pack_abort(job_info_pack_t *p);

/* REQUEST_JOB_INFO: a few jobs by id at once; the whole queue in slices
 * of the loop's time (job_info_rpc.c, top). */
void job_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_BATCH_SCRIPT: the job's user, operators, root, SlurmUser.  The
 * script is read from StateSaveLocation on the loop (one pread). */
void job_mgr_rpc_batch_script(net_conn_t *c, slurm_msg_t *m);

#endif
