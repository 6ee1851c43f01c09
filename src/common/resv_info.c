/* resv_info.c — reservation records, flags and recurrence (resv_info.h). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/parse_util.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define R(m, t) FIELD(resv_info_t, m, t)
const field_desc_t resv_info_fields[] = {
	R(name, FT_STR), R(start_time, FT_TIME), R(end_time, FT_TIME),
	R(node_list, FT_STR), R(node_cnt, FT_U32), R(core_cnt, FT_U32),
	R(features, FT_STR), R(partition, FT_STR), R(flags, FT_U64),
	R(tres_str, FT_STR), R(users, FT_STR), R(groups, FT_STR),
	R(accounts, FT_STR), R(licenses, FT_STR),
	R(purge_comp_time, FT_U32), R(resv_id, FT_U32),
	R(created, FT_TIME),
	FIELD_END
};
#undef R

#define D(m, t) FIELD(resv_desc_t, m, t)
const field_desc_t resv_desc_fields[] = {
	D(name, FT_STR), D(start_time, FT_TIME), D(end_time, FT_TIME),
	D(duration, FT_U32), D(node_list, FT_STR), D(node_cnt, FT_U32),
	D(core_cnt, FT_U32), D(users, FT_STR), D(accounts, FT_STR),
	D(groups, FT_STR), D(partition, FT_STR), D(features, FT_STR),
	D(flags, FT_U64), D(flags_clear, FT_U64),
	D(purge_comp_time, FT_U32),
	FIELD_END
};
#undef D

void resv_info_free_members(resv_info_t *r)
{
	if (r)
		fields_free(resv_info_fields, r);
}

void resv_desc_init(resv_desc_t *d)
{
	memset(d, 0, sizeof(*d));
	d->duration = d->node_cnt = d->core_cnt = NO_VAL32;
	d->purge_comp_time = NO_VAL32;
}

/* ---- flags ---- */

/* In 22.05's print order.  clearable: NO_<name> clears it on update. */
static const struct {
	uint64_t    bit;
	const char *name;
	bool        clearable;
} flag_tab[] = {
	{ RESV_MAINT, "MAINT", true },
	{ RESV_FLEX, "FLEX", true },
	{ RESV_OVERLAP, "OVERLAP", false },
	{ RESV_IGNORE_JOBS, "IGNORE_JOBS", false },
	{ RESV_HOURLY, "HOURLY", true },
	{ RESV_DAILY, "DAILY", true },
	{ RESV_WEEKDAY, "WEEKDAY", true },
	{ RESV_WEEKEND, "WEEKEND", true },
	{ RESV_WEEKLY, "WEEKLY", true },
	{ RESV_STATIC, "STATIC", true },
	{ RESV_SPEC_NODES, "SPEC_NODES", false },
	{ RESV_ANY_NODES, "ANY_NODES", true },
	{ RESV_PART_NODES, "PART_NODES", true },
	{ RESV_FIRST_CORES, "FIRST_CORES", false },
	{ RESV_TIME_FLOAT, "TIME_FLOAT", false },
	{ RESV_REPLACE, "REPLACE", false },
	{ RESV_REPLACE_DOWN, "REPLACE_DOWN", false },
	{ RESV_PURGE_COMP, "PURGE_COMP", false },
	{ RESV_NO_HOLD_JOBS, "NO_HOLD_JOBS_AFTER_END", false },
	{ RESV_MAGNETIC, "MAGNETIC", true },
};
#define N_FLAGS (sizeof(flag_tab) / sizeof(flag_tab[0]))

/* Names a user may give (SPEC_NODES is the controller's). */
static int _flag_bit(const char *w, uint64_t *bit, bool *clearable)
{
	if (!strcasecmp(w, "STATIC_ALLOC")) {
		*bit = RESV_STATIC;
		*clearable = true;
		return 0;
	}
	if (!strcasecmp(w, "NO_HOLD_JOBS_AFTER")) {
		*bit = RESV_NO_HOLD_JOBS;
		*clearable = false;
		return 0;
	}
	for (size_t i = 0; i < N_FLAGS; i++) {
		if (flag_tab[i].bit == RESV_SPEC_NODES)
			continue;
		if (!strcasecmp(w, flag_tab[i].name)) {
			*bit = flag_tab[i].bit;
			*clearable = flag_tab[i].clearable;
			return 0;
		}
	}
	return -1;
}

