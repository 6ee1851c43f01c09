/* job_output.h — slurmd reads part of a job's output file for the
 * controller (REQUEST_JOB_OUTPUT_READ, ctld/job_output.h).
 *
 * The file is opened and read by a child that has become the job's user
 * (its groups, gid and uid) first, never by root: whatever the user's
 * path leads to (a symlink to /etc/shadow) is refused as it would be to
 * the user.  Only regular files are read.  The loop does not wait: the
 * child's answer comes back through a pipe, and a child that takes too
 * long is killed.  The reply is RESPONSE_JOB_OUTPUT, or RESPONSE_SLURM_RC
 * with an errno value and its text.
 */
#ifndef SLUICE_SLURMD_JOB_OUTPUT_H
#define SLUICE_SLURMD_JOB_OUTPUT_H

#include "common/net.h"
#include "slurmd/slurmd.h"

void job_output_read(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);

#endif
