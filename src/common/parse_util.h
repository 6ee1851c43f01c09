/* parse_util.h — time, duration, size and number parsing and printing shared
 * by every command and the config parser, spelled as Slurm spells them.
 *
 * Durations (--time, MaxTime, DefaultTime) are in minutes; NO_VAL32 means
 * "not given" and INFINITE32 "UNLIMITED".  Accepted forms: "UNLIMITED",
 * "infinite", "-1", "mm", "mm:ss", "hh:mm:ss", "days-hh", "days-hh:mm",
 * "days-hh:mm:ss".  Seconds round up to the next minute.
 */
#ifndef SLUICE_PARSE_UTIL_H
#define SLUICE_PARSE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NO_VAL32   0xfffffffeu
#define INFINITE32 0xffffffffu
#define NO_VAL16   0xfffeu
#define INFINITE16 0xffffu
#define NO_VAL64   0xfffffffffffffffeull
#define INFINITE64 0xffffffffffffffffull

/* Minutes; -1 on malformed input. */
int  parse_duration_min(const char *s, uint32_t *minutes);
/* Is a job's time limit (minutes) over max (MaxTime, MaxWall; INFINITE64
 * = none)?  No limit at all (INFINITE32: -t 0, UNLIMITED, INFINITE) is
 * over every finite max; not set (NO_VAL32) is over none.  The one
 * comparison every time limit check makes. */
bool time_limit_over(uint32_t limit, uint64_t max);
/* Seconds ("1-02:03:04" -> 93784); -1 on malformed input. */
int  parse_duration_sec(const char *s, uint32_t *seconds);
/* "1-02:03:04", "2:03:04", "3:04" (squeue TIME column style), from seconds. */
void fmt_elapsed(uint32_t seconds, char *buf, size_t len);
/* Time limit in minutes -> "UNLIMITED", "1-00:00:00", "00:30:00" (scontrol). */
void fmt_time_limit(uint32_t minutes, char *buf, size_t len);
/* sinfo/squeue short form: "infinite"/"UNLIMITED", "1-00:00:00", "30:00". */
void fmt_time_limit_short(uint32_t minutes, bool infinite_lowercase, char *buf, size_t len);

/* Memory in MB: "4096", "4G", "16g", "1T", "512M", "100K" (rounded up).
 * Default unit MB.  -1 on malformed input. */
int  parse_mem_mb(const char *s, uint64_t *mb);
/* 4096 -> "4G", 1000 -> "1000M" (as scontrol TRES prints). */
void fmt_mem_mb(uint64_t mb, char *buf, size_t len);
/* Joules as sacct/sstat print ConsumedEnergy: divided by 1000 while
 * >= 1000 (K, M, G, T, P), two decimals unless whole: 850 -> "850",
 * 2500 -> "2.50K", 3000 -> "3K". */
void fmt_energy(uint64_t joules, char *buf, size_t len);

/* Whole numbers with optional k/m suffix (1k = 1024)?  Plain unsigned. */
int  parse_u32(const char *s, uint32_t *out);
int  parse_u64(const char *s, uint64_t *out);
/* "yes/no/true/false/1/0" (case-insensitive). */
int  parse_bool(const char *s, bool *out);

/* Wall-clock times for --begin and output: "2026-11-22T12:45:48".
 * parse accepts "now", "now+60", "now+1hour", "now + 1 hour", "HH:MM[:SS]
 * [AM|PM]", "YYYY-MM-DD[THH:MM[:SS]]", "MM/DD[/YY][-HH:MM[:SS]]",
 * "MMDD[YY]", "MM.DD[.YY]", "midnight", "noon", "elevenses", "fika",
 * "teatime", "today", "tomorrow", and a day with a time of day apart by
 * a space or '-' in either order ("noon-tomorrow", "tomorrow 10:00",
 * "2027-01-05 10:00").  -1 on malformed input. */
int  parse_time(const char *s, time_t now, time_t *out);
/* The same for a moment already past (sacct -S/-E): a bare "HH:MM" not
 * yet reached today means yesterday's. */
int  parse_time_past(const char *s, time_t now, time_t *out);
/* "2026-11-22T12:45:48"; 0 prints "Unknown"; (time_t)-1... callers choose. */
void fmt_time(time_t t, char *buf, size_t len);

#endif
