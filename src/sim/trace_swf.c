/* trace_swf.c — the Standard Workload Format of the Parallel Workloads
 * Archive (trace.h): one job per line, 18 whitespace-separated integer
 * fields, ';' starts a header comment.  Fields used: 1 job number,
 * 2 submit time (s after the trace's start), 3 wait time (only for a job
 * cancelled before it ran), 4 run time, 5 allocated processors,
 * 8 requested processors, 9 requested time (s), 11 status (1 completed,
 * 0 failed, 5 cancelled), 12 user id, 13 group id, 15 queue number
 * (16 partition number when the queue is -1).  -1 is "not known".
 * The user is named by its number, and the group is the account, named
 * by its number too. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "sim/trace.h"

#define SWF_FIELDS 18

enum {
	F_JOB, F_SUBMIT, F_WAIT, F_RUN, F_ALLOC, F_CPU, F_MEM, F_REQ_PROCS,
	F_REQ_TIME, F_REQ_MEM, F_STATUS, F_UID, F_GID, F_EXE, F_QUEUE,
	F_PART, F_PREV, F_THINK
};

/* Split one line into integer fields; the number of fields, or -1 with
 * the bad field's number in *bad. */
static int _fields(const char *s, const char *e, int64_t *v, int *bad)
{
	int n = 0;

	while (s < e) {
		char buf[32], *end;
		const char *t;
		size_t l;

		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s >= e)
			break;
		for (t = s; t < e && *t != ' ' && *t != '\t' && *t != '\r';
		     t++)
			;
		if (n == SWF_FIELDS)
			return SWF_FIELDS + 1;
		l = (size_t) (t - s);
		*bad = n + 1;
		if (l >= sizeof(buf))
			return -1;
		memcpy(buf, s, l);
		buf[l] = '\0';
		errno = 0;
		/* integers; some archive traces write a float for field 6/7 */
		v[n] = strtoll(buf, &end, 10);
		if (*end == '.' && (n == F_CPU || n == F_MEM))
			end += strspn(end + 1, "0123456789") + 1;
		if (end == buf || *end || errno)
			return -1;
		n++;
		s = t;
	}
	return n;
}

static int _line(const char *s, const char *e, uint32_t line,
		 const char *name, const trace_opts_t *o, trace_t *t,
		 char *err, size_t errlen)
{
	int64_t v[SWF_FIELDS];
	int n, bad = 0;
	int64_t procs, q;
	trace_job_t *j;

	n = _fields(s, e, v, &bad);
	if (n == 0)
		return 0;               /* blank */
	if (n < 0)
		return trace_bad(o, t, name, line, err, errlen,
				 "field %d is not an integer", bad);
	if (n != SWF_FIELDS)
		return trace_bad(o, t, name, line, err, errlen,
				 "%s fields, SWF has %d", n > SWF_FIELDS ?
				 "more than 18" : "fewer than 18",
				 SWF_FIELDS);
	if (v[F_JOB] < 0)
		return trace_bad(o, t, name, line, err, errlen,
				 "job number %lld is negative",
				 (long long) v[F_JOB]);
	if (v[F_SUBMIT] < 0 || v[F_SUBMIT] > 100LL * 365 * 86400)
		return trace_bad(o, t, name, line, err, errlen,
				 "submit time %lld is out of range",
				 (long long) v[F_SUBMIT]);
	procs = v[F_REQ_PROCS] > 0 ? v[F_REQ_PROCS] : v[F_ALLOC];
	if (procs <= 0 || procs > 10000000)
		return trace_bad(o, t, name, line, err, errlen,
				 "no processor count (fields 5 and 8)");
	if (v[F_RUN] < -1 || v[F_RUN] > 100LL * 365 * 86400 ||
	    v[F_REQ_TIME] < -1 || v[F_REQ_TIME] > 100LL * 365 * 86400)
		return trace_bad(o, t, name, line, err, errlen,
				 "run or requested time out of range");
	if (v[F_STATUS] < -1 || v[F_STATUS] > 5)
		return trace_bad(o, t, name, line, err, errlen,
				 "status %lld is not -1..5",
				 (long long) v[F_STATUS]);
	if (v[F_UID] < -1 || v[F_UID] > 0x7fffffff ||
	    v[F_GID] < -1 || v[F_GID] > 0x7fffffff)
		return trace_bad(o, t, name, line, err, errlen,
				 "user or group id out of range");
	j = trace_push(t);
	j->line = line;
	j->id = xstrdup_printf("%lld", (long long) v[F_JOB]);
	j->uid = v[F_UID] > 0 ? (uint32_t) v[F_UID] : 1;
	j->gid = v[F_GID] > 0 ? (uint32_t) v[F_GID] : j->uid;
	j->user = xstrdup_printf("%u", j->uid);
	/* the group is the job's account (as the generator means it): named
	 * by its number, as the user is; none when the trace has none */
	if (v[F_GID] > 0)
		j->account = xstrdup_printf("%lld", (long long) v[F_GID]);
	j->submit = o->epoch + (time_t) v[F_SUBMIT];
	j->ncpus = (uint32_t) procs;
	j->time_limit = v[F_REQ_TIME] > 0 ?
		(uint32_t) ((v[F_REQ_TIME] + 59) / 60) : 0;
	j->runtime = v[F_RUN] >= 0 ? v[F_RUN] : 0;
	j->cancel_after = -1;
	j->end = v[F_STATUS] == 0 ? TRACE_FAILED :
		v[F_STATUS] == 5 ? TRACE_CANCELLED : TRACE_COMPLETED;
	if (j->end == TRACE_CANCELLED && v[F_RUN] <= 0) {
		j->runtime = -1;        /* cancelled before it ran */
		j->cancel_after = v[F_WAIT] > 0 ? v[F_WAIT] : 0;
	}
	q = v[F_QUEUE] > 0 ? v[F_QUEUE] : v[F_PART];
	if (q > 0 && (size_t) q < o->swf_part_cnt && o->swf_parts[q])
		j->partition = xstrdup(o->swf_parts[q]);
	return 0;
}

int trace_swf_read(const char *text, size_t len, const char *name,
		   const trace_opts_t *o, trace_t *t, char *err, size_t errlen)
{
	const char *s = text, *end = text + len;
	uint32_t line = 0;

	while (s < end) {
		const char *e = memchr(s, '\n', (size_t) (end - s));
		const char *c;

		if (!e)
			e = end;
		line++;
		c = memchr(s, ';', (size_t) (e - s));
		if (memchr(s, '\0', (size_t) (e - s))) {
			if (trace_bad(o, t, name, line, err, errlen,
				      "NUL byte in the line") < 0)
				goto fail;
		} else if (_line(s, c ? c : e, line, name, o, t, err,
				 errlen) < 0) {
			goto fail;
		}
		s = e + 1;
	}
	return 0;
fail:
	trace_free(t);
	return -1;
}
