/* job_update_keys.h — scontrol update JobId= of a job's request (memory,
 * tasks, CPUs per task, GRES, output files, working directory,
 * OverSubscribe, Contiguous, WCKey: pending jobs only, as Slurm) and of
 * its mail, Deadline and TimeMin (pending or running).  job_ctl.c's
 * update asks here after its own checks. */
#ifndef SLUICE_CTLD_JOB_UPDATE_KEYS_H
#define SLUICE_CTLD_JOB_UPDATE_KEYS_H

#include <stdbool.h>

#include "common/msg_types.h"
#include "ctld/job_mgr.h"

/* 0, or why not (ESLURM_JOB_NOT_PENDING, ESLURM_ACCESS_DENIED for a
 * user's OverSubscribe or Contiguous=yes, ESLURM_INVALID_GRES, ...).
 * op: the caller is an operator. */
int  job_update_keys_check(const job_record_t *j, const job_update_msg_t *u,
			   bool op);
/* Apply what job_update_keys_check accepted. */
void job_update_keys_apply(job_record_t *j, const job_update_msg_t *u);

#endif
