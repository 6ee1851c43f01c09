/* trace.h — a workload trace for sluice-sim: one record per job, read
 * from the Standard Workload Format (trace_swf.c) or `sacct -P` output
 * (trace_sacct.c).
 *
 * A reader takes the whole text and fills a trace_t; a malformed line is
 * an error "name:line: why" (the trace is freed and left empty), or
 * with skip_bad a warning on stderr, the line counted in skipped.  The
 * trace owns its strings; trace_free() frees them.
 */
#ifndef SLUICE_SIM_TRACE_H
#define SLUICE_SIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* How a job ended in the trace (and so in the simulation). */
typedef enum {
	TRACE_COMPLETED,
	TRACE_FAILED,
	TRACE_CANCELLED,        /* cancelled while running, or before it ran */
	TRACE_TIMEOUT,          /* ran into its time limit */
} trace_end_t;

typedef struct {
	char       *id;         /* the trace's own job id (text) */
	char       *user;       /* name, or the SWF user number */
	char       *account;    /* NULL: none */
	char       *partition;  /* NULL: the default partition */
	char       *qos;        /* NULL: none */
	uint32_t    uid, gid;
	time_t      submit;
	uint32_t    nnodes;     /* 0: not given (CPUs decide) */
	uint32_t    ncpus;      /* 0: not given */
	uint32_t    time_limit; /* minutes; 0: the partition's default */
	int64_t     runtime;    /* seconds it ran; -1: never ran */
	int64_t     cancel_after; /* never ran: cancelled this many seconds
				     after its submit; -1: not */
	trace_end_t end;
	uint32_t    priority;   /* 0: computed by the scheduler */
	uint32_t    line;       /* where it was read */
} trace_job_t;

typedef struct {
	trace_job_t *jobs;
	size_t       cnt, cap;
	size_t       skipped;   /* malformed lines skipped (skip_bad) */
} trace_t;

typedef enum { TRACE_FMT_GUESS, TRACE_FMT_SWF, TRACE_FMT_SACCT } trace_fmt_t;

typedef struct {
	trace_fmt_t fmt;
	bool        skip_bad;
	bool        quiet;      /* no warnings for skipped lines */
	time_t      epoch;      /* SWF: time 0 of the trace */
	char      **swf_parts;  /* SWF queue number n -> swf_parts[n], or NULL */
	size_t      swf_part_cnt;
} trace_opts_t;

void trace_opts_init(trace_opts_t *o);
void trace_opts_free(trace_opts_t *o);
/* "1=batch,2=debug" into o->swf_parts; 0, or -1 with err. */
int  trace_opts_swf_parts(trace_opts_t *o, const char *spec, char *err,
			  size_t errlen);
/* "swf" / "sacct"; -1 if neither. */
int  trace_fmt_parse(const char *s, trace_fmt_t *fmt);
/* Which reader the text is for: sacct if its first non-blank line has
 * '|' in it, else SWF. */
trace_fmt_t trace_guess(const char *text, size_t len);

/* Read text (len bytes, not NUL-terminated) named name into t (empty).
 * 0, or -1 with "name:line: why" in err. */
int  trace_read_buf(const char *text, size_t len, const char *name,
		    const trace_opts_t *o, trace_t *t, char *err,
		    size_t errlen);
int  trace_swf_read(const char *text, size_t len, const char *name,
		    const trace_opts_t *o, trace_t *t, char *err,
		    size_t errlen);
int  trace_sacct_read(const char *text, size_t len, const char *name,
		      const trace_opts_t *o, trace_t *t, char *err,
		      size_t errlen);
/* The same from a file. */
int  trace_read_file(const char *path, const trace_opts_t *o, trace_t *t,
		     char *err, size_t errlen);
void trace_free(trace_t *t);

/* Internal to the readers: a new zeroed record at the end of t. */
trace_job_t *trace_push(trace_t *t);
/* A line the reader could not take: -1 with the error, or (skip_bad) a
 * warning, counted, and 0. */
int  trace_bad(const trace_opts_t *o, trace_t *t, const char *name,
	       uint32_t line, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

#endif
