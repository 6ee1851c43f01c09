/* trace_sacct.c — `sacct -P` output as a trace (trace.h): a header
 * line naming the columns, then one '|'-separated row per job or step.
 * Columns read (any order, names as sacct prints them, any case):
 * JobID, Submit, Start, End (or Elapsed), Timelimit, NCPUS or ReqCPUS,
 * NNodes, Partition, Account, User, State; Priority and QOS if present.
 * Step rows (JobID "123.batch", "123.0", "123.extern") are skipped.
 * Times in Slurm's formats (parse_time: "2026-01-02T03:04:05", ...) or
 * seconds since the epoch; "Unknown"/"None" where a job never ran. */
#define _GNU_SOURCE
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <uthash.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "sim/trace.h"

enum {
	C_JOBID, C_SUBMIT, C_START, C_END, C_ELAPSED, C_TIMELIMIT, C_NCPUS,
	C_REQCPUS, C_NNODES, C_PART, C_ACCOUNT, C_USER, C_STATE, C_PRIO,
	C_QOS, C_UID, C_CNT
};

static const char *const col_names[C_CNT] = {
	"JobID", "Submit", "Start", "End", "Elapsed", "Timelimit", "NCPUS",
	"ReqCPUS", "NNodes", "Partition", "Account", "User", "State",
	"Priority", "QOS", "UID"
};

#define MAX_COLS 256

/* User names without an account on this host get uids from here. */
typedef struct {
	char          *name;
	uint32_t       uid;
	UT_hash_handle hh;
} user_map_t;

typedef struct {
	int         col[C_CNT];     /* index in the row, -1 absent */
	int         ncols;
	user_map_t *users;
	uint32_t    next_uid;
} sacct_ctx_t;

static uint32_t _uid_of(sacct_ctx_t *x, const char *name)
{
	user_map_t *u;
	struct passwd pw, *res = NULL;
	char buf[1024];

	HASH_FIND_STR(x->users, name, u);
	if (u)
		return u->uid;
	u = xmalloc(sizeof(*u));
	u->name = xstrdup(name);
	if (!getpwnam_r(name, &pw, buf, sizeof(buf), &res) && res)
		u->uid = res->pw_uid;
	else
		u->uid = x->next_uid++;
	HASH_ADD_KEYPTR(hh, x->users, u->name, strlen(u->name), u);
	return u->uid;
}

static void _users_free(sacct_ctx_t *x)
{
	user_map_t *u, *tmp;

	HASH_ITER(hh, x->users, u, tmp) {
		HASH_DEL(x->users, u);
		xfree(u->name);
		xfree(u);
	}
}

/* Split line (NUL-terminated, changed) on '|'; the number of cells. */
static int _split(char *line, char **cells)
{
	int n = 0;
	char *s = line;

	for (;;) {
		char *bar = strchr(s, '|');

		if (n == MAX_COLS)
			return -1;
		cells[n++] = s;
		if (!bar)
			break;
		*bar = '\0';
		s = bar + 1;
	}
	return n;
}

static int _header(sacct_ctx_t *x, char **cells, int n, char *why,
		   size_t whylen)
{
	for (int c = 0; c < C_CNT; c++)
		x->col[c] = -1;
	for (int i = 0; i < n; i++)
		for (int c = 0; c < C_CNT; c++)
			if (!strcasecmp(cells[i], col_names[c]) &&
			    x->col[c] < 0)
				x->col[c] = i;
	x->ncols = n;
	static const int need[] = { C_JOBID, C_SUBMIT, C_START, C_TIMELIMIT,
				    C_NNODES, C_PART, C_ACCOUNT, C_USER,
				    C_STATE };
	for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
		if (x->col[need[k]] < 0) {
			snprintf(why, whylen, "the header has no %s column",
				 col_names[need[k]]);
			return -1;
		}
	if (x->col[C_END] < 0 && x->col[C_ELAPSED] < 0) {
		snprintf(why, whylen, "the header has neither End nor "
			 "Elapsed");
		return -1;
	}
	if (x->col[C_NCPUS] < 0 && x->col[C_REQCPUS] < 0) {
		snprintf(why, whylen, "the header has neither NCPUS nor "
			 "ReqCPUS");
		return -1;
	}
	return 0;
}

