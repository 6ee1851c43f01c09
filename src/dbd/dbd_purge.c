/* dbd_purge.c — Purge*After (dbd_purge.h). */
#include "dbd/dbd_purge.h"

#include <inttypes.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define PURGE_HOUR 3600

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

typedef struct {
	dbd_purge_kind_t kind;
	const char      *name;       /* the slurmdbd.conf key */
	const char      *sql[2];     /* %PRId64: the cut; the kind's own
				      * table last (its count is logged) */
} purge_t;

static const purge_t purges[] = {
	{ DBD_PURGE_JOB, "PurgeJobAfter", {
	  "DELETE s FROM step_table s JOIN job_table j ON "
	  "s.job_db_inx = j.job_db_inx WHERE j.time_end != 0 AND "
	  "j.time_submit < %" PRId64,
	  "DELETE FROM job_table WHERE time_end != 0 AND time_submit < %"
	  PRId64 } },
	{ DBD_PURGE_STEP, "PurgeStepAfter", {
	  "DELETE FROM step_table WHERE time_end != 0 AND time_start < %"
	  PRId64, NULL } },
	{ DBD_PURGE_EVENT, "PurgeEventAfter", {
	  "DELETE FROM event_table WHERE time_end != 0 AND time_start < %"
	  PRId64, NULL } },
	{ DBD_PURGE_RESV, "PurgeResvAfter", {
	  "DELETE FROM resv_table WHERE time_end != 0 AND time_end < %"
	  PRId64 " AND time_start < %" PRId64, NULL } },
};

static int purge_one(dbd_db_t *db, const purge_t *k, time_t cut)
{
	uint64_t n = 0;

	if (dbd_db_begin(db) < 0)
		return -1;
	for (int i = 0; i < 2 && k->sql[i]; i++) {
		char *sql = xstrdup_printf(k->sql[i], (int64_t)cut,
					   (int64_t)cut);
		int rc = dbd_db_exec(db, sql);

		xfree(sql);
		if (rc < 0) {
			dbd_db_rollback(db);
			return -1;
		}
		n = dbd_db_affected(db);     /* the kind's own table: last */
	}
	if (dbd_db_commit(db) < 0)
		return -1;
	if (n)
		info("%s: %" PRIu64 " records purged", k->name, n);
	return 0;
}

int dbd_purge_records(dbd_db_t *db, const dbd_conf_t *conf, time_t now)
{
	int rc = 0;

	for (size_t i = 0; i < sizeof(purges) / sizeof(purges[0]); i++) {
		const dbd_purge_t *p = &conf->purge[purges[i].kind];

		if (p->count && purge_one(db, &purges[i],
					  dbd_purge_cut(p, now)) < 0)
			rc = -1;
	}
	return rc;
}
