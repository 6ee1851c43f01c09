/* test_dbd_rollup.c — the hourly roll-up's arithmetic without a database:
 * records spread over the hours they overlap, Slurm's caps (allocated
 * first, then down, planned down, planned; the rest of the waiting is
 * over-committed), one transaction per chunk of hours with their marks,
 * and local-time
 * day and month boundaries across DST changes.
 *
 * dbd_rollup.c is compiled in directly; its database calls go to the
 * stubs below (selects answer canned rows by table, execs are kept). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "dbd/dbd_rollup.c"
#include "dbd/dbd_tres.c"
#include "dbd/dbd_purge.c"
#include "dbd/dbd_archive_file.c"

/* ---- database stubs ---- */

#define T0 1800000000L            /* a whole hour (UTC) */

static char *execs;               /* every statement, ";\n" between */
static int begun, committed, rolled_back;

void dbd_db_quote(dbd_db_t *db, char **sql, const char *value)
{
	xstrfmtcat(sql, "'%s'", value ? value : "");
}

static void canned(dbd_rows_t *out, uint32_t cols, const char *const *cells,
		   uint32_t rows)
{
	out->rows = rows;
	out->cols = cols;
	out->cells = xcalloc((size_t)rows * cols + 1, sizeof(char *));
	for (size_t i = 0; i < (size_t)rows * cols; i++)
		out->cells[i] = xstrdup(cells[i]);
}

static time_t chunk_at;      /* the purge chunk query's answer, once */
static int yields;

static void count_yield(void)
{
	yields++;
}

int dbd_db_select(dbd_db_t *db, const char *sql, dbd_rows_t *out)
{
	static char ev[4][6][32];
	char (*c)[32] = ev[0];

	memset(out, 0, sizeof(*out));
	if (strstr(sql, "LIMIT 1 OFFSET")) {
		/* where the next purge chunk ends: chunk_at once, then the
		 * rest is less than a chunk */
		if (chunk_at) {
			const char *rows[] = { c[5] };

			snprintf(c[5], 32, "%ld", (long)chunk_at);
			chunk_at = 0;
			canned(out, 1, rows, 1);
		} else {
			out->cells = xcalloc(1, sizeof(char *));
		}
	} else if (strstr(sql, "FROM tres_table")) {
		const char *rows[] = { "1", "cpu", "2", "mem", "3", "energy",
				       "4", "node", "5", "billing",
				       "1001", "gres/gpu" };

		canned(out, 2, rows, 6);
	} else if (strstr(sql, "FROM cluster_table")) {
		const char *rows[] = { "c1" };

		canned(out, 1, rows, 1);
	} else if (strstr(sql, "SHOW COLUMNS FROM event_table")) {
		const char *rows[] = { "cluster", "node_name", "time_start",
				       "reason" };

		canned(out, 1, rows, 4);
	} else if (strstr(sql, "MIN(time_start)")) {
		const char *rows[] = { "86400" };

		canned(out, 1, rows, 1);
	} else if (strstr(sql, "FROM event_table")) {
		/* the cluster's 4 CPUs; 4 CPUs down 00:30-01:30 */
		const char *rows[] = { "1", "", "0", "cpu=4",
				       "0", "", "", "cpu=4" };

		snprintf(c[0], 32, "%ld", T0 - 100);
		snprintf(c[1], 32, "%ld", T0 + 1800);
		snprintf(c[2], 32, "%ld", T0 + 5400);
		rows[1] = c[0];
		rows[5] = c[1];
		rows[6] = c[2];
		canned(out, 4, rows, 2);
	} else if (strstr(sql, "FROM resv_table")) {
		/* a MAINT reservation of 4 CPUs 02:00-03:00 */
		const char *rows[] = { "cpu=4", "", "" };

		snprintf(c[3], 32, "%ld", T0 + 7200);
		snprintf(c[4], 32, "%ld", T0 + 10800);
		rows[1] = c[3];
		rows[2] = c[4];
		canned(out, 3, rows, 1);
	} else if (strstr(sql, "cpus_alloc")) {
		/* account a, uid 7, 4 CPUs, 00:15-02:30 */
		const char *rows[] = { "a", "7", "4", "", "" };

		snprintf(ev[1][0], 32, "%ld", T0 + 900);
		snprintf(ev[1][1], 32, "%ld", T0 + 9000);
		rows[3] = ev[1][0];
		rows[4] = ev[1][1];
		canned(out, 5, rows, 1);
	} else if (strstr(sql, "cpus_req")) {
		/* 2 CPUs eligible 00:00, started 00:15 */
		const char *rows[] = { "2", "", "" };

		snprintf(ev[2][0], 32, "%ld", T0);
		snprintf(ev[2][1], 32, "%ld", T0 + 900);
		rows[1] = ev[2][0];
		rows[2] = ev[2][1];
		canned(out, 3, rows, 1);
	} else {
		out->cells = xcalloc(1, sizeof(char *));
	}
	return 0;
}

