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
