/* dbd_rollup.h — sreport's usage roll-ups: hourly, daily and monthly
 * usage per cluster and per (account, user), kept in MariaDB (schema v6).
 *
 * An hour is rolled up from the records: the cluster's CPUs (its
 * registration events, node name ""), node down/drain events, jobs'
 * allocated CPU-seconds (a running job counts up to now) and eligible
 * jobs' waiting CPU-seconds; a day from its hours, a month from its days
 * (local time, as Slurm).  rollup_table keeps, per cluster, the end of
 * the last rolled-up hour, day and month.  Each period is one
 * transaction that replaces its rows and moves the mark, so a crash in
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

#define DBD_TRES_CPU 1
/* The TRES the roll-ups and sreport count: ids 1..DBD_TRES_MAX - 1
 * (cpu, mem, energy, node, billing: Slurm's fixed ids). */
#define DBD_TRES_MAX 6

/* The name of TRES id ("cpu"...), NULL if not counted. */
const char *dbd_tres_name(uint32_t id);
/* TRES id's count in "cpu=N,mem=2G,node=1,..." (memory in MB); 0 if
 * absent. */
uint64_t dbd_tres_get(const char *tres, uint32_t id);
/* SQL for that count in a TRES string column col (appended to *sql). */
void dbd_tres_sql(char **sql, const char *col, uint32_t id);

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
