/* log.h — daemon and command logging with Slurm's levels.
 *
 * Levels match SlurmctldDebug/SlurmdDebug names: quiet fatal error info
 * verbose debug debug2 debug3 debug4 debug5.  Daemons log to a file with
 * "[2026-11-23T09:16:55.123] " timestamps; commands log to stderr as
 * "prog: error: ..." with no timestamp (as Slurm's commands do).
 */
#ifndef SLUICE_LOG_H
#define SLUICE_LOG_H

#include <stdbool.h>
#include <stdio.h>

typedef enum {
	LOG_LEVEL_QUIET = 0,
	LOG_LEVEL_FATAL,
	LOG_LEVEL_ERROR,
	LOG_LEVEL_INFO,
	LOG_LEVEL_VERBOSE,
	LOG_LEVEL_DEBUG,
	LOG_LEVEL_DEBUG2,
	LOG_LEVEL_DEBUG3,
	LOG_LEVEL_DEBUG4,
	LOG_LEVEL_DEBUG5,
} log_level_t;

typedef struct {
	log_level_t stderr_level;  /* messages at or below go to stderr */
	log_level_t file_level;    /* ... and to the log file, if any */
	bool        stderr_timestamps; /* daemons in -D mode: yes; commands: no */
	bool        stderr_prefix;     /* commands: "prog: error: msg" */
} log_options_t;

/* prog: short name used in prefixes.  logfile may be NULL.  Returns -1 if
 * the log file cannot be opened (stderr logging still works). */
int  log_init(const char *prog, log_options_t opts, const char *logfile);
/* Reopen the log file (after rotation, on SIGUSR2 / reconfigure). */
int  log_reopen(const char *logfile);
void log_set_levels(log_level_t stderr_level, log_level_t file_level);
log_level_t log_get_level(void);   /* the most verbose active level */
void log_fini(void);

/* "debug3" -> LOG_LEVEL_DEBUG3, also numeric "0".."9"; -1 if unknown. */
int         log_level_from_string(const char *s);
const char *log_level_to_string(log_level_t l);

void fatal(const char *fmt, ...)   __attribute__((format(printf, 1, 2), noreturn));
void error(const char *fmt, ...)   __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...)    __attribute__((format(printf, 1, 2)));
void verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void debug(const char *fmt, ...)   __attribute__((format(printf, 1, 2)));
void debug2(const char *fmt, ...)  __attribute__((format(printf, 1, 2)));
void debug3(const char *fmt, ...)  __attribute__((format(printf, 1, 2)));
void debug4(const char *fmt, ...)  __attribute__((format(printf, 1, 2)));
void debug5(const char *fmt, ...)  __attribute__((format(printf, 1, 2)));
/* error() with ": strerror(errno)" appended. */
void error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
