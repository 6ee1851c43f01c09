/* multi_prog.c — srun --multi-prog configuration (multi_prog.h). */
#include "common/multi_prog.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define MP_MAX_TASKS 0x1000000u    /* ids beyond are refused */

/* Mark the ids of spec in mark[] (NULL: just check); *star for "*".
 * Returns 0, -1 (bad range), -2 (id >= ntasks: *bad set). */
static int _ids(const char *spec, uint32_t ntasks, bool *star,
		uint32_t *bad, void (*each)(uint32_t id, void *arg), void *arg)
{
	const char *p = spec;

	*star = false;
	if (!strcmp(spec, "*")) {
		*star = true;
		return 0;
	}
	while (*p) {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char) *p))
			return -1;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char) *p))
				return -1;
			b = strtoul(p, &end, 10);
		}
		if (b < a || (*end && *end != ',') || (*end == ',' && !end[1]))
			return -1;
		if (a >= ntasks || b >= ntasks) {
			*bad = (uint32_t) (a >= ntasks ? a : b);
			return -2;
		}
		for (unsigned long i = a; i <= b; i++)
			if (each)
				each((uint32_t) i, arg);
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* Next line of text into a fresh string, a line ending in '\' joined with
 * the one after it (the backslash and newline removed); NULL at the end.
 * *lines counts the lines read. */
static char *_line(const char **pos, int *lines)
{
	const char *s = *pos;
	char *out = NULL;

	if (!*s)
		return NULL;
	for (;;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t) (nl - s) : strlen(s);
		bool more = nl && len && s[len - 1] == '\\';

		(*lines)++;
		xstrncat(&out, s, more ? len - 1 : len);
		s = nl ? nl + 1 : s + len;
		if (!more || !*s)
			break;
	}
	*pos = s;
	return out ? out : xstrdup("");
}

/* Split "ids rest"; false for a blank or comment line. */
static bool _split(char *line, char **ids, char **rest)
{
	char *p = line;

	while (isspace((unsigned char) *p))
		p++;
	if (!*p || *p == '#')
		return false;
	*ids = p;
	while (*p && !isspace((unsigned char) *p))
		p++;
	if (*p)
		*p++ = '\0';
	while (isspace((unsigned char) *p))
		p++;
	*rest = p;
	return true;
}

typedef struct {
	uint8_t  *seen;
	uint32_t  dup;
	bool      has_dup;
} mark_t;

static void _mark(uint32_t id, void *arg)
{
	mark_t *m = arg;

	if (m->seen[id] && !m->has_dup) {
		m->has_dup = true;
		m->dup = id;
	}
	m->seen[id] = 1;
}

static void _err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void _err(char *err, size_t errlen, const char *fmt, ...)
{
	size_t used = strlen(err);
	va_list ap;

	if (used >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + used, errlen - used, fmt, ap);
	va_end(ap);
}

