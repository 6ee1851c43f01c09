/* trace.c — what the trace readers share (trace.h): the record list,
 * options, errors, format guess, reading a file. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "sim/trace.h"

void trace_opts_init(trace_opts_t *o)
{
	memset(o, 0, sizeof(*o));
	o->epoch = 1767225600;          /* 2026-01-01T00:00:00Z */
}

void trace_opts_free(trace_opts_t *o)
{
	for (size_t i = 0; i < o->swf_part_cnt; i++)
		xfree(o->swf_parts[i]);
	xfree(o->swf_parts);
	o->swf_part_cnt = 0;
}

int trace_opts_swf_parts(trace_opts_t *o, const char *spec, char *err,
			 size_t errlen)
{
	char *copy = xstrdup(spec), *save = NULL, *tok;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end = NULL;
		unsigned long n;

		errno = 0;
		n = eq ? strtoul(tok, &end, 10) : 0;
		if (!eq || end != eq || end == tok || errno || n > 100000 ||
		    !eq[1]) {
			snprintf(err, errlen, "--swf-partitions: '%s' is not "
				 "NUMBER=PARTITION", tok);
			rc = -1;
			break;
		}
		if (n >= o->swf_part_cnt) {
			o->swf_parts = xrealloc(o->swf_parts, (n + 1) *
						sizeof(char *));
			memset(o->swf_parts + o->swf_part_cnt, 0,
			       (n + 1 - o->swf_part_cnt) * sizeof(char *));
			o->swf_part_cnt = n + 1;
		}
		xfree(o->swf_parts[n]);
		o->swf_parts[n] = xstrdup(eq + 1);
	}
	xfree(copy);
	return rc;
}

int trace_fmt_parse(const char *s, trace_fmt_t *fmt)
{
	if (!strcmp(s, "swf"))
		*fmt = TRACE_FMT_SWF;
	else if (!strcmp(s, "sacct"))
		*fmt = TRACE_FMT_SACCT;
	else
		return -1;
	return 0;
}

trace_fmt_t trace_guess(const char *text, size_t len)
{
	size_t i = 0;

	/* the first line that is not blank or an SWF comment */
	while (i < len) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		for (size_t k = i; k < e; k++) {
			if (text[k] == ';')
				break;          /* SWF header comment */
			if (text[k] == '|')
				return TRACE_FMT_SACCT;
			if (text[k] != ' ' && text[k] != '\t' &&
			    text[k] != '\r') {
				for (; k < e; k++)
					if (text[k] == '|')
						return TRACE_FMT_SACCT;
				return TRACE_FMT_SWF;
			}
		}
		i = e + 1;
	}
	return TRACE_FMT_SWF;
}

trace_job_t *trace_push(trace_t *t)
{
	if (t->cnt == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->jobs = xrealloc(t->jobs, t->cap * sizeof(*t->jobs));
	}
	memset(&t->jobs[t->cnt], 0, sizeof(t->jobs[0]));
	return &t->jobs[t->cnt++];
}

int trace_bad(const trace_opts_t *o, trace_t *t, const char *name,
	      uint32_t line, char *err, size_t errlen, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (o->skip_bad) {
		if (!o->quiet)
			fprintf(stderr, "sluice-sim: warning: %s:%u: %s "
				"(skipped)\n", name, line, why);
		t->skipped++;
		return 0;
	}
	snprintf(err, errlen, "%s:%u: %s", name, line, why);
	return -1;
}

int trace_read_buf(const char *text, size_t len, const char *name,
		   const trace_opts_t *o, trace_t *t, char *err, size_t errlen)
{
	trace_fmt_t f = o->fmt;

	if (f == TRACE_FMT_GUESS)
		f = trace_guess(text, len);
	if (f == TRACE_FMT_SACCT)
		return trace_sacct_read(text, len, name, o, t, err, errlen);
	return trace_swf_read(text, len, name, o, t, err, errlen);
}

int trace_read_file(const char *path, const trace_opts_t *o, trace_t *t,
		    char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			text = xrealloc(text, cap);
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(f);
		xfree(text);
		return -1;
	}
	fclose(f);
	rc = trace_read_buf(text, len, path, o, t, err, errlen);
	xfree(text);
	return rc;
}

void trace_free(trace_t *t)
{
	for (size_t i = 0; i < t->cnt; i++) {
		trace_job_t *j = &t->jobs[i];

		xfree(j->id);
		xfree(j->user);
		xfree(j->account);
		xfree(j->partition);
		xfree(j->qos);
	}
	xfree(t->jobs);
	memset(t, 0, sizeof(*t));
}
