/* commit.h — group commit: acknowledged means on disk.
 *
 * A handler that changed state does not answer at once: it queues its
 * reply here.  Once per loop iteration a commit packs the state snapshot
 * (state_save_pack) and a writer thread writes it (tmp file, fsync,
 * rename, fsync dir); then every reply queued before that pack is sent.
 * Replies queued while a write is in flight wait for the next one, so a
 * burst of requests shares one write.
 */
#ifndef SLUICE_CTLD_COMMIT_H
#define SLUICE_CTLD_COMMIT_H

#include <stdint.h>

#include "common/net.h"

typedef void (*commit_free_f)(void *data);
typedef void (*commit_after_f)(void *arg);

int  commit_init(struct event_base *base);
/* Write the snapshot now on this thread (shutdown); waits for a write in
 * flight first.  Queued replies are sent.  0 or -1. */
int  commit_sync(void);
void commit_fini(void);

/* State changed: write soon. */
void commit_dirty(void);
/* Queue a RESPONSE_SLURM_RC (msg may be NULL) until the state is on disk. */
void commit_reply_rc(net_conn_t *c, int rc, const char *msg);
/* Queue any reply; data is freed with free_fn after it is sent. */
void commit_reply(net_conn_t *c, uint16_t type, void *data,
		  commit_free_f free_fn);

/* Run fn(arg) on the loop once the state as it is now is on disk (e.g.
 * launch a job only after its start is saved). */
void commit_after(commit_after_f fn, void *arg);

#endif
