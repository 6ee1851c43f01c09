/* dbd_store.c — store a batch of the controller's accounting records in
 * one transaction (dbd_jobs.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/acct_limits.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_aside.h"
#include "dbd/dbd_jobs.h"
#include "dbd/dbd_rollup.h"
#include "dbd/dbd_tres.h"
#include "slurm/slurm_errno.h"

#define JOB_ROWS_MAX 500      /* rows per multi-row INSERT */
/* and at most about this many bytes of SQL: far below MariaDB's
 * max_allowed_packet (16 MB by default) even for rows whose strings are
 * all at their limits (acct_limits.h) */
#define SQL_BYTES_MAX (2u * 1024 * 1024)

typedef struct {
	dbd_db_t   *db;
	const char *cluster;
	time_t      now;
	char       *jobs_sql;      /* pending multi-row job INSERT */
	uint32_t    job_rows;
	char       *steps_sql;     /* pending steps: a UNION ALL of rows */
	uint32_t    step_rows;
	struct step_key { uint32_t job; int64_t submit; uint32_t step; }
		   *step_keys;     /* the steps in steps_sql */
	char       *ended_ids;     /* jobs that ended: "id,id" */
	char       *ended_keys;    /* and "(id,submit),(id,submit)" */
	dbd_batch_t track;         /* pending tracked values (dbd_track.c) */
	dbd_batch_t prof;          /* pending profile samples (dbd_profile.c) */
	size_t      jobs_bytes;    /* about how long jobs_sql is */
	size_t      steps_bytes;
	uint32_t    stored;
	uint32_t    skipped;
	uint32_t    set_aside;     /* records the database refused */
	uint64_t    epoch;         /* of the batch's outbox */
	dbd_aside_job_t *aside;    /* jobs whose record is set aside */
	uint32_t    aside_cnt;
	time_t      rolled;        /* roll-ups cover times before this */
	time_t      reroll;        /* earliest changed time before it */
} store_t;

/* Length of the valid UTF-8 sequence at p (1-4), 0 if it is not one. */
static size_t utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		return (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (p[0] >= 0xe0 && p[0] <= 0xef) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[0] == 0xe0 && p[1] < 0xa0) ||      /* overlong */
		    (p[0] == 0xed && p[1] > 0x9f))        /* surrogate */
			return 0;
		return 3;
	}
	if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80 ||
		    (p[0] == 0xf0 && p[1] < 0x90) ||      /* overlong */
		    (p[0] == 0xf4 && p[1] > 0x8f))        /* > U+10FFFF */
			return 0;
		return 4;
	}
	return 0;
}

/* The strings of a record go into utf8mb4 columns: bytes that are not
 * UTF-8 (a name typed in a Latin-1 terminal) become '?', as the record
 * would otherwise be refused (1366) and set aside.  NULL: v is fine. */
static char *utf8_clean(const char *v)
{
	const unsigned char *p = (const unsigned char *)v;
	char *out;
	size_t n, o = 0;

	for (; *p; p += n)
		if (!(n = utf8_len(p)))
			break;
	if (!*p)
		return NULL;
	out = xmalloc(strlen(v) + 1);
	for (p = (const unsigned char *)v; *p; p += n) {
		if (!(n = utf8_len(p))) {
			out[o++] = '?';
			n = 1;
			continue;
		}
		memcpy(out + o, p, n);
		o += n;
	}
	out[o] = '\0';
	return out;
}

static void q(store_t *s, char **sql, const char *v)
{
	char *clean = v ? utf8_clean(v) : NULL;

	dbd_db_quote(s->db, sql, clean ? clean : v ? v : "");
	xfree(clean);
}

/* As q(), NULL as NULL. */
static void qn(store_t *s, char **sql, const char *v)
{
	char *clean = v ? utf8_clean(v) : NULL;

	dbd_db_quote(s->db, sql, clean ? clean : v);
	xfree(clean);
}

static size_t slen(const char *v)
{
	return v ? strlen(v) : 0;
}

/* ---- jobs: one multi-row upsert per run of job records ---- */

#define JOB_COLS \
	"cluster, id_job, id_array_job, id_array_task, job_name, id_user, " \
	"id_group, account, `partition`, qos, state, reason, requid, " \
	"exit_code, derived_ec, time_submit, time_eligible, time_start, " \
	"time_end, timelimit, nodelist, nodes_alloc, cpus_alloc, cpus_req, " \
	"tres_alloc, tres_req, req_mem, mem_per_cpu, work_dir, comment, " \
	"submit_line, constraints, restart_cnt, priority, mod_time, " \
	"array_task_str, container, wckey, id_wckey, id_resv, het_job_id, " \
	"het_job_offset, time_suspended"

