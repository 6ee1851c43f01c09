/* dbd_archive.h — REQUEST_DBD_ARCHIVE: `sacctmgr archive dump` (archive
 * and purge now) and `sacctmgr archive load` (an archive file back into
 * the database), for Administrators, root and SlurmUser only. */
#ifndef SLUICE_DBD_ARCHIVE_H
#define SLUICE_DBD_ARCHIVE_H

#include "common/msg_types.h"
#include "dbd/dbd_acct.h"
#include "dbd/dbd_db.h"

void dbd_archive_handle(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
			const dbd_archive_msg_t *req, return_code_msg_t *resp);

#endif