void dbd_rows_free(dbd_rows_t *r)
{
	for (size_t i = 0; r->cells && i < (size_t)r->rows * r->cols; i++)
		xfree(r->cells[i]);
	xfree(r->cells);
	r->rows = r->cols = 0;
}

const char *dbd_rows_get(const dbd_rows_t *r, uint32_t row, uint32_t col)
{
	if (row >= r->rows || col >= r->cols)
		return "";
	return r->cells[(size_t)row * r->cols + col];
}

int dbd_db_exec(dbd_db_t *db, const char *sql)
{
	xstrfmtcat(&execs, "%s;\n", sql);
	return 0;
}

uint64_t dbd_db_affected(dbd_db_t *db) { return 0; }
uint64_t dbd_db_insert_id(dbd_db_t *db) { return 0; }
bool dbd_db_debug(const dbd_db_t *db, uint32_t flag) { return false; }
const char *dbd_db_error(const dbd_db_t *db) { return "stub"; }
/* The event rows an archive reads: one with a NULL reason. */
int dbd_db_select_each_null(dbd_db_t *db, const char *sql, dbd_row_f fn,
			    void *arg)
{
	const char *r1[] = { "c1", "n1", "86400", "down \"disk\"" };
	const char *r2[] = { "c1", "n2", "90000", NULL };

	xstrfmtcat(&execs, "%s;\n", sql);
	if (!strstr(sql, "FROM event_table"))
		return -1;
	fn(arg, r1, 4);
	fn(arg, r2, 4);
	return 0;
}
int dbd_db_begin(dbd_db_t *db) { begun++; return 0; }
int dbd_db_commit(dbd_db_t *db) { committed++; return 0; }
void dbd_db_rollback(dbd_db_t *db) { rolled_back++; }

/* ---- tests ---- */

static void expect_sql(const char *fmt, ...)
{
	char want[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (!strstr(execs, want))
		fail_msg("missing \"%s\" in:\n%s", want, execs);
}

/* TRES strings: bad counts first (no number: 0), units, names that
 * only start alike. */
static void test_tres_counts(void **state)
{
	(void)state;
	assert_int_equal(dbd_tres_count("", "cpu"), 0);
	assert_int_equal(dbd_tres_count(NULL, "cpu"), 0);
	assert_int_equal(dbd_tres_count("cpu=", "cpu"), 0);
	assert_int_equal(dbd_tres_count("cpu=x", "cpu"), 0);
	assert_int_equal(dbd_tres_count("cpus=4", "cpu"), 0);
	assert_int_equal(dbd_tres_count("gres/gpu:a100=1", "gres/gpu"), 0);
	assert_int_equal(dbd_tres_count("cpu=4,gres/gpu:a100=1,gres/gpu=3",
					 "gres/gpu"), 3);
	assert_int_equal(dbd_tres_count("cpu=4,mem=2G", "mem"), 2048);
	assert_int_equal(dbd_tres_count("mem=2048K", "mem"), 2);
	assert_int_equal(dbd_tres_count("mem=1T", "mem"), 1048576);
	assert_int_equal(dbd_tres_count("license/matlab=2", "license/matlab"),
			 2);
}

static void test_hours(void **state)
{
	setenv("TZ", "UTC", 1);
	tzset();
	xfree(execs);
	begun = committed = rolled_back = 0;
	assert_int_equal(roll_hours(NULL, "c", T0, T0 + 3 * HOUR,
				    T0 + 4 * HOUR, 0), 3);
	/* the chunk's hours in one transaction */
	assert_int_equal(begun, 1);
	assert_int_equal(committed, 1);
	assert_int_equal(rolled_back, 0);
	/* (count, alloc, down, pdown, idle, plan, over, total) */
	/* 00: 4 CPUs x 2700 s allocated; down 7200 cut to the 3600 left;
	 * the 1800 s of waiting did not fit: over-committed */
	expect_sql("('c',%ld,1,4,10800,3600,0,0,0,1800,14400,", T0);
	/* 01: allocated all hour, the down node cut to nothing */
	expect_sql("('c',%ld,1,4,14400,0,0,0,0,0,14400,", T0 + HOUR);
	/* 02: allocated half, the MAINT reservation gets the other half */
	expect_sql("('c',%ld,1,4,7200,0,7200,0,0,0,14400,", T0 + 2 * HOUR);
	/* the association's seconds, one job in each hour */
	expect_sql("('c',%ld,'a',7,1,10800,1,", T0);
	expect_sql("('c',%ld,'a',7,1,14400,1,", T0 + HOUR);
	expect_sql("('c',%ld,'a',7,1,7200,1,", T0 + 2 * HOUR);
	expect_sql("SET hour_last=%ld,", T0 + 3 * HOUR);
	xfree(execs);
}

static void test_spans(void **state)
{
	chunk_t c = { .a = T0, .b = T0 + 3 * HOUR, .nh = 3 };
	uint32_t h0, h1;

	hour_span(&c, T0 - 50, T0, &h0, &h1);        /* before: none */
	assert_int_equal(h1 - h0, 0);
	hour_span(&c, T0 + 10, T0 + HOUR, &h0, &h1); /* ends on the hour */
	assert_int_equal(h0, 0);
	assert_int_equal(h1, 1);
	hour_span(&c, T0 - 10, T0 + 9 * HOUR, &h0, &h1);
	assert_int_equal(h0, 0);
	assert_int_equal(h1, 3);
	assert_int_equal(hour_secs(&c, 1, T0 + 5000, T0 + 5001), 1);
	assert_int_equal(hour_secs(&c, 2, T0 + 5000, T0 + 5001), 0);
}

static time_t local(int y, int mo, int d, int h)
{
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d,
			 .tm_hour = h, .tm_isdst = -1 };

	return mktime(&tm);
}

