/* depend.c — job dependency expressions (depend.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/depend.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const char *const type_names[] = {
	[DEPEND_AFTER] = "after",
	[DEPEND_AFTER_ANY] = "afterany",
	[DEPEND_AFTER_NOT_OK] = "afternotok",
	[DEPEND_AFTER_OK] = "afterok",
	[DEPEND_AFTER_CORR] = "aftercorr",
	[DEPEND_BURST_BUFFER] = "afterburstbuffer",
	[DEPEND_SINGLETON] = "singleton",
};
#define N_TYPES (sizeof(type_names) / sizeof(type_names[0]))

static const char *const state_names[] = {
	[DEPEND_UNFULFILLED] = "unfulfilled",
	[DEPEND_FULFILLED] = "fulfilled",
	[DEPEND_FAILED] = "failed",
};
#define N_STATES (sizeof(state_names) / sizeof(state_names[0]))

const char *depend_type_name(uint16_t type)
{
	return type && type < N_TYPES ? type_names[type] : "?";
}

const char *depend_state_name(uint16_t state)
{
	return state < N_STATES ? state_names[state] : "?";
}

typedef struct {
	depend_list_t *l;
	uint32_t       cap;
	bool           with_state;
	char          *err;
	size_t         errlen;
} parse_t;

static int _fail(parse_t *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int _fail(parse_t *p, const char *fmt, ...)
{
	va_list ap;

	if (p->err && p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int _add(parse_t *p, const depend_t *d)
{
	if (p->l->cnt >= DEPEND_MAX)
		return _fail(p, "more than %d dependencies", DEPEND_MAX);
	if (p->l->cnt == p->cap) {
		uint32_t ncap = p->cap ? p->cap * 2 : 4;

		p->l->e = xrealloc_sz(p->l->e, p->cap * sizeof(depend_t),
				      ncap * sizeof(depend_t));
		p->cap = ncap;
	}
	p->l->e[p->l->cnt++] = *d;
	return 0;
}

/* Decimal u32 at *s (no sign, no overflow); advances *s. */
static int _number(const char **s, uint32_t *v)
{
	unsigned long long n = 0;
	const char *c = *s;

	if (!isdigit((unsigned char) *c))
		return -1;
	for (; isdigit((unsigned char) *c); c++) {
		n = n * 10 + (unsigned) (*c - '0');
		if (n >= 0xfffffffeull)
			return -1;
	}
	*s = c;
	*v = (uint32_t) n;
	return 0;
}

/* Optional "(state)" at *s when parsing the saved form. */
static int _state(parse_t *p, const char **s, depend_t *d)
{
	const char *c = *s, *close;

	if (*c != '(')
		return 0;
	if (!p->with_state)
		return _fail(p, "unexpected '(' in \"%s\"", c);
	close = strchr(c, ')');
	if (!close)
		return _fail(p, "unterminated state in \"%s\"", c);
	for (uint16_t i = 0; i < N_STATES; i++) {
		size_t n = strlen(state_names[i]);

		if ((size_t) (close - c - 1) == n &&
		    !strncmp(c + 1, state_names[i], n)) {
			d->state = i;
			*s = close + 1;
			return 0;
		}
	}
	return _fail(p, "unknown state in \"%s\"", c);
}

/* "12", "12_3", "12_*", each with optional "+min" and "(state)". */
static int _one_id(parse_t *p, const char *s, uint16_t type)
{
	depend_t d = { .type = type, .task_id = DEPEND_NO_TASK };
	const char *c = s;

	if (_number(&c, &d.job_id) < 0 || !d.job_id)
		return _fail(p, "invalid job id \"%s\"", s);
	if (*c == '_') {
		c++;
		if (*c == '*') {
			d.task_id = DEPEND_ALL_TASKS;
			c++;
		} else if (_number(&c, &d.task_id) < 0) {
			return _fail(p, "invalid array task id \"%s\"", s);
		}
	}
	if (*c == '+') {
		c++;
		if (_number(&c, &d.minutes) < 0 || d.minutes > 0xffffff)
			return _fail(p, "invalid time delay \"%s\"", s);
	}
	if (_state(p, &c, &d) < 0)
		return -1;
	if (*c)
		return _fail(p, "trailing text in \"%s\"", s);
	return _add(p, &d);
}

