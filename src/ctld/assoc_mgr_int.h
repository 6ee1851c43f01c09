/* assoc_mgr_int.h — shared by assoc_mgr.c (the snapshot) and
 * assoc_limits.c (counters and limits) only. */
#ifndef SLUICE_CTLD_ASSOC_MGR_INT_H
#define SLUICE_CTLD_ASSOC_MGR_INT_H

#include "ctld/assoc_mgr.h"

#define AM_LIST_CNT 4     /* QOS, users, associations, coordinators */

/* A string- or number-keyed index (uthash inside). */
typedef struct am_index am_index_t;
void  am_index_add(am_index_t **ix, const char *key, void *val);
void  am_index_add_id(am_index_t **ix, uint64_t id, void *val);
void *am_index_find(am_index_t *ix, const char *key);
void *am_index_find_id(am_index_t *ix, uint64_t id);
void  am_index_free(am_index_t **ix);

typedef struct am_user_usage am_user_usage_t;   /* assoc_limits.c */

typedef struct {
	assoc_qos_t  **qos;
	size_t         qos_cnt;
	assoc_user_t **users;
	size_t         user_cnt;
	assoc_rec_t  **assocs;
	size_t         assoc_cnt;
	uint32_t       qos_max_prio;
	bool           has_part_assocs;  /* any association per partition */
	bool           assocs_limited;   /* any association has a limit */
	am_index_t    *qos_by_name, *qos_by_id;
	am_index_t    *user_by_name, *user_by_uid;
	am_index_t    *assoc_by_key, *assoc_by_id;  /* "user|acct|part" */
	am_user_usage_t *qos_user_usage;            /* (qos, uid) */
} am_snap_t;

am_snap_t *am_snap(void);
/* Counters from the job lists (after a new snapshot). */
void       am_usage_recount(am_snap_t *s);
void       am_usage_free(am_snap_t *s);

/* The saved file's body: 0 with lists filled, or -1 (nothing left
 * allocated).  For the fuzz harness and unit tests too. */
int  am_unpack_lists(const void *data, size_t len,
		     dbd_acct_resp_msg_t *lists[AM_LIST_CNT]);
/* Tests: put a snapshot built from lists in place; set the flags. */
int  am_install_lists(dbd_acct_resp_msg_t *lists[AM_LIST_CNT]);
void am_set_enforce(uint32_t flags);

#endif
