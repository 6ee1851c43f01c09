/* conf_text.c — reading small configuration files (see conf_text.h). */
#include "common/conf_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

int conf_text_fail(char *err, size_t errlen, const char *fname, int line,
		   const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!err || !errlen)
		return -1;
	if (line > 0)
		snprintf(err, errlen, "%s:%d: %s", fname, line, msg);
	else
		snprintf(err, errlen, "%s: %s", fname, msg);
	return -1;
}

int conf_text_read(const char *path, size_t max, char **text, size_t *len,
		   char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	size_t n;
	int e;

	*text = NULL;
	*len = 0;
	if (!f) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	*text = xmalloc(max + 1);
	n = fread(*text, 1, max + 1, f);
	fclose(f);
	if (n > max) {
		xfree(*text);
		snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
		errno = EFBIG;
		return -1;
	}
	(*text)[n] = '\0';
	*len = n;
	return 0;
}

/* Cut the comment (a '#' outside double quotes) and the blanks around. */
static char *trim_line(char *s)
{
	bool q = false;
	char *e;

	for (char *p = s; *p; p++) {
		if (*p == '"')
			q = !q;
		else if (*p == '#' && !q) {
			*p = '\0';
			break;
		}
	}
	while (isspace((unsigned char) *s))
		s++;
	for (e = s + strlen(s); e > s && isspace((unsigned char) e[-1]); e--)
		e[-1] = '\0';
	return s;
}

int conf_text_lines(const char *text, size_t len, const char *fname,
		    conf_text_line_fn fn, void *arg, char *err,
		    size_t errlen)
{
	size_t pos = 0;
	int line = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t) (nl - (text + pos)) : len - pos;
		char *s, *p;
		int rc = 0;

		line++;
		if (memchr(text + pos, '\0', n))
			return conf_text_fail(err, errlen, fname, line,
					      "NUL byte in line");
		s = xstrndup(text + pos, n);
		pos += n + (nl ? 1 : 0);
		p = trim_line(s);
		if (*p)
			rc = fn(p, line, arg);
		xfree(s);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int conf_text_kv(char *s, char **key, char **val)
{
	char *eq = strchr(s, '='), *e;

	if (!eq)
		return -1;
	*eq = '\0';
	for (e = eq; e > s && isspace((unsigned char) e[-1]); e--)
		e[-1] = '\0';
	for (eq++; isspace((unsigned char) *eq); eq++)
		;
	*key = s;
	*val = eq;
	return 0;
}
