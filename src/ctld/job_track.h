/* job_track.h — run tracking: values a running job logs into its
 * accounting record (REQUEST_JOB_TRACK, sent by `scontrol track` from
 * the SDK's sluice.log_metric/log_param/log_artifact).
 *
 * A value is taken only from the job's own user, only while the job
 * runs, only from one of the job's nodes (when their NodeAddr is an IP
 * address), within a size, count and rate bound per job; it goes to
 * slurmdbd through the accounting outbox (acct_outbox.h) like the job's
 * own records.  Nothing of it stays in the controller but the count.
 */
#ifndef SLUICE_CTLD_JOB_TRACK_H
#define SLUICE_CTLD_JOB_TRACK_H

#include <stddef.h>
#include <time.h>

#include "common/msg.h"
#include "common/msg_types.h"
#include "common/net.h"

#define TRACK_PER_JOB_MAX  100000u   /* values one job may log */
#define TRACK_RATE         100u      /* per second, sustained ... */
#define TRACK_BURST        1000u     /* ... after a burst of this many */
#define TRACK_STEP_MAX     ((uint64_t)INT64_MAX)

/* What a request carries, checked alone (kind, name, value, text; the
 * lengths are acct_limits.h's): 0, or -1 with why. */
int  job_track_check(const job_track_msg_t *t, char *why, size_t len);

/* The per-job bucket: may one more value be taken at now?  tokens and
 * last are the job's (start both at 0). */
bool job_track_rate_ok(double *tokens, double *last, double now);

void job_track_rpc(net_conn_t *c, slurm_msg_t *m);

#endif
