/* dbd_jobs.h — job, step and node event records in the database: what
 * the controller sends (dbd_store.c) and what sacct asks for
 * (dbd_query.c).
 *
 * Runs on the worker thread.  A batch of records is one transaction;
 * records are keyed so that storing one twice changes nothing: jobs by
 * (cluster, job id, submit time), steps by (job, step id), node events
 * by (cluster, node, start), and each cluster's last stored outbox
 * (epoch, sequence) is kept with them, so a resent batch is skipped.
 */
#ifndef SLUICE_DBD_JOBS_H
#define SLUICE_DBD_JOBS_H

#include "common/msg_types.h"
#include "dbd/dbd_acct.h"
#include "dbd/dbd_batch.h"
#include "dbd/dbd_db.h"

/* REQUEST_DBD_RECORDS: only root and SlurmUser may send it. */
void dbd_jobs_store(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		    const dbd_records_msg_t *req,
		    dbd_records_resp_msg_t *resp);
/* REQUEST_DBD_JOBS. */
void dbd_jobs_query(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		    const dbd_job_cond_msg_t *req, dbd_jobs_msg_t *resp);

/* " AND ..." conditions on job_table t for req as ctx's user may see
 * them (PrivateData); caller frees.  NULL if req is malformed. */
char *dbd_jobs_where(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		     const dbd_job_cond_msg_t *req);

/* dbd_track.c: run tracking.  Store: one row per record, appended to
 * the multi-row INSERT b (dbd_batch.h: flushed by dbd_batch_flush, and
 * by add when it grows large); a record resent is stored once (its
 * outbox epoch and sequence are the key). */
int  dbd_track_add(dbd_db_t *db, dbd_batch_t *b, const char *cluster,
		   uint64_t epoch, uint64_t seq, const acct_track_rec_t *t);
/* REQUEST_DBD_TRACK: the values of the jobs req selects. */
void dbd_track_query(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		     const dbd_job_cond_msg_t *req, dbd_track_msg_t *resp);

/* dbd_profile.c: job profiles (--profile=task samples), stored and
 * queried as run tracking is; a profile is shown to its job's user and
 * to Operators and above only. */
int  dbd_profile_add(dbd_db_t *db, dbd_batch_t *b, const char *cluster,
		     uint64_t epoch, uint64_t seq, const acct_profile_rec_t *p);
/* REQUEST_DBD_PROFILE. */
void dbd_profile_query(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		       const dbd_job_cond_msg_t *req, dbd_profile_msg_t *resp);

#endif