static const char job_update[] =
	" ON DUPLICATE KEY UPDATE id_array_job=VALUES(id_array_job), "
	"id_array_task=VALUES(id_array_task), job_name=VALUES(job_name), "
	"id_user=VALUES(id_user), id_group=VALUES(id_group), "
	"account=VALUES(account), `partition`=VALUES(`partition`), "
	"qos=VALUES(qos), state=VALUES(state), reason=VALUES(reason), "
	"requid=IF(VALUES(requid)=4294967294, job_table.requid, VALUES(requid)), "
	"exit_code=VALUES(exit_code), derived_ec=VALUES(derived_ec), "
	"time_eligible=VALUES(time_eligible), "
	"time_start=VALUES(time_start), time_end=VALUES(time_end), "
	"timelimit=VALUES(timelimit), nodelist=VALUES(nodelist), "
	"nodes_alloc=VALUES(nodes_alloc), cpus_alloc=VALUES(cpus_alloc), "
	"cpus_req=VALUES(cpus_req), tres_alloc=VALUES(tres_alloc), "
	"tres_req=VALUES(tres_req), req_mem=VALUES(req_mem), "
	"mem_per_cpu=VALUES(mem_per_cpu), work_dir=VALUES(work_dir), "
	"comment=VALUES(comment), submit_line=VALUES(submit_line), "
	"constraints=VALUES(constraints), restart_cnt=VALUES(restart_cnt), "
	"priority=VALUES(priority), mod_time=VALUES(mod_time), "
	"array_task_str=VALUES(array_task_str), "
	"container=VALUES(container), wckey=VALUES(wckey), "
	/* an id once known is kept: the reservation or wckey may be gone
	 * by the job's end */
	"id_wckey=IF(VALUES(id_wckey)=0, job_table.id_wckey, "
	"VALUES(id_wckey)), "
	"id_resv=IF(VALUES(id_resv)=0, job_table.id_resv, VALUES(id_resv)), "
	"het_job_id=VALUES(het_job_id), het_job_offset=VALUES(het_job_offset), "
	"time_suspended=VALUES(time_suspended)";

static int flush_jobs(store_t *s)
{
	int rc;

	if (!s->jobs_sql)
		return 0;
	xstrcat(&s->jobs_sql, job_update);
	rc = dbd_db_exec(s->db, s->jobs_sql);
	xfree(s->jobs_sql);
	s->job_rows = 0;
	s->jobs_bytes = 0;
	return rc;
}

static int add_job(store_t *s, const acct_job_rec_t *j)
{
	char **sql = &s->jobs_sql;

	if (!*sql)
		*sql = xstrdup("INSERT INTO job_table (" JOB_COLS ") VALUES ");
	else
		xstrcatc(sql, ',');
	xstrcatc(sql, '(');
	q(s, sql, s->cluster);
	xstrfmtcat(sql, ",%u,%u,%u,", j->job_id, j->array_job_id,
		   j->array_task_id);
	q(s, sql, j->name);
	xstrfmtcat(sql, ",%u,%u,", j->uid, j->gid);
	q(s, sql, j->account);
	xstrcatc(sql, ',');
	q(s, sql, j->partition);
	xstrcatc(sql, ',');
	q(s, sql, j->qos);
	xstrfmtcat(sql, ",%u,%u,%u,%u,%u,%" PRId64 ",%" PRId64 ",%" PRId64
		   ",%" PRId64 ",%u,", j->state, j->reason, j->requid,
		   j->exit_code, j->derived_ec, (int64_t)j->submit,
		   (int64_t)j->eligible, (int64_t)j->start, (int64_t)j->end,
		   j->time_limit);
	q(s, sql, j->nodes);
	xstrfmtcat(sql, ",%u,%u,%u,", j->num_nodes, j->num_cpus, j->req_cpus);
	q(s, sql, j->tres_alloc);
	xstrcatc(sql, ',');
	q(s, sql, j->tres_req);
	xstrfmtcat(sql, ",%" PRIu64 ",%d,",
		   j->req_mem == NO_VAL64 ? 0 : j->req_mem,
		   j->mem_per_cpu ? 1 : 0);
	q(s, sql, j->work_dir);
	xstrcatc(sql, ',');
	qn(s, sql, j->comment);
	xstrcatc(sql, ',');
	qn(s, sql, j->submit_line);
	xstrcatc(sql, ',');
	qn(s, sql, j->constraints);
	xstrfmtcat(sql, ",%u,%u,%" PRId64 ",", j->restart_cnt, j->priority,
		   (int64_t)s->now);
	qn(s, sql, j->array_task_str);
	xstrcatc(sql, ',');
	qn(s, sql, j->container);
	xstrcatc(sql, ',');
	q(s, sql, j->wckey);
	xstrfmtcat(sql, ",%u,%u,%u,%u,%" PRId64 ")", j->wckey_id, j->resv_id,
		   j->het_job_id, j->het_job_offset, (int64_t)j->time_suspended);
	/* quoting at most doubles a string */
	s->jobs_bytes += 1024 + 2 * (slen(j->name) + slen(j->account) +
		slen(j->partition) + slen(j->qos) + slen(j->nodes) +
		slen(j->tres_alloc) + slen(j->tres_req) + slen(j->work_dir) +
		slen(j->comment) + slen(j->submit_line) +
		slen(j->constraints) + slen(j->array_task_str) +
		slen(j->container) + slen(j->wckey));
	if (++s->job_rows >= JOB_ROWS_MAX || s->jobs_bytes >= SQL_BYTES_MAX)
		return flush_jobs(s);
	return 0;
}

/* A job that ended closes its steps still open (a cancelled or timed
 * out job's steps end CANCELLED), once per batch after its steps are
 * stored; a step's own end, if it comes later, replaces this. */
