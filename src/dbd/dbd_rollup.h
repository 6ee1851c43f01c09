/* dbd_rollup.h — sreport's usage roll-ups: hourly, daily and monthly
 * usage per cluster and per (account, user), kept in MariaDB (schema v6).
 *
 * An hour is rolled up from the records: the cluster's CPUs (its
 * registration events, node name ""), node down/drain events, jobs'
 * allocated CPU-seconds (a running job counts up to now) and eligible
 * jobs' waiting CPU-seconds; a day from its hours, a month from its days
 * (local time, as Slurm).  Every live TRES of the TRES table
 * (dbd_tres.h) is counted: each record's TRES string is read once.  rollup_table keeps, per cluster, the end of
 * the last rolled-up hour, day and month.  Each day or month, and each
 * chunk of up to 24 hours, is one transaction that replaces its rows
 * and moves the mark, so a crash in
 * the middle loses nothing and counts nothing twice; rolling a period
 * again gives the same rows.  Records that arrive for times already
 * rolled up move the mark back (dbd_rollup_reset), as Slurm does.
 *
 * Runs on the worker thread (it owns the connection).
 */
#ifndef SLUICE_DBD_ROLLUP_H
#define SLUICE_DBD_ROLLUP_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "dbd/dbd_conf.h"
#include "dbd/dbd_db.h"
#include "dbd/dbd_tres.h"

/* Start of the hour, local day and local month holding t; and the
 * start of the next day / month. */
time_t dbd_hour_floor(time_t t);
time_t dbd_day_floor(time_t t);
time_t dbd_month_floor(time_t t);
time_t dbd_day_next(time_t day);
time_t dbd_month_next(time_t month);

/* How far cluster is rolled up (0s when it never was). */
int dbd_rollup_marks(dbd_db_t *db, const char *cluster, time_t *hour,
		     time_t *day, time_t *month);

/* Roll up every cluster's complete periods before now.  Stops after
 * about budget_s seconds of work (0 = no limit) with *more set when
 * periods are left.  -1 on a database error (what was committed
 * stays). */
int dbd_rollup_run(dbd_db_t *db, const dbd_conf_t *conf, time_t now,
		   double budget_s, bool *more);

/* Inside the caller's transaction: periods from t on must be rolled up
 * again (records for them changed).  cluster NULL = every cluster. */
int dbd_rollup_reset(dbd_db_t *db, const char *cluster, time_t t);

#endif
