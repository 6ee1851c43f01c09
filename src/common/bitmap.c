/* bitmap.c — fixed-size bit sets in 64-bit words.
 *
 * Bits past nbits in the last word are kept clear, so comparing and set
 * algebra can work on whole words.  Words written through bitmap_words_mut()
 * (unpack) may break that, so the searches and the count mask the last word.
 */
#include "common/bitmap.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

struct bitmap {
	size_t nbits;
	size_t nwords;
	uint64_t words[];
};

#define WORD(bit) ((bit) >> 6)
#define MASK(bit) (UINT64_C(1) << ((bit) & 63))

static size_t words_for(size_t nbits)
{
	return (nbits + 63) / 64;
}

/* Mask of the valid bits in the last word. */
static uint64_t tail_mask(const bitmap_t *b)
{
	size_t r = b->nbits & 63;

	return r ? (UINT64_C(1) << r) - 1 : ~UINT64_C(0);
}

static void clear_tail(bitmap_t *b)
{
	if (b->nwords)
		b->words[b->nwords - 1] &= tail_mask(b);
}

bitmap_t *bitmap_create(size_t nbits)
{
	size_t nw = words_for(nbits);
	bitmap_t *b = xmalloc(sizeof(*b) + nw * sizeof(uint64_t));

	b->nbits = nbits;
	b->nwords = nw;
	return b;
}

bitmap_t *bitmap_copy(const bitmap_t *b)
{
	bitmap_t *c = bitmap_create(b->nbits);

	memcpy(c->words, b->words, b->nwords * sizeof(uint64_t));
	return c;
}

void bitmap_destroy(bitmap_t *b)
{
	xfree(b);
}

size_t bitmap_size(const bitmap_t *b)
{
	return b->nbits;
}

bitmap_t *bitmap_resize(bitmap_t *b, size_t nbits)
{
	size_t nw = words_for(nbits);
	size_t old = sizeof(*b) + b->nwords * sizeof(uint64_t);

	b = xrealloc_sz(b, old, sizeof(*b) + nw * sizeof(uint64_t));
	b->nbits = nbits;
	b->nwords = nw;
	clear_tail(b);
	return b;
}

void bitmap_set(bitmap_t *b, size_t bit)
{
	if (bit < b->nbits)
		b->words[WORD(bit)] |= MASK(bit);
}

void bitmap_clear(bitmap_t *b, size_t bit)
{
	if (bit < b->nbits)
		b->words[WORD(bit)] &= ~MASK(bit);
}

bool bitmap_test(const bitmap_t *b, size_t bit)
{
	return bit < b->nbits && (b->words[WORD(bit)] & MASK(bit));
}

/* Mask of bits lo..hi (inclusive) within one word, 0 <= lo <= hi < 64. */
static uint64_t span_mask(size_t lo, size_t hi)
{
	uint64_t upper = hi == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (hi + 1)) - 1;

	return upper & ~((UINT64_C(1) << lo) - 1);
}

static void range_apply(bitmap_t *b, size_t first, size_t last, bool set)
{
	if (!b->nbits || first > last || first >= b->nbits)
		return;
	if (last >= b->nbits)
		last = b->nbits - 1;
	for (size_t w = WORD(first); w <= WORD(last); w++) {
		size_t lo = w == WORD(first) ? (first & 63) : 0;
		size_t hi = w == WORD(last) ? (last & 63) : 63;
		uint64_t m = span_mask(lo, hi);

		if (set)
			b->words[w] |= m;
		else
			b->words[w] &= ~m;
	}
}

void bitmap_set_range(bitmap_t *b, size_t first, size_t last)
{
	range_apply(b, first, last, true);
}

void bitmap_clear_range(bitmap_t *b, size_t first, size_t last)
{
	range_apply(b, first, last, false);
}

void bitmap_set_all(bitmap_t *b)
{
	memset(b->words, 0xff, b->nwords * sizeof(uint64_t));
	clear_tail(b);
}

void bitmap_clear_all(bitmap_t *b)
{
	memset(b->words, 0, b->nwords * sizeof(uint64_t));
}

static size_t common_words(const bitmap_t *a, const bitmap_t *b)
{
	return a->nwords < b->nwords ? a->nwords : b->nwords;
}

void bitmap_and(bitmap_t *dst, const bitmap_t *src)
{
	size_t n = common_words(dst, src);

	for (size_t i = 0; i < n; i++)
		dst->words[i] &= src->words[i];
	for (size_t i = n; i < dst->nwords; i++)
		dst->words[i] = 0;
}

void bitmap_or(bitmap_t *dst, const bitmap_t *src)
{
	size_t n = common_words(dst, src);

	for (size_t i = 0; i < n; i++)
		dst->words[i] |= src->words[i];
	clear_tail(dst);
}

