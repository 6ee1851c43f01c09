/* cron_spec.h — crontab(5) time specifications, as scrontab takes them:
 * five fields "minute hour day-of-month month day-of-week" (numbers,
 * ranges "1-5", steps "*\/15" "0-30/10", lists "1,3,5", month and day
 * names "jan" "mon-fri", Sunday 0 or 7) or one of @yearly @annually
 * @monthly @weekly @daily @midnight @hourly.
 *
 * As cron(5): when both day fields are restricted (neither starts with
 * '*'), a day matching either one matches; otherwise both must.  Times
 * are local time (TZ); a minute that does not exist on a day (the hour
 * skipped when daylight saving time starts) is skipped, and a minute
 * that happens twice (the hour repeated when it ends) matches once per
 * occurrence.  The spec is a plain value: nothing to free.
 */
#ifndef SLUICE_CRON_SPEC_H
#define SLUICE_CRON_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct {
	uint64_t minute;      /* bit m: minute m (0-59) */
	uint32_t hour;        /* bit h: hour h (0-23) */
	uint32_t dom;         /* bit d: day of month d (1-31) */
	uint16_t month;       /* bit m: month m (1-12) */
	uint8_t  dow;         /* bit d: day of week d (0-6, Sunday 0) */
	bool     dom_star;    /* the field began with '*' */
	bool     dow_star;
} cron_spec_t;

/* Longest spec text kept (the five fields as written). */
#define CRON_SPEC_MAX 256

/* The time fields at the start of line (leading blanks skipped): 0 with
 * *c filled and *rest (may be NULL) at the first character after the
 * blanks that follow them (the command), or -1 with why in err and *c
 * unchanged. */
int    cron_spec_parse(const char *line, cron_spec_t *c, const char **rest,
		       char *err, size_t errlen);
/* The same for a text that is only the spec ("*\/5 * * * *"): trailing
 * text is an error. */
int    cron_spec_parse_only(const char *spec, cron_spec_t *c, char *err,
			    size_t errlen);
/* The first whole minute strictly after `after` that matches, local
 * time; 0 if none within ten years (e.g. "0 0 30 2 *"). */
time_t cron_spec_next(const cron_spec_t *c, time_t after);

#endif
