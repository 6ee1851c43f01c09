/* life.h — a batch stepd's life cycle on its event loop: reaping the
 * script, killing what is left, the SIGTERM/KillWait/SIGKILL sequence and
 * the moment it is all over (stepd_signal/stepd_terminate in stepd.h). */
#ifndef SLUICE_STEPD_LIFE_H
#define SLUICE_STEPD_LIFE_H

#include "slurmd/stepd/stepd.h"

/* Signal events (SIGCHLD, SIGTERM) and timers on sd->base; call before the
 * script is forked so its exit cannot be missed.  0 or -1. */
int  life_init(stepd_t *sd);
/* Once the sender runs: watch for the completion acknowledgement. */
int  life_watch_acks(stepd_t *sd);
void life_fini(stepd_t *sd);

#endif