int resv_flags_parse(const char *s, uint64_t *set, uint64_t *clear,
		     uint32_t *purge_secs)
{
	char *copy, *tok, *save = NULL;
	int rc = 0;

	*set = *clear = 0;
	if (!s || !*s)
		return -1;
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t bit;
		bool clearable;
		char *eq = strchr(tok, '=');

		if (eq) {
			uint32_t secs;

			*eq = '\0';
			if (strcasecmp(tok, "PURGE_COMP") ||
			    parse_duration_sec(eq + 1, &secs) < 0 ||
			    secs == INFINITE32 || secs == NO_VAL32) {
				rc = -1;
				break;
			}
			*set |= RESV_PURGE_COMP;
			if (purge_secs)
				*purge_secs = secs;
			continue;
		}
		if (!strncasecmp(tok, "NO_", 3) &&
		    _flag_bit(tok + 3, &bit, &clearable) == 0 && clearable) {
			*clear |= bit;
			continue;
		}
		if (_flag_bit(tok, &bit, &clearable) < 0) {
			rc = -1;
			break;
		}
		*set |= bit;
		if (bit == RESV_PURGE_COMP && purge_secs)
			*purge_secs = 300;    /* 22.05's default: 5 minutes */
	}
	xfree(copy);
	return rc;
}

char *resv_flags_string(uint64_t flags, uint32_t purge_secs)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < N_FLAGS; i++) {
		if (!(flags & flag_tab[i].bit))
			continue;
		if (*s)
			xstrcat(&s, ",");
		if (flag_tab[i].bit == RESV_PURGE_COMP) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%02u:%02u:%02u",
				 purge_secs / 3600, purge_secs / 60 % 60,
				 purge_secs % 60);
			xstrfmtcat(&s, "PURGE_COMP=%s", buf);
		} else {
			xstrcat(&s, flag_tab[i].name);
		}
	}
	return s;
}

/* ---- time ---- */

/* t shifted by hours and days of wall-clock time (local, DST aware). */
static time_t _shift(time_t t, int hours, int days)
{
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_hour += hours;
	tm.tm_mday += days;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

static int _wday(time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	return tm.tm_wday;
}

/* One period of the recurrence at t: hours or days to add. */
static void _period(time_t t, uint64_t flags, int *hours, int *days)
{
	*hours = *days = 0;
	if (flags & RESV_HOURLY) {
		*hours = 1;
	} else if (flags & RESV_DAILY) {
		*days = 1;
	} else if (flags & (RESV_WEEKDAY | RESV_WEEKEND)) {
		int w = _wday(t);
		bool want_weekend = !(flags & RESV_WEEKDAY);

		do {
			(*days)++;
			w = (w + 1) % 7;
		} while (((w == 0 || w == 6) != want_weekend) && *days < 7);
	} else if (flags & RESV_WEEKLY) {
		*days = 7;
	}
}

time_t resv_time_advance(time_t t, uint64_t flags)
{
	int hours, days;

	_period(t, flags, &hours, &days);
	return hours || days ? _shift(t, hours, days) : t;
}

void resv_roll_forward(time_t *start, time_t *end, uint64_t flags,
		       time_t now)
{
	time_t s = *start, e = *end;
	int guard = 0;

	if (!(flags & RESV_RECURRING) || !e || e > now || e < s)
		return;
	/* jump whole weeks first (every recurrence repeats weekly) */
	if (now - e > 14 * 86400) {
		int weeks = (int) ((now - e) / (7 * 86400)) - 1;

		if (flags & RESV_HOURLY) {
			s = _shift(s, weeks * 7 * 24, 0);
			e = _shift(e, weeks * 7 * 24, 0);
		} else {
			s = _shift(s, 0, weeks * 7);
			e = _shift(e, 0, weeks * 7);
		}
	}
	while (e <= now && guard++ < 10000) {
		int hours, days;

		_period(s, flags, &hours, &days);
		s = _shift(s, hours, days);
		e = _shift(e, hours, days);
	}
	*start = s;
	*end = e;
}

bool resv_time_overlaps(time_t start, time_t end, uint64_t flags,
			time_t t0, time_t t1)
{
	if (end && (flags & RESV_RECURRING))
		resv_roll_forward(&start, &end, flags, t0);
	if (end && end <= t0)
		return false;
	return !t1 || start < t1;
}

bool resv_pair_overlaps(time_t s1, time_t e1, uint64_t f1,
			time_t s2, time_t e2, uint64_t f2)
{
	time_t from, a = s1, b = e1;

	if (!(f1 & RESV_RECURRING) || !e1)
		return resv_time_overlaps(s2, e2, f2, s1, e1);
	if (!(f2 & RESV_RECURRING) || !e2)
		return resv_time_overlaps(s1, e1, f1, s2, e2);
	/* both recur: every pattern repeats within a week; look at the
	 * occurrences of the first over eight days from when both exist */
	from = s1 > s2 ? s1 : s2;
	resv_roll_forward(&a, &b, f1, from);
	for (int i = 0; i < 8 * 24 + 2 && a < from + 8 * 86400; i++) {
		int hours, days;

		if (resv_time_overlaps(s2, e2, f2, a, b))
			return true;
		_period(a, f1, &hours, &days);
		a = _shift(a, hours, days);
		b = _shift(b, hours, days);
	}
	return false;
}
