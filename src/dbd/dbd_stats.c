/* dbd_stats.c — slurmdbd's RPC and roll-up statistics (dbd_stats.h). */
#include "dbd/dbd_stats.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

typedef struct {
	uint32_t key;             /* message type or uid */
	uint64_t count;
	uint64_t total;           /* usec */
} counter_t;

typedef struct {
	counter_t *v;
	size_t     n;
} counters_t;

static struct {
	pthread_mutex_t mutex;
	time_t          since;
	counters_t      types, users;
	uint64_t        roll_cnt, roll_total, roll_max, roll_last;
	time_t          roll_when;
} st = { .mutex = PTHREAD_MUTEX_INITIALIZER };

uint64_t dbd_stats_now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* A handful of types and users: a linear search is enough. */
static void add(counters_t *c, uint32_t key, uint64_t usec)
{
	size_t i;

	for (i = 0; i < c->n && c->v[i].key != key; i++)
		;
	if (i == c->n) {
		c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
		c->v[c->n++] = (counter_t){ .key = key };
	}
	c->v[i].count++;
	c->v[i].total += usec;
}

static void lazy_since(void)
{
	if (!st.since)
		st.since = time(NULL);
}

void dbd_stats_rpc(uint16_t type, uint32_t uid, uint64_t usec)
{
	pthread_mutex_lock(&st.mutex);
	lazy_since();
	add(&st.types, type, usec);
	add(&st.users, uid, usec);
	pthread_mutex_unlock(&st.mutex);
}

void dbd_stats_rollup(uint64_t usec)
{
	pthread_mutex_lock(&st.mutex);
	lazy_since();
	st.roll_cnt++;
	st.roll_total += usec;
	st.roll_last = usec;
	if (usec > st.roll_max)
		st.roll_max = usec;
	st.roll_when = time(NULL);
	pthread_mutex_unlock(&st.mutex);
}

static void free_counters(void)
{
	xfree(st.types.v);
	xfree(st.users.v);
	st.types.n = st.users.n = 0;
}

void dbd_stats_clear(void)
{
	pthread_mutex_lock(&st.mutex);
	free_counters();
	st.roll_cnt = st.roll_total = st.roll_max = st.roll_last = 0;
	st.roll_when = 0;
	st.since = time(NULL);
	pthread_mutex_unlock(&st.mutex);
}

void dbd_stats_fini(void)
{
	pthread_mutex_lock(&st.mutex);
	free_counters();
	pthread_mutex_unlock(&st.mutex);
}

static void cell(char ***cells, const char *fmt, uint64_t v)
{
	char *s = xstrdup_printf(fmt, v);

	*cells = xstrarray_append(*cells, s);
	xfree(s);
}

static void row(char ***cells, const char *kind, const char *name,
		uint64_t id, uint64_t count, uint64_t total, uint64_t max,
		uint64_t last, uint64_t when)
{
	*cells = xstrarray_append(*cells, kind);
	*cells = xstrarray_append(*cells, name ? name : "");
	cell(cells, "%" PRIu64, id);
	cell(cells, "%" PRIu64, count);
	cell(cells, "%" PRIu64, total);
	cell(cells, "%" PRIu64, max);
	cell(cells, "%" PRIu64, last);
	cell(cells, "%" PRIu64, when);
}

void dbd_stats_table(table_resp_msg_t *resp)
{
	static const char *const cols[] = DBD_STATS_COLS;
	char **cells = NULL;

	pthread_mutex_lock(&st.mutex);
	lazy_since();
	row(&cells, "since", NULL, 0, 0, 0, 0, 0, (uint64_t)st.since);
	if (st.roll_cnt)
		row(&cells, "rollup", NULL, 0, st.roll_cnt, st.roll_total,
		    st.roll_max, st.roll_last, (uint64_t)st.roll_when);
	for (size_t i = 0; i < st.types.n; i++)
		row(&cells, "type", msg_type_name(st.types.v[i].key),
		    st.types.v[i].key, st.types.v[i].count,
		    st.types.v[i].total, 0, 0, 0);
	for (size_t i = 0; i < st.users.n; i++)
		row(&cells, "user", NULL, st.users.v[i].key,
		    st.users.v[i].count, st.users.v[i].total, 0, 0, 0);
	pthread_mutex_unlock(&st.mutex);
	resp->cols = xstrarray_dup((char *const *)cols);
	resp->cells = cells;
}
