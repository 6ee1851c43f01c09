/* dbd_aside.c — records set aside (dbd_aside.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/acct_limits.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_aside.h"
#include "dbd/dbd_private.h"

/* Up to max bytes of v with anything but printable ASCII as '?': the
 * note of a record must itself be storable. */
static char *printable(const char *v, size_t max)
{
	size_t n = v ? strnlen(v, max) : 0;
	char *out = xmalloc(n + 1);

	for (size_t i = 0; i < n; i++)
		out[i] = (v[i] >= 0x20 && v[i] < 0x7f) ? v[i] : '?';
	out[n] = '\0';
	return out;
}

/* Whose a refused record is: the job (or reservation) id in the set-aside
 * row, its user and account if a job's, and words for the log. */
typedef struct {
	uint32_t id;
	int64_t  submit;          /* the job's */
	uint32_t uid;
	char    *user;
	char    *acct;
	char    *what;            /* "job 5", "step 0 of job 5", ... */
} whose_t;

static void whose(const acct_frame_t *f, whose_t *w)
{
	void *rec = acct_rec_unpack(f->kind, f->version, f->data, f->len);

	*w = (whose_t){ .uid = 4294967294u };
	if (rec && f->kind == ACCT_REC_JOB) {
		const acct_job_rec_t *j = rec;
		char *name = dbd_user_name(j->uid);

		w->id = j->job_id;
		w->submit = (int64_t)j->submit;
		w->uid = j->uid;
		w->user = printable(name, acct_limit_max(ACCT_LIM_USER));
		w->acct = printable(j->account,
				    acct_limit_max(ACCT_LIM_ACCOUNT));
		w->what = xstrdup_printf("job %u", j->job_id);
		xfree(name);
	} else if (rec && f->kind == ACCT_REC_STEP) {
		const acct_step_rec_t *st = rec;

		w->id = st->job_id;
		w->submit = (int64_t)st->submit;
		w->what = xstrdup_printf("step %d of job %u",
					 (int32_t)st->step_id, st->job_id);
	} else if (rec && f->kind == ACCT_REC_JOB_SCRIPT) {
		const acct_script_rec_t *sc = rec;

		w->id = sc->job_id;
		w->submit = (int64_t)sc->submit;
		w->what = xstrdup_printf("the script of job %u", sc->job_id);
	} else if (rec && f->kind == ACCT_REC_TRACK) {
		const acct_track_rec_t *t = rec;

		w->id = t->job_id;
		w->submit = (int64_t)t->submit;
		w->what = xstrdup_printf("a %s of job %u",
					 track_kind_name(t->kind) ?
					 track_kind_name(t->kind) : "value",
					 t->job_id);
	} else if (rec && f->kind == ACCT_REC_PROFILE) {
		const acct_profile_rec_t *p = rec;

		w->id = p->job_id;
		w->submit = (int64_t)p->submit;
		w->what = xstrdup_printf("a profile sample of job %u",
					 p->job_id);
	} else if (rec && f->kind == ACCT_REC_RESV) {
		w->id = ((const acct_resv_rec_t *)rec)->resv_id;
		w->what = xstrdup_printf("reservation %u", w->id);
	} else {
		w->what = xstrdup(f->kind == ACCT_REC_NODE_EVENT ?
				  "a node event" : "the cluster's registration");
	}
	if (rec)
		acct_rec_free(f->kind, rec);
}

/* A step's user and account are its job's (set aside before it). */
static void whose_job(dbd_db_t *db, const char *cluster, whose_t *w)
{
	dbd_rows_t rows;
	char *sql = xstrdup_printf("SELECT id_user, user_name, account FROM "
				   "set_aside_table WHERE kind=%u AND id_job=%u "
				   "AND time_submit=%" PRId64 " AND cluster=",
				   ACCT_REC_JOB, w->id, w->submit);

	dbd_db_quote(db, &sql, cluster);
	if (dbd_db_select(db, sql, &rows) == 0) {
		if (rows.rows) {
			w->uid = (uint32_t)strtoul(dbd_rows_get(&rows, 0, 0),
						   NULL, 10);
			w->user = xstrdup(dbd_rows_get(&rows, 0, 1));
			w->acct = xstrdup(dbd_rows_get(&rows, 0, 2));
		}
		dbd_rows_free(&rows);
	}
	xfree(sql);
}