static void test_local_days_and_months(void **state)
{
	setenv("TZ", "Europe/Berlin", 1);
	tzset();
	/* the autumn change: a 25-hour day; spring: 23 hours */
	assert_int_equal(dbd_day_next(local(2026, 10, 25, 0)) -
			 local(2026, 10, 25, 0), 25 * HOUR);
	assert_int_equal(dbd_day_next(local(2026, 3, 29, 0)) -
			 local(2026, 3, 29, 0), 23 * HOUR);
	assert_int_equal(dbd_day_floor(local(2026, 10, 25, 23)),
			 local(2026, 10, 25, 0));
	assert_int_equal(dbd_month_floor(local(2026, 10, 25, 23)),
			 local(2026, 10, 1, 0));
	assert_int_equal(dbd_month_next(local(2026, 10, 1, 0)),
			 local(2026, 11, 1, 0));
	assert_int_equal(dbd_month_next(local(2026, 12, 1, 0)),
			 local(2027, 1, 1, 0));
	assert_int_equal(dbd_hour_floor(local(2026, 10, 25, 13) + 1799),
			 local(2026, 10, 25, 13));
	setenv("TZ", "UTC", 1);
	tzset();
}

/* Purge*After: finished records before each kind's cut, a transaction
 * a kind; kinds not set are left alone. */
static void test_purge_records(void **state)
{
	dbd_conf_t c = { 0 };
	time_t now = T0 + 1800;          /* half past */

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	c.purge[DBD_PURGE_JOB] = (dbd_purge_t){ 2, DBD_PURGE_DAYS };
	c.purge[DBD_PURGE_EVENT] = (dbd_purge_t){ 3, DBD_PURGE_HOURS };
	assert_int_equal(dbd_purge_cut(&c.purge[DBD_PURGE_EVENT], now),
			 T0 - 3 * HOUR);
	assert_int_equal(dbd_purge_cut(&c.purge[DBD_PURGE_JOB], now),
			 T0 / 86400 * 86400 - 2 * 86400);
	xfree(execs);
	begun = committed = rolled_back = 0;
	assert_int_equal(dbd_purge_records(NULL, &c, now), 0);
	assert_int_equal(begun, 2);
	assert_int_equal(committed, 2);
	/* a join: MariaDB's DELETE ... IN (SELECT) read all the steps */
	expect_sql("DELETE s FROM step_table s JOIN job_table j ON "
		   "s.job_db_inx = j.job_db_inx WHERE j.cluster='c1' AND "
		   "j.time_end != 0 AND j.time_submit < %ld",
		   T0 / 86400 * 86400 - 2 * 86400);
	expect_sql("DELETE FROM job_table WHERE cluster='c1' AND time_end != 0 "
		   "AND time_submit < %ld", T0 / 86400 * 86400 - 2 * 86400);
	expect_sql("DELETE FROM event_table WHERE cluster='c1' AND time_end != "
		   "0 AND time_start < %ld", T0 - 3 * HOUR);
	assert_null(strstr(execs, "resv_table"));
	assert_null(strstr(execs, "DELETE FROM step_table WHERE time_end"));
	/* steps go before their jobs */
	assert_true(strstr(execs, "DELETE s FROM step_table") <
		    strstr(execs, "DELETE FROM job_table"));
	xfree(execs);
}

