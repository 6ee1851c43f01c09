/* dbd_track.c — run tracking in the database (dbd_jobs.h): the values
 * jobs logged (track_table, schema v11), stored from the controller's
 * outbox and read back for sacct --metrics and slurmrestd. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_jobs.h"
#include "slurm/slurm_errno.h"

#define TRACK_ROWS_MAX  1000
#define TRACK_SQL_MAX   (2u * 1024 * 1024)

int dbd_track_flush(dbd_db_t *db, char **sql, uint32_t *rows)
{
	int rc;

	if (!*sql)
		return 0;
	/* the same (epoch, seq) again: a batch resent, already stored */
	xstrcat(sql, " ON DUPLICATE KEY UPDATE seq=seq");
	rc = dbd_db_exec(db, *sql);
	xfree(*sql);
	*rows = 0;
	return rc;
}

int dbd_track_add(dbd_db_t *db, char **sql, uint32_t *rows,
		  const char *cluster, uint64_t epoch, uint64_t seq,
		  const acct_track_rec_t *t)
{
	if (!track_kind_name(t->kind) || !t->name || !isfinite(t->value)) {
		error("Cluster %s: tracked value %" PRIu64 " of job %u is "
		      "malformed, dropped", cluster, seq, t->job_id);
		return 0;
	}
	if (!*sql)
		*sql = xstrdup("INSERT INTO track_table (cluster, id_job, "
			       "time_submit, epoch, seq, kind, name, step, "
			       "value, text, time_logged) VALUES ");
	else
		xstrcatc(sql, ',');
	xstrcatc(sql, '(');
	dbd_db_quote(db, sql, cluster);
	xstrfmtcat(sql, ",%u,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%u,",
		   t->job_id, (int64_t)t->submit, epoch, seq, t->kind);
	dbd_db_quote(db, sql, t->name);
	xstrfmtcat(sql, ",%" PRIu64 ",%.17g,", t->step, t->value);
	dbd_db_quote(db, sql, t->text);
	xstrfmtcat(sql, ",%" PRId64 ")", (int64_t)t->time);
	if (++*rows >= TRACK_ROWS_MAX || strlen(*sql) >= TRACK_SQL_MAX)
		return dbd_track_flush(db, sql, rows);
	return 0;
}

/* ---- the query ---- */

typedef struct {
	acct_track_rec_t *recs;
	uint32_t          cnt;
	uint32_t          cap;
} fill_t;

static void fill_row(void *arg, const char *const *c, uint32_t cols)
{
	fill_t *f = arg;
	acct_track_rec_t *t;

	if (cols < 11)
		return;
	if (f->cnt == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 256;

		f->recs = xrealloc_sz(f->recs, f->cap * sizeof(*f->recs),
				      cap * sizeof(*f->recs));
		f->cap = cap;
	}
	t = &f->recs[f->cnt++];
	memset(t, 0, sizeof(*t));
	t->job_id = (uint32_t)strtoul(c[0], NULL, 10);
	t->array_job_id = (uint32_t)strtoul(c[1], NULL, 10);
	t->array_task_id = (uint32_t)strtoul(c[2], NULL, 10);
	t->submit = (time_t)strtoll(c[3], NULL, 10);
	t->cluster = xstrdup(c[4]);
	t->kind = (uint16_t)strtoul(c[5], NULL, 10);
	t->name = xstrdup(c[6]);
	t->step = strtoull(c[7], NULL, 10);
	t->value = strtod(c[8], NULL);
	t->text = *c[9] || t->kind == TRACK_PARAM ? xstrdup(c[9]) : NULL;
	t->time = (time_t)strtoll(c[10], NULL, 10);
}

/* By job (an array's tasks in task order), then kind, name, step and
 * the order logged. */
void dbd_track_query(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		     const dbd_job_cond_msg_t *req, dbd_track_msg_t *resp)
{
	char *where = dbd_jobs_where(db, ctx, req), *sql;
	fill_t f = { 0 };

	if (!where) {
		resp->rc = SLURM_ERROR;
		return;
	}
	sql = xstrdup_printf(
		"SELECT t.id_job, t.id_array_job, t.id_array_task, "
		"t.time_submit, t.cluster, k.kind, k.name, k.step, k.value, "
		"IFNULL(k.text, ''), k.time_logged FROM job_table t "
		"STRAIGHT_JOIN track_table k ON k.cluster=t.cluster AND "
		"k.id_job=t.id_job AND k.time_submit=t.time_submit WHERE 1%s "
		"ORDER BY t.time_submit, IF(t.id_array_job = 0, t.id_job, "
		"t.id_array_job), t.id_array_task, t.id_job, k.kind, k.name, "
		"k.step, "
		"k.time_logged, k.epoch, k.seq", where);
	if (dbd_db_select_each(db, sql, fill_row, &f) < 0) {
		resp->rc = ESLURM_DB_CONNECTION;
		for (uint32_t i = 0; i < f.cnt; i++)
			fields_free(acct_track_rec_fields, &f.recs[i]);
		xfree(f.recs);
	} else {
		resp->recs = f.recs;
		resp->cnt = f.cnt;
	}
	xfree(sql);
	xfree(where);
}
