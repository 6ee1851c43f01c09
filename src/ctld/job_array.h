/* job_array.h — job arrays in the controller.
 *
 * As in Slurm, an array is one record (the "meta" record: job id = array
 * job id, array_task_id NO_VAL32) holding every task that has not started
 * in a bitmap, so a pending 10,000-task array costs one record.  When a
 * task starts it is split off into a record of its own with a new job id;
 * the last one to start takes over the meta record itself.  All records of
 * an array share one job_array_t (task count, min, max, step for the
 * SLURM_ARRAY_TASK_* variables, the pending bitmap), freed with the last
 * record.  The array's script and environment are saved once, under the
 * array job id.
 */
#ifndef SLUICE_CTLD_JOB_ARRAY_H
#define SLUICE_CTLD_JOB_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/array_spec.h"
#include "common/bitmap.h"
#include "common/pack.h"
#include "ctld/job_mgr.h"

/* Check a --array spec against MaxArraySize: 0 or ESLURM_INVALID_ARRAY. */
int           job_array_check(const char *spec);
/* The new record j (already added) becomes the meta record of spec. */
void          job_array_create(job_record_t *j, const char *spec);

/* The record to start when the scheduler picks j: j, or a task split
 * off the meta record j. */
job_record_t *job_array_take_task(job_record_t *j);
/* The task job_array_take_task(j) would start next, or -1 if j is not
 * an array's record of pending tasks. */
long          job_array_next_task(const job_record_t *j);
/* j is an array's pending record whose %N throttle is reached. */
bool          job_array_throttled(const job_record_t *j);
/* Refresh j->info.array_task_str from the pending set (before replies). */
void          job_array_sync(job_record_t *j);
/* SLURM_ARRAY_TASK_{COUNT,MIN,MAX,STEP} appended to a task's env. */
char        **job_array_env(const job_record_t *j, char **env);
/* Whose job files (script, environment) the record uses. */
uint32_t      job_array_files_id(const job_record_t *j);
/* Is j the last record that uses its job files (so a purge removes them)? */
bool          job_array_last_ref(const job_record_t *j);
/* j is being freed. */
void          job_array_release(job_record_t *j);

/* The records an id names: "123" (a job, or every record of array 123),
 * "123_4", "123_[1-3,7]".  Tasks not started yet are named through the
 * meta record and a bitmap of them. */
typedef struct {
	job_record_t **recs;
	size_t         cnt;
	job_record_t  *meta;      /* set with tasks */
	bitmap_t      *tasks;     /* pending tasks of meta named, or NULL */
} job_array_sel_t;
/* 0, or ESLURM_INVALID_JOB_ID when the id is malformed or names nothing. */
int           job_array_select(const char *id, job_array_sel_t *sel);
void          job_array_sel_free(job_array_sel_t *sel);
/* Does sel name every pending task of its meta record? */
bool          job_array_sel_all_pending(const job_array_sel_t *sel);
/* Cancelled before they started: the tasks leave the meta record. */
void          job_array_drop(job_record_t *meta, const bitmap_t *tasks);
/* Task t pending in meta gets a pending record of its own (to be held or
 * updated alone). */
job_record_t *job_array_split(job_record_t *meta, uint32_t task);
/* Mail for an array as a whole: true the first time one of its tasks
 * starts. */
bool          job_array_mail_first_start(job_record_t *j);
/* Task j ended: its state and exit code join the array's; true when it
 * was the last task (none pending or running), with the array's base
 * state (mixed: they differ) and exit code range. */
bool          job_array_mail_last_end(job_record_t *j, uint32_t *state,
				      bool *mixed, int *exit_min,
				      int *exit_max);
/* scontrol update ArrayTaskThrottle=N on any record of the array. */
void          job_array_set_throttle(job_record_t *j, uint32_t max_tasks);

/* Snapshot: the array part of one record. */
/* Format-1 job records (read only): the array part. */
int           job_array_unpack(buf_t *b, job_record_t *j);
/* What a job record saves of its array (j->array set). */
void          job_array_saved(const job_record_t *j, array_spec_stats_t *st,
			      bool *meta, const bitmap_t **pending);
/* Back from a saved record (pending: owned, the meta record's only);
 * j->info.array_job_id must be set.  0 or -1. */
int           job_array_restore(job_record_t *j, const array_spec_stats_t *st,
				bool meta, bitmap_t *pending);

#endif
