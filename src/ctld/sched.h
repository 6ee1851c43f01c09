/* sched.h — the main scheduler: pending jobs in priority order, strict
 * per partition, placed with select_job_test.  Runs on events (coalesced
 * into one pass per loop iteration) and on a timer. */
#ifndef SLUICE_CTLD_SCHED_H
#define SLUICE_CTLD_SCHED_H

struct event_base;

int  sched_init(struct event_base *base);
void sched_fini(void);
/* Something changed (submit, job end, node up...): schedule soon. */
void sched_trigger(void);
/* One pass now; returns the number of jobs started. */
int  sched_run(void);

#endif
