/* fairshare.h — decayed usage per association and the fair-share factor
 * (Fair Tree, fairtree.h, unless PriorityFlags=NO_FAIR_TREE selects the
 * classic FairShare = 2^(-EffectvUsage / NormShares)), and sshare's
 * REQUEST_SHARE_INFO.
 *
 * Usage: a job charges CPUs x seconds x its QOS's UsageFactor to its
 * association (assoc_mgr), while it runs (every PriorityCalcPeriod) and
 * when it ends; an account's usage is the sum of everything below it.
 * Usage halves every PriorityDecayHalfLife (0: never) and is cleared at
 * each PriorityUsageResetPeriod boundary.  It is kept per association id
 * in StateSaveLocation/fairshare_state (written at each period and at
 * shutdown) and survives restarts.
 *
 * Classic NormShares: an association's Fairshare over the sum of its
 * siblings' (user and account associations under the same account),
 * times its parent's NormShares.  Classic EffectvUsage (Slurm's): under
 * root its usage over the cluster's (U); below, U + (parent's
 * EffectvUsage - U) x shares / siblings' shares.
 * Without accounting, or for a job without an association, the factor
 * is 1.0 (neutral).  Loop thread only.
 */
#ifndef SLUICE_CTLD_FAIRSHARE_H
#define SLUICE_CTLD_FAIRSHARE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/conf.h"
#include "common/net.h"

struct assoc_rec;
struct job_record;

/* Read the Priority* keys, load the saved usage, install the factor
 * hook and the periodic charge.  0, or -1 with err. */
int    fairshare_init(const slurm_conf_t *c, char *err, size_t errlen);
/* Charge running jobs, save, stop. */
void   fairshare_fini(void);

/* The job ended: charge what it ran since it was last charged (once). */
void   fairshare_job_end(struct job_record *j);
/* Charge running jobs up to now, apply a usage reset if one is due,
 * save the state. */
void   fairshare_tick(time_t now);

/* Fair-share factor in [0,1] of uid's association in account ("" = the
 * user's default). */
double fairshare_factor(uint32_t uid, const char *account);

/* Changes whenever charged usage changes (a job's charge, a reset):
 * who caches fairshare_usage() compares it. */
uint64_t fairshare_usage_version(void);

/* Decayed usage of association id's own jobs (qos: of QOS id's jobs)
 * as of now: CPU-seconds times the QOS UsageFactor, and wall-seconds
 * (GrpTRESMins, GrpWall).  0 if none or without priority/multifactor. */
void   fairshare_usage(uint32_t id, bool qos, time_t now, double *cpu_secs,
		       double *wall_secs);

/* An association's fair-share figures as of now (scontrol show
 * assoc_mgr).  false (nothing set) without priority/multifactor or when
 * the association is not in the tree. */
typedef struct {
	double norm_shares;
	double raw_usage;       /* decayed, with everything below it */
	double norm_usage;      /* raw over the cluster's */
	double eff_usage;
	double factor;
} fairshare_assoc_t;
bool   fairshare_assoc(const struct assoc_rec *a, fairshare_assoc_t *out);

/* REQUEST_SHARE_INFO (sshare). */
void   fairshare_rpc_share_info(net_conn_t *c, slurm_msg_t *m);

#endif
