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

/* A zeroed block that is written once, whole, and then only read: a
 * received reply and what it unpacks into.  One of 512 KiB or more gets a
 * mapping of its own in 2 MiB transparent huge pages (one fault per 2 MiB
 * instead of 512); smaller ones come from malloc.  Free with xfree_big()
 * only (NULL is fine).  Under AddressSanitizer always malloc, so that
 * reads past the end are caught. */
void *xmalloc_big(size_t size);
/* Bytes usable at p (size or more: a mapping is whole 2 MiB pages). */
size_t xsize_big(const void *p);
void  xfree_big(void *p);

/* p is evaluated once, so xfree(a[--n]) is safe. */
#define xfree(p)                                        \
	do {                                            \
		__typeof__(p) *xfree_pp_ = &(p);        \
		xfree_ptr((void *)*xfree_pp_);          \
		*xfree_pp_ = NULL;                      \
	} while (0)

#endif