static int flush_steps(store_t *s);

static void note_end(store_t *s, const acct_job_rec_t *j)
{
	if (!j->end)
		return;
	xstrfmtcat(&s->ended_ids, "%s%u", s->ended_ids ? "," : "", j->job_id);
	xstrfmtcat(&s->ended_keys, "%s(%u,%" PRId64 ")",
		   s->ended_keys ? "," : "", j->job_id, (int64_t)j->submit);
}

static int close_steps(store_t *s)
{
	char *sql;
	int rc;

	if (!s->ended_ids)
		return 0;
	if (flush_jobs(s) < 0 || flush_steps(s) < 0)
		return -1;
	sql = xstrdup_printf("UPDATE step_table s JOIN job_table t ON "
			     "s.job_db_inx=t.job_db_inx SET "
			     "s.time_end=t.time_end, s.state=IF(t.state IN "
			     "(%u,%u,%u), %u, t.state) WHERE s.time_end=0 AND "
			     "t.cluster=", JOB_CANCELLED, JOB_TIMEOUT,
			     JOB_PREEMPTED, JOB_CANCELLED);
	q(s, &sql, s->cluster);
	xstrfmtcat(&sql, " AND t.id_job IN (%s) AND (t.id_job, t.time_submit) "
		   "IN (%s)", s->ended_ids, s->ended_keys);
	rc = dbd_db_exec(s->db, sql);
	xfree(sql);
	xfree(s->ended_ids);
	xfree(s->ended_keys);
	return rc;
}

/* ---- steps, events, registration: one statement each ---- */

#define STEP_ROWS_MAX 500

static const char step_insert[] =
	"INSERT INTO step_table (job_db_inx, id_step, step_name, time_start, "
	"time_end, state, exit_code, requid, nodelist, nodes_alloc, tasks, "
	"cpus_alloc, tres_alloc, user_sec, user_usec, sys_sec, sys_usec, "
	"max_rss, max_vsize, ave_rss, ave_vsize, consumed_energy, container) "
	"SELECT t.job_db_inx, v.st, v.nm, v.ts, v.te, v.sa, v.ec, v.rq, v.nl, "
	"v.nn, v.tk, v.cp, v.tr, v.us, v.uu, v.ss, v.su, v.mr, v.mv, v.ar, "
	"v.av, v.en, v.ct FROM (";
static const char step_update[] =
	" ON DUPLICATE KEY UPDATE step_name=VALUES(step_name), "
	"time_start=VALUES(time_start), time_end=VALUES(time_end), "
	"state=VALUES(state), exit_code=VALUES(exit_code), "
	"requid=IF(VALUES(requid)=4294967294, step_table.requid, "
	"VALUES(requid)), nodelist=VALUES(nodelist), "
	"nodes_alloc=VALUES(nodes_alloc), tasks=VALUES(tasks), "
	"cpus_alloc=VALUES(cpus_alloc), tres_alloc=VALUES(tres_alloc), "
	"user_sec=VALUES(user_sec), user_usec=VALUES(user_usec), "
	"sys_sec=VALUES(sys_sec), sys_usec=VALUES(sys_usec), "
	"max_rss=VALUES(max_rss), max_vsize=VALUES(max_vsize), "
	"ave_rss=VALUES(ave_rss), ave_vsize=VALUES(ave_vsize), "
	"consumed_energy=VALUES(consumed_energy), "
	"container=IFNULL(VALUES(container), step_table.container)";

/* Store the buffered steps: one INSERT ... SELECT joining their rows to
 * their jobs (stored first). */
static int flush_steps(store_t *s)
{
	uint64_t want = s->step_rows;
	int rc;

	if (!s->steps_sql)
		return 0;
	if (flush_jobs(s) < 0)
		return -1;
	xstrcat(&s->steps_sql, ") v JOIN job_table t ON t.cluster=");
	q(s, &s->steps_sql, s->cluster);
	xstrcat(&s->steps_sql, " AND t.id_job=v.j AND t.time_submit=v.sb");
	xstrcat(&s->steps_sql, step_update);
	rc = dbd_db_exec(s->db, s->steps_sql);
	if (rc == 0 && dbd_db_affected(s->db) == 0 && want)
		error("Cluster %s: %" PRIu64 " steps of unknown jobs: not "
		      "stored", s->cluster, want);
	xfree(s->steps_sql);
	xfree(s->step_keys);
	s->step_rows = 0;
	s->steps_bytes = 0;
	return rc;
}