int multi_prog_check(const char *text, uint32_t ntasks, const char *file,
		     char *err, size_t errlen)
{
	const char *pos = text ? text : "";
	mark_t m = { 0 };
	bool star_seen = false;
	char *line;
	int lineno = 0, lines_read = 0, rc = 0;

	if (errlen)
		err[0] = '\0';
	if (!ntasks || ntasks > MP_MAX_TASKS) {
		_err(err, errlen, "Invalid number of tasks (%u)", ntasks);
		return -1;
	}
	m.seen = xcalloc(ntasks, 1);
	for (;;) {
		char *ids, *rest;
		bool star = false;
		uint32_t bad = 0;
		int r;

		lineno = lines_read + 1;        /* errors name a record's first */
		if (rc || !(line = _line(&pos, &lines_read)))
			break;
		if (!_split(line, &ids, &rest)) {
			xfree(line);
			continue;
		}
		if (star_seen) {
			_err(err, errlen, "Task range specification with "
			     "asterisk must be last\n");
			rc = -1;
		} else if ((r = _ids(ids, ntasks, &star, &bad, _mark, &m)) ==
			   -1) {
			_err(err, errlen, "Invalid task range specification "
			     "(%s)\n", ids);
			rc = -1;
		} else if (r == -2) {
			_err(err, errlen, "Invalid task id, %u >= ntasks\n", bad);
			rc = -1;
		} else if (m.has_dup) {
			_err(err, errlen, "Duplicate record for task %u\n",
			     m.dup);
			rc = -1;
		} else if (!*rest) {
			_err(err, errlen, "No program given\n");
			rc = -1;
		}
		if (rc)
			_err(err, errlen, "Line %d of configuration file %s "
			     "invalid", lineno, file);
		if (star) {
			star_seen = true;
			memset(m.seen, 1, ntasks);
		}
		xfree(line);
	}
	for (uint32_t i = 0; !rc && i < ntasks; i++) {
		if (!m.seen[i]) {
			_err(err, errlen, "Configuration file %s invalid, no "
			     "record for task id %u", file, i);
			rc = -1;
		}
	}
	xfree(m.seen);
	return rc;
}

typedef struct {
	uint32_t task;
	bool     found;
	uint32_t offset;
	uint32_t count;
} find_t;

static void _find(uint32_t id, void *arg)
{
	find_t *f = arg;

	if (id == f->task) {
		f->found = true;
		f->offset = f->count;
	}
	f->count++;
}

/* Arguments of rest with %t / %o replaced. */
static char **_args(const char *rest, uint32_t task, uint32_t offset)
{
	char **argv = xcalloc(1, sizeof(char *));
	const char *p = rest;

	while (*p) {
		char *arg = NULL;
		bool quoted = false, any = false;

		while (isspace((unsigned char) *p))
			p++;
		if (!*p)
			break;
		while (*p && (quoted || !isspace((unsigned char) *p))) {
			char ch[2] = { *p, '\0' };

			any = true;
			if (*p == '\'') {
				quoted = !quoted;
				p++;
				continue;
			}
			if (*p == '%' && p[1]) {
				if (p[1] == 't')
					xstrfmtcat(&arg, "%u", task);
				else if (p[1] == 'o')
					xstrfmtcat(&arg, "%u", offset);
				p += 2;
				continue;
			}
			xstrcat(&arg, ch);
			p++;
		}
		if (any)
			argv = xstrarray_append(argv, arg ? arg : "");
		xfree(arg);
	}
	if (!argv[0]) {
		xstrarray_free(argv);
		return NULL;
	}
	return argv;
}

char **multi_prog_argv(const char *text, uint32_t ntasks, uint32_t task)
{
	const char *pos = text ? text : "";
	char **argv = NULL;
	char *line;
	int lines_read = 0;

	if (task >= ntasks || ntasks > MP_MAX_TASKS)
		return NULL;
	while (!argv && (line = _line(&pos, &lines_read))) {
		char *ids, *rest;
		find_t f = { .task = task };
		bool star;
		uint32_t bad;

		if (_split(line, &ids, &rest) &&
		    _ids(ids, ntasks, &star, &bad, _find, &f) == 0 &&
		    (star || f.found))
			argv = _args(rest, task, star ? task : f.offset);
		xfree(line);
	}
	return argv;
}

static void _max(uint32_t id, void *arg)
{
	uint32_t *n = arg;

	if (id + 1 > *n)
		*n = id + 1;
}

uint32_t multi_prog_count(const char *text)
{
	const char *pos = text ? text : "";
	uint32_t n = 0;
	char *line;
	int lines_read = 0;

	while ((line = _line(&pos, &lines_read))) {
		char *ids, *rest;
		bool star;
		uint32_t bad;

		if (_split(line, &ids, &rest))
			_ids(ids, MP_MAX_TASKS, &star, &bad, _max, &n);
		xfree(line);
	}
	return n;
}
