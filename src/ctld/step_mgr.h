/* step_mgr.h — job steps in the controller: srun's steps (N.0, N.1, ...)
 * inside running jobs, their CPUs within the allocation and their
 * credentials; the batch step is reported as N.batch.
 *
 * Steps hang off their job (job_record_t.steps) and are saved with it
 * (the job record's "job.steps" field): a step is on disk before srun
 * hears of it, and its end before the node's report is answered, so a
 * restarted controller still knows the running steps and their next id.
 * They end with the job.  A step takes, on each of its nodes, all the
 * job's CPUs there (Slurm's default), only what its tasks need
 * (--exact), or none (--overlap).
 */
#ifndef SLUICE_CTLD_STEP_MGR_H
#define SLUICE_CTLD_STEP_MGR_H

#include "common/net.h"
#include "ctld/job_mgr.h"

/* REQUEST_JOB_STEP_CREATE: RESPONSE_JOB_STEP_CREATE or rc
 * (ESLURM_NODES_BUSY while the allocation's CPUs are taken). */
void step_mgr_rpc_create(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_STEP_COMPLETE from a node's slurmstepd. */
void step_mgr_rpc_complete(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_STEP_ABORT from srun: a step it could not launch ends now
 * (its nodes are told to kill whatever started) (step_abort.c). */
void step_mgr_rpc_abort(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_JOB_STEP_INFO: running steps (and batch steps). */
void step_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);
/* REQUEST_STEP_LAYOUT (sattach): RESPONSE_STEP_LAYOUT or rc. */
void step_mgr_rpc_layout(net_conn_t *c, slurm_msg_t *m);

/* PrologFlags=Contain: the job's extern step (N.extern, one task per
 * node, no CPUs of its own) from now until the job ends. */
void step_mgr_extern_start(job_record_t *j);
/* scancel JOB.STEP: send sig to that step's tasks only, on its nodes
 * (the batch step: the batch shell).  ESLURM_INVALID_JOB_ID if the
 * running job j has no such step; the caller checked the sender. */
int  step_mgr_signal(job_record_t *j, uint32_t step_id, uint16_t sig);
/* The ranged node list of the job's running step step_id, or NULL if it
 * has no such step (sbcast -j JOB.STEP, srun --bcast). */
const char *step_mgr_step_nodes(job_record_t *j, uint32_t step_id);
/* The job ended: its steps end with it (their CPUs go with the job). */
void step_mgr_job_end(job_record_t *j);
/* The job shrank (job_resize.h): map[k] is the new place of its old
 * node k (old_cnt of them), UINT32_MAX for a released node.  A step's
 * share on released nodes is over; a step left with no node ends. */
void step_mgr_job_resized(job_record_t *j, const uint32_t *map,
			  uint32_t old_cnt);
/* Free the job's step records. */
void step_mgr_job_free(job_record_t *j);

/* The job's steps as saved state (job_rec.c packs them as a field's
 * value), and back: the job's allocation must be restored first.  -1 on
 * a malformed value (the job is left with no steps). */
void step_mgr_pack_saved(buf_t *b, const job_record_t *j);
int  step_mgr_unpack_saved(job_record_t *j, const void *data, uint32_t len);

#endif
