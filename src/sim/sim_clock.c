/* sim_clock.c — the virtual clock behind time(), gettimeofday() and
 * clock_gettime() (sim_clock.h). */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/time.h>

#include "sim/sim_clock.h"

static time_t sim_now = 1767225600;    /* 2026-01-01T00:00:00Z */

/* The real functions, under the names the linker gives them. */
int __real_clock_gettime(clockid_t id, struct timespec *ts);
time_t __wrap_time(time_t *t);
int __wrap_gettimeofday(struct timeval *tv, void *tz);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

void sim_clock_set(time_t t)
{
	if (t > sim_now)
		sim_now = t;
}

void sim_clock_start(time_t t)
{
	sim_now = t;
}

time_t sim_clock_now(void)
{
	return sim_now;
}

uint64_t sim_clock_wall_usec(void)
{
	struct timespec ts;

	__real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

time_t __wrap_time(time_t *t)
{
	if (t)
		*t = sim_now;
	return sim_now;
}

int __wrap_gettimeofday(struct timeval *tv, void *tz)
{
	(void) tz;
	if (tv) {
		tv->tv_sec = sim_now;
		tv->tv_usec = 0;
	}
	return 0;
}

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
	switch (id) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME:
		ts->tv_sec = sim_now;
		ts->tv_nsec = 0;
		return 0;
	default:                        /* CPU-time clocks: real */
		return __real_clock_gettime(id, ts);
	}
}
