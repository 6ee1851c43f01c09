/* parse_util.c — durations, sizes, numbers and wall-clock times, parsed and
 * printed the way Slurm's commands do. */
#include "common/parse_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

/* ---- numbers ---- */

/* Unsigned decimal, digits only, no sign, no junk, no overflow. */
int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (const char *p = s; *p; p++) {
		unsigned d;

		if (!isdigit((unsigned char)*p))
			return -1;
		d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, &v) < 0 || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "1", "on", "y" };
	static const char *const no[] = { "no", "false", "0", "off", "n" };

	if (!s)
		return -1;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/* ---- durations ---- */

/* Reads 1+ digits into *v (bounded); advances *p.  -1 if no digit. */
static int read_field(const char **p, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		*v = *v * 10 + (uint64_t)(*s - '0');
		if (*v > UINT32_MAX)
			return -1;
	}
	*p = s;
	return 0;
}

/* Up to max ':'-separated fields after *p; returns how many, -1 on junk. */
static int read_fields(const char *p, uint64_t *f, int max)
{
	int n = 0;

	for (;;) {
		if (n == max || read_field(&p, &f[n]) < 0)
			return -1;
		n++;
		if (!*p)
			return n;
		if (*p++ != ':')
			return -1;
	}
}

static bool is_unlimited(const char *s)
{
	return !strcasecmp(s, "UNLIMITED") || !strcasecmp(s, "infinite") ||
	       !strcmp(s, "-1");
}

/* "mm", "mm:ss", "hh:mm:ss", "d-hh", "d-hh:mm", "d-hh:mm:ss" -> seconds. */
static int duration_secs(const char *s, uint64_t *secs)
{
	uint64_t f[3], days = 0;
	const char *dash = strchr(s, '-');
	int n;

	if (dash) {
		const char *p = s;

		if (read_field(&p, &days) < 0 || p != dash)
			return -1;
		if ((n = read_fields(dash + 1, f, 3)) < 0)
			return -1;
		/* d-h, d-h:m, d-h:m:s */
		*secs = days * 86400 + f[0] * 3600;
		if (n > 1)
			*secs += f[1] * 60;
		if (n > 2)
			*secs += f[2];
		return 0;
	}
	if ((n = read_fields(s, f, 3)) < 0)
		return -1;
	if (n == 1)
		*secs = f[0] * 60;
	else if (n == 2)
		*secs = f[0] * 60 + f[1];
	else
		*secs = f[0] * 3600 + f[1] * 60 + f[2];
	return 0;
}

int parse_duration_sec(const char *s, uint32_t *seconds)
{
	uint64_t secs;

	if (!s || !*s)
		return -1;
	if (is_unlimited(s)) {
		*seconds = INFINITE32;
		return 0;
	}
	if (duration_secs(s, &secs) < 0 || secs >= NO_VAL32)
		return -1;
	*seconds = (uint32_t)secs;
	return 0;
}

int parse_duration_min(const char *s, uint32_t *minutes)
{
	uint64_t secs;

	if (!s || !*s)
		return -1;
	if (is_unlimited(s)) {
		*minutes = INFINITE32;
		return 0;
	}
	if (duration_secs(s, &secs) < 0 || (secs + 59) / 60 >= NO_VAL32)
		return -1;
	*minutes = (uint32_t)((secs + 59) / 60);
	return 0;
}

bool time_limit_over(uint32_t limit, uint64_t max)
{
	if (max == INFINITE64 || limit == NO_VAL32)
		return false;
	return limit == INFINITE32 || limit > max;
}

/* Slurm's short form: "M:SS", "H:MM:SS", "D-HH:MM:SS". */
static void fmt_secs_short(uint64_t secs, char *buf, size_t len)
{
	uint64_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60;
	uint64_t s = secs % 60;

	if (d)
		snprintf(buf, len, "%llu-%02llu:%02llu:%02llu",
			 (unsigned long long)d, (unsigned long long)h,
			 (unsigned long long)m, (unsigned long long)s);
	else if (h)
		snprintf(buf, len, "%llu:%02llu:%02llu", (unsigned long long)h,
			 (unsigned long long)m, (unsigned long long)s);
	else
		snprintf(buf, len, "%llu:%02llu", (unsigned long long)m,
			 (unsigned long long)s);
}

void fmt_elapsed(uint32_t seconds, char *buf, size_t len)
{
	if (seconds == INFINITE32 || seconds == NO_VAL32)
		snprintf(buf, len, "INVALID");
	else
		fmt_secs_short(seconds, buf, len);
}