static int add_step(store_t *s, const acct_step_rec_t *st)
{
	char **sql = &s->steps_sql;

	/* The same step twice in one statement: its rows' order is not
	 * defined, so store the first one before. */
	for (uint32_t i = 0; i < s->step_rows; i++)
		if (s->step_keys[i].job == st->job_id &&
		    s->step_keys[i].submit == (int64_t)st->submit &&
		    s->step_keys[i].step == st->step_id) {
			if (flush_steps(s) < 0)
				return -1;
			break;
		}
	if (!*sql)
		*sql = xstrdup(step_insert);
	else
		xstrcat(sql, " UNION ALL ");
	xstrfmtcat(sql, "SELECT %u AS j, %" PRId64 " AS sb, %d AS st, ",
		   st->job_id, (int64_t)st->submit, (int32_t)st->step_id);
	q(s, sql, st->name);
	xstrfmtcat(sql, " AS nm, %" PRId64 " AS ts, %" PRId64 " AS te, %u AS "
		   "sa, %u AS ec, %u AS rq, ", (int64_t)st->start,
		   (int64_t)st->end, st->state, st->exit_code, st->requid);
	q(s, sql, st->nodes);
	xstrfmtcat(sql, " AS nl, %u AS nn, %u AS tk, %u AS cp, ",
		   st->num_nodes, st->ntasks, st->num_cpus);
	q(s, sql, st->tres_alloc);
	xstrfmtcat(sql, " AS tr, %" PRIu64 " AS us, %" PRIu64 " AS uu, %"
		   PRIu64 " AS ss, %" PRIu64 " AS su, %" PRIu64 " AS mr, %"
		   PRIu64 " AS mv, %" PRIu64 " AS ar, %" PRIu64 " AS av, %"
		   PRIu64 " AS en, ",
		   st->user_usec / 1000000, st->user_usec % 1000000,
		   st->sys_usec / 1000000, st->sys_usec % 1000000,
		   st->max_rss_kb, st->max_vsize_kb, st->ave_rss_kb,
		   st->ave_vsize_kb, st->consumed_energy);
	qn(s, sql, st->container);
	xstrcat(sql, " AS ct");
	s->step_keys = xrealloc(s->step_keys, (s->step_rows + 1) *
				sizeof(*s->step_keys));
	s->step_keys[s->step_rows].job = st->job_id;
	s->step_keys[s->step_rows].submit = (int64_t)st->submit;
	s->step_keys[s->step_rows].step = st->step_id;
	s->steps_bytes += 1024 + 2 * (slen(st->name) + slen(st->nodes) +
				      slen(st->tres_alloc) +
				      slen(st->container));
	if (++s->step_rows >= STEP_ROWS_MAX || s->steps_bytes >= SQL_BYTES_MAX)
		return flush_steps(s);
	return 0;
}

/* The cluster's TRES changed (node name ""): the record before ends. */
static int close_cluster_tres(store_t *s, const acct_event_rec_t *e)
{
	char *sql = xstrdup_printf("UPDATE event_table SET time_end=%" PRId64
				   " WHERE node_name='' AND time_end=0 AND "
				   "time_start < %" PRId64 " AND cluster=",
				   (int64_t)e->start, (int64_t)e->start);
	int rc;

	q(s, &sql, s->cluster);
	rc = dbd_db_exec(s->db, sql);
	xfree(sql);
	return rc;
}

static int add_event(store_t *s, const acct_event_rec_t *e)
{
	char *sql;
	int rc;

	if ((!e->node_name || !e->node_name[0]) &&
	    close_cluster_tres(s, e) < 0)
		return -1;
	sql = xstrdup("INSERT INTO event_table (cluster, node_name, "
		      "time_start, time_end, state, reason, reason_uid, "
		      "tres) VALUES (");

	q(s, &sql, s->cluster);
	xstrcatc(&sql, ',');
	q(s, &sql, e->node_name);
	xstrfmtcat(&sql, ",%" PRId64 ",%" PRId64 ",%u,", (int64_t)e->start,
		   (int64_t)e->end, e->state);
	q(s, &sql, e->reason);
	xstrfmtcat(&sql, ",%u,", e->reason_uid);
	q(s, &sql, e->tres);
	xstrcat(&sql, ") ON DUPLICATE KEY UPDATE time_end=VALUES(time_end), "
		"state=IF(VALUES(time_end)=0, VALUES(state), state)");
	rc = dbd_db_exec(s->db, sql);
	xfree(sql);
	/* the cluster's TRES: names not seen before get ids (gres/gpu,
	 * license/matlab: AccountingStorageTRES) */
	if (!rc && (!e->node_name || !e->node_name[0]))
		rc = dbd_tres_register(s->db, e->tres);
	return rc;
}

/* A batch job's script and environment: bytes as they were (a script
 * need not be UTF-8), one row per submission. */
static int add_script(store_t *s, const acct_script_rec_t *r)
{
	char *sql = xstrdup("INSERT INTO job_script_table (cluster, id_job, "
			    "time_submit, script, env) VALUES (");
	int rc;

	q(s, &sql, s->cluster);
	xstrfmtcat(&sql, ",%u,%" PRId64 ",", r->job_id, (int64_t)r->submit);
	if (r->script)
		dbd_db_quote_bin(&sql, r->script, strlen(r->script));
	else
		xstrcat(&sql, "NULL");
	xstrcatc(&sql, ',');
	if (r->env)
		dbd_db_quote_bin(&sql, r->env, strlen(r->env));
	else
		xstrcat(&sql, "NULL");
	xstrcat(&sql, ") ON DUPLICATE KEY UPDATE script=VALUES(script), "
		"env=VALUES(env)");
	rc = dbd_db_exec(s->db, sql);
	xfree(sql);
	return rc;
}

/* A reservation: a row per (id, start).  An update that moved the
 * start moves its row; one deleted before it started leaves no row. */
