/* sim_engine.h — replay a trace through the controller's real scheduler
 * modules on the virtual clock (sim_clock.h).
 *
 * Submissions arrive at their trace times through the controller's own
 * submit path; a job ends at its start + the trace's run time as the
 * trace says it ended (COMPLETED, FAILED, CANCELLED), or, where that is
 * past its time limit (+ OverTimeLimit), by the controller's own time
 * limit check (TIMEOUT).  A job cancelled in the trace before it ran is
 * cancelled at the same delay after its submission if still pending.
 * The main scheduler's triggered pass runs after every instant with a
 * submission or an end, its full pass every sched_interval, backfill
 * every bf_interval, priorities are recomputed every PriorityCalcPeriod;
 * the clock jumps from one of those moments to the next.
 *
 * One simulation per process (the controller's tables are global).
 */
#ifndef SLUICE_SIM_ENGINE_H
#define SLUICE_SIM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/conf.h"
#include "sim/trace.h"

/* What became of one trace job. */
typedef struct {
	uint32_t    job_id;     /* the simulated controller's, 0: refused */
	char       *refused;    /* why the submit was refused, or NULL */
	const char *state;      /* COMPLETED, TIMEOUT, CANCELLED, FAILED,
				   PREEMPTED, ... or PENDING (never ran) */
	char       *partition;  /* where it ran (or was queued) */
	time_t      start, end; /* 0: never */
	uint32_t    nnodes, ncpus;
	uint32_t    time_limit; /* minutes, as the controller set it */
	bool        backfilled;
} sim_job_t;

typedef struct {
	sim_job_t *jobs;        /* one per trace job, same order */
	size_t     cnt;
	time_t     first_submit, last_end;
	uint64_t   cpu_seconds; /* CPU-seconds the jobs held */
	uint64_t   total_cpus;  /* of the cluster */
	uint64_t   passes, bf_passes;
	size_t     full_refused; /* refused at MaxJobCount (EAGAIN) */
	time_t     full_first;   /* the first of them */
	double     wall_seconds;
} sim_result_t;

/* Bring the controller's tables up from c (nodes registered as
 * configured, idle, at the first submission's time) and replay t into r
 * (r freed with sim_result_free, also after a failure).  0 or -1 with
 * err.  sim_engine_fini() tears the tables down for the next run. */
int  sim_engine_run(const slurm_conf_t *c, trace_t *t, sim_result_t *r,
		    char *err, size_t errlen);
void sim_engine_fini(void);
void sim_result_free(sim_result_t *r);

#endif
