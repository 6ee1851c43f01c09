/* acct_send.h — the thread that carries the outbox to slurmdbd.
 *
 * It takes up to a batch of records from acct_outbox, makes them durable,
 * sends them as one REQUEST_DBD_RECORDS and acknowledges them in the
 * outbox once slurmdbd answers that its transaction committed.  While
 * slurmdbd (or its database) is away it retries with a growing pause (up
 * to 5 s); nothing is dropped.  A batch that would follow another within
 * 200 ms waits out the rest of those 200 ms, to carry more records.  It
 * uses only what it was given at start, never the controller's state.
 */
#ifndef SLUICE_CTLD_ACCT_SEND_H
#define SLUICE_CTLD_ACCT_SEND_H

#include <stdint.h>

int  acct_send_start(const char *host, uint16_t port, const char *cluster,
		     int timeout_ms);
/* Stop after the batch in flight; what is left stays in the outbox. */
void acct_send_stop(void);

/* Records stored by slurmdbd since start, batches sent, failures; and
 * how many records slurmdbd holds set aside (its last answer). */
typedef struct {
	uint64_t stored;
	uint64_t batches;
	uint64_t failures;
	uint32_t set_aside;
} acct_send_stats_t;
void acct_send_stats(acct_send_stats_t *out);

#endif
