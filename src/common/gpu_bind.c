/* gpu_bind.c — --gpu-bind values and each task's GPUs (gpu_bind.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gpu_bind.h"
#include "common/xmalloc.h"

/* A positive decimal number, whole text, below limit. */
static int _num(const char *s, size_t len, uint64_t limit, uint64_t *v)
{
	uint64_t x = 0;

	if (!len || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char) s[i]))
			return -1;
		x = x * 10 + (uint64_t) (s[i] - '0');
	}
	if (x >= limit)
		return -1;
	*v = x;
	return 0;
}

/* A mask: hex digits with or without 0x, not zero, GPUs 0-63. */
static int _mask(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (!len || len > 16)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int c = tolower((unsigned char) s[i]);

		if (!isxdigit(c))
			return -1;
		x = x << 4 | (uint64_t) (isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	if (!x)
		return -1;
	*v = x;
	return 0;
}

/* "a[*r],b[*r]..." into b->list; ids below 64 (map) or masks. */
static int _list(const char *s, bool mask, gpu_bind_t *b)
{
	while (*s) {
		size_t len = strcspn(s, ",");
		const char *star = memchr(s, '*', len);
		size_t vlen = star ? (size_t) (star - s) : len;
		uint64_t v, rep = 1;

		if (mask ? _mask(s, vlen, &v) < 0 : _num(s, vlen, 64, &v) < 0)
			return -1;
		if (star && (_num(star + 1, len - vlen - 1,
				  GPU_BIND_MAX_LIST + 1, &rep) < 0 || !rep))
			return -1;
		if (b->cnt + rep > GPU_BIND_MAX_LIST)
			return -1;
		b->list = xrealloc(b->list, (b->cnt + rep) * sizeof(uint64_t));
		while (rep--)
			b->list[b->cnt++] = mask ? v : (uint64_t) 1 << v;
		s += len;
		if (*s == ',' && !*++s)
			return -1;          /* a trailing comma */
	}
	return b->cnt ? 0 : -1;
}

static int _type(const char *s, gpu_bind_t *b)
{
	uint64_t v;

	if (!strcmp(s, "closest"))
		b->type = GPU_BIND_CLOSEST;
	else if (!strcmp(s, "none"))
		b->type = GPU_BIND_NONE;
	else if (!strncmp(s, "per_task:", 9) || !strncmp(s, "single:", 7)) {
		bool per = s[0] == 'p';
		const char *n = s + (per ? 9 : 7);

		if (_num(n, strlen(n), 65536, &v) < 0 || !v)
			return -1;
		b->type = per ? GPU_BIND_PER_TASK : GPU_BIND_SINGLE;
		b->n = (uint32_t) v;
	} else if (!strncmp(s, "map_gpu:", 8)) {
		b->type = GPU_BIND_MAP;
		return _list(s + 8, false, b);
	} else if (!strncmp(s, "mask_gpu:", 9)) {
		b->type = GPU_BIND_MASK;
		return _list(s + 9, true, b);
	} else
		return -1;
	return 0;
}

int gpu_bind_parse(const char *s, gpu_bind_t *out, char *err, size_t errlen)
{
	const char *t = s ? s : "";

	memset(out, 0, sizeof(*out));
	if (!strncmp(t, "verbose,", 8)) {
		out->verbose = true;
		t += 8;
	}
	if (_type(t, out) < 0) {
		gpu_bind_free(out);
		snprintf(err, errlen, "Invalid --gpu-bind argument: gpu:%s",
			 s ? s : "");
		return -1;
	}
	return 0;
}

void gpu_bind_free(gpu_bind_t *b)
{
	xfree(b->list);
	memset(b, 0, sizeof(*b));
}

/* The i-th set bit of m (i < popcount), as a one-bit mask. */
static uint64_t _nth(uint64_t m, uint32_t i)
{
	for (; m; m &= m - 1)
		if (!i--)
			return m & -m;
	return 0;
}

/* Relative ids (bits of the step's GPUs in order) -> node indexes. */
static uint64_t _from_relative(uint64_t rel, uint64_t alloc)
{
	uint64_t out = 0;

	for (uint32_t i = 0; i < 64; i++)
		if (rel & (uint64_t) 1 << i)
			out |= _nth(alloc, i);
	return out;
}

uint64_t gpu_bind_task(const gpu_bind_t *b, uint64_t alloc, uint32_t lid,
		       bool relative, bool *outside)
{
	uint32_t n = (uint32_t) __builtin_popcountll(alloc);
	uint64_t m = 0;

	if (outside)
		*outside = false;
	if (!n)
		return 0;
	switch (b->type) {
	case GPU_BIND_NONE:
	case GPU_BIND_CLOSEST:
		return alloc;
	case GPU_BIND_PER_TASK:
		for (uint64_t k = 0; k < b->n && k < n; k++)
			m |= _nth(alloc, (uint32_t) (((uint64_t) lid * b->n +
						      k) % n));
		return m;
	case GPU_BIND_SINGLE:
		return _nth(alloc, (lid / b->n) % n);
	case GPU_BIND_MAP:
	case GPU_BIND_MASK:
		m = b->cnt ? b->list[lid % b->cnt] : 0;
		m = relative ? _from_relative(m, alloc) : m & alloc;
		break;
	}
	if (!m) {
		if (outside)
			*outside = true;
		m = alloc & -alloc;
	}
	return m;
}
