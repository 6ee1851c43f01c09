/* dbd_purge.c — Purge*After and Archive* (dbd_purge.h). */
#include "dbd/dbd_purge.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_archive_file.h"

#define PURGE_HOUR 3600
/* Records (of a kind's first table) purged in one transaction: the
 * requests queued meanwhile are served between two of them. */
#define PURGE_CHUNK 10000

static void (*chunk_yield)(void);

void dbd_purge_set_yield(void (*fn)(void))
{
	chunk_yield = fn;
}

time_t dbd_purge_cut(const dbd_purge_t *p, time_t now)
{
	struct tm tm;
	int n = (int)(p->count > 100000 ? 100000 : p->count);

	switch (p->unit) {
	case DBD_PURGE_HOURS:
		return now / PURGE_HOUR * PURGE_HOUR - (time_t)p->count * PURGE_HOUR;
	case DBD_PURGE_DAYS:
		localtime_r(&now, &tm);
		tm.tm_mday -= n;
		break;
	default:
		localtime_r(&now, &tm);
		tm.tm_mon -= n;
		tm.tm_mday = 1;
	}
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* One table of a kind: the rows "WHERE <where>" go.  In where, %1$s is
 * the cluster condition ("cluster='c'") and %2$" PRId64 " the cut. */
typedef struct {
	const char *table;
	const char *where;
	const char *order;        /* the archive's row order */
	/* its DELETE when not "DELETE FROM table WHERE where" (same
	 * arguments): MariaDB reads the whole table for a DELETE with
	 * "IN (SELECT ...)", where a join uses the index */
	const char *del;
} part_t;

#define PARTS_MAX 6

typedef struct {
	dbd_purge_kind_t kind;
	const char      *name;      /* the slurmdbd.conf key */
	const char      *archive;   /* the kind in archive file names */
	const char      *time_col;  /* of parts[0]: the archived period */
	part_t           parts[PARTS_MAX];   /* archived in this order,
					      * deleted in the reverse */
} purge_t;

#define CUT "%2$" PRId64
#define JOBS_GONE "%1$s AND time_end != 0 AND time_submit < " CUT
#define USAGE(t) { t, "%1$s AND time_start < " CUT, \
		   "time_start, id_tres" }

static const purge_t purges[] = {
	{ DBD_PURGE_JOB, "PurgeJobAfter", "job", "time_submit", {
	  { "job_table", JOBS_GONE, "job_db_inx" },
	  { "step_table", "job_db_inx IN (SELECT job_db_inx FROM job_table "
	    "WHERE " JOBS_GONE ")", "job_db_inx, id_step",
	    "DELETE s FROM step_table s JOIN job_table j ON s.job_db_inx = "
	    "j.job_db_inx WHERE j.%1$s AND j.time_end != 0 AND "
	    "j.time_submit < " CUT } } },
	{ DBD_PURGE_STEP, "PurgeStepAfter", "step", "time_start", {
	  /* steps of the cluster's jobs, and steps whose job is gone */
	  { "step_table", "time_end != 0 AND time_start < " CUT " AND "
	    "(job_db_inx IN (SELECT job_db_inx FROM job_table WHERE %1$s) "
	    "OR job_db_inx NOT IN (SELECT job_db_inx FROM job_table))",
	    "job_db_inx, id_step" } } },
	{ DBD_PURGE_EVENT, "PurgeEventAfter", "event", "time_start", {
	  { "event_table", "%1$s AND time_end != 0 AND time_start < " CUT,
	    "time_start, node_name" } } },
	{ DBD_PURGE_RESV, "PurgeResvAfter", "resv", "time_start", {
	  { "resv_table", "%1$s AND time_end != 0 AND time_end < " CUT
	    " AND time_start < " CUT, "time_start, id_resv" } } },
	/* sacctmgr's changes; those of no cluster go with the first */
	{ DBD_PURGE_TXN, "PurgeTXNAfter", "txn", "time_stamp", {
	  { "txn_table", "(%1$s OR cluster='') AND time_stamp < " CUT,
	    "id" } } },
	{ DBD_PURGE_USAGE, "PurgeUsageAfter", "usage", "time_start", {
	  USAGE("cluster_usage_hour_table"), USAGE("cluster_usage_day_table"),
	  USAGE("cluster_usage_month_table"), USAGE("assoc_usage_hour_table"),
	  USAGE("assoc_usage_day_table"), USAGE("assoc_usage_month_table") } },
};

