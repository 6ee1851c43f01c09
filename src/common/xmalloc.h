/* xmalloc.h — allocation that never returns NULL.
 *
 * xmalloc() zero-fills and aborts (after logging) when memory is exhausted,
 * so callers never check.  xfree(p) frees and sets the variable to NULL.
 */
#ifndef SLUICE_XMALLOC_H
#define SLUICE_XMALLOC_H

#include <stddef.h>

/* Print "out of memory allocating SIZE bytes" and abort. */
void xmalloc_oom(size_t size) __attribute__((noreturn));
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
/* Grows or shrinks; bytes past the old size are zeroed. */
void *xrealloc_sz(void *ptr, size_t old_size, size_t new_size);
void *xrealloc(void *ptr, size_t size);
void  xfree_ptr(void *ptr);

/* p is evaluated once, so xfree(a[--n]) is safe. */
#define xfree(p)                                        \
	do {                                            \
		__typeof__(p) *xfree_pp_ = &(p);        \
		xfree_ptr((void *)*xfree_pp_);          \
		*xfree_pp_ = NULL;                      \
	} while (0)

#endif
