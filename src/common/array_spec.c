/* array_spec.c — job array index expressions (array_spec.h). */
#include "common/array_spec.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

typedef struct {
	uint32_t lo, hi, step;
} elem_t;

/* Decimal number at *p (no sign, no blanks), at most limit; advances *p. */
static int _num(const char **p, uint32_t limit, uint32_t *out)
{
	uint64_t v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > limit)
			return -1;
		s++;
	}
	*p = s;
	*out = (uint32_t)v;
	return 0;
}

/* "N", "N-M" or "N-M:S" up to the next ',' or '%' or the end. */
static int _elem(const char **p, elem_t *e)
{
	e->step = 1;
	if (_num(p, UINT32_MAX - 1, &e->lo) < 0)
		return -1;
	e->hi = e->lo;
	if (**p == '-') {
		(*p)++;
		if (_num(p, UINT32_MAX - 1, &e->hi) < 0 || e->hi < e->lo)
			return -1;
		if (**p == ':') {
			(*p)++;
			if (_num(p, UINT32_MAX - 1, &e->step) < 0 || !e->step)
				return -1;
		}
	}
	return (**p == ',' || **p == '%' || !**p) ? 0 : -1;
}

/* Walk the elements of spec into es (cnt of them); the throttle after
 * '%' into *throttle.  Returns the number of elements or -1. */
static long _split(const char *spec, elem_t **es, uint32_t *throttle)
{
	const char *p = spec;
	long cnt = 0;

	*es = NULL;
	*throttle = 0;
	for (;;) {
		elem_t e;

		if (_elem(&p, &e) < 0)
			goto bad;
		*es = xrealloc_sz(*es, (size_t)cnt * sizeof(elem_t),
				  (size_t)(cnt + 1) * sizeof(elem_t));
		(*es)[cnt++] = e;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '%') {
			p++;
			if (_num(&p, UINT32_MAX - 1, throttle) < 0 || *p)
				goto bad;
		}
		return cnt;
	}
bad:
	xfree(*es);
	return -1;
}

bitmap_t *array_spec_parse(const char *spec, uint32_t max_size,
			   uint32_t *throttle, char *err, size_t errlen)
{
	elem_t *es = NULL;
	bitmap_t *b;
	uint32_t top = 0;
	long cnt, i;

	if (max_size > ARRAY_SPEC_MAX_SIZE)
		max_size = ARRAY_SPEC_MAX_SIZE;
	if (!spec || !*spec ||
	    (cnt = _split(spec, &es, throttle)) < 0) {
		snprintf(err, errlen, "invalid job array specification \"%s\"",
			 spec ? spec : "");
		return NULL;
	}
	for (i = 0; i < cnt; i++)
		if (es[i].hi > top)
			top = es[i].hi;
	if (top >= max_size) {
		snprintf(err, errlen, "job array index %u is beyond "
			 "MaxArraySize=%u", top, max_size);
		xfree(es);
		return NULL;
	}
	b = bitmap_create((size_t)top + 1);
	for (i = 0; i < cnt; i++) {
		if (es[i].step == 1) {
			bitmap_set_range(b, es[i].lo, es[i].hi);
			continue;
		}
		for (uint64_t t = es[i].lo; t <= es[i].hi; t += es[i].step)
			bitmap_set(b, (size_t)t);
	}
	xfree(es);
	return b;
}

/* First clear bit at or after from (size if none), a word at a time. */
static size_t _next_clear(const bitmap_t *b, size_t from)
{
	const uint64_t *w = bitmap_words(b);
	size_t n = bitmap_size(b);

	while (from < n) {
		uint64_t word = ~w[from >> 6] >> (from & 63);

		if (word)
			return from + (size_t)__builtin_ctzll(word) < n ?
				from + (size_t)__builtin_ctzll(word) : n;
		from = (from | 63) + 1;
	}
	return n;
}

void array_spec_stats(const bitmap_t *tasks, array_spec_stats_t *st)
{
	long first = tasks ? bitmap_first_set(tasks) : -1, second, i;
	uint32_t gap;

	memset(st, 0, sizeof(*st));
	if (first < 0)
		return;
	st->count = (uint32_t)bitmap_count(tasks);
	st->min = (uint32_t)first;
	st->max = (uint32_t)bitmap_last_set(tasks);
	st->step = 1;
	second = bitmap_next_set(tasks, (size_t)first + 1);
	if (second < 0)
		return;
	gap = (uint32_t)(second - first);
	if ((st->max - st->min) % gap || (st->max - st->min) / gap + 1 != st->count)
		return;
	for (i = first; i >= 0 && (uint32_t)i <= st->max; i += gap)
		if (!bitmap_test(tasks, (size_t)i))
			return;
	st->step = gap;
}

char *array_spec_format(const bitmap_t *tasks, uint32_t throttle)
{
	array_spec_stats_t st;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	long lo;

	if (!f)
		xmalloc_oom(0);
	/* One stream, not one xstrfmtcat per range: those re-measure the
	 * whole string each time, quadratic in the number of ranges. */
	array_spec_stats(tasks, &st);
	if (st.step > 1 && st.count > 5 && st.max - st.min > 10) {
		fprintf(f, "%u-%u:%u", st.min, st.max, st.step);
	} else {
		for (lo = tasks ? bitmap_first_set(tasks) : -1; lo >= 0;) {
			size_t hi = _next_clear(tasks, (size_t)lo) - 1;

			if (ftell(f) > 0)
				fputc(',', f);
			if (hi == (size_t)lo)
				fprintf(f, "%ld", lo);
			else
				fprintf(f, "%ld-%zu", lo, hi);
			lo = hi + 1 < bitmap_size(tasks) ?
				bitmap_next_set(tasks, hi + 1) : -1;
		}
	}
	if (throttle)
		fprintf(f, "%%%u", throttle);
	if (fclose(f) != 0 || !s)
		xmalloc_oom(len);
	return s;
}

int array_spec_contains(const char *str, uint32_t task)
{
	elem_t *es = NULL;
	uint32_t throttle;
	long cnt = str ? _split(str, &es, &throttle) : -1;
	int hit = 0;

	for (long i = 0; i < cnt && !hit; i++)
		hit = task >= es[i].lo && task <= es[i].hi &&
		      (task - es[i].lo) % es[i].step == 0;
	xfree(es);
	return hit;
}