static const char *_cell(const sacct_ctx_t *x, char **cells, int c)
{
	return x->col[c] < 0 ? NULL : cells[x->col[c]];
}

static bool _unknown(const char *s)
{
	return !s || !*s || !strcasecmp(s, "Unknown") ||
		!strcasecmp(s, "None");
}

/* A time: seconds since the epoch, or one of Slurm's formats.  0 for
 * Unknown/None; -1 malformed. */
static int _time(const char *s, time_t *out)
{
	char *end;
	long long v;

	*out = 0;
	if (_unknown(s))
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (!*end && end != s && !errno && v > 0) {
		*out = (time_t) v;
		return 0;
	}
	/* only absolute forms: parse_time also knows "now+1hour" */
	if (!strchr(s, '-') && !strchr(s, '/'))
		return -1;
	return parse_time(s, 0, out) < 0 || *out <= 0 ? -1 : 0;
}

static bool _step_row(const char *id)
{
	return strchr(id, '.') != NULL;
}

/* State -> how the job ended; -1 if it had not ended. */
static int _end_state(const char *s, trace_end_t *e)
{
	static const struct { const char *w; trace_end_t e; } map[] = {
		{ "COMPLETED", TRACE_COMPLETED }, { "CANCELLED", TRACE_CANCELLED },
		{ "FAILED", TRACE_FAILED }, { "TIMEOUT", TRACE_TIMEOUT },
		{ "OUT_OF_MEMORY", TRACE_FAILED }, { "NODE_FAIL", TRACE_FAILED },
		{ "PREEMPTED", TRACE_CANCELLED }, { "DEADLINE", TRACE_CANCELLED },
		{ "BOOT_FAIL", TRACE_FAILED },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		size_t l = strlen(map[i].w);

		if (!strncmp(s, map[i].w, l) && (!s[l] || s[l] == ' ')) {
			*e = map[i].e;
			return 0;
		}
	}
	return -1;
}