static int add_resv(store_t *s, const acct_resv_rec_t *r)
{
	char *sql;
	int rc;

	if (r->time_start_prev) {
		sql = xstrdup_printf("UPDATE IGNORE resv_table SET time_start=%"
				     PRId64 " WHERE id_resv=%u AND "
				     "time_start=%" PRId64 " AND cluster=",
				     (int64_t)r->time_start, r->resv_id,
				     (int64_t)r->time_start_prev);
		q(s, &sql, s->cluster);
		rc = dbd_db_exec(s->db, sql);
		xfree(sql);
		if (rc < 0)
			return -1;
	}
	if (r->deleted && r->time_end < r->time_start) {
		sql = xstrdup_printf("DELETE FROM resv_table WHERE id_resv=%u "
				     "AND time_start=%" PRId64 " AND cluster=",
				     r->resv_id, (int64_t)r->time_start);
		q(s, &sql, s->cluster);
		rc = dbd_db_exec(s->db, sql);
		xfree(sql);
		return rc;
	}
	sql = xstrdup("INSERT INTO resv_table (cluster, id_resv, time_start, "
		      "time_end, deleted, resv_name, nodelist, tres, flags, "
		      "users, accounts) VALUES (");
	q(s, &sql, s->cluster);
	xstrfmtcat(&sql, ",%u,%" PRId64 ",%" PRId64 ",%d,", r->resv_id,
		   (int64_t)r->time_start, (int64_t)r->time_end,
		   r->deleted ? 1 : 0);
	q(s, &sql, r->name);
	xstrcatc(&sql, ',');
	q(s, &sql, r->nodes);
	xstrcatc(&sql, ',');
	q(s, &sql, r->tres);
	xstrfmtcat(&sql, ",%" PRIu64 ",", r->flags);
	q(s, &sql, r->users);
	xstrcatc(&sql, ',');
	q(s, &sql, r->accounts);
	xstrcat(&sql, ") ON DUPLICATE KEY UPDATE time_end=VALUES(time_end), "
		"deleted=VALUES(deleted), resv_name=VALUES(resv_name), "
		"nodelist=VALUES(nodelist), tres=VALUES(tres), "
		"flags=VALUES(flags), users=VALUES(users), "
		"accounts=VALUES(accounts)");
	rc = dbd_db_exec(s->db, sql);
	xfree(sql);
	return rc;
}

