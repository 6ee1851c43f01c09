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

typedef struct {
	bool     enable;          /* rl_enable */
	uint32_t bucket_size;     /* rl_bucket_size (30) */
	uint32_t refill_rate;     /* rl_refill_rate (10) */
	uint32_t refill_period;   /* rl_refill_period, seconds (1) */
	uint32_t table_size;      /* rl_table_size (8192) */
	int32_t  log_freq;        /* rl_log_freq: log lines a second, -1 none (0 = all) */
} rl_conf_t;

/* Read the rl_* keys of a SlurmctldParameters value (NULL: defaults,
 * disabled).  Unknown keys are ignored (they belong to other parts).
 * 0, or -1 with a message in err for a malformed rl_ value. */
int  rl_parse(const char *params, rl_conf_t *out, char *err, size_t errlen);
/* (Re)configure; the table is emptied when its size changes. */
void rl_configure(const rl_conf_t *c);
/* May uid send one more RPC at time now?  Always true when disabled. */
bool rl_allow(uid_t uid, time_t now);
void rl_fini(void);

#endif
