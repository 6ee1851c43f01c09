/* dbd_acct.h — sacctmgr's requests against the database: add, modify,
 * delete and list clusters, accounts, users, QOS and associations.
 *
 * Runs on the worker thread.  Reads are open to everyone; changes need
 * root, SlurmUser or a user whose AdminLevel is Operator or higher
 * (AdminLevel itself only by Administrators).  Each request is one
 * transaction, committed only when the request says so.
 */
#ifndef SLUICE_DBD_ACCT_H
#define SLUICE_DBD_ACCT_H

#include <sys/types.h>

#include "common/msg_types.h"
#include "dbd/dbd_conf.h"
#include "dbd/dbd_db.h"

typedef struct {
	uid_t             uid;        /* from the credential */
	const dbd_conf_t *conf;
	const char       *peer;       /* for logs */
} dbd_acct_ctx_t;

/* AdminLevel values as stored. */
enum {
	DBD_ADMIN_NONE = 1,
	DBD_ADMIN_OPERATOR,
	DBD_ADMIN_SUPER,
};

/* Fill resp (zeroed) for req. */
void dbd_acct_handle(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		     const dbd_acct_msg_t *req, dbd_acct_resp_msg_t *resp);

/* "Administrator"/"Admin" -> DBD_ADMIN_SUPER ...; -1 if unknown. */
int         dbd_acct_admin_parse(const char *s);
const char *dbd_acct_admin_name(int level);

#endif
