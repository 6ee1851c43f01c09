/* job_profile.h — job profiling in the controller (REQUEST_JOB_PROFILE):
 * the usage samples a profiled step's slurmstepd takes (--profile=task,
 * slurmd/stepd/step_profile.h) go on to slurmdbd through the accounting
 * outbox (acct_outbox.h), one ACCT_REC_PROFILE record a sample, and are
 * acknowledged once the outbox is on disk.  Nothing of them stays in
 * the controller.
 *
 * Taken from root or SlurmUser only (the rpc table's RPC_PRIV_SLURM),
 * for a job the controller still knows that asked for --profile=task,
 * with AcctGatherProfileType=acct_gather_profile/slurmdbd and slurmdbd
 * accounting; otherwise refused (the stepd logs the answer).
 */
#ifndef SLUICE_CTLD_JOB_PROFILE_H
#define SLUICE_CTLD_JOB_PROFILE_H

#include "common/msg.h"
#include "common/net.h"

void job_profile_rpc(net_conn_t *c, slurm_msg_t *m);

#endif