#undef USAGE
#undef JOBS_GONE

/* Sluice keeps no suspend records: nothing to archive or purge. */
static const purge_t *find_kind(dbd_purge_kind_t kind)
{
	for (size_t i = 0; i < sizeof(purges) / sizeof(purges[0]); i++)
		if (purges[i].kind == kind)
			return &purges[i];
	return NULL;
}

static char *where_of(const part_t *p, const char *cond, time_t cut)
{
	return xstrdup_printf(p->where, cond, (int64_t)cut);
}

/* ---- archiving ---- */

typedef struct {
	archive_writer_t *w;
	int               rc;
} dump_t;

static void dump_row(void *arg, const char *const *cells, uint32_t cols)
{
	dump_t *d = arg;

	if (!d->rc && archive_writer_row(d->w, cells, cols) < 0)
		d->rc = -1;
}

/* The columns of table, in SELECT * order.  0 or -1. */
static int columns(dbd_db_t *db, const char *table, dbd_rows_t *rows)
{
	char *sql = xstrdup_printf("SHOW COLUMNS FROM %s", table);
	int rc = dbd_db_select(db, sql, rows);

	xfree(sql);
	if (!rc && (rows->rows == 0 || rows->rows > ARCHIVE_COLS_MAX)) {
		error("Archive: %s has %u columns", table, rows->rows);
		dbd_rows_free(rows);
		return -1;
	}
	return rc;
}

/* Write a part's rows (locked until the transaction ends) to w. */
static int dump_part(dbd_db_t *db, archive_writer_t *w, const part_t *p,
		     const char *where)
{
	const char *names[ARCHIVE_COLS_MAX];
	dump_t d = { .w = w };
	dbd_rows_t cols;
	char *sql;

	if (columns(db, p->table, &cols) < 0)
		return -1;
	for (uint32_t i = 0; i < cols.rows; i++)
		names[i] = dbd_rows_get(&cols, i, 0);
	d.rc = archive_writer_table(w, p->table, names, cols.rows);
	dbd_rows_free(&cols);
	if (d.rc)
		return -1;
	sql = xstrdup_printf("SELECT * FROM %s WHERE %s ORDER BY %s FOR UPDATE",
			     p->table, where, p->order);
	if (dbd_db_select_each_null(db, sql, dump_row, &d) < 0)
		d.rc = -1;
	xfree(sql);
	return d.rc;
}

/* The first moment the archive covers: the oldest record's. */
static time_t period_start(dbd_db_t *db, const purge_t *k, const char *where)
{
	char *sql = xstrdup_printf("SELECT IFNULL(MIN(%s), 0) FROM %s WHERE %s",
				   k->time_col, k->parts[0].table, where);
	dbd_rows_t rows;
	time_t t = 0;

	if (dbd_db_select(db, sql, &rows) == 0) {
		if (rows.rows)
			t = (time_t)strtoll(dbd_rows_get(&rows, 0, 0), NULL, 10);
		dbd_rows_free(&rows);
	}
	xfree(sql);
	return t;
}

/* ---- one kind of one cluster ---- */

/* Where the next chunk ends: just after the PURGE_CHUNK-th oldest record
 * (with every record of that second), or cut when fewer are left. */
static time_t chunk_cut(dbd_db_t *db, const purge_t *k, const char *cond,
			time_t cut)
{
	char *where = where_of(&k->parts[0], cond, cut);
	char *sql = xstrdup_printf("SELECT %s FROM %s WHERE %s ORDER BY %s "
				   "LIMIT 1 OFFSET %d", k->time_col,
				   k->parts[0].table, where, k->time_col,
				   PURGE_CHUNK - 1);
	dbd_rows_t rows;
	time_t t = cut;

	if (dbd_db_select(db, sql, &rows) == 0) {
		if (rows.rows)
			t = (time_t)strtoll(dbd_rows_get(&rows, 0, 0), NULL,
					    10) + 1;
		dbd_rows_free(&rows);
	}
	xfree(sql);
	xfree(where);
	return t < cut ? t : cut;
}

