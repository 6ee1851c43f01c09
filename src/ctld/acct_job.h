/* acct_job.h — the controller's side of accounting.
 *
 * Turns jobs, batch steps and node state changes into records for the
 * AccountingStorageType plugin (acct_storage.h; for slurmdbd: the
 * outbox that the sender thread carries).  Every call is a no-op when accounting is off.  Loop thread
 * only.
 */
#ifndef SLUICE_CTLD_ACCT_JOB_H
#define SLUICE_CTLD_ACCT_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/conf.h"
#include "common/msg_types.h"
#include "ctld/job_mgr.h"
#include "ctld/node_mgr.h"

/* Open the outbox in StateSaveLocation, register the cluster, start the
 * sender.  0, or -1 with err. */
int      acct_init(const slurm_conf_t *c, char *err, size_t errlen);
void     acct_fini(void);
bool     acct_enabled(void);

/* The job changed (submitted, started, ended, updated): send its state. */
void     acct_job_changed(job_record_t *j);
/* A batch job was submitted: its script and environment as
 * AccountingStoreFlags asks (job_script, job_env; nothing otherwise). */
void     acct_job_script(const job_record_t *j, const char *script,
			 char *const *env);
/* The job started: its .batch step starts too. */
void     acct_job_batch_started(job_record_t *j);
/* The batch script ended: the .batch step with its usage. */
void     acct_job_batch_done(job_record_t *j, const batch_complete_msg_t *b);
/* A node's reason changed: close the event that started at old_time
 * (if any) and open one for its current reason (if any). */
void     acct_node_reason(node_record_t *n, const char *old_reason,
			  time_t old_time);
/* Send every job in memory again (after a restart: what the outbox may
 * have missed; slurmdbd stores each job once). */
void     acct_resync(void);

/* Records waiting for slurmdbd (0 when accounting is off). */
uint32_t acct_queue_depth(void);
/* One record (common/acct_rec.h) to the AccountingStorageType plugin. */
void     acct_record(uint16_t kind, const void *rec);

#endif
