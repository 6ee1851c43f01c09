/* bf_lic.h — backfill's license availability over time.
 *
 * A plain data structure beside bf_map (no daemon state), so planning
 * with licenses is testable on synthetic clusters.  For each license
 * (an index the caller chooses, 0..lic_cnt) it holds the free count in
 * every slot of the backfill resolution from now to the end of the
 * window; the slot past the window lasts forever.  Running jobs give
 * their licenses back at their end; planned jobs take them over their
 * interval.  Within a pass availability only ever decreases.
 */
#ifndef SLUICE_CTLD_BF_LIC_H
#define SLUICE_CTLD_BF_LIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct bf_lic bf_lic_t;

/* What a job asks for: cnt (license index, count) pairs, all of them or
 * (any) one of them. */
typedef struct {
	const uint32_t *lic;
	const uint32_t *count;
	size_t          cnt;
	bool            any;
} bf_lic_req_t;

/* free_now[i]: license i's free count now. */
bf_lic_t *bf_lic_create(const uint32_t *free_now, size_t lic_cnt, time_t now,
			uint32_t resolution, uint32_t window);
void      bf_lic_destroy(bf_lic_t *m);
/* A running job gives count of license lic back at end (<= now: now). */
void      bf_lic_release(bf_lic_t *m, uint32_t lic, time_t end,
			 uint32_t count);
/* Earliest start >= not_before (within the window) at which req's
 * licenses stay free for duration seconds: 0 with *start and *choice
 * (the item used for an any request, else 0), or -1. */
int       bf_lic_earliest(const bf_lic_t *m, const bf_lic_req_t *req,
			  uint32_t duration, time_t not_before,
			  time_t *start, size_t *choice);
/* Take count of license lic from start for duration seconds
 * (UINT32_MAX: for ever). */
void      bf_lic_take(bf_lic_t *m, uint32_t lic, uint32_t count,
		      time_t start, uint32_t duration);
/* The least free count of lic over [now, now + duration). */
uint32_t  bf_lic_free_for(const bf_lic_t *m, uint32_t lic,
			  uint32_t duration);

#endif