/* The records before cut: one transaction, one archive file. */
static int purge_chunk(dbd_db_t *db, const purge_t *k, const char *cluster,
		       time_t cut, const char *archive_dir)
{
	archive_writer_t *w = NULL;
	char *cond = xstrdup("cluster="), *path = NULL, err[512];
	uint64_t n = 0;
	int rc = -1;

	dbd_db_quote(db, &cond, cluster);
	if (dbd_db_begin(db) < 0) {
		xfree(cond);
		return -1;
	}
	if (archive_dir) {
		char *where = where_of(&k->parts[0], cond, cut);

		w = archive_writer_open(archive_dir, cluster, k->archive,
					period_start(db, k, where), cut,
					err, sizeof(err));
		xfree(where);
		if (!w) {
			error("Archive%s: %s: nothing purged", k->archive, err);
			goto out;
		}
		for (int i = 0; i < PARTS_MAX && k->parts[i].table; i++) {
			char *where = where_of(&k->parts[i], cond, cut);
			int r = dump_part(db, w, &k->parts[i], where);

			xfree(where);
			if (r < 0)
				goto out;
		}
	}
	for (int i = PARTS_MAX - 1; i >= 0; i--) {
		char *where, *sql;
		int r;

		if (!k->parts[i].table)
			continue;
		where = where_of(&k->parts[i], cond, cut);
		if (k->parts[i].del)
			sql = xstrdup_printf(k->parts[i].del, cond,
					     (int64_t)cut);
		else
			sql = xstrdup_printf("DELETE FROM %s WHERE %s",
					     k->parts[i].table, where);
		r = dbd_db_exec(db, sql);
		xfree(sql);
		xfree(where);
		if (r < 0)
			goto out;
		n += i == 0 || k->kind == DBD_PURGE_USAGE ?
		     dbd_db_affected(db) : 0;
	}
	if (w) {
		/* the archive is whole and named before the rows go */
		rc = archive_writer_close(w, archive_writer_rows(w) > 0, &path,
					  err, sizeof(err));
		w = NULL;
		if (rc < 0) {
			error("Archive: %s: nothing purged", err);
			goto out;
		}
	}
	rc = dbd_db_commit(db);
	if (!rc && path)
		info("%s: archived to %s", k->name, path);
	if (!rc && path && dbd_db_debug(db, DBD_FLAG_DB_ARCHIVE))
		info("DB_ARCHIVE: cluster %s: %s records before %" PRId64
		     " archived to %s", cluster, k->archive, (int64_t)cut,
		     path);
	if (!rc && n)
		info("%s: %" PRIu64 " records purged", k->name, n);
out:
	if (w)
		archive_writer_close(w, false, NULL, err, sizeof(err));
	if (rc < 0)
		dbd_db_rollback(db);
	xfree(path);
	xfree(cond);
	return rc;
}

/* Chunk by chunk, oldest first; the queued requests are served between
 * two chunks.  A failed chunk stops the kind (those before it stay
 * purged and archived). */
static int purge_cluster(dbd_db_t *db, const purge_t *k, const char *cluster,
			 time_t cut, const char *archive_dir)
{
	char *cond = xstrdup("cluster=");
	time_t to = 0;
	int rc = 0;

	dbd_db_quote(db, &cond, cluster);
	do {
		time_t prev = to;

		to = chunk_cut(db, k, cond, cut);
		if (to <= prev)
			to = cut;       /* no progress: the rest at once */
		rc = purge_chunk(db, k, cluster, to, archive_dir);
		if (!rc && to < cut && chunk_yield)
			chunk_yield();
	} while (!rc && to < cut);
	xfree(cond);
	return rc;
}

