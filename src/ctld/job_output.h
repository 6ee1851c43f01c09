/* job_output.h — a job's output file for its owner (REQUEST_JOB_OUTPUT,
 * what the web view's job page shows through REST).
 *
 * Only the job's user, an operator (or administrator), root and
 * SlurmUser may read it: PrivateData or not, output is not public.  The
 * controller expands the StdOut/StdErr path as `scontrol show job` shows
 * it and asks the batch host's slurmd (REQUEST_JOB_OUTPUT_READ, on an
 * agent thread: the loop never waits) to read it as the job's user; the
 * client's reply leaves when the node answers or its RPC times out.  At
 * most a few such reads wait at once (they share the agent's workers
 * with job launches); beyond that the answer is EAGAIN, try again.
 * Finished jobs are read while the controller still has their record
 * and the file is still on the node.
 */
#ifndef SLUICE_CTLD_JOB_OUTPUT_H
#define SLUICE_CTLD_JOB_OUTPUT_H

#include "common/net.h"

void job_output_rpc(net_conn_t *c, slurm_msg_t *m);

#endif
