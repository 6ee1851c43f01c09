/* state_save.h — the controller's state in StateSaveLocation.
 *
 * File "ctld_state": the snapshot, a header (magic string, format
 * version, time, cluster name, and from version 2 the last journal
 * sequence number it holds and the first journal generation after it)
 * then next job id, node states, job records, and from version 2 a
 * CRC-32C.  Version 3 holds tagged node and job records (job_rec.h,
 * doc/dev/state-format.md).  Changes since the snapshot are records in the journal files
 * (journal.h) that state_save_pack_changes() frames.  Job scripts and
 * environments live beside it (job_files.h).  Recovery is in recover.h.
 */
#ifndef SLUICE_CTLD_STATE_SAVE_H
#define SLUICE_CTLD_STATE_SAVE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/pack.h"

/* Snapshot format: 1 and 2 hold format-1 (positional) node and job
 * records, 3 format-2 (tagged) ones, 4 adds the reservations after the
 * jobs, 5 the run-time partition changes after them, 6 the triggers
 * after those, 7 the crontabs (scrontab) after the triggers, 9 the
 * dynamic nodes before the node states (the jobs after them may name
 * those nodes; no file was ever written at 8); all are read. */
#define STATE_SAVE_VERSION 9
/* The oldest format read: a release that stops reading a format raises
 * it (the formats of the releases more than two before, as Slurm), and a
 * snapshot below it is refused, left untouched. */
#define STATE_SAVE_OLDEST 1
#define STATE_SAVE_CRONTAB 7     /* first version with crontabs */
#define STATE_SAVE_DYN_NODES 9   /* first version with dynamic nodes */

/* mkdir -p the state dir; refuse a dir of another cluster.  0, or -1
 * with a message in err. */
int    state_save_init(const char *dir, const char *cluster, char *err,
		       size_t errlen);
void   state_save_fini(void);
/* Pack the whole snapshot (loop thread): the state as of journal record
 * seq, to be followed by journal generation gen. */
buf_t *state_save_pack(uint64_t seq, uint64_t gen);
/* The same in steps, the loop serving between them (a million jobs take
 * seconds to pack): _begin packs all but the jobs as of seq; each _step
 * packs up to max jobs as they are then and returns the snapshot
 * (caller frees) once every job is in, else NULL; _seal appends its
 * CRC-32C (any thread: a pass over the whole buffer); _abort gives up.  The jobs changed meanwhile have journal records after seq, whose
 * replay over the snapshot restores them (job_mgr_pack_begin). */
typedef struct state_pack state_pack_t;
state_pack_t *state_save_pack_begin(uint64_t seq, uint64_t gen);
buf_t        *state_save_pack_step(state_pack_t *sp, size_t max);
void          state_save_pack_seal(buf_t *b);
void          state_save_pack_abort(state_pack_t *sp);
/* Write a packed snapshot durably (any thread).  0 or -1 (errno). */
int    state_save_write(const char *dir, const buf_t *b);
/* Frame every change since the last call as journal records numbered
 * from *seq + 1 (loop thread).  Nothing appended if nothing changed. */
void   state_save_pack_changes(buf_t *b, uint64_t *seq);
/* Forget the changes so far (a snapshot was just packed with them). */
void   state_save_changes_reset(void);

/* Snapshot header: the format version (>= 1) with *seq and *gen (0 for
 * version 1) and the next job id applied, or -1 with a message. */
int    state_save_unpack_header(buf_t *b, uint64_t *seq, uint64_t *gen,
				char *err, size_t errlen);
/* A whole file (xfree), NUL-terminated; NULL with errno. */
char  *state_save_read_file(const char *path, size_t *len);

/* Loop: frame this JREC_JOB_FILES payload (u32 job id, script,
 * environment) with the next changes; takes it (job_files.h). */
void   state_save_queue_job_files(buf_t *payload);

#endif
