/* rate_limit.h — per-user RPC rate limiting (SlurmctldParameters=rl_*).
 *
 * A token bucket per user: each RPC takes a token; every rl_refill_period
 * seconds rl_refill_rate tokens come back, up to rl_bucket_size.  A user
 * with an empty bucket is answered SLURMCTLD_COMMUNICATIONS_BACKOFF, and
 * the commands sleep a second and retry.  Root and SlurmUser are never
 * limited.  Off unless rl_enable is set.
 */
#ifndef SLUICE_CTLD_RATE_LIMIT_H
#define SLUICE_CTLD_RATE_LIMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "common/conf_params.h"

/* (Re)configure; the table is emptied when its size changes. */
void rl_configure(const rl_conf_t *c);
/* May uid send one more RPC at time now?  Always true when disabled. */
bool rl_allow(uid_t uid, time_t now);
void rl_fini(void);

#endif
