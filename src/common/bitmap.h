/* bitmap.h — fixed-size bit sets, used for node sets and CPU sets.
 *
 * Bits are numbered from 0.  Binary operations require equal sizes.
 * String form is Slurm's: "0-3,7" (empty bitmap = "").
 */
#ifndef SLUICE_BITMAP_H
#define SLUICE_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bitmap bitmap_t;

bitmap_t *bitmap_create(size_t nbits);       /* all clear */
bitmap_t *bitmap_copy(const bitmap_t *b);
void      bitmap_destroy(bitmap_t *b);
size_t    bitmap_size(const bitmap_t *b);
/* Returns a new bitmap of nbits holding the first min(old,new) bits.
 * Like realloc: b is consumed; use only the returned pointer. */
bitmap_t *bitmap_resize(bitmap_t *b, size_t nbits);

void bitmap_set(bitmap_t *b, size_t bit);
void bitmap_clear(bitmap_t *b, size_t bit);
bool bitmap_test(const bitmap_t *b, size_t bit);
void bitmap_set_range(bitmap_t *b, size_t first, size_t last);   /* inclusive */
void bitmap_clear_range(bitmap_t *b, size_t first, size_t last);
void bitmap_set_all(bitmap_t *b);
void bitmap_clear_all(bitmap_t *b);

/* In place: dst = dst OP src. */
void bitmap_and(bitmap_t *dst, const bitmap_t *src);
void bitmap_or(bitmap_t *dst, const bitmap_t *src);
void bitmap_and_not(bitmap_t *dst, const bitmap_t *src);
void bitmap_not(bitmap_t *b);

size_t bitmap_count(const bitmap_t *b);
bool   bitmap_equal(const bitmap_t *a, const bitmap_t *b);
bool   bitmap_is_subset(const bitmap_t *sub, const bitmap_t *super);
bool   bitmap_overlaps(const bitmap_t *a, const bitmap_t *b);
/* First/next set bit, or -1. */
long   bitmap_first_set(const bitmap_t *b);
long   bitmap_next_set(const bitmap_t *b, size_t from);  /* >= from */
long   bitmap_last_set(const bitmap_t *b);
/* Index of the n-th (0-based) set bit, or -1. */
long   bitmap_nth_set(const bitmap_t *b, size_t n);

char     *bitmap_to_str(const bitmap_t *b);             /* "0-3,7"; caller frees */
/* Parse "0-3,7" into a bitmap of nbits; NULL if malformed or out of range. */
bitmap_t *bitmap_from_str(const char *s, size_t nbits);

/* Raw words for pack/unpack: nwords = (nbits + 63) / 64. */
const uint64_t *bitmap_words(const bitmap_t *b);
uint64_t       *bitmap_words_mut(bitmap_t *b);
size_t          bitmap_nwords(const bitmap_t *b);

#endif
