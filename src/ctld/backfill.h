/* backfill.h — sched/backfill: every bf_interval, plan the pending queue
 * in priority order against the running jobs' end times (bf_map) and
 * start a lower-priority job early only where it delays no
 * higher-priority job's planned start.  Planned starts are shown as the
 * pending jobs' StartTime.  The pass runs on the controller's loop and
 * yields every bf_yield_interval, so RPCs are answered during a long
 * pass. */
#ifndef SLUICE_CTLD_BACKFILL_H
#define SLUICE_CTLD_BACKFILL_H

#include <stdbool.h>

struct event_base;

int  backfill_init(struct event_base *base);
void backfill_fini(void);
/* Config or node table changed: a pass under way ends, timers rearm. */
void backfill_reconfig(void);
/* One whole pass now without yielding (tests, benchmark); returns the
 * number of jobs started. */
int  backfill_run(void);
bool backfill_active(void);

#endif
