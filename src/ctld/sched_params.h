/* sched_params.h — SchedulerParameters, parsed into what the main and
 * backfill schedulers use (pure: no daemon state).  SchedulerType is a
 * plugin (sched_plugin.h). */
#ifndef SLUICE_CTLD_SCHED_PARAMS_H
#define SLUICE_CTLD_SCHED_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* SchedulerParameters, as used (Slurm's units). */
typedef struct {
	bool     backfill;            /* the SchedulerType plugin has passes
				       * of its own (set by sched.c) */
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
	bool     bf_licenses;         /* backfill plans licenses over time */
	uint32_t bf_yield_interval;   /* us of work between yields */
	uint32_t bf_yield_sleep;      /* us the loop gets at each yield */
	uint32_t max_switch_wait;     /* s a job may wait for --switches, 300 */
} sched_params_t;

/* Parse SchedulerParameters (NULL = defaults) into p.  -1 + err on a
 * bad value; unknown keys are ignored, as Slurm does. */
int  sched_params_parse(const char *str, uint16_t message_timeout,
			sched_params_t *p, char *err, size_t errlen);
/* Slurm's defaults (max_sched_time is half of MessageTimeout). */
void sched_params_defaults(sched_params_t *p, uint16_t message_timeout);

#endif
