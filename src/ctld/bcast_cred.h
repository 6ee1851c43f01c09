/* bcast_cred.h — credentials for sbcast, sgather and srun --bcast
 * (REQUEST_SBCAST_CRED).
 *
 * A credential names the nodes of a running job (or of one of its
 * steps), the job's user and an expiry (the job's end time, at most a
 * day); its payload is a step_cred_t (step_cred.h) signed once per node
 * on the credential worker, so each slurmd's MUNGE replay cache sees its
 * own signature.  Only the job's user, root, SlurmUser and operators get
 * one; nothing is journaled (the controller's state does not change).
 */
#ifndef SLUICE_CTLD_BCAST_CRED_H
#define SLUICE_CTLD_BCAST_CRED_H

#include "common/net.h"

/* RESPONSE_SBCAST_CRED, or RESPONSE_SLURM_RC with ESLURM_INVALID_JOB_ID,
 * ESLURM_USER_ID_MISSING (another user's job, as Slurm answers), ESLURM_JOB_PENDING or ESLURM_ALREADY_DONE. */
void bcast_cred_rpc(net_conn_t *c, slurm_msg_t *m);

#endif