void fmt_time_limit(uint32_t minutes, char *buf, size_t len)
{
	uint64_t secs = (uint64_t)minutes * 60;
	uint64_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60;

	if (minutes == INFINITE32 || minutes == NO_VAL32)
		snprintf(buf, len, "UNLIMITED");
	else if (d)
		snprintf(buf, len, "%llu-%02llu:%02llu:00",
			 (unsigned long long)d, (unsigned long long)h,
			 (unsigned long long)m);
	else
		snprintf(buf, len, "%02llu:%02llu:00", (unsigned long long)h,
			 (unsigned long long)m);
}

void fmt_time_limit_short(uint32_t minutes, bool infinite_lowercase,
			  char *buf, size_t len)
{
	if (minutes == INFINITE32 || minutes == NO_VAL32)
		snprintf(buf, len, "%s",
			 infinite_lowercase ? "infinite" : "UNLIMITED");
	else
		fmt_secs_short((uint64_t)minutes * 60, buf, len);
}

/* ---- memory ---- */

int parse_mem_mb(const char *s, uint64_t *mb)
{
	uint64_t v = 0, kb;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > (UINT64_C(1) << 50))
			return -1;
	}
	if (*p && p[1])
		return -1;
	switch (tolower((unsigned char)*p)) {
	case 'k':
		kb = v;
		break;
	case '\0':
	case 'm':
		kb = v << 10;
		break;
	case 'g':
		kb = v << 20;
		break;
	case 't':
		kb = v << 30;
		break;
	default:
		return -1;
	}
	if (kb > (UINT64_C(1) << 50))
		return -1;
	*mb = (kb + 1023) / 1024;
	return 0;
}

void fmt_mem_mb(uint64_t mb, char *buf, size_t len)
{
	if (mb && !(mb % (1024 * 1024)))
		snprintf(buf, len, "%lluT", (unsigned long long)(mb >> 20));
	else if (mb && !(mb % 1024))
		snprintf(buf, len, "%lluG", (unsigned long long)(mb >> 10));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)mb);
}

void fmt_energy(uint64_t joules, char *buf, size_t len)
{
	static const char units[] = "\0KMGTP";
	double v = (double)joules;
	int u = 0;

	while (v >= 1000 && u < 5) {
		v /= 1000;
		u++;
	}
	if ((double)(uint64_t)v == v)
		snprintf(buf, len, "%llu%.1s", (unsigned long long)v,
			 &units[u]);
	else
		snprintf(buf, len, "%.2f%.1s", v, &units[u]);
}

/* ---- wall-clock times ---- */

void fmt_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (t == 0 || t == (time_t)INFINITE32) {
		snprintf(buf, len, "Unknown");
		return;
	}
	if (t == (time_t)NO_VAL32) {
		snprintf(buf, len, "None");
		return;
	}
	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* Reads exactly ndigits..maxdigits digits at *p as an int; advances *p. */
static int read_int(const char **p, int mindig, int maxdig, int *v)
{
	int n = 0;

	*v = 0;
	while (n < maxdig && isdigit((unsigned char)(*p)[n])) {
		*v = *v * 10 + ((*p)[n] - '0');
		n++;
	}
	if (n < mindig)
		return -1;
	*p += n;
	return 0;
}

/* "HH:MM[:SS]" then optional AM/PM; fills hour/min/sec of tm. */
static int read_clock(const char **pp, struct tm *tm)
{
	const char *p = *pp;
	int h, m, s = 0;

	if (read_int(&p, 1, 2, &h) < 0 || *p++ != ':' ||
	    read_int(&p, 2, 2, &m) < 0)
		return -1;
	if (*p == ':' && (p++, read_int(&p, 2, 2, &s) < 0))
		return -1;
	while (*p == ' ')
		p++;
	if (!strncasecmp(p, "am", 2) || !strncasecmp(p, "pm", 2)) {
		if (h < 1 || h > 12)
			return -1;
		h = h % 12 + (tolower((unsigned char)*p) == 'p' ? 12 : 0);
		p += 2;
	}
	if (h > 23 || m > 59 || s > 59)
		return -1;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = s;
	*pp = p;
	return 0;
}

/* mktime that rejects dates mktime had to normalise (Feb 30). */
static int make_time(struct tm *tm, time_t *out)
{
	struct tm want = *tm;

	tm->tm_isdst = -1;
	*out = mktime(tm);
	if (*out == (time_t)-1 || tm->tm_mday != want.tm_mday ||
	    tm->tm_mon != want.tm_mon || tm->tm_year != want.tm_year)
		return -1;
	return 0;
}

