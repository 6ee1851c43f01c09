/* dbd_notify.h — tell the controllers that accounting policy changed.
 *
 * After a committed sacctmgr change the worker hands the registered
 * controllers (cluster_table's control_host:control_port) to
 * dbd_notify_send(); a thread of its own sends each an
 * ACCOUNTING_UPDATE_MSG (no body) so that it reloads its association
 * cache.  A controller that is down is simply skipped: it reloads at
 * start and periodically anyway.  Never blocks the caller.
 */
#ifndef SLUICE_DBD_NOTIFY_H
#define SLUICE_DBD_NOTIFY_H

#include "dbd/dbd_db.h"

int  dbd_notify_init(void);
/* Look up the controllers (worker thread: uses db) and queue the
 * message to each. */
void dbd_notify_send(dbd_db_t *db);
void dbd_notify_fini(void);

#endif
