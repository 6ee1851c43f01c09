/* commit.h — group commit: acknowledged means on disk.
 *
 * A handler that changed state does not answer at once: it queues its
 * reply here.  Once per loop iteration a commit frames what changed as
 * journal records (state_save_pack_changes) and a writer thread appends
 * them to the journal and fdatasyncs it; then every reply queued before
 * that is sent.  Replies queued while a write is in flight wait for the
 * next one, so a burst of requests shares one fdatasync.  A reply is
 * packed and signed when it is queued (net_reply_prepare), so its MUNGE
 * round trip overlaps the fdatasync; only the sending waits.
 *
 * When the journal has grown past a threshold, the commit also packs a
 * snapshot: the writer starts a new journal file after the batch, and a
 * snapshot thread writes the snapshot (tmp, fsync, rename) and removes
 * the older journal files once it is durable.
 *
 * If a write fails, the replies waiting for it become errors
 * (ESLURM_WRITING_TO_FILE), and so do the replies queued since: their
 * changes are in memory but not on disk, so the controller restarts from
 * StateSaveLocation without saving (ctld_restart_from_disk), and work
 * queued with commit_after() (launches, signals to nodes) never runs.
 * A failed write that held no reply (the scheduler's, a node's report)
 * keeps its changes in memory: commit_after() work waits, the next
 * commit writes a whole snapshot and a new journal file, and until one
 * succeeds commit_broken() is true and rpc_dispatch refuses every
 * request that would change state (rpc.c's CHANGE column).
 *
 * SLUICE_JOURNAL_NOSYNC=1 in slurmctld's environment skips fdatasync
 * (benchmarks of what durability costs; unsafe).
 * SLUICE_JOURNAL_ROTATE_BYTES=N rotates after N journal bytes (tests).
 * SLUICE_JOURNAL_DELAY_MS=N makes every journal write wait N ms first
 * (a slow disk: tests of what waits for the journal).
 */
#ifndef SLUICE_CTLD_COMMIT_H
#define SLUICE_CTLD_COMMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/net.h"
#include "ctld/recover.h"

typedef void (*commit_free_f)(void *data);
typedef void (*commit_after_f)(void *arg);

/* Start the writer: a first snapshot of the recovered state (r) and a
 * new journal file after it; older journal files are removed (damaged
 * ones renamed *.damaged).  0, or -1 (logged). */
int  commit_init(struct event_base *base, const recover_t *r,
		 bool may_start_broken);
/* may_start_broken: a snapshot that cannot be written is not fatal (a
 * restart from disk while it is full): start with commit_broken() true,
 * retrying every second. */
/* The last write failed and none has succeeded since, or the controller
 * is restarting from disk: nothing may change now. */
bool commit_broken(void);
/* rpc_dispatch: a handler runs for a request whose CHANGE bit is change
 * (0 or 1; 2: MAY_CHANGE, the handler decides); -1 when it returned.  A
 * reply queued here by a handler of a request that is not CHANGE is
 * logged as the bug it is. */
void commit_handling(int change);
/* Before re-executing: wait for a snapshot being written, and hold the
 * writers off for good. */
void commit_quiesce(void);
/* Write a snapshot now on this thread (shutdown); waits for a write in
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

/* The same for a reply whose last part (signing the credentials it
 * carries) is made by finish(data) on a credential worker meanwhile, off
 * the loop; a non-zero return is answered instead (net.h). */
void commit_reply_finish(net_conn_t *c, uint16_t type, void *data,
			 int (*finish)(void *data), commit_free_f free_fn);

/* Run fn(arg) on the loop once the state as it is now is on disk (e.g.
 * launch a job only after its start is saved). */
void commit_after(commit_after_f fn, void *arg);

#endif
