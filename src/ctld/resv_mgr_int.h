/* resv_mgr_int.h — what resv_mgr.c and resv_rpc.c share (not public). */
#ifndef SLUICE_CTLD_RESV_MGR_INT_H
#define SLUICE_CTLD_RESV_MGR_INT_H

#include "common/resv_info.h"
#include "ctld/resv_mgr.h"

typedef struct {
	resv_info_t info;         /* what is shown and saved */
	bitmap_t   *nodes;        /* info.node_list for node generation gen */
	uint32_t    gen;
	bool        active;       /* its occurrence had started at the last
				   * tick (for the log and accounting) */
} resv_t;

size_t   resv_cnt(void);
resv_t  *resv_at(size_t i);
resv_t  *resv_find(const char *name);
/* Add a new record (takes r's members); returns it. */
resv_t  *resv_add(const resv_info_t *info);
/* Remove and free the i-th (pending jobs naming it are held unless
 * NO_HOLD_JOBS_AFTER_END). */
void     resv_remove(size_t i, time_t now);
/* Its node bitmap for the current node table. */
const bitmap_t *resv_nodes(resv_t *r);
/* Is [start, end) of r (with its recurrence) going on at now? */
bool     resv_is_active(const resv_t *r, time_t now);
/* Jobs running in r (not completing). */
uint32_t resv_running_jobs(const resv_t *r);
/* Something changed: journal it, schedule again. */
void     resv_changed(void);
uint32_t resv_next_id(void);
/* May uid (running in account; NULL: none) use r (Users=, Accounts=)? */
bool     resv_admits(const resv_t *r, uid_t uid, const char *account);
/* Accounting record of r (deleted: now is when). */
void     resv_acct(const resv_t *r, bool deleted, time_t prev_start,
		   time_t now);

#endif