static void day_start(time_t now, int add_days, struct tm *tm)
{
	localtime_r(&now, tm);
	tm->tm_mday += add_days;
	tm->tm_hour = tm->tm_min = tm->tm_sec = 0;
	tm->tm_isdst = -1;
	mktime(tm);		/* normalise month ends */
}

/* "now", "now+60", "now-5minutes", "now+1hour", "now + 1 hour": seconds
 * by default. */
static int parse_now(const char *text, time_t now, time_t *out)
{
	static const struct {
		const char *name;
		long secs;
	} units[] = {
		{ "seconds", 1 }, { "minutes", 60 }, { "hours", 3600 },
		{ "days", 86400 }, { "weeks", 604800 },
	};
	char buf[64];
	const char *p = buf;
	size_t used = 0;
	int sign;
	uint64_t n;
	long unit = 1;

	for (; *text && used < sizeof(buf) - 1; text++)
		if (*text != ' ')
			buf[used++] = *text;
	if (*text)
		return -1;
	buf[used] = '\0';
	if (!*p) {
		*out = now;
		return 0;
	}
	if (*p != '+' && *p != '-')
		return -1;
	sign = *p++ == '-' ? -1 : 1;
	if (read_field(&p, &n) < 0)
		return -1;
	if (*p) {
		size_t len = strlen(p);

		unit = 0;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (len <= strlen(units[i].name) &&
			    !strncasecmp(p, units[i].name, len))
				unit = units[i].secs;
		if (!unit)
			return -1;
	}
	*out = now + sign * (time_t)n * unit;
	return 0;
}

/* "midnight", "noon", "elevenses", "fika", "teatime", "today", "tomorrow". */
static int parse_word(const char *s, time_t now, time_t *out)
{
	static const struct {
		const char *word;
		int hour;
	} words[] = {
		{ "noon", 12 }, { "elevenses", 11 }, { "fika", 15 },
		{ "teatime", 16 },
	};
	struct tm tm;

	if (!strcasecmp(s, "today") || !strcasecmp(s, "tomorrow") ||
	    !strcasecmp(s, "midnight")) {
		day_start(now, strcasecmp(s, "today") ? 1 : 0, &tm);
		*out = mktime(&tm);
		return 0;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strcasecmp(s, words[i].word))
			continue;
		day_start(now, 0, &tm);
		tm.tm_hour = words[i].hour;
		*out = mktime(&tm);
		if (*out < now) {
			day_start(now, 1, &tm);
			tm.tm_hour = words[i].hour;
			*out = mktime(&tm);
		}
		return 0;
	}
	return 1;
}

/* "YYYY-MM-DD[THH:MM[:SS]]" */
static int parse_iso(const char *p, time_t *out)
{
	struct tm tm = { 0 };
	int y, m, d;

	if (read_int(&p, 4, 4, &y) < 0 || *p++ != '-' ||
	    read_int(&p, 1, 2, &m) < 0 || *p++ != '-' ||
	    read_int(&p, 1, 2, &d) < 0)
		return -1;
	if (*p == 'T' && (p++, read_clock(&p, &tm) < 0))
		return -1;
	if (*p || m < 1 || m > 12 || d < 1)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	return make_time(&tm, out);
}

/* "MM/DD[/YY[YY]][-HH:MM[:SS]]", "MM.DD[.YY]", "MMDD[YY]": a date without a
 * year that has passed means next year. */
static int parse_mdy(const char *p, time_t now, bool past, time_t *out)
{
	struct tm tm = { 0 }, cur;
	int m, d, y = -1;
	char sep = 0;

	localtime_r(&now, &cur);
	if (read_int(&p, 2, 2, &m) < 0)
		return -1;
	if (*p == '/' || *p == '.')
		sep = *p++;
	if (read_int(&p, sep ? 1 : 2, 2, &d) < 0)
		return -1;
	if ((sep && *p == sep && (p++, true)) || (!sep && *p)) {
		const char *ys = p;

		if (read_int(&p, 2, sep ? 4 : 2, &y) < 0 || p - ys == 3)
			return -1;
		if (p - ys == 4)
			y -= 2000;	/* "12/25/2026" */
		if (y < 0)
			return -1;
	}
	if (sep == '/' && *p == '-' && (p++, read_clock(&p, &tm) < 0))
		return -1;
	if (*p || m < 1 || m > 12 || d < 1)
		return -1;
	tm.tm_year = y >= 0 ? y + 100 : cur.tm_year;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	if (make_time(&tm, out) < 0)
		return -1;
	if (y < 0 && (past ? *out > now : *out < now)) {
		tm.tm_year += past ? -1 : 1;
		return make_time(&tm, out);
	}
	return 0;
}