int dbd_purge_kinds(dbd_db_t *db, const dbd_purge_t *purge,
		    uint32_t archive, const char *archive_dir, time_t now)
{
	dbd_rows_t clusters;
	bool any = false;
	int rc = 0;

	for (int kind = 0; kind < DBD_PURGE_CNT; kind++)
		any |= purge[kind].count && find_kind(kind);
	if (!any)
		return 0;
	if (dbd_db_select(db, "SELECT name FROM cluster_table ORDER BY name",
			  &clusters) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(purges) / sizeof(purges[0]); i++) {
		const purge_t *k = &purges[i];
		const dbd_purge_t *p = &purge[k->kind];
		bool arch = archive & (1u << k->kind);

		if (!p->count)
			continue;
		for (uint32_t c = 0; c < clusters.rows; c++)
			if (purge_cluster(db, k, dbd_rows_get(&clusters, c, 0),
					  dbd_purge_cut(p, now),
					  arch ? archive_dir : NULL) < 0)
				rc = -1;
	}
	dbd_rows_free(&clusters);
	return rc;
}

int dbd_purge_records(dbd_db_t *db, const dbd_conf_t *conf, time_t now)
{
	return dbd_purge_kinds(db, conf->purge, conf->archive,
			       conf->archive_dir, now);
}

bool dbd_purge_kind_kept(dbd_purge_kind_t kind)
{
	return find_kind(kind) != NULL;
}

/* ---- loading ---- */

/* The tables an archive of a kind may hold, with their columns. */
static const part_t *kind_part(const purge_t *k, const char *table)
{
	for (int i = 0; i < PARTS_MAX && k->parts[i].table; i++)
		if (!strcmp(k->parts[i].table, table))
			return &k->parts[i];
	return NULL;
}

typedef struct {
	uint64_t old_inx, new_inx;
} inx_map_t;

typedef struct {
	dbd_db_t       *db;
	const purge_t  *kind;
	dbd_rows_t      cols;        /* the table's columns now */
	int             inx_col;     /* job_db_inx in the file's columns */
	bool            gen[ARCHIVE_COLS_MAX]; /* file column MariaDB
					      * computes (span_cls): not
					      * inserted */
	int             map_jobs;    /* 1: job_table rows get new indexes */
	inx_map_t      *map;
	size_t          nmap, cap;
	uint64_t        loaded;
} load_t;

