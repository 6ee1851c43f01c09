/* acct_outbox.h — the controller's durable queue of accounting records.
 *
 * Records are appended (loop thread) to StateSaveLocation/acct_outbox
 * with increasing sequence numbers and kept in memory until slurmdbd
 * has stored them; only then are they dropped (the file is truncated
 * when the queue empties, rewritten when mostly acknowledged).  After a
 * crash the file is read back, a torn last frame cut off, and every
 * record in it is sent again: slurmdbd skips those it already has by
 * (epoch, seq).  The epoch is drawn when the file is created.
 *
 * The loop thread appends; the sender thread (acct_send) takes batches
 * and acknowledges them.  A mutex guards the queue and the file.
 */
#ifndef SLUICE_CTLD_ACCT_OUTBOX_H
#define SLUICE_CTLD_ACCT_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/acct_rec.h"

/* Open (or create) dir/acct_outbox and load what it holds.  0 or -1
 * with err set. */
int      acct_outbox_open(const char *dir, char *err, size_t errlen);
void     acct_outbox_close(void);

/* Pack rec (of kind) and append it; written to the file at once. */
void     acct_outbox_append(uint16_t kind, const void *rec);

/* Up to max records not yet acknowledged, oldest first, as shallow
 * copies (valid until acct_outbox_ack).  Waits up to wait_ms for one.
 * Returns the count; *out is xmalloc'd (caller xfrees the array only). */
uint32_t acct_outbox_take(acct_frame_t **out, uint32_t max, int wait_ms);
/* slurmdbd stored every record up to seq: drop them. */
void     acct_outbox_ack(uint64_t seq);
/* Make what was appended durable (fdatasync). */
void     acct_outbox_sync(void);
/* A reply waits for what was appended (run tracking: no journal record
 * holds it): the next commit (commit.c's writer) syncs the outbox too,
 * before the replies it holds are sent.  Loop thread. */
void     acct_outbox_want_sync(void);
/* Writer thread: was a sync asked for since the last call? */
bool     acct_outbox_sync_wanted(void);
/* Wake a sender waiting in take (shutdown). */
void     acct_outbox_wake(void);

uint64_t acct_outbox_epoch(void);
/* Records waiting for slurmdbd. */
uint32_t acct_outbox_depth(void);

#endif
