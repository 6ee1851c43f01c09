/* sim_clock.h — the simulator's virtual clock.
 *
 * sluice-sim is linked with -Wl,--wrap=time,--wrap=gettimeofday,
 * --wrap=clock_gettime: every call the controller's modules (and the
 * simulator's own) make to those reads this clock instead, so the real
 * scheduler code ages jobs, checks time limits and plans backfill on
 * simulated time.  CLOCK_MONOTONIC follows it too (the scheduler's pass
 * budgets then never run out in the middle of a simulated instant);
 * the CPU-time clocks stay real.  sim_clock_wall_usec() is the real
 * monotonic clock, for the simulator's own speed figure.
 */
#ifndef SLUICE_SIM_CLOCK_H
#define SLUICE_SIM_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Move the clock to t (seconds since the Unix epoch); never backwards. */
void     sim_clock_set(time_t t);
/* A new run: the clock is t, even if that is earlier. */
void     sim_clock_start(time_t t);
time_t   sim_clock_now(void);
/* Real elapsed time in microseconds (CLOCK_MONOTONIC, not simulated). */
uint64_t sim_clock_wall_usec(void);

#endif