static int _row(sacct_ctx_t *x, char **cells, int n, uint32_t line,
		const char *name, const trace_opts_t *o, trace_t *t,
		char *err, size_t errlen)
{
	const char *id = _cell(x, cells, C_JOBID), *v;
	time_t submit, start, end = 0;
	uint32_t limit = 0, cpus = 0, nodes = 0, elapsed = 0, prio = 0;
	trace_end_t st;
	trace_job_t *j;

#define BAD(...) trace_bad(o, t, name, line, err, errlen, __VA_ARGS__)
	if (n != x->ncols)
		return BAD("%d fields, the header has %d", n, x->ncols);
	if (!*id)
		return BAD("empty JobID");
	if (_step_row(id))
		return 0;
	if (_time(_cell(x, cells, C_SUBMIT), &submit) < 0 || !submit)
		return BAD("Submit '%s' is not a time",
			   _cell(x, cells, C_SUBMIT));
	if (_time(_cell(x, cells, C_START), &start) < 0)
		return BAD("Start '%s' is not a time",
			   _cell(x, cells, C_START));
	if ((v = _cell(x, cells, C_END)) && _time(v, &end) < 0)
		return BAD("End '%s' is not a time", v);
	if ((v = _cell(x, cells, C_ELAPSED)) && !_unknown(v) &&
	    parse_duration_sec(v, &elapsed) < 0)
		return BAD("Elapsed '%s' is not a duration", v);
	v = _cell(x, cells, C_TIMELIMIT);
	if (!strcasecmp(v, "UNLIMITED") || !strcasecmp(v, "INFINITE"))
		limit = 0;
	else if (!_unknown(v) && strcasecmp(v, "Partition_Limit") &&
		 parse_duration_min(v, &limit) < 0)
		return BAD("Timelimit '%s' is not a duration", v);
	if ((v = _cell(x, cells, C_NCPUS)) && *v && parse_u32(v, &cpus) < 0)
		return BAD("NCPUS '%s' is not a number", v);
	if (!cpus && (v = _cell(x, cells, C_REQCPUS)) && *v &&
	    parse_u32(v, &cpus) < 0)
		return BAD("ReqCPUS '%s' is not a number", v);
	v = _cell(x, cells, C_NNODES);
	if (*v && parse_u32(v, &nodes) < 0)
		return BAD("NNodes '%s' is not a number", v);
	if (!cpus && !nodes)
		return BAD("neither a CPU nor a node count");
	if (cpus > 10000000 || nodes > 1000000)
		return BAD("CPU or node count out of range");
	if ((v = _cell(x, cells, C_PRIO)) && *v && parse_u32(v, &prio) < 0)
		return BAD("Priority '%s' is not a number", v);
	v = _cell(x, cells, C_STATE);
	if (_end_state(v, &st) < 0)
		return BAD("State '%s': the job had not ended", v);
	if (!*_cell(x, cells, C_USER))
		return BAD("empty User");
	if (start && start < submit)
		return BAD("Start is before Submit");
	if (start && end && end < start)
		return BAD("End is before Start");
#undef BAD
	j = trace_push(t);
	j->line = line;
	j->id = xstrdup(id);
	j->user = xstrdup(_cell(x, cells, C_USER));
	j->uid = _uid_of(x, j->user);
	j->gid = j->uid;
	v = _cell(x, cells, C_ACCOUNT);
	j->account = *v ? xstrdup(v) : NULL;
	v = _cell(x, cells, C_PART);
	j->partition = *v ? xstrdup(v) : NULL;
	v = _cell(x, cells, C_QOS);
	j->qos = v && *v ? xstrdup(v) : NULL;
	j->submit = submit;
	j->ncpus = cpus;
	j->nnodes = nodes;
	j->time_limit = limit;
	j->priority = prio;
	j->end = st;
	j->cancel_after = -1;
	if (!start) {
		j->runtime = -1;
		if (st != TRACE_CANCELLED)
			j->end = TRACE_CANCELLED;   /* it never ran */
		j->cancel_after = end > submit ? end - submit : 0;
	} else {
		j->runtime = end ? end - start : elapsed;
	}
	return 0;
}

int trace_sacct_read(const char *text, size_t len, const char *name,
		     const trace_opts_t *o, trace_t *t, char *err,
		     size_t errlen)
{
	const char *s = text, *end = text + len;
	sacct_ctx_t x = { .next_uid = 200000 };
	char *cells[MAX_COLS];
	bool have_header = false;
	uint32_t line = 0;
	int rc = 0;

	while (s < end && rc == 0) {
		const char *e = memchr(s, '\n', (size_t) (end - s));
		char *l, why[256];
		int n;

		if (!e)
			e = end;
		line++;
		if (memchr(s, '\0', (size_t) (e - s))) {
			rc = trace_bad(o, t, name, line, err, errlen,
				       "NUL byte in the line");
			s = e + 1;
			continue;
		}
		l = xstrndup(s, (size_t) (e - s));
		s = e + 1;
		l[strcspn(l, "\r")] = '\0';
		if (!*l) {
			xfree(l);
			continue;
		}
		n = _split(l, cells);
		if (n < 0) {
			rc = trace_bad(o, t, name, line, err, errlen,
				       "more than %d fields", MAX_COLS);
		} else if (!have_header) {
			if (_header(&x, cells, n, why, sizeof(why)) < 0) {
				snprintf(err, errlen, "%s:%u: %s", name, line,
					 why);
				rc = -1;
			}
			have_header = true;
		} else {
			rc = _row(&x, cells, n, line, name, o, t, err, errlen);
		}
		xfree(l);
	}
	if (rc == 0 && !have_header) {
		snprintf(err, errlen, "%s:%u: no header line (sacct -P with "
			 "JobID|Submit|Start|...)", name, line);
		rc = -1;
	}
	_users_free(&x);
	if (rc < 0)
		trace_free(t);
	return rc;
}
