/* resv_info.h — advanced reservations as the commands and the wire see
 * them, their flags, and the time arithmetic of recurring ones.
 *
 * resv_info_t is what the controller reports (scontrol show reservation,
 * sinfo -T) and also what it saves; resv_desc_t is a create or update
 * request (scontrol create/update reservation).  Both are field tables
 * (fields.h) that pack/unpack/free walk.
 *
 * Flag bits are ours; their names and print order are Slurm 22.05's.
 * Times: time_t; durations in minutes (NO_VAL32 unset, INFINITE32
 * UNLIMITED).  Recurring reservations (HOURLY, DAILY, WEEKDAY, WEEKEND,
 * WEEKLY) repeat in local time: the next occurrence of [start, end) is
 * the same wall-clock times an hour, day or week later.
 */
#ifndef SLUICE_RESV_INFO_H
#define SLUICE_RESV_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/fields.h"

enum {
	RESV_MAINT        = 1u << 0,
	RESV_FLEX         = 1u << 1,
	RESV_OVERLAP      = 1u << 2,
	RESV_IGNORE_JOBS  = 1u << 3,
	RESV_HOURLY       = 1u << 4,
	RESV_DAILY        = 1u << 5,
	RESV_WEEKDAY      = 1u << 6,
	RESV_WEEKEND      = 1u << 7,
	RESV_WEEKLY       = 1u << 8,
	RESV_STATIC       = 1u << 9,
	RESV_SPEC_NODES   = 1u << 10,
	RESV_ANY_NODES    = 1u << 11,
	RESV_PART_NODES   = 1u << 12,
	RESV_FIRST_CORES  = 1u << 13,
	RESV_TIME_FLOAT   = 1u << 14,
	RESV_REPLACE      = 1u << 15,
	RESV_REPLACE_DOWN = 1u << 16,
	RESV_PURGE_COMP   = 1u << 17,
	RESV_NO_HOLD_JOBS = 1u << 18,
	RESV_MAGNETIC     = 1u << 19,
};
#define RESV_RECURRING (RESV_HOURLY | RESV_DAILY | RESV_WEEKDAY | \
			RESV_WEEKEND | RESV_WEEKLY)

typedef struct {
	char     *name;
	time_t    start_time;
	time_t    end_time;       /* 0 = never (Duration=UNLIMITED) */
	char     *node_list;      /* "n[1-2]" */
	uint32_t  node_cnt;
	uint32_t  core_cnt;
	char     *features;
	char     *partition;
	uint64_t  flags;
	char     *tres_str;       /* "cpu=4" */
	char     *users;          /* "alice,bob" or "-carol" */
	char     *groups;
	char     *accounts;
	char     *licenses;
	uint32_t  purge_comp_time; /* seconds (PURGE_COMP=) */
	uint32_t  resv_id;
	time_t    created;
} resv_info_t;

extern const field_desc_t resv_info_fields[];
void resv_info_free_members(resv_info_t *r);

/* A create or update request: unset fields are NULL, 0 (times) or
 * NO_VAL32 (counts, duration). */
typedef struct {
	char     *name;
	time_t    start_time;
	time_t    end_time;
	uint32_t  duration;       /* minutes */
	char     *node_list;      /* "n[1-2]" or "ALL" */
	uint32_t  node_cnt;
	uint32_t  core_cnt;
	char     *users;
	char     *accounts;
	char     *groups;
	char     *partition;
	char     *features;
	uint64_t  flags;          /* to set */
	uint64_t  flags_clear;    /* NO_x on update */
	uint32_t  purge_comp_time;
} resv_desc_t;

extern const field_desc_t resv_desc_fields[];
void resv_desc_init(resv_desc_t *d);

/* "MAINT,DAILY" (case-insensitive, STATIC_ALLOC accepted for STATIC,
 * NO_x clears x, PURGE_COMP[=time]) -> set/clear bits.  0, or -1 if a
 * name is unknown. */
int   resv_flags_parse(const char *s, uint64_t *set, uint64_t *clear,
		       uint32_t *purge_secs);
/* "MAINT,SPEC_NODES" in 22.05's order (xfree); "" for none. */
char *resv_flags_string(uint64_t flags, uint32_t purge_secs);

/* ---- time arithmetic ---- */

/* t moved on by one period of the recurrence in flags (local time);
 * t unchanged if flags name none.  WEEKDAY/WEEKEND skip to the next
 * day of their kind. */
time_t resv_time_advance(time_t t, uint64_t flags);
/* Move a recurring [*start, *end) on whole periods until it ends after
 * now (end > now).  No change for a single one or end == 0. */
void   resv_roll_forward(time_t *start, time_t *end, uint64_t flags,
			 time_t now);
/* Does an occurrence of [start, end) (repeating as flags say; end 0 =
 * forever) overlap [t0, t1) (t1 0 = forever)?  Occurrences are looked at
 * up to limit periods ahead. */
bool   resv_time_overlaps(time_t start, time_t end, uint64_t flags,
			  time_t t0, time_t t1);
/* Do two reservations' times overlap (either may recur)? */
bool   resv_pair_overlaps(time_t s1, time_t e1, uint64_t f1,
			  time_t s2, time_t e2, uint64_t f2);

#endif
