/* dbd_private.h — who may see what in slurmdbd's answers.
 *
 * An AdminLevel of Operator or higher (and root, SlurmUser) sees
 * everything.  Others are limited by slurmdbd.conf's PrivateData:
 * with "jobs" sacct shows only their own jobs; with "usage" sreport
 * shows only their own usage and no cluster-wide figures.
 */
#ifndef SLUICE_DBD_PRIVATE_H
#define SLUICE_DBD_PRIVATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "dbd/dbd_acct.h"
#include "dbd/dbd_db.h"

/* DBD_ADMIN_* of uid: root and SlurmUser are DBD_ADMIN_SUPER, a user
 * unknown to the system or the database DBD_ADMIN_NONE. */
int  dbd_admin_level(dbd_db_t *db, const dbd_conf_t *conf, uid_t uid);
/* Does PrivateData bit `what` (DBD_PRIVATE_*) limit ctx's user to their
 * own records? */
bool dbd_private_limits(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
			uint32_t what);

/* The accounts uid coordinates, with every account below them (NULL if
 * none; caller frees with xstrarray_free). */
char **dbd_coord_accounts(dbd_db_t *db, uid_t uid);
/* The name of uid (caller frees), NULL if unknown to the system. */
char  *dbd_user_name(uid_t uid);
/* Append " AND (own OR acct_col IN (<accounts uid coordinates>))" to
 * *sql: what PrivateData leaves a user who is not an Operator (own: an
 * SQL condition on its own rows; acct_col NULL: own rows only). */
void   dbd_private_where(dbd_db_t *db, uid_t uid, const char *own,
			 const char *acct_col, char **sql);

#endif
