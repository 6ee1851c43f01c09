/* dbd_report.h — sreport's usage figures (REQUEST_DBD_REPORT), computed
 * straight from the job and event records: no roll-up tables.
 *
 * A job's allocated time in [start, end) is its CPUs times the part of
 * [time_start, time_end or now) inside the window; the cluster's
 * reported time is its registered CPU count times the window; down time
 * is each node event's CPUs times its overlap; waiting time (Planned,
 * OverCommitted) is each eligible job's CPUs times its overlap of
 * [eligible, start or end or now).  Runs on the worker thread.
 */
#ifndef SLUICE_DBD_REPORT_H
#define SLUICE_DBD_REPORT_H

#include "common/msg_types.h"
#include "dbd/dbd_acct.h"
#include "dbd/dbd_db.h"

/* Fill resp (zeroed) for req.  With PrivateData=usage a user below
 * Operator gets only their own usage, and no cluster figures. */
void dbd_report_handle(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		       const dbd_report_msg_t *req, table_resp_msg_t *resp);

/* reservation Utilization (dbd_report_resv.c): DBD_REPORT_RESV_COLS
 * rows of cluster's reservations overlapping [start, end) appended to
 * *cells.  0 or -1. */
int  dbd_report_resv(dbd_db_t *db, const char *cluster, int64_t start,
		     int64_t end, int64_t now, char ***cells);

#endif
