/* dbd_purge.h — Purge*After and Archive*: old records leave the
 * database, written first to an archive file when the kind's Archive*
 * is set (dbd_archive_file.h), and archives loaded back.
 *
 * Run after each roll-up pass (dbd_rollup_run), so a record is gone only
 * once the hours it counted in are rolled up.  As Slurm: finished jobs
 * submitted before the cut (PurgeJobAfter, with their steps), finished
 * steps started before it (PurgeStepAfter), ended node events
 * (PurgeEventAfter) and ended reservations (PurgeResvAfter) started before
 * it, roll-up rows of hours, days and months before it (PurgeUsageAfter),
 * sacctmgr's transaction records (PurgeTXNAfter).  Sluice keeps no
 * suspend records: PurgeSuspendAfter and ArchiveSuspend have nothing to
 * act on.
 *
 * Each kind of each cluster goes oldest first in chunks of about 10,000
 * records (those of a kind's first table: jobs with their steps, ...),
 * a transaction each: the rows are locked, written to
 * "<ArchiveDir>/<cluster>_<kind>_archive_<first>_<end>" (synced and
 * named), then deleted and the transaction committed.  If an archive
 * cannot be written nothing of its chunk is deleted (logged), and the
 * kind stops there.  Between two chunks the yield function runs (the
 * worker serves the requests queued meanwhile: sacct answers during a
 * long purge).
 */
#ifndef SLUICE_DBD_PURGE_H
#define SLUICE_DBD_PURGE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "dbd/dbd_conf.h"
#include "dbd/dbd_db.h"

/* The moment before which a Purge*After value purges: N whole hours,
 * days (from midnight) or months (from the 1st) before now. */
time_t dbd_purge_cut(const dbd_purge_t *p, time_t now);
/* Every kind by slurmdbd.conf's Purge*After and Archive*.  0 or -1
 * (nothing of a failed kind and cluster is deleted). */
int    dbd_purge_records(dbd_db_t *db, const dbd_conf_t *conf, time_t now);
/* The same with other settings (sacctmgr archive dump): purge[kind],
 * archive bits (1 << kind) written to archive_dir first. */
int    dbd_purge_kinds(dbd_db_t *db, const dbd_purge_t *purge,
		       uint32_t archive, const char *archive_dir, time_t now);
/* Called between two chunks of a purge, with no transaction open. */
void   dbd_purge_set_yield(void (*fn)(void));
/* Does Sluice keep records of kind (not suspend)? */
bool   dbd_purge_kind_kept(dbd_purge_kind_t kind);
/* Load an archive file on this host back in one transaction: 0 with the
 * rows loaded, or -1 with err (nothing loaded: a file cut short, one of
 * another kind of table, a column the table lacks, a row already in the
 * database). */
int    dbd_archive_load(dbd_db_t *db, const char *path, uint64_t *rows,
			char *err, size_t errlen);

#endif