/* More than a chunk of records: the oldest chunk in one transaction, up
 * to just after its last record's second, then the rest in another;
 * the queued requests are served in between. */
static void test_purge_in_chunks(void **state)
{
	dbd_conf_t c = { 0 };
	time_t now = T0 + 1800;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	c.purge[DBD_PURGE_EVENT] = (dbd_purge_t){ 3, DBD_PURGE_HOURS };
	dbd_purge_set_yield(count_yield);
	chunk_at = T0 - 5 * HOUR;
	yields = 0;
	xfree(execs);
	begun = committed = rolled_back = 0;
	assert_int_equal(dbd_purge_records(NULL, &c, now), 0);
	assert_int_equal(begun, 2);
	assert_int_equal(committed, 2);
	assert_int_equal(yields, 1);
	expect_sql("DELETE FROM event_table WHERE cluster='c1' AND time_end != "
		   "0 AND time_start < %ld", T0 - 5 * HOUR + 1);
	expect_sql("DELETE FROM event_table WHERE cluster='c1' AND time_end != "
		   "0 AND time_start < %ld", T0 - 3 * HOUR);
	dbd_purge_set_yield(NULL);
	xfree(execs);
}

/* ArchiveEvents=yes: the rows are written (NULL kept), the file synced
 * and named before they are deleted; an archive that cannot be written
 * purges nothing. */
static void test_archive_then_purge(void **state)
{
	char dir[] = "/tmp/test_dbd_archive.XXXXXX", *name, line[512];
	dbd_conf_t c = { 0 };
	time_t now = T0 + 1800;
	archive_reader_t r;
	archive_event_t ev;
	char err[256];
	FILE *f;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	assert_non_null(mkdtemp(dir));
	c.purge[DBD_PURGE_EVENT] = (dbd_purge_t){ 3, DBD_PURGE_HOURS };
	c.archive = 1u << DBD_PURGE_EVENT;
	c.archive_dir = dir;
	xfree(execs);
	begun = committed = rolled_back = 0;
	assert_int_equal(dbd_purge_records(NULL, &c, now), 0);
	assert_int_equal(committed, 1);
	assert_true(strstr(execs, "FOR UPDATE") <
		    strstr(execs, "DELETE FROM event_table"));
	{
		time_t cut = T0 - 3 * HOUR;
		struct tm tm;
		char end[32];

		gmtime_r(&cut, &tm);
		strftime(end, sizeof(end), "%Y-%m-%dT%H:%M:%S", &tm);
		name = xstrdup_printf("%s/c1_event_archive_1970-01-02T00:00:00_"
				      "%s", dir, end);
	}
	f = fopen(name, "r");
	assert_non_null(f);
	assert_int_equal(archive_reader_open(&r, f, err, sizeof(err)), 0);
	assert_string_equal(r.kind, "event");
	assert_int_equal(archive_reader_next(&r, &ev, err, sizeof(err)), 1);
	assert_int_equal(ev, ARCHIVE_EV_TABLE);
	assert_string_equal(r.table, "event_table");
	assert_int_equal(r.ncols, 4);
	assert_int_equal(archive_reader_next(&r, &ev, err, sizeof(err)), 1);
	assert_string_equal(r.cells[3], "down \"disk\"");
	assert_int_equal(archive_reader_next(&r, &ev, err, sizeof(err)), 1);
	assert_null(r.cells[3]);
	assert_int_equal(archive_reader_next(&r, &ev, err, sizeof(err)), 1);
	assert_int_equal(ev, ARCHIVE_EV_END);
	assert_int_equal(archive_reader_next(&r, &ev, err, sizeof(err)), 0);
	archive_reader_close(&r);
	fclose(f);
	unlink(name);
	xfree(name);

	/* an archive directory that is not there: nothing deleted */
	c.archive_dir = "/nonexistent/archive";
	xfree(execs);
	begun = committed = rolled_back = 0;
	assert_int_equal(dbd_purge_records(NULL, &c, now), -1);
	assert_int_equal(committed, 0);
	assert_int_equal(rolled_back, 1);
	assert_null(strstr(execs ? execs : "", "DELETE"));
	xfree(execs);
	snprintf(line, sizeof(line), "rm -rf '%s'", dir);
	assert_int_equal(system(line), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tres_counts),
		cmocka_unit_test(test_hours),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_local_days_and_months),
		cmocka_unit_test(test_purge_records),
		cmocka_unit_test(test_purge_in_chunks),
		cmocka_unit_test(test_archive_then_purge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
