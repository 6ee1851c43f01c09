/* dbd_purge.h — Purge*After: old records leave the database.
 *
 * Run after each roll-up pass (dbd_rollup_run), so a record is gone only
 * once the hours it counted in are rolled up.  As Slurm: finished jobs
 * submitted before the cut (PurgeJobAfter, with their steps), finished
 * steps started before it (PurgeStepAfter), ended node events
 * (PurgeEventAfter) and ended reservations (PurgeResvAfter) started before
 * it; roll-up rows by PurgeUsageAfter (dbd_rollup_purge).  Sluice keeps
 * no suspend or transaction records: PurgeSuspendAfter and PurgeTXNAfter
 * have nothing to purge.
 */
#ifndef SLUICE_DBD_PURGE_H
#define SLUICE_DBD_PURGE_H

#include <time.h>

#include "dbd/dbd_conf.h"
#include "dbd/dbd_db.h"

/* The moment before which a Purge*After value purges: N whole hours,
 * days (from midnight) or months (from the 1st) before now. */
time_t dbd_purge_cut(const dbd_purge_t *p, time_t now);
/* Job, step, event and reservation records by their Purge*After.  0 or -1
 * (nothing of a failed kind is deleted: one transaction per kind). */
int    dbd_purge_records(dbd_db_t *db, const dbd_conf_t *conf, time_t now);

#endif
