/* job_queue.h — the pending, running and finished lists of job records
 * (job_queue.c).  A record is on at most one of them; it is in the table
 * (job_mgr.h) all along. */
#ifndef SLUICE_CTLD_JOB_QUEUE_H
#define SLUICE_CTLD_JOB_QUEUE_H

#include "ctld/job_mgr.h"

/* Pending list in scheduling order (first, then ->pend_next). */
job_record_t *job_mgr_pending_first(void);
/* Scheduling order: < 0 if a comes before b. */
int           job_mgr_pending_cmp(const job_record_t *a, const job_record_t *b);
/* Bumped by every change to the pending list (add, delete, re-sort). */
uint64_t      job_mgr_pending_gen(void);
/* Re-sort one pending job after its priority changed. */
void          job_mgr_pending_resort(job_record_t *j);
/* Re-sort the whole pending list (after priorities were recomputed). */
void          job_mgr_pending_sort(void);
void          job_mgr_pending_add(job_record_t *j);
void          job_mgr_pending_del(job_record_t *j);
void          job_mgr_running_add(job_record_t *j);
void          job_mgr_running_del(job_record_t *j);
job_record_t *job_mgr_running_first(void);
job_record_t *job_mgr_finished_first(void);
/* Take a finished job off the finished list (requeue). */
void          job_mgr_finished_del(job_record_t *j);
/* Put a job on the finished list (off the other two). */
void          job_mgr_finished_add(job_record_t *j);
/* Recovery: pending adds append until off, which sorts the list once. */
void          job_mgr_pending_bulk(bool on);
/* The table was emptied: forget the lists (job_mgr_fini). */
void          job_mgr_lists_reset(void);

#endif