static void log_aside(const char *cluster, const whose_t *w,
		      const acct_frame_t *f, unsigned int err,
		      const char *why)
{
	if (err)
		error("Cluster %s: %s: record %" PRIu64 " refused by the "
		      "database: %s (%u): set aside", cluster, w->what,
		      f->seq, why, err);
	else
		error("Cluster %s: %s: record %" PRIu64 " set aside: %s",
		      cluster, w->what, f->seq, why);
}

static int insert_aside(dbd_db_t *db, const char *cluster, uint64_t epoch,
			time_t now, const acct_frame_t *f, unsigned int err,
			const char *why, const whose_t *w)
{
	char *sql = xstrdup("INSERT INTO set_aside_table (cluster, epoch, "
			    "seq, kind, id_job, time_submit, id_user, "
			    "user_name, account, time_set, db_errno, "
			    "db_error, record) VALUES (");
	int rc;

	dbd_db_quote(db, &sql, cluster);
	xstrfmtcat(&sql, ",%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRId64 ",%u,",
		   epoch, f->seq, f->kind, w->id, w->submit, w->uid);
	dbd_db_quote(db, &sql, w->user ? w->user : "");
	xstrcatc(&sql, ',');
	dbd_db_quote(db, &sql, w->acct ? w->acct : "");
	xstrfmtcat(&sql, ",%" PRId64 ",%u,", (int64_t)now, err);
	dbd_db_quote(db, &sql, why);
	xstrcatc(&sql, ',');
	dbd_db_quote_bin(&sql, f->data, f->len);
	xstrcat(&sql, ") ON DUPLICATE KEY UPDATE db_errno=VALUES(db_errno), "
		"db_error=VALUES(db_error)");
	rc = dbd_db_exec(db, sql);
	xfree(sql);
	return rc;
}

int dbd_aside_put(dbd_db_t *db, const char *cluster, uint64_t epoch,
		  time_t now, const acct_frame_t *f, unsigned int err,
		  const char *text, dbd_aside_job_t *job)
{
	char *why = printable(text, 1000), *sql;
	whose_t w;
	int rc = 0;

	whose(f, &w);
	if (f->kind == ACCT_REC_STEP || f->kind == ACCT_REC_TRACK ||
	    f->kind == ACCT_REC_PROFILE)
		whose_job(db, cluster, &w);
	log_aside(cluster, &w, f, err, why);
	if (f->kind == ACCT_REC_JOB) {
		sql = xstrdup_printf("DELETE FROM set_aside_table WHERE kind=%u "
				     "AND id_job=%u AND time_submit=%" PRId64
				     " AND cluster=", f->kind, w.id, w.submit);
		dbd_db_quote(db, &sql, cluster);
		rc = dbd_db_exec(db, sql);
		xfree(sql);
	}
	if (rc == 0)
		rc = insert_aside(db, cluster, epoch, now, f, err, why, &w);
	job->job = w.id;
	job->submit = w.submit;
	xfree(w.user);
	xfree(w.acct);
	xfree(w.what);
	xfree(why);
	return rc;
}

int dbd_aside_jobs(dbd_db_t *db, const char *cluster, dbd_aside_job_t **jobs,
		   uint32_t *cnt)
{
	dbd_rows_t rows;
	char *sql = xstrdup_printf("SELECT id_job, time_submit FROM "
				   "set_aside_table WHERE kind=%u AND "
				   "cluster=", ACCT_REC_JOB);
	int rc;

	dbd_db_quote(db, &sql, cluster);
	rc = dbd_db_select(db, sql, &rows);
	xfree(sql);
	*jobs = NULL;
	*cnt = 0;
	if (rc < 0)
		return -1;
	*jobs = xcalloc(rows.rows + 1, sizeof(**jobs));
	for (uint32_t i = 0; i < rows.rows; i++) {
		(*jobs)[i].job = (uint32_t)strtoul(dbd_rows_get(&rows, i, 0),
						   NULL, 10);
		(*jobs)[i].submit = strtoll(dbd_rows_get(&rows, i, 1), NULL,
					    10);
	}
	*cnt = rows.rows;
	dbd_rows_free(&rows);
	return 0;
}

uint32_t dbd_aside_count(dbd_db_t *db, const char *cluster)
{
	dbd_rows_t rows;
	char *sql = xstrdup("SELECT COUNT(*) FROM set_aside_table WHERE "
			    "cluster=");
	uint32_t n = 0;

	dbd_db_quote(db, &sql, cluster);
	if (dbd_db_select(db, sql, &rows) == 0) {
		n = (uint32_t)strtoul(dbd_rows_get(&rows, 0, 0), NULL, 10);
		dbd_rows_free(&rows);
	}
	xfree(sql);
	return n;
}
