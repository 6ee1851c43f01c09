/* dbd_report_resv.c — sreport reservation Utilization (dbd_report.h):
 * each reservation row of the window with the CPU time its jobs (those
 * whose record carries its id) used inside it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_report.h"

static uint64_t cpus_of(const char *tres)
{
	const char *p = tres ? strstr(tres, "cpu=") : NULL;

	if (!p || (p != tres && p[-1] != ','))
		return 0;
	return strtoull(p + 4, NULL, 10);
}

static void put(char ***cells, const char *v)
{
	*cells = xstrarray_append(*cells, v ? v : "");
}

static void put_u(char ***cells, uint64_t v)
{
	char n[32];

	snprintf(n, sizeof(n), "%" PRIu64, v);
	put(cells, n);
}

int dbd_report_resv(dbd_db_t *db, const char *cluster, int64_t start,
		    int64_t end, int64_t now, char ***cells)
{
	/* the reservation's part of the window, and a job's of that */
	char *rs = xstrdup_printf("GREATEST(v.time_start, %" PRId64 ")",
				  start);
	char *re = xstrdup_printf("LEAST(IF(v.time_end=0, %" PRId64 ", "
				  "v.time_end), %" PRId64 ")", end, end);
	char *sql = xstrdup_printf(
		"SELECT v.id_resv, v.resv_name, v.time_start, v.time_end, "
		"v.nodelist, v.flags, v.tres, v.accounts, v.users, %s, %s, "
		"(SELECT COALESCE(SUM(t.cpus_alloc * GREATEST(0, LEAST(IF("
		"t.time_end=0, %" PRId64 ", t.time_end), %s) - GREATEST("
		"t.time_start, %s))), 0) FROM job_table t WHERE "
		"t.cluster=v.cluster AND t.id_resv=v.id_resv AND "
		"t.time_start != 0 AND t.time_start < %s AND (t.time_end = 0 "
		"OR t.time_end > %s)) FROM resv_table v WHERE v.cluster=",
		rs, re, now, re, rs, re, rs);
	dbd_rows_t rows;
	int rc;

	dbd_db_quote(db, &sql, cluster);
	xstrfmtcat(&sql, " AND v.time_start < %" PRId64 " AND (v.time_end = 0 "
		   "OR v.time_end > %" PRId64 ") ORDER BY v.time_start, "
		   "v.id_resv", end, start);
	rc = dbd_db_select(db, sql, &rows);
	xfree(sql);
	xfree(rs);
	xfree(re);
	if (rc < 0)
		return -1;
	for (uint32_t i = 0; i < rows.rows; i++) {
		int64_t s = strtoll(dbd_rows_get(&rows, i, 9), NULL, 10);
		int64_t e = strtoll(dbd_rows_get(&rows, i, 10), NULL, 10);
		uint64_t cpus = cpus_of(dbd_rows_get(&rows, i, 6));
		uint64_t alloc = strtoull(dbd_rows_get(&rows, i, 11), NULL, 10);
		char *flags = resv_flags_string(
			strtoull(dbd_rows_get(&rows, i, 5), NULL, 10), 0);
		const char *accts = dbd_rows_get(&rows, i, 7);
		const char *users = dbd_rows_get(&rows, i, 8);
		char *assocs = xstrdup_printf("%s%s%s", accts,
					      *accts && *users ? "," : "",
					      users);

		put(cells, "resv");
		put(cells, dbd_rows_get(&rows, i, 0));
		put(cells, dbd_rows_get(&rows, i, 1));
		put(cells, dbd_rows_get(&rows, i, 2));
		put(cells, dbd_rows_get(&rows, i, 3));
		put(cells, dbd_rows_get(&rows, i, 4));
		put(cells, flags);
		put(cells, assocs);
		put_u(cells, cpus);
		put_u(cells, alloc);
		put_u(cells, e > s ? cpus * (uint64_t)(e - s) : 0);
		put_u(cells, e > s ? (uint64_t)(e - s) : 0);
		xfree(flags);
		xfree(assocs);
	}
	dbd_rows_free(&rows);
	if (!*cells)
		*cells = xcalloc(1, sizeof(char *));
	return 0;
}
