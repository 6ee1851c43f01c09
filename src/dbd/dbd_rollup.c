/* dbd_rollup.c — hourly, daily and monthly usage roll-ups
 * (dbd_rollup.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "common/log.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_rollup.h"
#include "dbd/dbd_purge.h"
#include "dbd/dbd_tres.h"

#define HOUR 3600
#define CHUNK_HOURS 24     /* hours computed from one fetch of records */
#define ASSOC_ROWS_MAX 500 /* rows per multi-row INSERT */

/* ---- local time ---- */

time_t dbd_hour_floor(time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

time_t dbd_day_floor(time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

time_t dbd_month_floor(time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	tm.tm_mday = 1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

time_t dbd_day_next(time_t day)
{
	struct tm tm;

	localtime_r(&day, &tm);
	tm.tm_mday++;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

time_t dbd_month_next(time_t month)
{
	struct tm tm;

	localtime_r(&month, &tm);
	tm.tm_mon++;
	tm.tm_mday = 1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

static double now_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* ---- the marks ---- */

int dbd_rollup_marks(dbd_db_t *db, const char *cluster, time_t *hour,
		     time_t *day, time_t *month)
{
	dbd_rows_t rows;
	char *sql = xstrdup("SELECT hour_last, day_last, month_last FROM "
			    "rollup_table WHERE cluster=");
	int rc;

	dbd_db_quote(db, &sql, cluster);
	rc = dbd_db_select(db, sql, &rows);
	xfree(sql);
	*hour = *day = *month = 0;
	if (rc < 0)
		return -1;
	if (rows.rows) {
		*hour = strtoll(dbd_rows_get(&rows, 0, 0), NULL, 10);
		*day = strtoll(dbd_rows_get(&rows, 0, 1), NULL, 10);
		*month = strtoll(dbd_rows_get(&rows, 0, 2), NULL, 10);
	}
	dbd_rows_free(&rows);
	return 0;
}

int dbd_rollup_reset(dbd_db_t *db, const char *cluster, time_t t)
{
	char *sql;
	int rc;

	if (t < 0)
		t = 0;
	sql = xstrdup_printf("UPDATE rollup_table SET hour_last=LEAST("
			     "hour_last, %" PRId64 "), day_last=LEAST("
			     "day_last, %" PRId64 "), month_last=LEAST("
			     "month_last, %" PRId64 "), mod_time=%" PRId64,
			     (int64_t)dbd_hour_floor(t),
			     (int64_t)dbd_day_floor(t),
			     (int64_t)dbd_month_floor(t),
			     (int64_t)time(NULL));
	if (cluster) {
		xstrcat(&sql, " WHERE cluster=");
		dbd_db_quote(db, &sql, cluster);
	}
	rc = dbd_db_exec(db, sql);
	xfree(sql);
	return rc;
}

/* A cluster never rolled up: start at its first record (no row and
 * *first = 0 when it has none). */
static int first_time(dbd_db_t *db, const char *cluster, time_t *first)
{
	dbd_rows_t rows;
	char *c = NULL, *sql;
	int rc;

	dbd_db_quote(db, &c, cluster);
	sql = xstrdup_printf(
		"SELECT LEAST(COALESCE((SELECT MIN(time_start) FROM "
		"event_table WHERE cluster=%s), 9223372036854775807), "
		"COALESCE((SELECT MIN(time_eligible) FROM job_table WHERE "
		"cluster=%s AND time_eligible != 0), 9223372036854775807), "
		"COALESCE((SELECT MIN(time_start) FROM job_table WHERE "
		"cluster=%s AND time_start != 0), 9223372036854775807))",
		c, c, c);
	xfree(c);
	rc = dbd_db_select(db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	*first = (time_t)strtoll(dbd_rows_get(&rows, 0, 0), NULL, 10);
	if (*first == (time_t)INT64_MAX || *first <= 0)
		*first = 0;
	dbd_rows_free(&rows);
	return 0;
}

/* ---- hours: one fetch of records per chunk of hours ---- */

typedef struct {
	uint64_t total, down, pdown, alloc, plan, cpus;   /* cpus: count */
} hour_fig_t;

typedef struct {
	uint32_t hour;
	uint32_t assoc;
	uint32_t tres;           /* id_tres */
	uint64_t secs;
	uint64_t jobs;
} use_ent_t;

typedef struct {
	char     *acct;
	uint32_t  uid;
} assoc_key_t;

typedef struct {
	dbd_db_t    *db;
	const char  *cluster;
	time_t       now;
	time_t       a, b;           /* [a, b): whole hours */
	uint32_t     nh;
	hour_fig_t  *h;
	use_ent_t   *use;
	size_t       nuse, capuse;
	assoc_key_t *assoc;
	uint32_t     nassoc, capassoc;
	uint32_t    *slots;          /* hash: assoc index + 1, 0 = empty */
	uint32_t     nslots;
	dbd_tres_list_t tres;        /* what is counted: fig() index k */
	int          cpu;            /* the index of cpu, -1 if none */
	uint64_t    *n;              /* a record's counts, one per TRES */
} chunk_t;

static uint32_t key_hash(const char *acct, uint32_t uid)
{
	uint32_t h = 2166136261u ^ uid;

	for (const char *p = acct; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h * 2654435761u;
}

static void slots_grow(chunk_t *c)
{
	xfree(c->slots);
	c->nslots = c->nslots ? c->nslots * 2 : 256;
	c->slots = xcalloc(c->nslots, sizeof(uint32_t));
	for (uint32_t i = 0; i < c->nassoc; i++) {
		uint32_t k = key_hash(c->assoc[i].acct, c->assoc[i].uid) &
			     (c->nslots - 1);

		while (c->slots[k])
			k = (k + 1) & (c->nslots - 1);
		c->slots[k] = i + 1;
	}
}

static uint32_t assoc_index(chunk_t *c, const char *acct, uint32_t uid)
{
	uint32_t k;

	if (2 * (c->nassoc + 1) > c->nslots)
		slots_grow(c);
	k = key_hash(acct, uid) & (c->nslots - 1);
	while (c->slots[k]) {
		assoc_key_t *a = &c->assoc[c->slots[k] - 1];

		if (a->uid == uid && !strcmp(a->acct, acct))
			return c->slots[k] - 1;
		k = (k + 1) & (c->nslots - 1);
	}
	if (c->nassoc == c->capassoc) {
		c->capassoc = c->capassoc ? c->capassoc * 2 : 64;
		c->assoc = xrealloc(c->assoc, c->capassoc * sizeof(*c->assoc));
	}
	c->assoc[c->nassoc] = (assoc_key_t){ xstrdup(acct), uid };
	c->slots[k] = ++c->nassoc;
	return c->nassoc - 1;
}

/* The chunk's hours [*h0, *h1) that [s, e) overlaps (none: h0 = h1). */
static void hour_span(const chunk_t *c, int64_t s, int64_t e, uint32_t *h0,
		      uint32_t *h1)
{
	if (s < c->a)
		s = c->a;
	if (e > c->b)
		e = c->b;
	if (s >= e) {
		*h0 = *h1 = 0;
		return;
	}
	*h0 = (uint32_t)((s - c->a) / HOUR);
	*h1 = (uint32_t)((e - 1 - c->a) / HOUR) + 1;
}

/* Seconds of [s, e) inside the chunk's hour hi. */
static uint64_t hour_secs(const chunk_t *c, uint32_t hi, int64_t s,
			  int64_t e)
{
	int64_t hs = c->a + (int64_t)hi * HOUR, he = hs + HOUR;

	if (s < hs)
		s = hs;
	if (e > he)
		e = he;
	return e > s ? (uint64_t)(e - s) : 0;
}

/* The counts of tres ("cpu=4,mem=2G,gres/gpu=1") into c->n, one pass
 * over the string; the CPUs from cpus when it is not NULL (every job
 * record has cpus_alloc / cpus_req). */
static void counts(chunk_t *c, const char *tres, const char *cpus)
{
	memset(c->n, 0, c->tres.n * sizeof(*c->n));
	for (const char *p = tres; p && *p; p = strchr(p, ',') ?
	     strchr(p, ',') + 1 : NULL) {
		size_t len = strcspn(p, "=,");
		int k;

		if (p[len] != '=')
			continue;
		k = dbd_tres_list_find(&c->tres, p, len);
		if (k >= 0)
			c->n[k] = dbd_tres_value(p + len + 1, NULL);
	}
	if (cpus && c->cpu >= 0)
		c->n[c->cpu] = strtoull(cpus, NULL, 10);
}

static hour_fig_t *fig(chunk_t *c, uint32_t hi, uint32_t t)
{
	return &c->h[(size_t)hi * c->tres.n + t];
}

static char *chunk_where(chunk_t *c, const char *prefix)
{
	char *sql = xstrdup(prefix);

	dbd_db_quote(c->db, &sql, c->cluster);
	return sql;
}

static int chunk_events(chunk_t *c)
{
	dbd_rows_t rows;
	char *sql = chunk_where(c, "SELECT node_name='', time_start, "
				"time_end, tres FROM event_table WHERE "
				"cluster=");
	int rc;

	xstrfmtcat(&sql, " AND time_start < %" PRId64 " AND (time_end = 0 "
		   "OR time_end > %" PRId64 ")", (int64_t)c->b, (int64_t)c->a);
	rc = dbd_db_select(c->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows; i++) {
		bool cluster = atoi(dbd_rows_get(&rows, i, 0)) != 0;
		int64_t s = strtoll(dbd_rows_get(&rows, i, 1), NULL, 10);
		int64_t e = strtoll(dbd_rows_get(&rows, i, 2), NULL, 10);
		const char *tres = dbd_rows_get(&rows, i, 3);
		uint32_t h0, h1;

		if (!e || e > c->now)
			e = c->now;
		hour_span(c, s, e, &h0, &h1);
		counts(c, tres, NULL);
		for (uint32_t t = 0; h0 < h1 && t < c->tres.n; t++) {
			uint64_t n = c->n[t];

			for (uint32_t hi = h0; n && hi < h1; hi++) {
				uint64_t secs = hour_secs(c, hi, s, e);

				if (cluster) {
					fig(c, hi, t)->total += n * secs;
					fig(c, hi, t)->cpus = n;
				} else {
					fig(c, hi, t)->down += n * secs;
				}
			}
		}
	}
	dbd_rows_free(&rows);
	return 0;
}

/* Planned down: MAINT reservations (not IGNORE_JOBS), as Slurm's. */
static int chunk_maint(chunk_t *c)
{
	dbd_rows_t rows;
	char *sql = chunk_where(c, "SELECT tres, time_start, time_end FROM "
				"resv_table WHERE cluster=");
	int rc;

	xstrfmtcat(&sql, " AND (flags & %u) != 0 AND (flags & %u) = 0 AND "
		   "time_start < %" PRId64 " AND (time_end = 0 OR time_end > %"
		   PRId64 ")", (unsigned)RESV_MAINT, (unsigned)RESV_IGNORE_JOBS,
		   (int64_t)c->b, (int64_t)c->a);
	rc = dbd_db_select(c->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows; i++) {
		const char *tres = dbd_rows_get(&rows, i, 0);
		int64_t s = strtoll(dbd_rows_get(&rows, i, 1), NULL, 10);
		int64_t e = strtoll(dbd_rows_get(&rows, i, 2), NULL, 10);
		uint32_t h0, h1;

		if (!e || e > c->now)
			e = c->now;
		hour_span(c, s, e, &h0, &h1);
		counts(c, tres, NULL);
		for (uint32_t t = 0; h0 < h1 && t < c->tres.n; t++) {
			uint64_t n = c->n[t];

			for (uint32_t hi = h0; n && hi < h1; hi++)
				fig(c, hi, t)->pdown +=
					n * hour_secs(c, hi, s, e);
		}
	}
	dbd_rows_free(&rows);
	return 0;
}

static void use_add(chunk_t *c, uint32_t hour, uint32_t assoc,
		    uint32_t tres, uint64_t secs)
{
	if (c->nuse == c->capuse) {
		c->capuse = c->capuse ? c->capuse * 2 : 1024;
		c->use = xrealloc(c->use, c->capuse * sizeof(*c->use));
	}
	c->use[c->nuse++] = (use_ent_t){ hour, assoc, tres, secs, 1 };
}

static int chunk_jobs(chunk_t *c)
{
	dbd_rows_t rows;
	char *sql = chunk_where(c, "SELECT account, id_user, cpus_alloc, "
				"time_start, time_end, tres_alloc FROM "
				"job_table WHERE cluster=");
	int rc;

	xstrfmtcat(&sql, " AND time_start != 0 AND time_start < %" PRId64
		   " AND (time_end = 0 OR time_end > %" PRId64 ")",
		   (int64_t)c->b, (int64_t)c->a);
	rc = dbd_db_select(c->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows; i++) {
		uint32_t uid = (uint32_t)strtoul(dbd_rows_get(&rows, i, 1),
						 NULL, 10);
		int64_t s = strtoll(dbd_rows_get(&rows, i, 3), NULL, 10);
		int64_t e = strtoll(dbd_rows_get(&rows, i, 4), NULL, 10);
		uint32_t a = UINT32_MAX, h0, h1;

		if (!e || e > c->now)
			e = c->now;    /* still running: up to now */
		hour_span(c, s, e, &h0, &h1);
		if (h0 < h1)
			counts(c, dbd_rows_get(&rows, i, 5),
			       dbd_rows_get(&rows, i, 2));
		for (uint32_t hi = h0; hi < h1; hi++) {
			uint64_t secs = hour_secs(c, hi, s, e);

			if (a == UINT32_MAX)
				a = assoc_index(c, dbd_rows_get(&rows, i, 0),
						uid);
			for (uint32_t t = 0; t < c->tres.n; t++) {
				if (!c->n[t] && (int)t != c->cpu)
					continue;
				fig(c, hi, t)->alloc += c->n[t] * secs;
				use_add(c, hi, a, t, c->n[t] * secs);
			}
		}
	}
	dbd_rows_free(&rows);
	return 0;
}

/* Eligible jobs' waiting: [eligible, start or end or now). */
static int chunk_waits(chunk_t *c)
{
	dbd_rows_t rows;
	char *sql = chunk_where(c, "SELECT cpus_req, time_eligible, "
				"IF(time_start=0, time_end, time_start), "
				"tres_req FROM job_table WHERE cluster=");
	int rc;

	xstrfmtcat(&sql, " AND time_eligible != 0 AND time_eligible < %"
		   PRId64 " AND (IF(time_start=0, time_end, time_start) = 0 "
		   "OR IF(time_start=0, time_end, time_start) > %" PRId64 ")",
		   (int64_t)c->b, (int64_t)c->a);
	rc = dbd_db_select(c->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows; i++) {
		int64_t s = strtoll(dbd_rows_get(&rows, i, 1), NULL, 10);
		int64_t e = strtoll(dbd_rows_get(&rows, i, 2), NULL, 10);
		uint32_t h0, h1;

		if (!e || e > c->now)
			e = c->now;
		hour_span(c, s, e, &h0, &h1);
		if (h0 < h1)
			counts(c, dbd_rows_get(&rows, i, 3),
			       dbd_rows_get(&rows, i, 0));
		for (uint32_t t = 0; h0 < h1 && t < c->tres.n; t++) {
			uint64_t n = c->n[t];

			for (uint32_t hi = h0; n && hi < h1; hi++)
				fig(c, hi, t)->plan +=
					n * hour_secs(c, hi, s, e);
		}
	}
	dbd_rows_free(&rows);
	return 0;
}

static int by_hour_assoc(const void *x, const void *y)
{
	const use_ent_t *a = x, *b = y;

	if (a->hour != b->hour)
		return a->hour < b->hour ? -1 : 1;
	if (a->assoc != b->assoc)
		return a->assoc < b->assoc ? -1 : 1;
	return a->tres < b->tres ? -1 : a->tres > b->tres;
}

/* Sum entries of the same (hour, association, TRES). */
static void use_merge(chunk_t *c)
{
	size_t o = 0;

	qsort(c->use, c->nuse, sizeof(*c->use), by_hour_assoc);
	for (size_t i = 0; i < c->nuse; i++) {
		if (o && c->use[o - 1].hour == c->use[i].hour &&
		    c->use[o - 1].assoc == c->use[i].assoc &&
		    c->use[o - 1].tres == c->use[i].tres) {
			c->use[o - 1].secs += c->use[i].secs;
			c->use[o - 1].jobs += c->use[i].jobs;
		} else {
			c->use[o++] = c->use[i];
		}
	}
	c->nuse = o;
}

static void chunk_free(chunk_t *c)
{
	for (uint32_t i = 0; i < c->nassoc; i++)
		xfree(c->assoc[i].acct);
	xfree(c->assoc);
	xfree(c->slots);
	xfree(c->use);
	xfree(c->h);
	xfree(c->n);
	dbd_tres_list_free(&c->tres);
}

/* The cluster row of TRES t for hour hi (appended to *sql), if the
 * hour has figures for it.  What cannot fit in the hour: allocated first
 * (a node drained while still running jobs was working: Slurm records
 * its drain only once it is idle), then down, then planned down; the
 * waiting beyond what is left is over-committed. */
static void cluster_row(chunk_t *c, uint32_t hi, uint32_t t, const char *cl,
			char **sql, uint32_t *nrows)
{
	hour_fig_t f = *fig(c, hi, t);
	int64_t ts = (int64_t)(c->a + hi * HOUR);
	uint64_t avail, plan, over;

	if (!f.total && !f.alloc && !f.down && !f.pdown && !f.plan)
		return;
	if (!f.total && (int)t != c->cpu)
		return;         /* the cluster reported none of it */
	if (f.alloc > f.total) {
		debug("Cluster %s hour %" PRId64 " %s: allocated %" PRIu64
		      " > reported %" PRIu64, c->cluster, ts, c->tres.v[t].name,
		      f.alloc, f.total);
		f.alloc = f.total;
	}
	if (f.down > f.total - f.alloc)
		f.down = f.total - f.alloc;
	if (f.pdown > f.total - f.alloc - f.down)
		f.pdown = f.total - f.alloc - f.down;
	avail = f.total - f.down - f.pdown - f.alloc;
	plan = f.plan < avail ? f.plan : avail;
	over = f.plan - plan;
	xstrfmtcat(sql, "%s(%s,%" PRId64 ",%u,%" PRIu64 ",%" PRIu64 ",%"
		   PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%"
		   PRIu64 ",%" PRId64 ")", (*nrows)++ ? "," : "", cl, ts,
		   c->tres.v[t].id,
		   f.cpus, f.alloc, f.down, f.pdown, avail - plan, plan, over, f.total,
		   (int64_t)c->now);
}

/* Rows for hour hi (use entries from *u on), then the mark, inside the
 * caller's transaction. */
static int write_hour(chunk_t *c, uint32_t hi, size_t *u)
{
	int64_t t = (int64_t)(c->a + hi * HOUR);
	char *cl = NULL, *sql;
	uint32_t rows = 0;
	int rc = 0;

	dbd_db_quote(c->db, &cl, c->cluster);
	sql = xstrdup_printf("DELETE FROM cluster_usage_hour_table WHERE "
			     "cluster=%s AND time_start=%" PRId64, cl, t);
	rc = dbd_db_exec(c->db, sql);
	xfree(sql);
	if (!rc) {
		sql = xstrdup_printf("DELETE FROM assoc_usage_hour_table "
				     "WHERE cluster=%s AND time_start=%"
				     PRId64, cl, t);
		rc = dbd_db_exec(c->db, sql);
		xfree(sql);
	}
	if (!rc) {
		sql = xstrdup("INSERT INTO cluster_usage_hour_table (cluster, "
			      "time_start, id_tres, count, alloc_secs, "
			      "down_secs, pdown_secs, idle_secs, plan_secs, "
			      "over_secs, total_secs, mod_time) VALUES ");
		for (uint32_t k = 0; k < c->tres.n; k++)
			cluster_row(c, hi, k, cl, &sql, &rows);
		if (rows)
			rc = dbd_db_exec(c->db, sql);
		xfree(sql);
		rows = 0;
	}
	sql = NULL;
	for (; !rc && *u < c->nuse && c->use[*u].hour == hi; (*u)++) {
		const use_ent_t *e = &c->use[*u];

		if (!sql)
			sql = xstrdup("INSERT INTO assoc_usage_hour_table "
				      "(cluster, time_start, acct, id_user, "
				      "id_tres, alloc_secs, job_cnt, "
				      "mod_time) VALUES ");
		else
			xstrcatc(&sql, ',');
		xstrfmtcat(&sql, "(%s,%" PRId64 ",", cl, t);
		dbd_db_quote(c->db, &sql, c->assoc[e->assoc].acct);
		xstrfmtcat(&sql, ",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRId64
			   ")", c->assoc[e->assoc].uid, c->tres.v[e->tres].id,
			   e->secs, e->jobs, (int64_t)c->now);
		if (++rows == ASSOC_ROWS_MAX) {
			rc = dbd_db_exec(c->db, sql);
			xfree(sql);
			rows = 0;
		}
	}
	if (!rc && sql)
		rc = dbd_db_exec(c->db, sql);
	xfree(sql);
	if (!rc) {
		sql = xstrdup_printf("UPDATE rollup_table SET hour_last=%"
				     PRId64 ", mod_time=%" PRId64 " WHERE "
				     "cluster=%s", t + HOUR,
				     (int64_t)c->now, cl);
		rc = dbd_db_exec(c->db, sql);
		xfree(sql);
	}
	xfree(cl);
	return rc ? -1 : 0;
}

/* Hours [a, b) of cluster; stops early (committed hours stay) when the
 * budget is spent.  Returns the hours rolled, -1 on error. */
static int roll_hours(dbd_db_t *db, const char *cluster, time_t a,
		      time_t b, time_t now, double until)
{
	chunk_t c = { .db = db, .cluster = cluster, .now = now, .a = a,
		      .b = b };
	size_t u = 0;
	int done = 0;

	c.nh = (uint32_t)((b - a) / HOUR);
	if (dbd_tres_load(db, &c.tres) < 0)
		return -1;
	c.cpu = -1;
	for (uint32_t k = 0; k < c.tres.n; k++)
		if (c.tres.v[k].id == DBD_TRES_CPU)
			c.cpu = (int)k;
	c.n = xcalloc(c.tres.n + 1, sizeof(*c.n));
	c.h = xcalloc((size_t)(c.nh + 1) * (c.tres.n + 1),
		      sizeof(hour_fig_t));
	if (chunk_events(&c) < 0 || chunk_maint(&c) < 0 ||
	    chunk_jobs(&c) < 0 || chunk_waits(&c) < 0) {
		chunk_free(&c);
		return -1;
	}
	use_merge(&c);
	/* the chunk's hours in one transaction (one commit, not one per
	 * hour: tests/perf/bench_rollup.py), cut short when the budget is
	 * spent; each hour's rows and mark stay together either way */
	if (dbd_db_begin(db) < 0) {
		chunk_free(&c);
		return -1;
	}
	for (uint32_t hi = 0; hi < c.nh; hi++) {
		if (write_hour(&c, hi, &u) < 0) {
			dbd_db_rollback(db);
			chunk_free(&c);
			return -1;
		}
		done++;
		if (until && now_s() > until)
			break;
	}
	chunk_free(&c);
	return dbd_db_commit(db) < 0 ? -1 : done;
}

/* ---- days from hours, months from days ---- */

static int roll_sum(dbd_db_t *db, const char *cluster, const char *from,
		    const char *to, const char *mark, time_t a, time_t b)
{
	char *cl = NULL, *sql;
	int rc;

	dbd_db_quote(db, &cl, cluster);
	if (dbd_db_begin(db) < 0) {
		xfree(cl);
		return -1;
	}
	sql = xstrdup_printf(
		"DELETE FROM cluster_usage_%s_table WHERE cluster=%s AND "
		"time_start=%" PRId64, to, cl, (int64_t)a);
	rc = dbd_db_exec(db, sql);
	xfree(sql);
	if (!rc) {
		sql = xstrdup_printf(
			"DELETE FROM assoc_usage_%s_table WHERE cluster=%s "
			"AND time_start=%" PRId64, to, cl, (int64_t)a);
		rc = dbd_db_exec(db, sql);
		xfree(sql);
	}
	if (!rc) {
		/* count: the CPUs of the period's last hour */
		sql = xstrdup_printf(
			"INSERT INTO cluster_usage_%s_table (cluster, "
			"time_start, id_tres, count, alloc_secs, down_secs, "
			"pdown_secs, idle_secs, plan_secs, over_secs, "
			"total_secs, mod_time) SELECT cluster, %" PRId64 ", "
			"id_tres, SUBSTRING_INDEX(GROUP_CONCAT(count ORDER "
			"BY time_start DESC), ',', 1), SUM(alloc_secs), "
			"SUM(down_secs), SUM(pdown_secs), SUM(idle_secs), "
			"SUM(plan_secs), SUM(over_secs), SUM(total_secs), "
			"%" PRId64 " FROM cluster_usage_%s_table WHERE "
			"cluster=%s AND time_start >= %" PRId64 " AND "
			"time_start < %" PRId64 " GROUP BY cluster, id_tres",
			to, (int64_t)a, (int64_t)time(NULL), from, cl,
			(int64_t)a, (int64_t)b);
		rc = dbd_db_exec(db, sql);
		xfree(sql);
	}
	if (!rc) {
		sql = xstrdup_printf(
			"INSERT INTO assoc_usage_%s_table (cluster, "
			"time_start, acct, id_user, id_tres, alloc_secs, "
			"job_cnt, mod_time) SELECT cluster, %" PRId64 ", acct, "
			"id_user, id_tres, SUM(alloc_secs), SUM(job_cnt), %"
			PRId64 " FROM assoc_usage_%s_table WHERE cluster=%s "
			"AND time_start >= %" PRId64 " AND time_start < %"
			PRId64 " GROUP BY cluster, acct, id_user, id_tres",
			to, (int64_t)a, (int64_t)time(NULL), from, cl,
			(int64_t)a, (int64_t)b);
		rc = dbd_db_exec(db, sql);
		xfree(sql);
	}
	if (!rc) {
		sql = xstrdup_printf("UPDATE rollup_table SET %s=%" PRId64
				     " WHERE cluster=%s", mark, (int64_t)b,
				     cl);
		rc = dbd_db_exec(db, sql);
		xfree(sql);
	}
	xfree(cl);
	if (rc) {
		dbd_db_rollback(db);
		return -1;
	}
	return dbd_db_commit(db);
}

/* ---- one cluster ---- */

static int mark_init(dbd_db_t *db, const char *cluster, time_t *hour,
		     time_t *day, time_t *month)
{
	time_t first;
	char *sql;
	int rc;

	if (dbd_rollup_marks(db, cluster, hour, day, month) < 0)
		return -1;
	if (*hour)
		return 0;
	if (first_time(db, cluster, &first) < 0)
		return -1;
	if (!first)
		return 0;
	*hour = dbd_hour_floor(first);
	*day = dbd_day_floor(first);
	*month = dbd_month_floor(first);
	sql = xstrdup("INSERT INTO rollup_table (cluster, hour_last, "
		      "day_last, month_last, mod_time) VALUES (");
	dbd_db_quote(db, &sql, cluster);
	xstrfmtcat(&sql, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
		   ") ON DUPLICATE KEY UPDATE hour_last=VALUES(hour_last), "
		   "day_last=VALUES(day_last), month_last=VALUES(month_last)",
		   (int64_t)*hour, (int64_t)*day, (int64_t)*month,
		   (int64_t)time(NULL));
	rc = dbd_db_exec(db, sql);
	xfree(sql);
	return rc;
}

static int roll_cluster(dbd_db_t *db, const char *cluster, time_t now,
			double until, bool *more)
{
	time_t hour, day, month, top = dbd_hour_floor(now);
	uint32_t hours = 0, days = 0, months = 0;
	double t0 = now_s();

	if (mark_init(db, cluster, &hour, &day, &month) < 0)
		return -1;
	if (!hour)
		return 0;               /* no records yet */
	while (hour < top) {
		time_t b = hour + CHUNK_HOURS * HOUR;
		int n;

		if (b > top)
			b = top;
		n = roll_hours(db, cluster, hour, b, now, until);
		if (n < 0)
			return -1;
		hours += n;
		hour += (time_t)n * HOUR;
		if (until && now_s() > until && hour < top) {
			*more = true;
			break;
		}
	}
	while (dbd_day_next(day) <= hour) {
		time_t next = dbd_day_next(day);

		if (roll_sum(db, cluster, "hour", "day", "day_last", day,
			     next) < 0)
			return -1;
		day = next;
		days++;
	}
	while (dbd_month_next(month) <= day) {
		time_t next = dbd_month_next(month);

		if (roll_sum(db, cluster, "day", "month", "month_last", month,
			     next) < 0)
			return -1;
		month = next;
		months++;
	}
	if (hours || days || months)
		verbose("Cluster %s rolled up: %u hours, %u days, %u months "
			"in %.3f s", cluster, hours, days, months,
			now_s() - t0);
	return 0;
}

int dbd_rollup_run(dbd_db_t *db, const dbd_conf_t *conf, time_t now,
		   double budget_s, bool *more)
{
	dbd_rows_t rows;
	double until = budget_s > 0 ? now_s() + budget_s : 0;
	int rc = 0;

	*more = false;
	if (dbd_db_select(db, "SELECT name FROM cluster_table ORDER BY name",
			  &rows) < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows && !rc; i++) {
		rc = roll_cluster(db, dbd_rows_get(&rows, i, 0), now, until,
				  more);
		if (*more)
			break;
	}
	dbd_rows_free(&rows);
	if (!rc && !*more && conf)
		rc = dbd_purge_records(db, conf, now);
	return rc;
}