static int map_find(const load_t *l, uint64_t old, uint64_t *out)
{
	size_t lo = 0, hi = l->nmap;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (l->map[mid].old_inx == old) {
			*out = l->map[mid].new_inx;
			return 0;
		}
		if (l->map[mid].old_inx < old)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void map_add(load_t *l, uint64_t old, uint64_t new_inx)
{
	size_t i = l->nmap;

	if (l->nmap == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->map = xrealloc(l->map, l->cap * sizeof(*l->map));
	}
	/* archives are written in job_db_inx order: usually appended */
	while (i > 0 && l->map[i - 1].old_inx > old) {
		l->map[i] = l->map[i - 1];
		i--;
	}
	l->map[i] = (inx_map_t){ old, new_inx };
	l->nmap++;
}

static int load_table(load_t *l, const archive_reader_t *r, char *err,
		      size_t errlen)
{
	char *sql;
	int rc;

	if (!kind_part(l->kind, r->table)) {
		snprintf(err, errlen, "line %" PRIu64 ": table %s is not part "
			 "of a %s archive", r->lineno, r->table,
			 l->kind->archive);
		return -1;
	}
	dbd_rows_free(&l->cols);
	sql = xstrdup_printf("SHOW COLUMNS FROM %s", r->table);
	rc = dbd_db_select(l->db, sql, &l->cols);
	xfree(sql);
	if (rc < 0) {
		snprintf(err, errlen, "cannot read the columns of %s",
			 r->table);
		return -1;
	}
	l->inx_col = -1;
	for (uint32_t i = 0; i < r->ncols; i++) {
		bool known = false;

		l->gen[i] = false;
		for (uint32_t c = 0; c < l->cols.rows && !known; c++) {
			const char *extra = dbd_rows_get(&l->cols, c, 5);

			known = !strcmp(r->cols[i],
					dbd_rows_get(&l->cols, c, 0));
			l->gen[i] = known && extra &&
				    (strstr(extra, "GENERATED") ||
				     strstr(extra, "PERSISTENT") ||
				     strstr(extra, "VIRTUAL"));
		}
		if (!known) {
			snprintf(err, errlen, "line %" PRIu64 ": %s has no "
				 "column %s", r->lineno, r->table, r->cols[i]);
			return -1;
		}
		if (!strcmp(r->cols[i], "job_db_inx"))
			l->inx_col = (int)i;
	}
	l->map_jobs = !strcmp(r->table, "job_table");
	return 0;
}

static int load_row(load_t *l, const archive_reader_t *r, char *err,
		    size_t errlen)
{
	char *sql = xstrdup_printf("INSERT INTO %s (", r->table);
	uint64_t inx = 0, new_inx = 0;
	bool first = true;
	int rc;

	if (l->inx_col >= 0 && r->cells[l->inx_col])
		inx = strtoull(r->cells[l->inx_col], NULL, 10);
	if (!l->map_jobs && l->inx_col >= 0 && !strcmp(l->kind->archive, "job")
	    && map_find(l, inx, &new_inx) < 0) {
		snprintf(err, errlen, "line %" PRIu64 ": a step of a job the "
			 "archive does not hold", r->lineno);
		xfree(sql);
		return -1;
	}
	for (uint32_t i = 0; i < r->ncols; i++) {
		if ((l->map_jobs && (int)i == l->inx_col) || l->gen[i])
			continue;       /* the table gives a new one */
		xstrfmtcat(&sql, "%s`%s`", first ? "" : ",", r->cols[i]);
		first = false;
	}
	xstrcat(&sql, ") VALUES (");
	first = true;
	for (uint32_t i = 0; i < r->ncols; i++) {
		if ((l->map_jobs && (int)i == l->inx_col) || l->gen[i])
			continue;
		if (!first)
			xstrcatc(&sql, ',');
		first = false;
		if ((int)i == l->inx_col && new_inx)
			xstrfmtcat(&sql, "%" PRIu64, new_inx);
		else if (!r->cells[i])
			xstrcat(&sql, "NULL");
		else
			dbd_db_quote(l->db, &sql, r->cells[i]);
	}
	xstrcatc(&sql, ')');
	rc = dbd_db_exec(l->db, sql);
	xfree(sql);
	if (rc < 0) {
		snprintf(err, errlen, "line %" PRIu64 ": %s (was this archive "
			 "loaded already?)", r->lineno, dbd_db_error(l->db));
		return -1;
	}
	if (l->map_jobs && l->inx_col >= 0)
		map_add(l, inx, dbd_db_insert_id(l->db));
	l->loaded++;
	return 0;
}

int dbd_archive_load(dbd_db_t *db, const char *path, uint64_t *rows,
		     char *err, size_t errlen)
{
	load_t l = { .db = db };
	archive_reader_t r;
	archive_event_t ev;
	FILE *f;
	int rc = -1, n;

	*rows = 0;
	if (!(f = fopen(path, "re"))) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (archive_reader_open(&r, f, err, errlen) < 0) {
		fclose(f);
		return -1;
	}
	for (size_t i = 0; i < sizeof(purges) / sizeof(purges[0]); i++)
		if (!strcmp(purges[i].archive, r.kind))
			l.kind = &purges[i];
	if (!l.kind) {
		snprintf(err, errlen, "line 1: unknown archive kind \"%s\"",
			 r.kind);
		goto out;
	}
	if (dbd_db_begin(db) < 0) {
		snprintf(err, errlen, "the database is not reachable");
		goto out;
	}
	while ((n = archive_reader_next(&r, &ev, err, errlen)) > 0) {
		if (ev == ARCHIVE_EV_TABLE && load_table(&l, &r, err,
							 errlen) < 0)
			break;
		if (ev == ARCHIVE_EV_ROW && load_row(&l, &r, err, errlen) < 0)
			break;
	}
	if (n == 0 && dbd_db_commit(db) == 0) {
		*rows = l.loaded;
		rc = 0;
		if (dbd_db_debug(db, DBD_FLAG_DB_ARCHIVE))
			info("DB_ARCHIVE: %s: %" PRIu64 " rows of a %s archive "
			     "of cluster %s loaded", path, l.loaded, r.kind,
			     r.cluster);
	} else {
		if (n == 0)
			snprintf(err, errlen, "the database refused the "
				 "commit");
		dbd_db_rollback(db);
	}
out:
	dbd_rows_free(&l.cols);
	xfree(l.map);
	archive_reader_close(&r);
	fclose(f);
	return rc;
}
