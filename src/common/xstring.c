/* xstring.c — string helpers on malloc'd strings. */
#include "common/xstring.h"

#include <ctype.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "common/xmalloc.h"

char *xstrdup(const char *s)
{
	if (!s)
		return NULL;
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d;

	if (!s)
		return NULL;
	n = strnlen(s, n);
	d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xstrdup_printf(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;

	va_start(ap, fmt);
	xvstrfmtcat(&s, fmt, ap);
	va_end(ap);
	return s;
}

/* Append n bytes (no NUL among them).  Grows only when the block is full,
 * by half again, so a string built piece by piece is not reallocated at
 * every piece (the block's usable size is its capacity). */
static void append(char **dst, const char *src, size_t n)
{
	size_t old = *dst ? strlen(*dst) : 0;

	if (!*dst || old + n + 1 > malloc_usable_size(*dst)) {
		size_t want = old + n + 1;

		if (old)
			want += want / 2;
		*dst = xrealloc(*dst, want);
	}
	memcpy(*dst + old, src, n);
	(*dst)[old + n] = '\0';
}

void xstrncat(char **dst, const char *src, size_t n)
{
	if (src)
		append(dst, src, strnlen(src, n));
}

void xstrcat(char **dst, const char *src)
{
	if (src)
		append(dst, src, strlen(src));
}

void xstrcatc(char **dst, char c)
{
	xstrncat(dst, &c, 1);
}

void xvstrfmtcat(char **dst, const char *fmt, va_list ap)
{
	char buf[256];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(buf)) {
		append(dst, buf, (size_t)n);
	} else {
		size_t old = *dst ? strlen(*dst) : 0;

		*dst = xrealloc(*dst, old + (size_t)n + 1);
		vsnprintf(*dst + old, (size_t)n + 1, fmt, ap);
	}
}

void xstrfmtcat(char **dst, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xvstrfmtcat(dst, fmt, ap);
	va_end(ap);
}

int xstrcmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

int xstrcasecmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcasecmp(a, b);
}

bool xstrcaseprefix(const char *s, const char *prefix)
{
	if (!s || !prefix)
		return false;
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

char *xstrtrim(char *s)
{
	size_t start = 0, len;

	if (!s)
		return NULL;
	while (s[start] && isspace((unsigned char)s[start]))
		start++;
	len = strlen(s + start);
	while (len && isspace((unsigned char)s[start + len - 1]))
		len--;
	memmove(s, s + start, len);
	s[len] = '\0';
	return s;
}

char *xstrtolower(char *s)
{
	for (char *p = s; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

char **xstrsplit(const char *s, const char *delims, size_t *count)
{
	char **arr = xmalloc(sizeof(*arr));
	size_t n = 0;

	while (s && *s) {
		size_t len = strcspn(s, delims);

		if (len) {
			arr = xrealloc(arr, (n + 2) * sizeof(*arr));
			arr[n++] = xstrndup(s, len);
			arr[n] = NULL;
		}
		s += len;
		if (*s)
			s++;
	}
	if (count)
		*count = n;
	return arr;
}

void xstrarray_free(char **arr)
{
	for (size_t i = 0; arr && arr[i]; i++)
		xfree(arr[i]);
	xfree(arr);
}

size_t xstrarray_len(char *const *arr)
{
	size_t n = 0;

	while (arr && arr[n])
		n++;
	return n;
}

char **xstrarray_dup(char *const *arr)
{
	size_t n = xstrarray_len(arr);
	char **d = xmalloc((n + 1) * sizeof(*d));

	for (size_t i = 0; i < n; i++)
		d[i] = xstrdup(arr[i]);
	return d;
}

char **xstrarray_append(char **arr, const char *s)
{
	size_t n = xstrarray_len(arr);

	arr = xrealloc(arr, (n + 2) * sizeof(*arr));
	arr[n] = xstrdup(s);
	arr[n + 1] = NULL;
	return arr;
}
