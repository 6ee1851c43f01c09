/* bcast.h — slurmd's side of sbcast, srun --bcast and sgather.
 *
 * REQUEST_FILE_BCAST carries one block of a file for every node of a
 * job (it arrives directly or along the tree, forward.h); each node
 * checks its own signature of the job's sbcast credential (bcast_cred.h
 * in the controller) once and keeps the verdict until the credential
 * expires, so the file's further blocks need no trip to munged.  The
 * block is decompressed and written by a child that became the
 * credential's user first (groups, gid, uid): never by root.  The first
 * block creates the file (O_EXCL unless BCAST_FLAG_FORCE), the last one
 * sets its mode and, with BCAST_FLAG_PRESERVE, its times.  The reply is
 * RESPONSE_SLURM_RC with 0 or an errno value (EACCES, EEXIST, ...).
 *
 * REQUEST_FILE_GATHER reads a piece of a file (or lists the files under
 * a directory, or removes it) as the user, for sgather; the answer is
 * RESPONSE_FILE_GATHER.  The loop never waits for either child: the
 * answer comes back through a pipe, and a child that takes longer than
 * the request's timeout is killed.
 */
#ifndef SLUICE_SLURMD_BCAST_H
#define SLUICE_SLURMD_BCAST_H

#include "common/net.h"
#include "slurmd/slurmd.h"

void bcast_req_block(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);
void bcast_req_gather(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg);

#endif
