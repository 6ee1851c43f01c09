/* cron_spec.c — crontab(5) time fields and the next matching minute
 * (cron_spec.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cron_spec.h"

typedef struct {
	const char *what;           /* for messages */
	unsigned    lo, hi;         /* the field's range */
	const char *const *names;   /* names[i] stands for lo + i, or NULL */
} field_def_t;

static const char *const month_names[] = {
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
	"nov", "dec", NULL,
};
static const char *const dow_names[] = {
	"sun", "mon", "tue", "wed", "thu", "fri", "sat", NULL,
};

enum { F_MIN, F_HOUR, F_DOM, F_MON, F_DOW, F_CNT };

/* Day of week runs to 7 (Sunday again); folded to 0 when stored. */
static const field_def_t fields[F_CNT] = {
	{ "minute", 0, 59, NULL },
	{ "hour", 0, 23, NULL },
	{ "day of month", 1, 31, NULL },
	{ "month", 1, 12, month_names },
	{ "day of week", 0, 7, dow_names },
};

static const struct {
	const char *word;
	const char *spec;
} macros[] = {
	{ "@yearly", "0 0 1 1 *" },  { "@annually", "0 0 1 1 *" },
	{ "@monthly", "0 0 1 * *" }, { "@weekly", "0 0 * * 0" },
	{ "@daily", "0 0 * * *" },   { "@midnight", "0 0 * * *" },
	{ "@hourly", "0 * * * *" },
};

/* One number or name at *p (advanced past it); -1 if none. */
static int _value(const char **p, const field_def_t *f, unsigned *v)
{
	const char *s = *p;

	if (isdigit((unsigned char)*s)) {
		unsigned long n = 0;

		while (isdigit((unsigned char)*s)) {
			n = n * 10 + (unsigned) (*s - '0');
			if (n > 1000)
				return -1;
			s++;
		}
		*v = (unsigned) n;
		*p = s;
		return 0;
	}
	for (size_t i = 0; f->names && f->names[i]; i++) {
		if (!strncasecmp(s, f->names[i], 3) &&
		    !isalpha((unsigned char)s[3])) {
			*v = f->lo + (unsigned) i;
			*p = s + 3;
			return 0;
		}
	}
	return -1;
}

/* One field (text up to a blank): its bits, whether it began with '*'. */
static int _field(const char *s, size_t len, const field_def_t *f,
		  uint64_t *bits, bool *star, char *err, size_t errlen)
{
	char buf[CRON_SPEC_MAX];
	char *item, *next;
	uint64_t b = 0;

	if (!len || len >= sizeof(buf))
		goto bad;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*star = buf[0] == '*';
	for (item = buf; item; item = next) {
		const char *p = item;

		if ((next = strchr(item, ',')))
			*next++ = '\0';
		unsigned lo, hi, step = 1;
		bool range = false;

		if (*p == '*') {
			lo = f->lo;
			hi = f->hi;
			p++;
			range = true;
		} else {
			if (_value(&p, f, &lo) < 0)
				goto bad;
			hi = lo;
			if (*p == '-') {
				p++;
				if (_value(&p, f, &hi) < 0)
					goto bad;
				range = true;
			}
		}
		if (*p == '/') {
			unsigned long n;
			char *end;

			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			n = strtoul(p, &end, 10);
			if (!n || n > f->hi + 1)
				goto bad;
			step = (unsigned) n;
			p = end;
			if (!range)           /* "5/10": from 5 to the end */
				hi = f->hi;
		}
		if (*p || lo < f->lo || hi > f->hi || lo > hi)
			goto bad;
		for (unsigned v = lo; v <= hi; v += step)
			b |= 1ull << v;
	}
	if (!b)
		goto bad;
	*bits = b;
	return 0;
bad:
	snprintf(err, errlen, "invalid %s field \"%.*s\"", f->what,
		 (int) (len > 64 ? 64 : len), s);
	return -1;
}

