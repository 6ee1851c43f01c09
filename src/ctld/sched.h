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

struct event_base;
struct job_record;

/* SchedulerType and SchedulerParameters, as used (Slurm's units). */
typedef struct {
	bool     backfill;            /* SchedulerType=sched/backfill */
	uint32_t sched_interval;      /* s, full main pass, 60 */
	uint32_t default_queue_depth; /* jobs per event pass, 100 */
	uint32_t sched_min_interval;  /* us between main passes, 2 */
	uint32_t max_sched_time;      /* s per main pass, MessageTimeout/2 */
	uint32_t bf_interval;         /* s, 30 */
	uint32_t bf_window;           /* min, 1440 */
	uint32_t bf_resolution;       /* s, 60 */
	uint32_t bf_max_job_test;     /* 500 */
	uint32_t bf_max_job_user;     /* 0 = no limit */
	bool     bf_continue;
	uint32_t bf_yield_interval;   /* us of work between yields */
	uint32_t bf_yield_sleep;      /* us the loop gets at each yield */
} sched_params_t;

/* Parse SchedulerType (NULL = sched/backfill) and SchedulerParameters
 * (NULL = defaults) into p.  -1 + err on an unknown type or bad value;
 * unknown keys are ignored, as Slurm does. */
int  sched_params_parse(const char *type, const char *str,
			uint16_t message_timeout, sched_params_t *p,
			char *err, size_t errlen);
const sched_params_t *sched_params(void);

int  sched_init(struct event_base *base);
void sched_fini(void);
/* Config changed: reread SchedulerParameters. */
void sched_reconfig(void);
/* Something changed (submit, job end, node up...): schedule soon. */
void sched_trigger(void);
/* Bumped by every sched_trigger(): lets a yielded pass see changes. */
uint64_t sched_change_gen(void);
/* One full pass now; returns the number of jobs started. */
int  sched_run(void);

/* The reason engine: why a pending job may not even be tried now
 * (held, begin time, dependency, partition state or limits), or
 * WAIT_NO_REASON.  Checks run in order; the first reason wins. */
typedef uint32_t (*sched_reason_f)(struct job_record *j, time_t now);
uint32_t sched_job_reason(struct job_record *j, time_t now);
/* Record a pending reason (and free-text detail, or NULL). */
void     sched_set_reason(struct job_record *j, uint32_t why,
			  const char *desc);

#endif