/* "HH:MM[:SS] [AM|PM]": today, or tomorrow if that time has passed (a
 * start time); with past, yesterday if it has not come yet (a query's
 * window, sacct -S/-E). */
static int parse_clock(const char *p, time_t now, bool past, time_t *out)
{
	struct tm tm;

	day_start(now, 0, &tm);
	if (read_clock(&p, &tm) < 0 || *p)
		return -1;
	*out = mktime(&tm);
	if (past ? *out > now : *out < now) {
		int h = tm.tm_hour, m = tm.tm_min, s = tm.tm_sec;

		day_start(now, past ? -1 : 1, &tm);
		tm.tm_hour = h;
		tm.tm_min = m;
		tm.tm_sec = s;
		*out = mktime(&tm);
	}
	return 0;
}

/* A time of day alone: "HH:MM[:SS] [AM|PM]" or a word (noon, ...). */
static int time_of_day(const char *p, struct tm *tm)
{
	static const struct {
		const char *word;
		int hour;
	} words[] = {
		{ "midnight", 0 }, { "elevenses", 11 }, { "noon", 12 },
		{ "fika", 15 }, { "teatime", 16 },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcasecmp(p, words[i].word)) {
			tm->tm_hour = words[i].hour;
			tm->tm_min = tm->tm_sec = 0;
			return 0;
		}
	}
	return isdigit((unsigned char)*p) && read_clock(&p, tm) == 0 && !*p ?
	       0 : -1;
}

/* A day alone: "today", "tomorrow", "YYYY-MM-DD", "MM/DD[/YY]" (and the
 * other date forms parse_mdy takes); its midnight in *out. */
static int day_of(const char *p, time_t now, bool past, time_t *out)
{
	struct tm tm;

	if (!strcasecmp(p, "today") || !strcasecmp(p, "tomorrow")) {
		day_start(now, strcasecmp(p, "today") ? 1 : 0, &tm);
		*out = mktime(&tm);
		return 0;
	}
	if (!isdigit((unsigned char)*p) || strchr(p, ':'))
		return -1;
	if (strlen(p) >= 8 && p[4] == '-')
		return parse_iso(p, out);
	return parse_mdy(p, now, past, out);
}

/* "DAY TIME" or "TIME DAY", apart by white space or '-' ("noon tomorrow",
 * "tomorrow-noon", "16:00-tomorrow", "2027-01-05 10:00"): that time of
 * that day, whether or not it has passed. */
static int parse_day_and_time(const char *s, time_t now, bool past,
			      time_t *out)
{
	for (const char *sep = s; *sep; sep++) {
		char *left, *right;
		const char *day, *tod;
		struct tm tm;
		time_t d;
		int rc = -1;

		if (*sep != ' ' && *sep != '-')
			continue;
		left = xstrtrim(xstrndup(s, (size_t)(sep - s)));
		right = xstrtrim(xstrdup(sep + 1));
		for (int order = 0; order < 2 && rc < 0; order++) {
			day = order ? right : left;
			tod = order ? left : right;
			if (day_of(day, now, past, &d) < 0)
				continue;
			localtime_r(&d, &tm);
			if (time_of_day(tod, &tm) == 0)
				rc = make_time(&tm, out);
		}
		xfree(left);
		xfree(right);
		if (rc == 0)
			return 0;
	}
	return -1;
}

static int parse_time_any(const char *s, time_t now, bool past, time_t *out)
{
	int rc;

	if (!strncasecmp(s, "now", 3))
		return parse_now(s + 3, now, out);
	if ((rc = parse_word(s, now, out)) <= 0)
		return rc;
	if (strlen(s) >= 8 && isdigit((unsigned char)s[0]) && s[4] == '-')
		rc = parse_iso(s, out);
	else if (strchr(s, ':') && !strchr(s, '/'))
		rc = parse_clock(s, now, past, out);
	else
		rc = parse_mdy(s, now, past, out);
	return rc == 0 ? 0 : parse_day_and_time(s, now, past, out);
}

int parse_time(const char *s, time_t now, time_t *out)
{
	time_t t;

	if (!s || !*s || parse_time_any(s, now, false, &t) < 0)
		return -1;
	*out = t;
	return 0;
}

int parse_time_past(const char *s, time_t now, time_t *out)
{
	time_t t;

	if (!s || !*s || parse_time_any(s, now, true, &t) < 0)
		return -1;
	*out = t;
	return 0;
}
