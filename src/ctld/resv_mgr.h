/* resv_mgr.h — advanced reservations in the controller.
 *
 * A reservation holds nodes (by name, count or core count) for a time,
 * once or recurring (DAILY, WEEKLY, ...), for some users and/or accounts.
 * Jobs that name it (--reservation) run only on its nodes while it is
 * active; no other job starts on those nodes if its time limit would
 * reach into the reservation (the main scheduler and backfill ask here).
 * MAINT and RESERVED show on the nodes while it is active.
 *
 * Split over resv_mgr.c (table, life cycle, scheduling, state) and
 * resv_rpc.c (create, update, delete, info).  Loop thread only.  The
 * reservations are part of the controller state: a snapshot section and
 * a JREC_RESV journal record hold the whole table (it is small), written
 * whenever it changed.  Accounting gets a record per create, change,
 * occurrence and delete.
 */
#ifndef SLUICE_CTLD_RESV_MGR_H
#define SLUICE_CTLD_RESV_MGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "common/bitmap.h"
#include "common/net.h"
#include "common/pack.h"

struct job_record;
struct bf_map;

void     resv_mgr_fini(void);
size_t   resv_mgr_count(void);
/* Once a second: occurrences start and end, recurring ones move on,
 * ended ones go (their pending jobs are held).  Jobs running in an
 * occurrence that ends end with it (TIMEOUT), ResvOverRun minutes later
 * if that is set. */
void     resv_mgr_tick(time_t now);

/* The id of reservation name, 0 if there is none of that name. */
uint32_t resv_mgr_id(const char *name);
/* Submit: may uid with account use reservation name?  0,
 * ESLURM_RESERVATION_INVALID (unknown) or ESLURM_RESERVATION_ACCESS. */
int      resv_mgr_job_check(const char *name, uid_t uid, const char *account);

/* Scheduling one pending job j now.  Returns WAIT_NO_REASON and in *out
 * the nodes of usable it may take (a new bitmap, or NULL: all of usable),
 * or a pending reason (WAIT_RESERVATION: its reservation has not
 * started).  *removed: how many reservations took nodes out of usable. */
uint32_t resv_mgr_job_nodes(struct job_record *j, const bitmap_t *usable,
			    time_t now, bitmap_t **out, uint32_t *removed);
/* Backfill: every reservation occurrence in [now, now + window) takes
 * its nodes whole in the plan (jobs in a reservation are left to the
 * main scheduler). */
void     resv_mgr_bf_plan(struct bf_map *m, time_t now, uint32_t resolution,
			  uint32_t window);
/* NODE_STATE_MAINT / NODE_STATE_RES of node index i now. */
uint32_t resv_mgr_node_flags(size_t i, time_t now);

/* RPC handlers (resv_rpc.c). */
void     resv_mgr_rpc_create(net_conn_t *c, slurm_msg_t *m);
void     resv_mgr_rpc_update(net_conn_t *c, slurm_msg_t *m);
void     resv_mgr_rpc_delete(net_conn_t *c, slurm_msg_t *m);
void     resv_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m);

/* ---- state ---- */

#define RESV_STATE_VERSION 1
/* The whole table (snapshot section, JREC_RESV payload). */
void     resv_mgr_pack_state(buf_t *b);
/* Replace the table with a packed one.  0, or -1 (malformed: the table
 * is left as it was). */
int      resv_mgr_unpack_state(buf_t *b, uint16_t version);
/* Changed since the last call (the journal writes a JREC_RESV)? */
bool     resv_mgr_take_dirty(void);

#endif