static int _type_of(const char *name, size_t n)
{
	for (size_t i = 1; i < N_TYPES; i++)
		if (strlen(type_names[i]) == n &&
		    !strncasecmp(name, type_names[i], n))
			return (int) i;
	return -1;
}

/* One element between separators. */
static int _element(parse_t *p, const char *el)
{
	const char *colon = strchr(el, ':'), *ids = el;
	char **list;
	int type, rc = 0;

	if (!*el)
		return _fail(p, "empty dependency");
	if (!strncasecmp(el, "singleton", 9) &&
	    (el[9] == '\0' || el[9] == '(')) {
		depend_t d = { .type = DEPEND_SINGLETON,
			       .task_id = DEPEND_NO_TASK };
		const char *c = el + 9;

		if (_state(p, &c, &d) < 0)
			return -1;
		if (*c)
			return _fail(p, "trailing text in \"%s\"", el);
		return _add(p, &d);
	}
	if (isdigit((unsigned char) el[0])) {
		type = DEPEND_AFTER_ANY;          /* "12:13" */
	} else {
		if (!colon)
			return _fail(p, "no job id in \"%s\"", el);
		type = _type_of(el, (size_t) (colon - el));
		if (type < 0 || type == DEPEND_SINGLETON)
			return _fail(p, "unknown dependency type in \"%s\"",
				     el);
		ids = colon + 1;
	}
	if (!*ids)
		return _fail(p, "no job id in \"%s\"", el);
	list = xstrsplit(ids, ":", NULL);
	for (size_t i = 0; list[i] && !rc; i++)
		rc = _one_id(p, list[i], (uint16_t) type);
	/* "a::b" and a trailing ':' leave empty ids behind */
	if (!rc && (strstr(ids, "::") || ids[0] == ':' ||
		    ids[strlen(ids) - 1] == ':'))
		rc = _fail(p, "empty job id in \"%s\"", el);
	xstrarray_free(list);
	return rc;
}

int depend_parse(const char *s, bool with_state, depend_list_t *out,
		 char *err, size_t errlen)
{
	parse_t p = { .l = out, .with_state = with_state, .err = err,
		      .errlen = errlen };
	bool comma, query;
	char **els;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (!s || !*s)
		return 0;
	comma = strchr(s, ',') != NULL;
	query = strchr(s, '?') != NULL;
	if (comma && query)
		return _fail(&p, "both ',' and '?' in \"%s\"", s);
	out->any = query;
	els = xstrsplit(s, query ? "?" : ",", NULL);
	for (size_t i = 0; els[i] && !rc; i++)
		rc = _element(&p, els[i]);
	if (!rc && (s[0] == ',' || s[0] == '?' || s[strlen(s) - 1] == ',' ||
		    s[strlen(s) - 1] == '?' || strstr(s, ",,") ||
		    strstr(s, "??")))
		rc = _fail(&p, "empty dependency in \"%s\"", s);
	xstrarray_free(els);
	if (rc)
		depend_list_free(out);
	return rc;
}

char *depend_string(const depend_list_t *l)
{
	char *s = NULL;

	if (!l || !l->cnt)
		return NULL;
	for (uint32_t i = 0; i < l->cnt; i++) {
		const depend_t *d = &l->e[i];
		const char *sep = i ? (l->any ? "?" : ",") : "";

		if (d->type == DEPEND_SINGLETON) {
			xstrfmtcat(&s, "%ssingleton(%s)", sep,
				   depend_state_name(d->state));
			continue;
		}
		xstrfmtcat(&s, "%s%s:%u", sep, depend_type_name(d->type),
			   d->job_id);
		if (d->task_id == DEPEND_ALL_TASKS)
			xstrfmtcat(&s, "_*");
		else if (d->task_id != DEPEND_NO_TASK)
			xstrfmtcat(&s, "_%u", d->task_id);
		if (d->minutes)
			xstrfmtcat(&s, "+%u", d->minutes);
		xstrfmtcat(&s, "(%s)", depend_state_name(d->state));
	}
	return s;
}

void depend_list_free(depend_list_t *l)
{
	if (!l)
		return;
	xfree(l->e);
	l->cnt = 0;
	l->any = false;
}