void bitmap_and_not(bitmap_t *dst, const bitmap_t *src)
{
	size_t n = common_words(dst, src);

	for (size_t i = 0; i < n; i++)
		dst->words[i] &= ~src->words[i];
}

void bitmap_not(bitmap_t *b)
{
	for (size_t i = 0; i < b->nwords; i++)
		b->words[i] = ~b->words[i];
	clear_tail(b);
}

/* Word i with any bits past nbits masked off. */
static uint64_t word_at(const bitmap_t *b, size_t i)
{
	return i + 1 == b->nwords ? b->words[i] & tail_mask(b) : b->words[i];
}

size_t bitmap_count(const bitmap_t *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nwords; i++)
		n += (size_t)__builtin_popcountll(word_at(b, i));
	return n;
}

bool bitmap_equal(const bitmap_t *a, const bitmap_t *b)
{
	return a->nbits == b->nbits &&
	       !memcmp(a->words, b->words, a->nwords * sizeof(uint64_t));
}

bool bitmap_is_subset(const bitmap_t *sub, const bitmap_t *super)
{
	size_t n = common_words(sub, super);

	for (size_t i = 0; i < n; i++)
		if (sub->words[i] & ~super->words[i])
			return false;
	for (size_t i = n; i < sub->nwords; i++)
		if (sub->words[i])
			return false;
	return true;
}

bool bitmap_overlaps(const bitmap_t *a, const bitmap_t *b)
{
	size_t n = common_words(a, b);

	for (size_t i = 0; i < n; i++)
		if (a->words[i] & b->words[i])
			return true;
	return false;
}

long bitmap_next_set(const bitmap_t *b, size_t from)
{
	size_t w;
	uint64_t word;

	if (from >= b->nbits)
		return -1;
	w = WORD(from);
	word = word_at(b, w) & ~((UINT64_C(1) << (from & 63)) - 1);
	while (!word) {
		if (++w >= b->nwords)
			return -1;
		word = word_at(b, w);
	}
	return (long)(w * 64 + (size_t)__builtin_ctzll(word));
}

long bitmap_first_set(const bitmap_t *b)
{
	return bitmap_next_set(b, 0);
}

long bitmap_last_set(const bitmap_t *b)
{
	for (size_t w = b->nwords; w-- > 0;) {
		uint64_t word = word_at(b, w);

		if (word)
			return (long)(w * 64 + 63 - (size_t)__builtin_clzll(word));
	}
	return -1;
}

/* Position of the n-th set bit inside one word (n < popcount(word)). */
static size_t word_nth_set(uint64_t word, size_t n)
{
	while (n--)
		word &= word - 1;
	return (size_t)__builtin_ctzll(word);
}

long bitmap_nth_set(const bitmap_t *b, size_t n)
{
	for (size_t w = 0; w < b->nwords; w++) {
		uint64_t word = word_at(b, w);
		size_t c = (size_t)__builtin_popcountll(word);

		if (n < c)
			return (long)(w * 64 + word_nth_set(word, n));
		n -= c;
	}
	return -1;
}

char *bitmap_to_str(const bitmap_t *b)
{
	char *s = xstrdup("");
	long lo = bitmap_first_set(b);

	while (lo >= 0) {
		long hi = lo;
		long next;

		while ((next = bitmap_next_set(b, (size_t)hi + 1)) == hi + 1)
			hi = next;
		if (*s)
			xstrcatc(&s, ',');
		if (hi == lo)
			xstrfmtcat(&s, "%ld", lo);
		else
			xstrfmtcat(&s, "%ld-%ld", lo, hi);
		lo = next;
	}
	return s;
}

/* Reads a decimal bit number at *p; advances *p.  -1 if none or too big. */
static int read_bit(const char **p, size_t nbits, size_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	v = strtoull(*p, &end, 10);
	if (errno || v >= nbits)
		return -1;
	*p = end;
	*out = (size_t)v;
	return 0;
}

bitmap_t *bitmap_from_str(const char *s, size_t nbits)
{
	bitmap_t *b;
	const char *p = s;

	if (!s)
		return NULL;
	b = bitmap_create(nbits);
	while (*p) {
		size_t lo, hi;

		if (read_bit(&p, nbits, &lo) < 0)
			goto error;
		hi = lo;
		if (*p == '-') {
			p++;
			if (read_bit(&p, nbits, &hi) < 0 || hi < lo)
				goto error;
		}
		bitmap_set_range(b, lo, hi);
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto error;
	}
	return b;
error:
	bitmap_destroy(b);
	return NULL;
}

const uint64_t *bitmap_words(const bitmap_t *b)
{
	return b->words;
}

uint64_t *bitmap_words_mut(bitmap_t *b)
{
	return b->words;
}

size_t bitmap_nwords(const bitmap_t *b)
{
	return b->nwords;
}
