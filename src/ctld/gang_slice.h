/* gang_slice.h — the gang scheduler's time slices as a pure function.
 *
 * Jobs that share CPUs (OverSubscribe=FORCE:N) cannot all run at once:
 * each slice runs a set of them whose CPUs do not overlap (the active
 * row) and the others wait suspended.  When a slice ends the jobs that
 * ran go to the back of the queue and the row is built again from the
 * front, so every job gets its turn (Slurm's gang scheduler).  No daemon
 * state: the caller describes the jobs, so rotation is testable on
 * synthetic clusters.
 */
#ifndef SLUICE_CTLD_GANG_SLICE_H
#define SLUICE_CTLD_GANG_SLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"

typedef struct {
	uint32_t              id;        /* the caller's (a job id) */
	uint32_t              node_cnt;  /* nodes the job holds */
	const uint32_t       *node;      /* their indexes */
	const uint16_t       *cpus;      /* CPUs it holds on each */
	bitmap_t *const      *ids;       /* CPU ids on each, or NULL (then
					  * CPU counts only) */
	bool                  active;    /* in: runs now; out: runs next */
	bool                  pinned;    /* stays active but holds no place
					  * in the row (its launch is not
					  * confirmed yet: a SIGSTOP could
					  * overtake it) */
} gang_job_t;

/* The CPUs the active jobs hold, per node. */
typedef struct gang_row gang_row_t;

/* node_cpus[i]: CPUs of node i (the row keeps a pointer). */
gang_row_t *gang_row_create(const uint16_t *node_cpus, size_t node_cnt);
void        gang_row_destroy(gang_row_t *r);
/* j's CPUs are free in r (ids where both have them, counts else). */
bool        gang_row_fits(const gang_row_t *r, const gang_job_t *j);
void        gang_row_add(gang_row_t *r, const gang_job_t *j);

/* jobs[0..n) in queue order.  rotate (a slice ended): the active jobs
 * move to the back in their order, then the row is built again from the
 * front.  !rotate (between slices): the running jobs that fit beside
 * those before them keep running (a new job that shares CPUs with
 * running ones waits for the next slice), then waiting jobs that fit
 * (a job ended) join.  jobs is reordered in place; returns how many are
 * active. */
size_t      gang_slice(gang_job_t *jobs, size_t n, const uint16_t *node_cpus,
		       size_t node_cnt, bool rotate);

#endif
