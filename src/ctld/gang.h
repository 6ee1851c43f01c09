/* gang.h — gang scheduling (PreemptMode=GANG, PreemptMode=SUSPEND,GANG).
 *
 * Jobs of a partition with OverSubscribe=FORCE:N (YES:N for jobs that
 * ask --oversubscribe) may be placed on CPUs up to N jobs share.  With
 * GANG in PreemptMode the controller time-slices them: every
 * SchedulerTimeSlice seconds the jobs that ran are suspended and those
 * that waited resumed (gang_slice.h picks them).  A job suspended this
 * way keeps its CPUs and memory (they are shared, not lent), shows S in
 * squeue, and its suspended time does not count against its time limit.
 * A new job that shares CPUs with running ones is suspended until the
 * slice ends (once its launch is confirmed: a SIGSTOP must not overtake
 * it); a job that ends lets waiting ones that now fit run.  Everything
 * runs on the controller's loop from its one-second timer.
 */
#ifndef SLUICE_CTLD_GANG_H
#define SLUICE_CTLD_GANG_H

#include <stdbool.h>
#include <time.h>

#include "ctld/job_mgr.h"

/* PreemptMode has GANG. */
bool gang_enabled(void);
/* Once a second: rotate when the slice is over, else suspend new jobs
 * that share CPUs with running ones and let waiting jobs that fit run;
 * with GANG off, resume every job it suspended. */
void gang_tick(time_t now);

#endif
