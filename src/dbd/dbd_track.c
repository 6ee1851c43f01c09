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
#include "dbd/dbd_batch.h"
#include "dbd/dbd_jobs.h"
#include "slurm/slurm_errno.h"

int dbd_track_add(dbd_db_t *db, dbd_batch_t *b, const char *cluster,
		  uint64_t epoch, uint64_t seq, const acct_track_rec_t *t)
{
	if (!track_kind_name(t->kind) || !t->name || !isfinite(t->value)) {
		error("Cluster %s: tracked value %" PRIu64 " of job %u is "
		      "malformed, dropped", cluster, seq, t->job_id);
		return 0;
	}
	dbd_batch_open_row(b, "INSERT INTO track_table (cluster, id_job, "
			   "time_submit, epoch, seq, kind, name, step, value, "
			   "text, time_logged) VALUES ");
	dbd_db_quote(db, &b->sql, cluster);
	xstrfmtcat(&b->sql, ",%u,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%u,",
		   t->job_id, (int64_t)t->submit, epoch, seq, t->kind);
	dbd_db_quote(db, &b->sql, t->name);
	xstrfmtcat(&b->sql, ",%" PRIu64 ",%.17g,", t->step, t->value);
	dbd_db_quote(db, &b->sql, t->text);
	xstrfmtcat(&b->sql, ",%" PRId64 ")", (int64_t)t->time);
	return dbd_batch_close_row(db, b);
}

/* ---- the query ---- */

#define TRACK_COLS 11

static void fill_rec(void *rec, const char *const *c)
{
	acct_track_rec_t *t = rec;

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
	if (dbd_select_recs(db, sql, TRACK_COLS, sizeof(*resp->recs),
			    fill_rec, acct_track_rec_fields,
			    (void **)&resp->recs, &resp->cnt) < 0)
		resp->rc = ESLURM_DB_CONNECTION;
	xfree(sql);
	xfree(where);
}
