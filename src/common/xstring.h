/* xstring.h — string helpers on malloc'd strings (free with xfree).
 *
 * Functions that grow a string take its address, so the move is visible at
 * every call: xstrcat(&s, "x").  A NULL *dst is treated as "".
 */
#ifndef SLUICE_XSTRING_H
#define SLUICE_XSTRING_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

char *xstrdup(const char *s);                 /* NULL -> NULL */
char *xstrndup(const char *s, size_t n);
char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void  xstrcat(char **dst, const char *src);
void  xstrncat(char **dst, const char *src, size_t n);
void  xstrcatc(char **dst, char c);
void  xstrfmtcat(char **dst, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void  xvstrfmtcat(char **dst, const char *fmt, va_list ap);

/* NULL-safe comparisons: NULL equals NULL and sorts first. */
int   xstrcmp(const char *a, const char *b);
int   xstrcasecmp(const char *a, const char *b);
bool  xstrcaseprefix(const char *s, const char *prefix);
char *xstrtrim(char *s);                      /* in place; returns s */
char *xstrtolower(char *s);                   /* in place; returns s */

/* Split "a,b,c" on any of the characters in delims; empty items dropped.
 * Returns a NULL-terminated array; *count (if not NULL) gets its length.
 * Free with xstrarray_free(). */
char **xstrsplit(const char *s, const char *delims, size_t *count);
void   xstrarray_free(char **arr);
size_t xstrarray_len(char *const *arr);
char **xstrarray_dup(char *const *arr);
/* Append a copy of s to a NULL-terminated array; returns the new array. */
char **xstrarray_append(char **arr, const char *s);

#endif