static int add_cluster(store_t *s, const acct_cluster_rec_t *c)
{
	char *sql = xstrdup("INSERT INTO cluster_table (name, control_host, "
			    "control_port, rpc_version, creation_time, "
			    "mod_time) VALUES (");
	int rc;

	q(s, &sql, s->cluster);
	xstrcatc(&sql, ',');
	q(s, &sql, c->control_host);
	xstrfmtcat(&sql, ",%u,%u,%" PRId64 ",%" PRId64 ") ON DUPLICATE KEY "
		   "UPDATE control_host=VALUES(control_host), "
		   "control_port=VALUES(control_port), "
		   "rpc_version=VALUES(rpc_version)", c->control_port,
		   (unsigned)MSG_PROTOCOL_VERSION, (int64_t)s->now,
		   (int64_t)s->now);
	rc = dbd_db_exec(s->db, sql);
	xfree(sql);
	if (rc < 0)
		return -1;
	/* A cluster the controller brought: its root associations too. */
	for (int i = 0; i < 2; i++) {
		sql = xstrdup("INSERT IGNORE INTO assoc_table (cluster, acct, "
			      "user_name, parent_acct, qos, creation_time, "
			      "mod_time) VALUES (");
		q(s, &sql, s->cluster);
		xstrfmtcat(&sql, ",'root','%s','%s','normal',%" PRId64 ",%"
			   PRId64 ")", i ? "root" : "", i ? "root" : "",
			   (int64_t)s->now, (int64_t)s->now);
		rc = dbd_db_exec(s->db, sql);
		xfree(sql);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ---- records for hours already rolled up (dbd_rollup.h) ---- */

static void reroll_at(store_t *s, time_t t)
{
	if (t > 0 && t < s->rolled && (!s->reroll || t < s->reroll))
		s->reroll = t;
}

/* Earliest of the non-zero times among a and b where they differ. */
static void reroll_changed(store_t *s, int64_t old, int64_t now)
{
	if (old == now)
		return;
	if (old)
		reroll_at(s, (time_t)old);
	if (now)
		reroll_at(s, (time_t)now);
}

static bool before_rolled(const store_t *s, time_t a, time_t b, time_t c)
{
	return (a && a < s->rolled) || (b && b < s->rolled) ||
	       (c && c < s->rolled);
}

/* A job record touching rolled-up hours: compare with what is stored
 * (a job only ending now changes nothing before the mark). */
static int job_reroll(store_t *s, const acct_job_rec_t *j)
{
	dbd_rows_t rows;
	char *sql;
	int rc;

	if (!s->rolled || !before_rolled(s, j->eligible, j->start, j->end))
		return 0;
	sql = xstrdup_printf("SELECT time_eligible, time_start, time_end, "
			     "cpus_alloc, cpus_req, id_user, account FROM "
			     "job_table WHERE id_job=%u AND time_submit=%"
			     PRId64 " AND cluster=", j->job_id,
			     (int64_t)j->submit);
	q(s, &sql, s->cluster);
	rc = dbd_db_select(s->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	if (!rows.rows) {
		reroll_at(s, j->eligible);
		reroll_at(s, j->start);
		reroll_at(s, j->end);
	} else {
		int64_t el = strtoll(dbd_rows_get(&rows, 0, 0), NULL, 10);
		int64_t st = strtoll(dbd_rows_get(&rows, 0, 1), NULL, 10);
		int64_t en = strtoll(dbd_rows_get(&rows, 0, 2), NULL, 10);

		reroll_changed(s, el, (int64_t)j->eligible);
		reroll_changed(s, st, (int64_t)j->start);
		reroll_changed(s, en, (int64_t)j->end);
		if (strtoul(dbd_rows_get(&rows, 0, 3), NULL, 10) !=
		    j->num_cpus ||
		    strtoul(dbd_rows_get(&rows, 0, 4), NULL, 10) !=
		    j->req_cpus ||
		    strtoul(dbd_rows_get(&rows, 0, 5), NULL, 10) != j->uid ||
		    strcmp(dbd_rows_get(&rows, 0, 6),
			   j->account ? j->account : "")) {
			reroll_at(s, j->eligible);
			reroll_at(s, j->start);
		}
	}
	dbd_rows_free(&rows);
	return 0;
}

static int event_reroll(store_t *s, const acct_event_rec_t *e)
{
	dbd_rows_t rows;
	char *sql;
	int rc;

	if (!s->rolled || !before_rolled(s, e->start, e->end, 0))
		return 0;
	sql = xstrdup_printf("SELECT time_end FROM event_table WHERE "
			     "time_start=%" PRId64 " AND node_name=",
			     (int64_t)e->start);
	q(s, &sql, e->node_name);
	xstrcat(&sql, " AND cluster=");
	q(s, &sql, s->cluster);
	rc = dbd_db_select(s->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	if (!rows.rows)
		reroll_at(s, e->start);
	else
		reroll_changed(s, strtoll(dbd_rows_get(&rows, 0, 0), NULL,
					  10), (int64_t)e->end);
	dbd_rows_free(&rows);
	return 0;
}

/* A reservation touching rolled-up hours (MAINT ones are planned down):
 * new, moved, or changed before the mark. */
static int resv_reroll(store_t *s, const acct_resv_rec_t *r)
{
	dbd_rows_t rows;
	char *sql;
	int rc;

	if (!s->rolled)
		return 0;
	if (r->time_start_prev)
		reroll_changed(s, (int64_t)r->time_start_prev,
			       (int64_t)r->time_start);
	if (!before_rolled(s, r->time_start, r->time_end, 0))
		return 0;
	sql = xstrdup_printf("SELECT time_end, flags, tres, deleted FROM "
			     "resv_table WHERE id_resv=%u AND time_start=%"
			     PRId64 " AND cluster=", r->resv_id,
			     (int64_t)r->time_start);
	q(s, &sql, s->cluster);
	rc = dbd_db_select(s->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	if (!rows.rows) {
		reroll_at(s, r->time_start);
	} else {
		reroll_changed(s, strtoll(dbd_rows_get(&rows, 0, 0), NULL, 10),
			       (int64_t)r->time_end);
		if (strtoull(dbd_rows_get(&rows, 0, 1), NULL, 10) != r->flags ||
		    strcmp(dbd_rows_get(&rows, 0, 2), r->tres ? r->tres : ""))
			reroll_at(s, r->time_start);
	}
	dbd_rows_free(&rows);
	return 0;
}

static bool job_aside(const store_t *s, uint32_t job, int64_t submit);
static int set_aside(store_t *s, const acct_frame_t *f, unsigned int err,
		     const char *text);

/* A step of a job whose record is set aside is kept with it. */
static int add_step_or_aside(store_t *s, const acct_frame_t *f,
			     const acct_step_rec_t *st)
{
	if (job_aside(s, st->job_id, (int64_t)st->submit))
		return set_aside(s, f, 0, "the record of its job is set aside");
	return add_step(s, st);
}

/* So is a value its job logged. */
static int add_track_or_aside(store_t *s, const acct_frame_t *f,
			      const acct_track_rec_t *t)
{
	if (job_aside(s, t->job_id, (int64_t)t->submit))
		return set_aside(s, f, 0, "the record of its job is set aside");
	return dbd_track_add(s->db, &s->track, s->cluster, s->epoch, f->seq,
			     t);
}

/* And a profile sample of one of its steps. */
static int add_profile_or_aside(store_t *s, const acct_frame_t *f,
				const acct_profile_rec_t *p)
{
	if (job_aside(s, p->job_id, (int64_t)p->submit))
		return set_aside(s, f, 0, "the record of its job is set aside");
	return dbd_profile_add(s->db, &s->prof, s->cluster, s->epoch, f->seq,
			       p);
}

static int apply(store_t *s, const acct_frame_t *f)
{
	void *rec = acct_rec_unpack(f->kind, f->version, f->data, f->len);
	int rc = 0;

	if (!rec) {
		/* Never storable: drop it rather than block the queue. */
		error("Cluster %s: record %" PRIu64 " (kind %u) is malformed, "
		      "dropped", s->cluster, f->seq, f->kind);
		s->skipped++;
		return 0;
	}
	if (f->kind != ACCT_REC_JOB && f->kind != ACCT_REC_STEP &&
	    f->kind != ACCT_REC_TRACK && f->kind != ACCT_REC_PROFILE)
		rc = flush_steps(s) < 0 || close_steps(s) < 0 ? -1 : 0;
	if (rc == 0) {
		switch (f->kind) {
		case ACCT_REC_JOB:
			rc = job_reroll(s, rec) < 0 ? -1 : add_job(s, rec);
			note_end(s, rec);
			break;
		case ACCT_REC_STEP:
			rc = add_step_or_aside(s, f, rec);
			break;
		case ACCT_REC_NODE_EVENT:
			rc = event_reroll(s, rec) < 0 ? -1 :
			     add_event(s, rec);
			break;
		case ACCT_REC_CLUSTER:
			rc = add_cluster(s, rec);
			break;
		case ACCT_REC_RESV:
			rc = resv_reroll(s, rec) < 0 ? -1 : add_resv(s, rec);
			break;
		case ACCT_REC_JOB_SCRIPT:
			rc = add_script(s, rec);
			break;
		case ACCT_REC_TRACK:
			rc = add_track_or_aside(s, f, rec);
			break;
		case ACCT_REC_PROFILE:
			rc = add_profile_or_aside(s, f, rec);
			break;
		}
	}
	acct_rec_free(f->kind, rec);
	s->stored++;
	return rc;
}

/* ---- records the database refuses for their content ---- */

static void drop_pending(store_t *s)
{
	xfree(s->jobs_sql);
	xfree(s->steps_sql);
	xfree(s->step_keys);
	xfree(s->ended_ids);
	xfree(s->ended_keys);
	dbd_batch_drop(&s->track);
	dbd_batch_drop(&s->prof);
	s->job_rows = s->step_rows = 0;
	s->jobs_bytes = s->steps_bytes = 0;
}

/* Keep a refused record in set_aside_table (dbd_aside.h), in the
 * batch's transaction: it is acked with the batch and never sent again;
 * the steps of a job set aside follow it there. */
static int set_aside(store_t *s, const acct_frame_t *f, unsigned int err,
		     const char *text)
{
	dbd_aside_job_t job;

	if (dbd_aside_put(s->db, s->cluster, s->epoch, s->now, f, err, text,
			  &job) < 0)
		return -1;
	s->set_aside++;
	if (f->kind == ACCT_REC_JOB && !job_aside(s, job.job, job.submit)) {
		s->aside = xrealloc(s->aside, (s->aside_cnt + 1) *
				    sizeof(*s->aside));
		s->aside[s->aside_cnt++] = job;
	}
	return 0;
}

static bool job_aside(const store_t *s, uint32_t job, int64_t submit)
{
	for (uint32_t i = 0; i < s->aside_cnt; i++)
		if (s->aside[i].job == job && s->aside[i].submit == submit)
			return true;
	return false;
}

/* One record on its own behind a savepoint: stored, or set aside when
 * the database refuses it for its content; -1 on any other failure. */
static int apply_alone(store_t *s, const acct_frame_t *f)
{
	unsigned int err;
	char text[512];

	if (dbd_db_savepoint(s->db, "rec") < 0)
		return -1;
	if (apply(s, f) == 0 && flush_jobs(s) == 0 && flush_steps(s) == 0 &&
	    close_steps(s) == 0 &&
	    dbd_batch_flush(s->db, &s->track) == 0 &&
	    dbd_batch_flush(s->db, &s->prof) == 0)
		return 0;
	drop_pending(s);
	err = dbd_db_errno(s->db);
	if (!dbd_db_content_error(err))
		return -1;
	snprintf(text, sizeof(text), "%s", dbd_db_error(s->db));
	if (dbd_db_rollback_to(s->db, "rec") < 0)
		return -1;
	return set_aside(s, f, err, text);
}

/* The last sequence stored for this cluster's outbox epoch (0 if the
 * epoch is new). */
static int last_seq(store_t *s, uint64_t epoch, uint64_t *seq)
{
	dbd_rows_t rows;
	char *sql = xstrdup("SELECT epoch, last_seq FROM outbox_table WHERE "
			    "cluster=");
	int rc;

	q(s, &sql, s->cluster);
	xstrcat(&sql, " FOR UPDATE");
	rc = dbd_db_select(s->db, sql, &rows);
	xfree(sql);
	if (rc < 0)
		return -1;
	*seq = 0;
	if (rows.rows && strtoull(dbd_rows_get(&rows, 0, 0), NULL, 10) == epoch)
		*seq = strtoull(dbd_rows_get(&rows, 0, 1), NULL, 10);
	dbd_rows_free(&rows);
	return 0;
}

static int set_last_seq(store_t *s, uint64_t epoch, uint64_t seq)
{
	char *sql = xstrdup("INSERT INTO outbox_table (cluster, epoch, "
			    "last_seq) VALUES (");
	int rc;

	q(s, &sql, s->cluster);
	xstrfmtcat(&sql, ",%" PRIu64 ",%" PRIu64 ") ON DUPLICATE KEY UPDATE "
		   "epoch=VALUES(epoch), last_seq=VALUES(last_seq)", epoch,
		   seq);
	rc = dbd_db_exec(s->db, sql);
	xfree(sql);
	return rc;
}

/* alone: each record behind its own savepoint (after the batch as a
 * whole was refused for a record's content). */
static int store_batch(store_t *s, const dbd_records_msg_t *req,
		       uint64_t *acked, bool alone)
{
	uint64_t done, top = 0;
	time_t day, month;

	s->epoch = req->epoch;
	xfree(s->aside);
	if (last_seq(s, req->epoch, &done) < 0 ||
	    dbd_aside_jobs(s->db, s->cluster, &s->aside, &s->aside_cnt) < 0 ||
	    dbd_rollup_marks(s->db, s->cluster, &s->rolled, &day, &month) < 0)
		return -1;
	for (uint32_t i = 0; i < req->cnt; i++) {
		const acct_frame_t *f = &req->recs[i];

		if (f->seq > top)
			top = f->seq;
		if (f->seq <= done) {
			s->skipped++;
			continue;
		}
		if ((alone ? apply_alone(s, f) : apply(s, f)) < 0)
			return -1;
	}
	if (flush_jobs(s) < 0 || flush_steps(s) < 0 || close_steps(s) < 0 ||
	    dbd_batch_flush(s->db, &s->track) < 0 ||
	    dbd_batch_flush(s->db, &s->prof) < 0)
		return -1;
	if (s->reroll) {
		debug("Cluster %s: records before the last roll-up: rolling "
		      "up again from %" PRId64, s->cluster,
		      (int64_t)s->reroll);
		if (dbd_rollup_reset(s->db, s->cluster, s->reroll) < 0)
			return -1;
	}
	if (top > done && set_last_seq(s, req->epoch, top) < 0)
		return -1;
	*acked = top > done ? top : done;
	return 0;
}

/* One transaction: the batch stored (alone: record by record) and
 * committed, or rolled back (-1, the database's error kept). */
static int store_txn(store_t *s, const dbd_records_msg_t *req,
		     uint64_t *acked, bool alone)
{
	if (dbd_db_begin(s->db) < 0)
		return -1;
	if (store_batch(s, req, acked, alone) == 0 &&
	    dbd_db_commit(s->db) == 0)
		return 0;
	drop_pending(s);
	dbd_db_rollback(s->db);
	return -1;
}

/* Back to a fresh batch (keeps db, cluster and now). */
static void store_reset(store_t *s)
{
	drop_pending(s);
	xfree(s->aside);
	*s = (store_t){ .db = s->db, .cluster = s->cluster, .now = s->now };
}

static bool cluster_name_ok(const char *s)
{
	if (!s || !*s || acct_limit_check(ACCT_LIM_CLUSTER, s))
		return false;
	for (; *s; s++)
		if (*s < 0x21 || *s > 0x7e || *s == '\'' || *s == '\\')
			return false;
	return true;
}

void dbd_jobs_store(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
		    const dbd_records_msg_t *req,
		    dbd_records_resp_msg_t *resp)
{
	store_t s = { .db = db, .cluster = req->cluster, .now = time(NULL) };
	uint64_t acked = 0;

	if (ctx->uid != 0 && ctx->uid != ctx->conf->slurm_user_id) {
		error("Security violation, REQUEST_DBD_RECORDS from uid %u "
		      "(%s)", (unsigned)ctx->uid, ctx->peer);
		resp->rc = ESLURM_ACCESS_DENIED;
		return;
	}
	if (!cluster_name_ok(req->cluster)) {
		resp->rc = SLURM_ERROR;
		resp->msg = xstrdup("invalid cluster name");
		return;
	}
	for (uint32_t i = 0; i < req->cnt; i++) {
		char why[256];

		if (acct_rec_version_ok(req->recs[i].version, why,
					sizeof(why)))
			continue;
		/* Nothing of the batch is stored: the records wait in the
		 * controller's outbox for a slurmdbd that reads them. */
		error("Cluster %s: record %" PRIu64 ": %s (%u records refused)",
		      req->cluster, req->recs[i].seq, why, req->cnt);
		resp->rc = SLURM_PROTOCOL_VERSION_ERROR;
		resp->msg = xstrdup(why);
		return;
	}
	if (store_txn(&s, req, &acked, false) < 0) {
		/* A record the database refuses for its content would be
		 * refused again at every retry, and every later record
		 * would wait behind it: store the batch record by record,
		 * setting such records aside. */
		bool content = dbd_db_content_error(dbd_db_errno(db));

		store_reset(&s);
		if (content)
			info("Cluster %s: a record of the batch was refused "
			     "for its content: storing its %u records one by "
			     "one", s.cluster, req->cnt);
		if (!content || store_txn(&s, req, &acked, true) < 0) {
			store_reset(&s);
			resp->rc = ESLURM_DB_CONNECTION;
			return;
		}
	}
	resp->acked_seq = acked;
	resp->set_aside = dbd_aside_count(db, s.cluster);
	debug("Cluster %s: stored %u records, skipped %u already stored, set "
	      "aside %u (up to %" PRIu64 ")", s.cluster, s.stored, s.skipped,
	      s.set_aside, acked);
	store_reset(&s);
}
