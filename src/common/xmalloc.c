/* xmalloc.c — allocation that never returns NULL. */
#include "common/xmalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Blocks of this size and more get transparent huge pages (where the
 * kernel offers them on request: enabled=madvise) on their 2 MiB-aligned
 * interior.  The big ones are the packed replies to squeue/sacct and the
 * arrays a command unpacks them into: written once, all of them.  A 4 KiB
 * page fault costs 10-15 us on the VMs we measure on (doc/dev/perf.md);
 * one 2 MiB page replaces 512 of them. */
#define HUGE_MIN   ((size_t)4 << 20)
#define HUGE_ALIGN ((uintptr_t)2 << 20)

static void *advise_huge(void *p, size_t size)
{
	uintptr_t lo = ((uintptr_t)p + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(HUGE_ALIGN - 1);

	if (p && size >= HUGE_MIN && hi > lo)
		(void) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	return p;
}

/* No log.c here: logging may itself allocate.  One write(), then abort. */
void xmalloc_oom(size_t size)
{
	char buf[128];
	int n = snprintf(buf, sizeof(buf),
			 "fatal: out of memory allocating %zu bytes\n", size);

	if (n > 0 && write(STDERR_FILENO, buf, (size_t)n) < 0)
		_exit(1);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		xmalloc_oom(size);
	return advise_huge(p, size);
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > (size_t)-1 / size)
		xmalloc_oom((size_t)-1);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xmalloc_oom(nmemb * size);
	return advise_huge(p, nmemb * size);
}

void *xrealloc_sz(void *ptr, size_t old_size, size_t new_size)
{
	char *p = advise_huge(realloc(ptr, new_size ? new_size : 1), new_size);

	if (!p)
		xmalloc_oom(new_size);
	if (new_size > old_size)
		memset(p + old_size, 0, new_size - old_size);
	return p;
}

/* Without the old size we cannot zero the tail; callers that need zeroed
 * growth use xrealloc_sz(). */
void *xrealloc(void *ptr, size_t size)
{
	void *p = advise_huge(realloc(ptr, size ? size : 1), size);

	if (!p)
		xmalloc_oom(size);
	return p;
}

void xfree_ptr(void *ptr)
{
	free(ptr);
}

/* xmalloc_big: a 64-byte header (keeps the data 64-byte aligned) holding
 * the mapping's length (0 for a malloc'd block) and the usable size. */
#define BIG_HDR  ((size_t)64)
#define BIG_MIN  ((size_t)512 << 10)

typedef struct {
	size_t map_len;
	size_t usable;
} big_hdr_t;

#if defined(__SANITIZE_ADDRESS__)
#define BIG_MAP 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIG_MAP 0
#endif
#endif
#ifndef BIG_MAP
#define BIG_MAP 1
#endif

/* A 2 MiB-aligned anonymous mapping of len (a multiple of 2 MiB) bytes:
 * map 2 MiB more, then unmap the ragged ends. */
static void *map_aligned(size_t len)
{
	size_t extra = HUGE_ALIGN;
	char *raw = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t at;
	size_t head;

	if (raw == MAP_FAILED)
		return NULL;
	at = ((uintptr_t)raw + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
	head = at - (uintptr_t)raw;
	if (head)
		munmap(raw, head);
	if (extra - head)
		munmap((char *)at + len, extra - head);
	(void) madvise((void *)at, len, MADV_HUGEPAGE);
	return (void *)at;
}

void *xmalloc_big(size_t size)
{
	big_hdr_t h = { 0, size };
	char *p;

	if (size > (size_t)-1 / 2)
		xmalloc_oom(size);
	if (!BIG_MAP || size < BIG_MIN) {
		p = calloc(1, BIG_HDR + size);
	} else {
		h.map_len = (BIG_HDR + size + HUGE_ALIGN - 1) &
			~(HUGE_ALIGN - 1);
		h.usable = h.map_len - BIG_HDR;
		p = map_aligned(h.map_len);
	}
	if (!p)
		xmalloc_oom(size);
	memcpy(p, &h, sizeof(h));
	return p + BIG_HDR;
}

size_t xsize_big(const void *ptr)
{
	big_hdr_t h;

	memcpy(&h, (const char *)ptr - BIG_HDR, sizeof(h));
	return h.usable;
}

void xfree_big(void *ptr)
{
	char *p = ptr;
	big_hdr_t h;

	if (!p)
		return;
	p -= BIG_HDR;
	memcpy(&h, p, sizeof(h));
	if (h.map_len)
		munmap(p, h.map_len);
	else
		free(p);
}