static const char *_skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int _parse_fields(const char *p, cron_spec_t *out, const char **rest,
			 char *err, size_t errlen)
{
	cron_spec_t c = { 0 };
	uint64_t bits[F_CNT];
	bool star[F_CNT];

	for (int i = 0; i < F_CNT; i++) {
		size_t len;

		p = _skip_blanks(p);
		len = strcspn(p, " \t\n");
		if (!len) {
			snprintf(err, errlen, "missing %s field",
				 fields[i].what);
			return -1;
		}
		if (_field(p, len, &fields[i], &bits[i], &star[i], err,
			   errlen) < 0)
			return -1;
		p += len;
	}
	c.minute = bits[F_MIN];
	c.hour = (uint32_t) bits[F_HOUR];
	c.dom = (uint32_t) bits[F_DOM];
	c.month = (uint16_t) bits[F_MON];
	c.dow = (uint8_t) ((bits[F_DOW] | (bits[F_DOW] >> 7)) & 0x7f);
	c.dom_star = star[F_DOM];
	c.dow_star = star[F_DOW];
	*out = c;
	if (rest)
		*rest = _skip_blanks(p);
	return 0;
}

int cron_spec_parse(const char *line, cron_spec_t *c, const char **rest,
		    char *err, size_t errlen)
{
	const char *p;
	int n;

	if (!line) {
		snprintf(err, errlen, "no time specification");
		return -1;
	}
	p = _skip_blanks(line);
	if (*p != '@')
		return _parse_fields(p, c, rest, err, errlen);
	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++) {
		size_t n = strlen(macros[i].word);
		const char *after;

		if (strncasecmp(p, macros[i].word, n) ||
		    (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '\n'))
			continue;
		if (_parse_fields(macros[i].spec, c, &after, err, errlen) < 0)
			return -1;
		if (rest)
			*rest = _skip_blanks(p + n);
		return 0;
	}
	n = (int) strcspn(p, " \t\n");
	snprintf(err, errlen, "invalid time specification \"%.*s\"",
		 n > 64 ? 64 : n, p);
	return -1;
}

int cron_spec_parse_only(const char *spec, cron_spec_t *c, char *err,
			 size_t errlen)
{
	cron_spec_t tmp;
	const char *rest = NULL;

	if (cron_spec_parse(spec, &tmp, &rest, err, errlen) < 0)
		return -1;
	if (*rest && *rest != '\n') {
		snprintf(err, errlen, "unexpected text \"%.32s\" after the "
			 "time specification", rest);
		return -1;
	}
	*c = tmp;
	return 0;
}

static bool _day_matches(const cron_spec_t *c, const struct tm *tm)
{
	bool d = c->dom & (1u << tm->tm_mday);
	bool w = c->dow & (1u << tm->tm_wday);

	if (!c->dom_star && !c->dow_star)
		return d || w;          /* cron(5): either restricted day */
	return d && w;
}

/* Local midnight starting the day after tm's, or the first of the next
 * month (as mktime finds it; never at or before t). */
static time_t _next_day(struct tm tm, time_t t, bool next_month)
{
	time_t n;

	if (next_month) {
		tm.tm_mday = 1;
		tm.tm_mon++;
	} else {
		tm.tm_mday++;
	}
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	n = mktime(&tm);
	return n > t ? n : t + 60;
}

time_t cron_spec_next(const cron_spec_t *c, time_t after)
{
	time_t t, limit;
	struct tm tm;

	if (!c->minute || !c->hour || !c->dom || !c->month || !c->dow)
		return 0;
	if (!localtime_r(&after, &tm))
		return 0;
	/* the start of the next minute: minutes are whole in every zone */
	t = after - tm.tm_sec + 60;
	limit = after + (time_t) 10 * 366 * 86400;
	while (t <= limit) {
		if (!localtime_r(&t, &tm))
			return 0;
		if (!(c->month & (1u << (tm.tm_mon + 1)))) {
			t = _next_day(tm, t, true);
		} else if (!_day_matches(c, &tm)) {
			t = _next_day(tm, t, false);
		} else if (!(c->hour & (1u << tm.tm_hour))) {
			t += (time_t) (60 - tm.tm_min) * 60;
		} else if (!(c->minute & (1ull << tm.tm_min))) {
			t += 60;
		} else {
			return t;
		}
	}
	return 0;
}
