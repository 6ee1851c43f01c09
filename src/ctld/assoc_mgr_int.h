/* assoc_mgr_int.h — shared by assoc_mgr.c (the snapshot),
 * assoc_limits.c (counters and limits) and assoc_mgr_show.c (scontrol
 * show assoc_mgr) only. */
#ifndef SLUICE_CTLD_ASSOC_MGR_INT_H
#define SLUICE_CTLD_ASSOC_MGR_INT_H

#include "ctld/assoc_mgr.h"

#define AM_LIST_CNT 6     /* QOS, users, associations, coordinators,
			   * remote licenses, wckeys (a file saved before
			   * the last ones has the first 4 or 5) */
#define AM_LIST_MIN 4

/* A string- or number-keyed index (uthash inside). */
typedef struct am_index am_index_t;
void  am_index_add(am_index_t **ix, const char *key, void *val);
void  am_index_add_id(am_index_t **ix, uint64_t id, void *val);
void *am_index_find(am_index_t *ix, const char *key);
void *am_index_find_id(am_index_t *ix, uint64_t id);
void  am_index_free(am_index_t **ix);

typedef struct am_user_usage am_user_usage_t;   /* assoc_limits.c */
typedef struct am_wckey am_wckey_t;             /* assoc_mgr_wckey.c */

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
	bool           time_limited;     /* a time-based Grp limit somewhere */
	time_t         tusage_time;      /* when tusage was last computed */
	uint64_t       tusage_version;   /* fairshare_usage_version() then */
	am_index_t    *qos_by_name, *qos_by_id;
	am_index_t    *user_by_name, *user_by_uid;
	am_index_t    *assoc_by_key, *assoc_by_id;  /* "user|acct|part" */
	am_user_usage_t *qos_user_usage;            /* (qos, uid) */
	assoc_remote_lic_t *remote_lics;            /* this cluster's */
	size_t         remote_lic_cnt;
	am_wckey_t    *wckeys;                      /* this cluster's */
	size_t         wckey_cnt;
} am_snap_t;

am_snap_t *am_snap(void);
/* Remote licenses from a resource list (withclusters, this cluster's
 * rows) (assoc_mgr_res.c); freed with the snapshot. */
void       am_remote_build(am_snap_t *s, const dbd_acct_resp_msg_t *r);
void       am_remote_free(am_snap_t *s);
/* The wckeys from a wckey list (this cluster's; assoc_mgr_wckey.c). */
void       am_wckey_build(am_snap_t *s, const dbd_acct_resp_msg_t *r);
void       am_wckey_free(am_snap_t *s);
/* Counters from the job lists (after a new snapshot). */
void       am_usage_recount(am_snap_t *s);
void       am_usage_free(am_snap_t *s);

/* The saved file's body: 0 with lists filled, or -1 (nothing left
 * allocated).  For the fuzz harness and unit tests too. */
int  am_unpack_lists(const void *data, size_t len,
		     dbd_acct_resp_msg_t *lists[AM_LIST_CNT]);
/* Time-based limits' arithmetic (assoc_limits.c; unit-tested).
 * Seconds left of a job with time_limit (minutes; INFINITE/NO_VAL =
 * unlimited) started at start. */
uint64_t assoc_limits_secs_left(uint32_t time_limit, time_t start,
				time_t now);
/* A job's TRES-minutes: TRES x time limit (saturating). */
void     assoc_limits_tres_mins(const uint64_t t[ASSOC_TRES_CNT],
				uint32_t time_limit,
				uint64_t out[ASSOC_TRES_CNT]);
/* GrpTRESMins / GrpTRESRunMins / GrpWall of one level against usage u
 * and a job wanting want_min TRES-minutes for tl minutes: the reason
 * (Assoc* or, with qos, QOS*) or WAIT_NO_REASON. */
uint32_t assoc_limits_time_grp(const assoc_tres_t *grp_mins,
			       const assoc_tres_t *grp_run_mins,
			       uint64_t grp_wall,
			       const assoc_time_usage_t *u,
			       const uint64_t want_min[ASSOC_TRES_CNT],
			       uint64_t tl, bool safe, bool qos);

/* scontrol show assoc_mgr (assoc_mgr_show.c): the time-based usage as
 * of now; the counters of QOS q per user (uid set, name NULL) and, one
 * call per job, per account (name set). */
typedef void (*am_usage_f)(uint32_t uid, const char *name,
			   const assoc_usage_t *u, void *arg);
void am_tusage_now(am_snap_t *s, time_t now);
void am_qos_user_usage(am_snap_t *s, const assoc_qos_t *q, am_usage_f cb,
		       void *arg);
void am_qos_acct_usage(const assoc_qos_t *q, am_usage_f cb, void *arg);

/* Tests: put a snapshot built from lists in place; set the flags. */
int  am_install_lists(dbd_acct_resp_msg_t *lists[AM_LIST_CNT]);
void am_set_enforce(uint32_t flags);

#endif
