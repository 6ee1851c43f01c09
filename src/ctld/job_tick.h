/* job_tick.h — the job manager's once-a-second checks (job_tick.c). */
#ifndef SLUICE_CTLD_JOB_TICK_H
#define SLUICE_CTLD_JOB_TICK_H

#include "ctld/job_mgr.h"

/* --deadline: a pending job that can no longer end in time (its
 * --time-min, else its time limit, from now goes past the deadline, or
 * the deadline has passed) ends DEADLINE without running; true if it
 * did.  Both schedulers ask before they try a job, and the tick asks
 * for every pending one. */
bool          job_mgr_deadline_end(job_record_t *j, time_t now);
/* Once a second: time limits, purge of old finished jobs. */
void          job_mgr_tick(time_t now);

#endif
