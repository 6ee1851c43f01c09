/* xmalloc.c — allocation that never returns NULL. */
#include "common/xmalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>



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
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > (size_t)-1 / size)
		xmalloc_oom((size_t)-1);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xmalloc_oom(nmemb * size);
	return p;
}

void *xrealloc_sz(void *ptr, size_t old_size, size_t new_size)
{
	char *p = realloc(ptr, new_size ? new_size : 1);

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
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		xmalloc_oom(size);
	return p;
}

void xfree_ptr(void *ptr)
{
	free(ptr);
}
