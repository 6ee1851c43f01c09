/* job_resize.h — shrinking a running job (scontrol update JobId=N
 * NumNodes=K or NodeList=<subset>), as Slurm does.
 *
 * The job keeps its batch host and, for NumNodes, the first other nodes
 * in index order; the released nodes go back to the pool at once, the
 * job's processes there are ended (REQUEST_TERMINATE_JOB to those nodes
 * only, after the change is on disk), and its CPU, task and TRES counts
 * follow.  Growing a running job is refused.  The SLURM_* environment
 * of the job is not changed: scontrol writes slurm_job_N_resize.sh/.csh
 * for the job's script to source.
 */
#ifndef SLUICE_CTLD_JOB_RESIZE_H
#define SLUICE_CTLD_JOB_RESIZE_H

#include <stdint.h>

#include "ctld/job_mgr.h"

/* The nodes j keeps for NumNodes=min_nodes (NO_VAL32: not given) or
 * NodeList=req_nodes (NULL: not given) in *keep (a new bitmap, NULL
 * when nothing changes).  0, or Slurm's error: ESLURM_NOT_SUPPORTED
 * (more nodes than it has), ESLURM_INVALID_NODE_COUNT (0),
 * ESLURM_INVALID_NODE_NAME (a list that is not a subset holding the
 * batch host), ESLURM_JOB_NOT_RUNNING (suspended or completing). */
int  job_resize_check(const job_record_t *j, uint32_t min_nodes,
		      const char *req_nodes, bitmap_t **keep);
/* Shrink j to keep (from job_resize_check; consumed). */
void job_resize_apply(job_record_t *j, bitmap_t *keep);

#endif
