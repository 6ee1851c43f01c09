/* dbd_aside.h — accounting records the database refused for their
 * content (dbd_jobs.h decides when), kept whole in set_aside_table for
 * the administrator: "sacctmgr show problem" lists them, sdiag counts
 * them.  Runs on the worker thread, inside the batch's transaction.
 */
#ifndef SLUICE_DBD_ASIDE_H
#define SLUICE_DBD_ASIDE_H

#include <stdint.h>
#include <time.h>

#include "common/acct_rec.h"
#include "dbd/dbd_db.h"

/* A job whose record is set aside: its steps' records follow it. */
typedef struct {
	uint32_t job;
	int64_t  submit;
} dbd_aside_job_t;

/* Keep record f of the cluster's outbox epoch, with the database's error
 * err and its text (err 0: text says why), and log it at error level.
 * A job's record replaces its earlier one.  *job: the job it belongs to
 * (0 for a node event or registration).  0 or -1. */
int dbd_aside_put(dbd_db_t *db, const char *cluster, uint64_t epoch,
		  time_t now, const acct_frame_t *f, unsigned int err,
		  const char *text, dbd_aside_job_t *job);
/* The cluster's jobs whose record is set aside (usually none): *jobs
 * (caller frees) and *cnt.  0 or -1. */
int dbd_aside_jobs(dbd_db_t *db, const char *cluster, dbd_aside_job_t **jobs,
		   uint32_t *cnt);
/* How many of the cluster's records are set aside. */
uint32_t dbd_aside_count(dbd_db_t *db, const char *cluster);

#endif
