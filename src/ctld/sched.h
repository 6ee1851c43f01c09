/* sched.h — the main scheduler: pending jobs in priority order, strict
 * per partition, placed with select_job_test.  Runs on events (coalesced
 * into one pass per loop iteration, at most one per sched_min_interval,
 * each testing default_queue_depth jobs) and every sched_interval over the
 * whole queue.  Also holds SchedulerParameters and the pending-reason
 * engine that the backfill scheduler shares. */
#ifndef SLUICE_CTLD_SCHED_H
#define SLUICE_CTLD_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ctld/sched_params.h"

struct event_base;
struct job_record;

const sched_params_t *sched_params(void);

int  sched_init(struct event_base *base);
void sched_fini(void);
/* Config changed: reread SchedulerParameters. */
void sched_reconfig(void);
/* Something changed (submit, job end, node up...): schedule soon. */
void sched_trigger(void);
/* A job was just submitted (and is pending): schedule soon.  If nothing
 * else changed since the last pass, the pass evaluates only such jobs. */
void sched_trigger_new(struct job_record *j);
/* Bumped by every sched_trigger(): lets a yielded pass see changes. */
uint64_t sched_change_gen(void);
/* One full pass now; returns the number of jobs started. */
int  sched_run(void);
/* The pass a trigger runs (default_queue_depth jobs, or only the new
 * ones when nothing else changed), now: for a driver without the loop
 * (sluice-sim's virtual clock).  Returns the number of jobs started. */
int  sched_run_triggered(void);

/* The reason engine: why a pending job may not even be tried now
 * (held, begin time, dependency, partition state or limits), or
 * WAIT_NO_REASON.  Checks run in order; the first reason wins. */
typedef uint32_t (*sched_reason_f)(struct job_record *j, time_t now);
uint32_t sched_job_reason(struct job_record *j, time_t now);
/* Record a pending reason (and free-text detail, or NULL). */
void     sched_set_reason(struct job_record *j, uint32_t why,
			  const char *desc);

#endif
