/* dbd_profile.c — job profiles in the database (dbd_jobs.h): the usage
 * samples of profiled steps (profile_table, schema v13), stored from the
 * controller's outbox and read back for sacct --profile and slurmrestd.
 *
 * A profile is its job's user's (as Slurm's per-user HDF5 files are):
 * others see it only with an AdminLevel of Operator or higher, or as
 * root or SlurmUser, whatever PrivateData says. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_batch.h"
#include "dbd/dbd_jobs.h"
#include "dbd/dbd_private.h"
#include "slurm/slurm_errno.h"

int dbd_profile_add(dbd_db_t *db, dbd_batch_t *b, const char *cluster,
		    uint64_t epoch, uint64_t seq, const acct_profile_rec_t *p)
{
	if (!p->node || !isfinite(p->cpu_util) || p->cpu_util < 0) {
		error("Cluster %s: profile sample %" PRIu64 " of job %u is "
		      "malformed, dropped", cluster, seq, p->job_id);
		return 0;
	}
	dbd_batch_open_row(b, "INSERT INTO profile_table (cluster, id_job, "
			   "time_submit, epoch, seq, id_step, node, "
			   "time_sample, ntasks, cpu_usec, cpu_util, rss_kb, "
			   "vsize_kb, read_bytes, write_bytes, energy_j) "
			   "VALUES ");
	dbd_db_quote(db, &b->sql, cluster);
	xstrfmtcat(&b->sql, ",%u,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%d,",
		   p->job_id, (int64_t)p->submit, epoch, seq,
		   (int32_t)p->step_id);
	dbd_db_quote(db, &b->sql, p->node);
	xstrfmtcat(&b->sql, ",%" PRId64 ",%u,%" PRIu64 ",%.6f,%" PRIu64 ",%"
		   PRIu64 ",%" PRIu64 ",%" PRIu64 ",", (int64_t)p->time,
		   p->ntasks, p->cpu_usec, p->cpu_util, p->rss_kb,
		   p->vsize_kb, p->read_bytes, p->write_bytes);
	if (p->energy_j == NO_VAL64)
		xstrcat(&b->sql, "NULL)");
	else
		xstrfmtcat(&b->sql, "%" PRIu64 ")", p->energy_j);
	return dbd_batch_close_row(db, b);
}

/* ---- the query ---- */

#define PROFILE_COLS 17

static void fill_rec(void *rec, const char *const *c)
{
	acct_profile_rec_t *p = rec;

	p->job_id = (uint32_t)strtoul(c[0], NULL, 10);
	p->array_job_id = (uint32_t)strtoul(c[1], NULL, 10);
	p->array_task_id = (uint32_t)strtoul(c[2], NULL, 10);
	p->submit = (time_t)strtoll(c[3], NULL, 10);
	p->cluster = xstrdup(c[4]);
	p->step_id = (uint32_t)strtol(c[5], NULL, 10);
	p->node = xstrdup(c[6]);
	p->time = (time_t)strtoll(c[7], NULL, 10);
	p->ntasks = (uint32_t)strtoul(c[8], NULL, 10);
	p->cpu_usec = strtoull(c[9], NULL, 10);
	p->cpu_util = strtod(c[10], NULL);
	p->rss_kb = strtoull(c[11], NULL, 10);
	p->vsize_kb = strtoull(c[12], NULL, 10);
	p->read_bytes = strtoull(c[13], NULL, 10);
	p->write_bytes = strtoull(c[14], NULL, 10);
	p->energy_j = *c[15] ? strtoull(c[15], NULL, 10) : NO_VAL64;
}

/* By job (an array's tasks in task order), then step, time and node. */
void dbd_profile_query(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		       const dbd_job_cond_msg_t *req, dbd_profile_msg_t *resp)
{
	char *where = dbd_jobs_where(db, ctx, req), *sql;

	if (!where) {
		resp->rc = SLURM_ERROR;
		return;
	}
	if (dbd_admin_level(db, ctx->conf, ctx->uid) < DBD_ADMIN_OPERATOR)
		xstrfmtcat(&where, " AND t.id_user=%u", (unsigned)ctx->uid);
	sql = xstrdup_printf(
		"SELECT t.id_job, t.id_array_job, t.id_array_task, "
		"t.time_submit, t.cluster, k.id_step, k.node, k.time_sample, "
		"k.ntasks, k.cpu_usec, k.cpu_util, k.rss_kb, k.vsize_kb, "
		"k.read_bytes, k.write_bytes, IFNULL(k.energy_j, ''), k.seq "
		"FROM job_table t STRAIGHT_JOIN profile_table k ON "
		"k.cluster=t.cluster AND k.id_job=t.id_job AND "
		"k.time_submit=t.time_submit WHERE 1%s ORDER BY "
		"t.time_submit, IF(t.id_array_job = 0, t.id_job, "
		"t.id_array_job), t.id_array_task, t.id_job, k.id_step, "
		"k.time_sample, k.node, k.epoch, k.seq", where);
	if (dbd_select_recs(db, sql, PROFILE_COLS, sizeof(*resp->recs),
			    fill_rec, acct_profile_rec_fields,
			    (void **)&resp->recs, &resp->cnt) < 0)
		resp->rc = ESLURM_DB_CONNECTION;
	xfree(sql);
	xfree(where);
}
