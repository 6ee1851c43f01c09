/* bf_lic.c — license availability for backfill (bf_lic.h).
 *
 * Dense: per license one count per slot plus one for "after the window".
 * Sites configure a few dozen licenses and the window has at most a few
 * thousand slots, so a pass costs little memory, and a query is one
 * linear scan per license (the start moves past the last slot found
 * short, never back).
 */
#include <string.h>

#include "common/xmalloc.h"
#include "ctld/bf_lic.h"

struct bf_lic {
	size_t    lic_cnt;
	time_t    now;
	uint32_t  res;
	uint32_t  slots;         /* slots in the window; [slots] is after */
	int64_t  *free;          /* [lic_cnt][slots + 1] */
};

static int64_t *_bl_row(const bf_lic_t *m, uint32_t lic)
{
	return &m->free[(size_t) lic * (m->slots + 1)];
}

bf_lic_t *bf_lic_create(const uint32_t *free_now, size_t lic_cnt, time_t now,
			uint32_t resolution, uint32_t window)
{
	bf_lic_t *m = xmalloc(sizeof(*m));

	m->lic_cnt = lic_cnt;
	m->now = now;
	m->res = resolution ? resolution : 1;
	m->slots = (window + m->res - 1) / m->res;
	if (m->slots < 1)
		m->slots = 1;
	m->free = xcalloc(lic_cnt * (m->slots + 1) + 1, sizeof(int64_t));
	for (size_t l = 0; l < lic_cnt; l++) {
		int64_t *row = _bl_row(m, (uint32_t) l);

		for (uint32_t s = 0; s <= m->slots; s++)
			row[s] = free_now[l];
	}
	return m;
}

void bf_lic_destroy(bf_lic_t *m)
{
	if (!m)
		return;
	xfree(m->free);
	xfree(m);
}

/* Slot of an absolute time, rounded up (a release is never early);
 * m->slots for anything past the window. */
static uint32_t _bl_slot_up(const bf_lic_t *m, time_t t)
{
	int64_t rel = (int64_t) (t - m->now);

	if (rel <= 0)
		return 0;
	rel = (rel + m->res - 1) / m->res;
	return rel >= m->slots ? m->slots : (uint32_t) rel;
}

/* First slot after [s, s + duration), clipped to slots + 1. */
static uint32_t _bl_end_slot(const bf_lic_t *m, uint32_t s, uint32_t duration)
{
	uint64_t d = ((uint64_t) duration + m->res - 1) / m->res;

	if (!d)
		d = 1;
	if (duration == UINT32_MAX || s + d > m->slots)
		return m->slots + 1;   /* reaches past the window */
	return (uint32_t) (s + d);
}

void bf_lic_release(bf_lic_t *m, uint32_t lic, time_t end, uint32_t count)
{
	int64_t *row;

	if (lic >= m->lic_cnt)
		return;
	row = _bl_row(m, lic);
	for (uint32_t s = _bl_slot_up(m, end); s <= m->slots; s++)
		row[s] += count;
}

void bf_lic_take(bf_lic_t *m, uint32_t lic, uint32_t count, time_t start,
		 uint32_t duration)
{
	uint32_t s, e;
	int64_t *row;

	if (lic >= m->lic_cnt)
		return;
	row = _bl_row(m, lic);
	s = _bl_slot_up(m, start);
	e = _bl_end_slot(m, s, duration);
	for (; s < e; s++)
		row[s] -= count;
}

/* Earliest slot >= s0 (< slots) from which count stays free over the
 * job's slots; m->slots if none. */
static uint32_t _bl_earliest(const bf_lic_t *m, uint32_t lic, uint32_t count,
			  uint32_t s0, uint32_t duration)
{
	const int64_t *row = _bl_row(m, lic);
	uint32_t s = s0;

	while (s < m->slots) {
		uint32_t e = _bl_end_slot(m, s, duration), k;

		for (k = s; k < e && row[k] >= (int64_t) count; k++)
			;
		if (k == e)
			return s;
		s = k + 1;           /* every start up to k covers slot k */
	}
	return m->slots;
}

int bf_lic_earliest(const bf_lic_t *m, const bf_lic_req_t *req,
		    uint32_t duration, time_t not_before, time_t *start,
		    size_t *choice)
{
	uint32_t s = _bl_slot_up(m, not_before), best = m->slots;
	size_t pick = 0;

	for (size_t i = 0; i < req->cnt; i++)
		if (req->lic[i] >= m->lic_cnt)
			return -1;
	if (req->any) {
		for (size_t i = 0; i < req->cnt; i++) {
			uint32_t t = _bl_earliest(m, req->lic[i], req->count[i],
					       s, duration);

			if (t < best) {
				best = t;
				pick = i;
			}
		}
	} else {
		/* every item's earliest from the latest so far, until all
		 * agree: starts only move later, so this ends */
		for (;;) {
			uint32_t t = s;

			for (size_t i = 0; i < req->cnt && t < m->slots; i++)
				t = _bl_earliest(m, req->lic[i], req->count[i],
					      t, duration);
			if (t >= m->slots || t == s) {
				best = t;
				break;
			}
			s = t;
		}
	}
	if (best >= m->slots)
		return -1;
	*start = m->now + (time_t) best * m->res;
	if (choice)
		*choice = pick;
	return 0;
}

uint32_t bf_lic_free_for(const bf_lic_t *m, uint32_t lic, uint32_t duration)
{
	const int64_t *row;
	int64_t least;
	uint32_t e;

	if (lic >= m->lic_cnt)
		return 0;
	row = _bl_row(m, lic);
	e = _bl_end_slot(m, 0, duration);
	least = row[0];
	for (uint32_t s = 1; s < e; s++)
		if (row[s] < least)
			least = row[s];
	return least < 0 ? 0 : (uint32_t) least;
}
