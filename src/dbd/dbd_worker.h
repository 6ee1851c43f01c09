/* dbd_worker.h — the thread that talks to MariaDB.
 *
 * The event loop hands each accounting request to dbd_worker_submit() and
 * goes on serving; the worker runs it against the database and the reply
 * is sent back on the loop thread.  Requests run one at a time in arrival
 * order, each in its own transaction.  The worker owns the database
 * connection; the loop never blocks on MariaDB.
 */
#ifndef SLUICE_DBD_WORKER_H
#define SLUICE_DBD_WORKER_H

#include <stdbool.h>
#include <sys/types.h>

#include "common/net.h"
#include "dbd/dbd_conf.h"
#include "dbd/dbd_db.h"

struct event_base;

/* Takes ownership of db. */
int  dbd_worker_init(struct event_base *base, dbd_db_t *db,
		     const dbd_conf_t *conf);
/* Queue msg (REQUEST_DBD_ACCT, _RECORDS, _JOBS,
 * _REPORT) from conn; the reply
 * follows later. */
void dbd_worker_submit(net_conn_t *conn, slurm_msg_t *msg);
/* Does the worker run requests of this type (and count them for
 * sacctmgr show stats)? */
bool dbd_worker_runs(uint16_t type);
/* Finish queued work, stop the thread, close the database. */
void dbd_worker_fini(void);

#endif
