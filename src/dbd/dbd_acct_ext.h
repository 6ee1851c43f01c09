/* dbd_acct_ext.h — sacctmgr's entities beyond the association tree
 * (dbd_acct_ext.c): wckeys, resources (remote licenses), transactions
 * and job records.  For the dbd_acct*.c files only. */
#ifndef SLUICE_DBD_ACCT_EXT_H
#define SLUICE_DBD_ACCT_EXT_H

#include <stdbool.h>

#include "dbd/dbd_acct_int.h"

/* The description of one of these entities, or NULL. */
const dbd_entity_desc_t *dbd_acct_ext_find(uint16_t entity);

/* List with DBD_ACCT_WITH_ASSOC (show resource withclusters): FROM,
 * ORDER BY, the extra columns and the conditions looked up first; false
 * if the entity has no such listing. */
bool dbd_acct_ext_with(const dbd_req_t *r, const char **from,
		       const char **order, const dbd_col_t **cols,
		       const dbd_cond_t **conds);

/* Add, modify or delete one of these entities (inside the request's
 * transaction); -1 with the response's rc set. */
int  dbd_acct_ext_change(dbd_req_t *r);

/* Does the change check its caller itself (modify job: the job's owner
 * may)? */
bool dbd_acct_ext_own_perm(const dbd_acct_msg_t *req);

/* Record a committed change in txn_table (inside its transaction). */
int  dbd_acct_txn_record(dbd_req_t *r);

#endif
