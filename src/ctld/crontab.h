/* crontab.h — scrontab: each user's crontab and the jobs it runs.
 *
 * REQUEST_UPDATE_CRONTAB replaces a user's whole crontab at once: every
 * entry is checked (its time fields, then as a submit would check its
 * job) before anything changes, and one refusal leaves the old crontab
 * and its jobs as they were.  Then the old entries' jobs are cancelled
 * (a running one finishes, not requeued) and one batch job per entry is
 * made, flagged JOB_CRON, with BeginTime at its next start.  When such a
 * job ends any way but a cancel, job_mgr_end() asks crontab_job_end():
 * it is requeued, pending with BeginTime at its next start.  A cancel
 * (with ScronParameters=explicit_scancel only with scancel --cron)
 * disables its entry: `scrontab -l` shows its lines "#DISABLED: ".
 *
 * The loop owns the table; it is journaled (JREC_CRONTAB) and in the
 * snapshot.  The jobs are ordinary job records (CrontabSpec= is
 * job_info_t.cronspec).
 */
#ifndef SLUICE_CTLD_CRONTAB_H
#define SLUICE_CTLD_CRONTAB_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "common/net.h"
#include "common/pack.h"

#define CRONTAB_STATE_VERSION 1

struct job_record;

/* REQUEST_UPDATE_CRONTAB, REQUEST_CRONTAB: a user's own crontab;
 * another user's for operators, root and SlurmUser. */
void     crontab_rpc_update(net_conn_t *c, slurm_msg_t *m);
void     crontab_rpc_get(net_conn_t *c, slurm_msg_t *m);

/* ScronParameters: its words are logged if unknown (at start and
 * reconfigure). */
void     crontab_check_conf(void);

/* job_mgr_end: the state a job ends in.  A cron job that ran and ends
 * other than CANCELLED gets JOB_REQUEUE and its next BeginTime. */
uint32_t crontab_job_end(struct job_record *j, uint32_t state);
/* The next start of a cron job's entry after now; 0 (logged) if its
 * CrontabSpec never matches again. */
time_t   crontab_next_start(const struct job_record *j, time_t now);
/* A cancel of a cron job by uid: 0 (its entry is disabled), or
 * ESLURM_CANNOT_CANCEL_CRON_JOB without KILL_CRON under
 * ScronParameters=explicit_scancel. */
int      crontab_job_cancel(struct job_record *j, uint16_t kill_flags,
			    uid_t uid);

/* The table for the snapshot and the journal; the unpack replaces it. */
void     crontab_pack_state(buf_t *b);
int      crontab_unpack_state(buf_t *b, uint16_t version);
/* Whether the table changed since the last call. */
bool     crontab_take_dirty(void);
void     crontab_fini(void);

#endif
