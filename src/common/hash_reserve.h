/* hash_reserve.h — pre-size a uthash table for the items it is about to
 * get.  uthash starts at 32 buckets and doubles when a chain reaches 10
 * items: filling it with a million records rehashes all it holds at every
 * doubling (each pass a cache miss per record) and leaves chains a lookup
 * walks record by record.  Recovery knows how many jobs it loads. */
#ifndef SLUICE_HASH_RESERVE_H
#define SLUICE_HASH_RESERVE_H

#include <uthash.h>

/* The smallest power of two >= n buckets (one item per bucket on
 * average), at most 2^26: what HASH_RESERVE grows a table to. */
static inline unsigned hash_reserve_buckets(size_t n)
{
	unsigned b = HASH_INITIAL_NUM_BUCKETS;

	while (b < n && b < (1u << 26))
		b <<= 1;
	return b;
}

/* Grow the buckets of a table holding at least one item (head not NULL)
 * to hash_reserve_buckets(n); never shrinks.  Each doubling rehashes what
 * the table holds: reserve while it holds little. */
#define HASH_RESERVE(hh, head, n)                                            \
do {                                                                         \
	if ((head) != NULL) {                                                \
		unsigned _hr_want = hash_reserve_buckets(n);                 \
		int _hr_oomed = 0;                                           \
		(void) _hr_oomed;                                            \
		while ((head)->hh.tbl->num_buckets < _hr_want &&             \
		       !_hr_oomed)                                           \
			HASH_EXPAND_BUCKETS(&(head)->hh, (head)->hh.tbl,     \
					    _hr_oomed);                      \
	}                                                                    \
} while (0)

#endif
