/* assoc_limits.c — counters per association and QOS, and the limits
 * AccountingStorageEnforce asks for (assoc_mgr.h): checked at submit
 * (account, QOS, submit counts, DenyOnLimit) and by the schedulers for
 * each pending job (assoc_mgr_job_reason, one cheap call per job).
 * A job is under up to two QOS: its own and its partition's (QOS= in
 * slurm.conf); both count it, and the limits of both apply through the
 * same functions (job_qos_limits() gives them in precedence order). */
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include <uthash.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/assoc_mgr_int.h"
#include "ctld/fairshare.h"
#include "ctld/job_mgr.h"
#include "slurm/slurm_errno.h"

struct am_user_usage {
	uint64_t       key;        /* qos id << 32 | uid */
	assoc_usage_t  usage;
	UT_hash_handle hh;
};

/* ---- a job's TRES, association and QOS ---- */

static void job_tres(const job_info_t *i, uint64_t t[ASSOC_TRES_CNT])
{
	uint64_t mem = i->pn_min_memory;

	if (mem == NO_VAL64)
		mem = 0;
	t[ASSOC_TRES_CPU] = i->num_cpus;
	t[ASSOC_TRES_NODE] = i->num_nodes ? i->num_nodes : 1;
	t[ASSOC_TRES_MEM] = mem * (i->mem_per_cpu ? i->num_cpus :
				   t[ASSOC_TRES_NODE]);
}

static const char *job_part(const job_record_t *j)
{
	return j->part ? j->part->info.name : j->info.partition;
}

/* (no allocation: fair-share asks for each running job at each charge) */
assoc_qos_t *assoc_mgr_part_qos(const part_record_t *p)
{
	char name[256];
	size_t i;

	if (!p || !p->info.qos_char || !*p->info.qos_char)
		return NULL;
	for (i = 0; p->info.qos_char[i] && i < sizeof(name) - 1; i++)
		name[i] = (char)tolower((unsigned char)p->info.qos_char[i]);
	if (p->info.qos_char[i])
		return NULL;            /* longer than any QOS name */
	name[i] = '\0';
	return assoc_mgr_qos(name);
}

/* The job's association and QOS, looked up once per snapshot (the
 * scheduler asks for every pending job in every pass). */
static void job_lookup(job_record_t *j)
{
	typeof(j->assoc_cache) *c = &j->assoc_cache;
	uint64_t gen = assoc_mgr_generation();

	if (c->gen == gen && c->acct_key == j->info.account &&
	    c->qos_key == j->info.qos && c->part_key == (void *)j->part)
		return;
	c->assoc = assoc_mgr_find(j->info.user_id, j->info.account,
				  job_part(j));
	c->qos = assoc_mgr_qos(j->info.qos && *j->info.qos ? j->info.qos :
			       "normal");
	c->part_qos = assoc_mgr_part_qos(j->part);
	c->acct_key = j->info.account;
	c->qos_key = j->info.qos;
	c->part_key = j->part;
	c->gen = gen;
}

static assoc_rec_t *job_assoc(job_record_t *j)
{
	job_lookup(j);
	return j->assoc_cache.assoc;
}

/* The QOS whose limits apply, in precedence order: the partition's
 * (pq) first unless the job's own (q) has OverPartQOS; a QOS once.
 * How many there are (0-2). */
static int qos_order(assoc_qos_t *q, assoc_qos_t *pq, assoc_qos_t *v[2])
{
	int n = 0;

	if (pq == q)
		pq = NULL;
	if (pq && !(q && (q->flags & ASSOC_QOS_OVER_PART_QOS)))
		v[n++] = pq;
	if (q)
		v[n++] = q;
	if (pq && n < 2 && v[0] != pq)
		v[n++] = pq;
	return n;
}

static int job_qos_limits(job_record_t *j, assoc_qos_t *v[2])
{
	job_lookup(j);
	return qos_order(j->assoc_cache.qos, j->assoc_cache.part_qos, v);
}

static void lim_mask(uint64_t *v, uint64_t first)
{
	if (first != ASSOC_NO_LIMIT)
		*v = ASSOC_NO_LIMIT;
}

static void tres_mask(assoc_tres_t *t, const assoc_tres_t *first)
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		lim_mask(&t->v[k], first->v[k]);
}

/* The i-th QOS of v as its limits are in force: the second one's less
 * each limit the first sets (where a limit is set first is where it is
 * taken from).  Usage and id stay its own; m is the storage. */
static const assoc_qos_t *qos_in_force(assoc_qos_t *const v[2], int i,
				       assoc_qos_t *m)
{
	const assoc_qos_t *first = v[0];

	if (i == 0)
		return v[0];
	*m = *v[1];
	lim_mask(&m->grp_jobs, first->grp_jobs);
	lim_mask(&m->grp_submit, first->grp_submit);
	lim_mask(&m->grp_wall, first->grp_wall);
	lim_mask(&m->max_jobs_pu, first->max_jobs_pu);
	lim_mask(&m->max_submit_pu, first->max_submit_pu);
	lim_mask(&m->max_wall, first->max_wall);
	tres_mask(&m->grp_tres, &first->grp_tres);
	tres_mask(&m->max_tres, &first->max_tres);
	tres_mask(&m->max_tres_pu, &first->max_tres_pu);
	tres_mask(&m->grp_tres_mins, &first->grp_tres_mins);
	tres_mask(&m->grp_tres_run_mins, &first->grp_tres_run_mins);
	tres_mask(&m->max_tres_mins, &first->max_tres_mins);
	return m;
}

/* ---- saturating arithmetic ---- */

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void tusage_move(assoc_time_usage_t *u, const uint64_t secs[],
			int delta)
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		u->run_secs[k] = delta > 0 ? add_sat(u->run_secs[k], secs[k]) :
			u->run_secs[k] - (u->run_secs[k] < secs[k] ?
					  u->run_secs[k] : secs[k]);
}

/* ---- counters ---- */

static assoc_usage_t *user_usage(am_snap_t *s, const assoc_qos_t *q,
				 uid_t uid, bool create)
{
	uint64_t key = (uint64_t)q->id << 32 | (uint32_t)uid;
	struct am_user_usage *e;

	HASH_FIND(hh, s->qos_user_usage, &key, sizeof(key), e);
	if (!e && create) {
		e = xmalloc(sizeof(*e));
		e->key = key;
		HASH_ADD(hh, s->qos_user_usage, key, sizeof(key), e);
	}
	return e ? &e->usage : NULL;
}

static void add_u32(uint32_t *v, int delta)
{
	if (delta < 0 && *v < (uint32_t)-delta)
		*v = 0;
	else
		*v += delta;
}

static void apply(assoc_usage_t *u, const uint64_t t[ASSOC_TRES_CNT],
		  int delta, bool running)
{
	if (!running) {
		add_u32(&u->submit_jobs, delta);
		return;
	}
	add_u32(&u->submit_jobs, delta);
	add_u32(&u->run_jobs, delta);
	for (int k = 0; k < ASSOC_TRES_CNT; k++) {
		if (delta > 0)
			u->run_tres[k] += t[k];
		else
			u->run_tres[k] -= u->run_tres[k] < t[k] ?
				u->run_tres[k] : t[k];
	}
}

static void count(am_snap_t *s, job_record_t *j, int delta, bool running)
{
	uint64_t t[ASSOC_TRES_CNT];
	assoc_qos_t *v[2];
	int n = job_qos_limits(j, v);

	job_tres(&j->info, t);
	for (assoc_rec_t *a = job_assoc(j); a; a = a->parent)
		apply(&a->usage, t, delta, running);
	for (int i = 0; i < n; i++) {
		apply(&v[i]->usage, t, delta, running);
		apply(user_usage(s, v[i], j->info.user_id, true), t, delta,
		      running);
	}
}

void assoc_mgr_job_pending(job_record_t *j, int delta)
{
	am_snap_t *s = am_snap();

	if (s)
		count(s, j, delta, false);
}

/* A job started (+1) or stopped (-1) between two recounts: its
 * remaining TRES-seconds move at once (the recount once a second puts
 * everything right again). */
static void tusage_job(job_record_t *j, int delta, time_t now)
{
	uint64_t t[ASSOC_TRES_CNT], secs;
	assoc_qos_t *v[2];
	int n = job_qos_limits(j, v);

	job_tres(&j->info, t);
	secs = assoc_limits_secs_left(j->info.time_limit, j->info.start_time,
				      now);
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		t[k] = mul_sat(t[k], secs);
	for (assoc_rec_t *a = job_assoc(j); a; a = a->parent)
		tusage_move(&a->tusage, t, delta);
	for (int i = 0; i < n; i++)
		tusage_move(&v[i]->tusage, t, delta);
}

void assoc_mgr_job_running(job_record_t *j, int delta)
{
	am_snap_t *s = am_snap();

	if (s) {
		count(s, j, delta, true);
		if (s->time_limited && s->tusage_time)
			tusage_job(j, delta, time(NULL));
	}
}

void am_usage_free(am_snap_t *s)
{
	struct am_user_usage *e, *tmp;

	HASH_ITER(hh, s->qos_user_usage, e, tmp) {
		HASH_DEL(s->qos_user_usage, e);
		xfree(e);
	}
}

void am_usage_recount(am_snap_t *s)
{
	job_record_t *j;

	for (j = job_mgr_pending_first(); j; j = j->pend_next)
		count(s, j, 1, false);
	for (j = job_mgr_running_first(); j; j = j->run_next)
		count(s, j, 1, true);
}

/* ---- time-based usage ---- */

/* Minutes of a time limit; INFINITE/NO_VAL as Slurm counts them (so
 * large that any TRES-minutes limit is over). */
static uint64_t limit_minutes(uint32_t time_limit)
{
	return time_limit == NO_VAL32 ? (uint64_t)INFINITE32 : time_limit;
}

uint64_t assoc_limits_secs_left(uint32_t time_limit, time_t start,
				time_t now)
{
	uint64_t secs = limit_minutes(time_limit) * 60;
	uint64_t ran = now > start && start ? (uint64_t)(now - start) : 0;

	return secs > ran ? secs - ran : 0;
}

void assoc_limits_tres_mins(const uint64_t t[ASSOC_TRES_CNT],
			    uint32_t time_limit, uint64_t out[ASSOC_TRES_CNT])
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		out[k] = mul_sat(t[k], limit_minutes(time_limit));
}

static void tusage_add(assoc_time_usage_t *u, const uint64_t t[], uint64_t secs)
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		u->run_secs[k] = add_sat(u->run_secs[k], mul_sat(t[k], secs));
}

/* Running jobs' remaining TRES-seconds and the decayed usage of every
 * association (with those below it) and QOS, once per second at most
 * (and again when a job's usage was charged within the second, so the
 * next job sees it) and only while a time-based Grp limit is set. */
static void tusage_refresh_always(am_snap_t *s, time_t now, bool always)
{
	uint64_t version = fairshare_usage_version();
	job_record_t *j;
	double cpu, wall;

	if ((!s->time_limited && !always) ||
	    (s->tusage_time == now && s->tusage_version == version))
		return;
	s->tusage_time = now;
	s->tusage_version = version;
	for (size_t i = 0; i < s->assoc_cnt; i++)
		memset(&s->assocs[i]->tusage, 0, sizeof(assoc_time_usage_t));
	for (size_t i = 0; i < s->qos_cnt; i++) {
		assoc_qos_t *q = s->qos[i];

		memset(&q->tusage, 0, sizeof(q->tusage));
		fairshare_usage(q->id, true, now, &cpu, &wall);
		q->tusage.used_cpu_secs = cpu;
		q->tusage.used_wall_secs = wall;
	}
	for (size_t i = 0; i < s->assoc_cnt; i++) {
		fairshare_usage(s->assocs[i]->id, false, now, &cpu, &wall);
		if (cpu <= 0 && wall <= 0)
			continue;
		for (assoc_rec_t *a = s->assocs[i]; a; a = a->parent) {
			a->tusage.used_cpu_secs += cpu;
			a->tusage.used_wall_secs += wall;
		}
	}
	for (j = job_mgr_running_first(); j; j = j->run_next) {
		uint64_t t[ASSOC_TRES_CNT], secs;
		assoc_qos_t *v[2];
		int n = job_qos_limits(j, v);

		job_tres(&j->info, t);
		secs = assoc_limits_secs_left(j->info.time_limit,
					      j->info.start_time, now);
		for (assoc_rec_t *a = job_assoc(j); a; a = a->parent)
			tusage_add(&a->tusage, t, secs);
		for (int i = 0; i < n; i++)
			tusage_add(&v[i]->tusage, t, secs);
	}
}

static void tusage_refresh(am_snap_t *s, time_t now)
{
	tusage_refresh_always(s, now, false);
}

/* sshare -l: GrpTRESMins as Slurm prints it (TRES by id, mem in MB) and
 * the running jobs' remaining TRES-minutes of every TRES. */
char *assoc_mgr_grp_tres_mins_str(const assoc_rec_t *a)
{
	static const char *const names[] = { "cpu", "mem", "node" };
	char *out = NULL;

	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		if (a->grp_tres_mins.v[k] != ASSOC_NO_LIMIT)
			xstrfmtcat(&out, "%s%s=%" PRIu64, out ? "," : "",
				   names[k], a->grp_tres_mins.v[k]);
	return out ? out : xstrdup("");
}

void am_tusage_now(am_snap_t *s, time_t now)
{
	s->tusage_time = 0;     /* a job may have started within the second */
	tusage_refresh_always(s, now, true);
}

void am_qos_user_usage(am_snap_t *s, const assoc_qos_t *q, am_usage_f cb,
		       void *arg)
{
	struct am_user_usage *e, *tmp;

	HASH_ITER(hh, s->qos_user_usage, e, tmp)
		if ((uint32_t)(e->key >> 32) == q->id)
			cb((uint32_t)e->key, NULL, &e->usage, arg);
}

void am_qos_acct_usage(const assoc_qos_t *q, am_usage_f cb, void *arg)
{
	for (int pass = 0; pass < 2; pass++) {
		job_record_t *j = pass ? job_mgr_running_first()
				       : job_mgr_pending_first();

		for (; j; j = pass ? j->run_next : j->pend_next) {
			assoc_usage_t u = { 0 };
			uint64_t t[ASSOC_TRES_CNT];
			assoc_qos_t *v[2];
			int n = job_qos_limits(j, v);
			assoc_rec_t *a;

			if (!(n > 0 && v[0] == q) && !(n > 1 && v[1] == q))
				continue;
			if (!(a = job_assoc(j)))
				continue;
			job_tres(&j->info, t);
			apply(&u, t, 1, pass == 1);
			cb(0, a->acct, &u, arg);
		}
	}
}

char *assoc_mgr_tres_run_mins_str(assoc_rec_t *a, time_t now)
{
	am_snap_t *s = am_snap();
	uint64_t m[ASSOC_TRES_CNT] = { 0 };

	if (s) {
		tusage_refresh_always(s, now, true);
		for (int k = 0; k < ASSOC_TRES_CNT; k++)
			m[k] = a->tusage.run_secs[k] / 60;
	}
	/* billing is the CPU count without TRESBillingWeights */
	return xstrdup_printf("cpu=%" PRIu64 ",mem=%" PRIu64 ",energy=0,"
			      "node=%" PRIu64 ",billing=%" PRIu64 ",fs/disk=0,"
			      "vmem=0,pages=0", m[ASSOC_TRES_CPU],
			      m[ASSOC_TRES_MEM], m[ASSOC_TRES_NODE],
			      m[ASSOC_TRES_CPU]);
}

/* ---- limits ---- */

static bool over(uint64_t limit, uint64_t used, uint64_t want)
{
	return limit != ASSOC_NO_LIMIT && used + want > limit;
}

static bool tres_any(const assoc_tres_t *lim)
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		if (lim->v[k] != ASSOC_NO_LIMIT)
			return true;
	return false;
}

/* Per-job TRES against a Max*PerJob limit: the first TRES over it. */
static int tres_over(const assoc_tres_t *lim, const uint64_t want[])
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		if (over(lim->v[k], 0, want[k]))
			return k;
	return -1;
}

static int tres_over_used(const assoc_tres_t *lim, const uint64_t used[],
			  const uint64_t want[])
{
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		if (over(lim->v[k], used[k], want[k]))
			return k;
	return -1;
}

/* The reasons by TRES (cpu, mem, node). */
static const uint32_t qos_max_pj[] = { WAIT_QOS_MAX_CPU_PER_JOB,
	WAIT_QOS_MAX_MEM_PER_JOB, WAIT_QOS_MAX_NODE_PER_JOB };
static const uint32_t qos_max_pu[] = { WAIT_QOS_MAX_CPU_PER_USER,
	WAIT_QOS_MAX_MEM_PER_USER, WAIT_QOS_MAX_NODE_PER_USER };
static const uint32_t qos_grp[] = { WAIT_QOS_GRP_CPU, WAIT_QOS_GRP_MEM,
	WAIT_QOS_GRP_NODE };
static const uint32_t assoc_max_pj[] = { WAIT_ASSOC_MAX_CPU_PER_JOB,
	WAIT_ASSOC_MAX_MEM_PER_JOB, WAIT_ASSOC_MAX_NODE_PER_JOB };
static const uint32_t assoc_max_pn[] = { WAIT_ASSOC_MAX_CPU_PER_NODE,
	WAIT_ASSOC_MAX_MEM_PER_NODE, WAIT_NO_REASON };
static const uint32_t assoc_grp[] = { WAIT_ASSOC_GRP_CPU,
	WAIT_ASSOC_GRP_MEM, WAIT_ASSOC_GRP_NODE };
static const uint32_t assoc_grp_min[] = { WAIT_ASSOC_GRP_CPU_MIN,
	WAIT_ASSOC_GRP_MEM_MIN, WAIT_ASSOC_GRP_NODE_MIN };
static const uint32_t assoc_grp_run_min[] = { WAIT_ASSOC_GRP_CPU_RUN_MIN,
	WAIT_ASSOC_GRP_MEM_RUN_MIN, WAIT_ASSOC_GRP_NODE_RUN_MIN };
static const uint32_t assoc_max_min[] = { WAIT_ASSOC_MAX_CPU_MINS_PER_JOB,
	WAIT_ASSOC_MAX_MEM_MINS_PER_JOB, WAIT_ASSOC_MAX_NODE_MINS_PER_JOB };
static const uint32_t qos_grp_min[] = { WAIT_QOS_GRP_CPU_MIN,
	WAIT_QOS_GRP_MEM_MIN, WAIT_QOS_GRP_NODE_MIN };
static const uint32_t qos_grp_run_min[] = { WAIT_QOS_GRP_CPU_RUN_MIN,
	WAIT_QOS_GRP_MEM_RUN_MIN, WAIT_QOS_GRP_NODE_RUN_MIN };
static const uint32_t qos_max_min[] = { WAIT_QOS_MAX_CPU_MINS_PER_JOB,
	WAIT_QOS_MAX_MEM_MINS_PER_JOB, WAIT_QOS_MAX_NODE_MINS_PER_JOB };

/* Time-based Grp limits of one level (an association or a QOS): usage
 * in minutes against GrpTRESMins (only CPU usage is tracked), running
 * jobs' remaining TRES-minutes plus the job's against GrpTRESRunMins,
 * wall minutes against GrpWall.  safe (AccountingStorageEnforce=safe):
 * also the job's own TRES-minutes / time limit must fit in what is
 * left.  want_min: the job's TRES-minutes; tl: its time limit. */
uint32_t assoc_limits_time_grp(const assoc_tres_t *grp_mins,
			       const assoc_tres_t *grp_run_mins,
			       uint64_t grp_wall,
			       const assoc_time_usage_t *u,
			       const uint64_t want_min[ASSOC_TRES_CNT],
			       uint64_t tl, bool safe, bool qos)
{
	uint64_t used_min = (uint64_t)(u->used_cpu_secs / 60.0);
	uint64_t wall_min = (uint64_t)(u->used_wall_secs / 60.0);

	for (int k = 0; k < ASSOC_TRES_CNT; k++) {
		uint64_t lim = grp_mins->v[k];
		uint64_t used = k == ASSOC_TRES_CPU ? used_min : 0;

		if (lim == ASSOC_NO_LIMIT)
			continue;
		if (used >= lim || want_min[k] > lim ||
		    (safe && add_sat(used, want_min[k]) > lim))
			return (qos ? qos_grp_min : assoc_grp_min)[k];
	}
	for (int k = 0; k < ASSOC_TRES_CNT; k++) {
		uint64_t lim = grp_run_mins->v[k];
		uint64_t run = (u->run_secs[k] + 59) / 60;

		if (lim != ASSOC_NO_LIMIT && add_sat(run, want_min[k]) > lim)
			return (qos ? qos_grp_run_min : assoc_grp_run_min)[k];
	}
	if (grp_wall != ASSOC_NO_LIMIT &&
	    (wall_min >= grp_wall || tl > grp_wall ||
	     (safe && add_sat(wall_min, tl) > grp_wall)))
		return qos ? WAIT_QOS_GRP_WALL : WAIT_ASSOC_GRP_WALL;
	return WAIT_NO_REASON;
}

/* Limits a job breaks on its own, whatever else runs (DenyOnLimit
 * refuses these at submit). */
static uint32_t qos_job_limits(const assoc_qos_t *q, uint32_t time_limit,
			       const uint64_t t[])
{
	uint64_t want_min[ASSOC_TRES_CNT];
	int k;

	if (time_limit_over(time_limit, q->max_wall))
		return WAIT_QOS_MAX_WALL_PER_JOB;
	if ((k = tres_over(&q->max_tres, t)) >= 0)
		return qos_max_pj[k];
	assoc_limits_tres_mins(t, time_limit, want_min);
	if ((k = tres_over(&q->max_tres_mins, want_min)) >= 0)
		return qos_max_min[k];
	if ((k = tres_over(&q->max_tres_pu, t)) >= 0)
		return qos_max_pu[k];
	return WAIT_NO_REASON;
}

static uint32_t qos_reason(const job_record_t *j, am_snap_t *s,
			   const assoc_qos_t *q, const uint64_t t[])
{
	const assoc_usage_t *uu = user_usage(s, q, j->info.user_id, false);
	static const assoc_usage_t none;
	uint32_t r = qos_job_limits(q, j->info.time_limit, t);
	int k;

	if (r != WAIT_NO_REASON)
		return r;
	if (!uu)
		uu = &none;
	if (over(q->max_jobs_pu, uu->run_jobs, 1))
		return WAIT_QOS_MAX_JOBS_PER_USER;
	if ((k = tres_over_used(&q->max_tres_pu, uu->run_tres, t)) >= 0)
		return qos_max_pu[k];
	if (over(q->grp_jobs, q->usage.run_jobs, 1))
		return WAIT_QOS_GRP_JOBS;
	if ((k = tres_over_used(&q->grp_tres, q->usage.run_tres, t)) >= 0)
		return qos_grp[k];
	if (s->time_limited) {
		uint64_t want_min[ASSOC_TRES_CNT];

		assoc_limits_tres_mins(t, j->info.time_limit, want_min);
		r = assoc_limits_time_grp(&q->grp_tres_mins,
					  &q->grp_tres_run_mins, q->grp_wall,
					  &q->tusage, want_min,
					  limit_minutes(j->info.time_limit),
					  assoc_mgr_enforce() &
					  ACCT_ENFORCE_SAFE, true);
	}
	return r;
}

static uint32_t assoc_job_limits(const assoc_rec_t *a, uint32_t time_limit,
				 const uint64_t t[])
{
	uint64_t wall = a->eff_max_wall, per_node[ASSOC_TRES_CNT];
	int k;

	if (time_limit_over(time_limit, wall))
		return WAIT_ASSOC_MAX_WALL_PER_JOB;
	if ((k = tres_over(&a->eff_max_tres, t)) >= 0)
		return assoc_max_pj[k];
	if (tres_any(&a->eff_max_tres_mins)) {
		uint64_t want_min[ASSOC_TRES_CNT];

		assoc_limits_tres_mins(t, time_limit, want_min);
		if ((k = tres_over(&a->eff_max_tres_mins, want_min)) >= 0)
			return assoc_max_min[k];
	}
	if (!tres_any(&a->eff_max_tres_pn))
		return WAIT_NO_REASON;
	for (k = 0; k < ASSOC_TRES_CNT; k++)
		per_node[k] = (t[k] + t[ASSOC_TRES_NODE] - 1) /
			t[ASSOC_TRES_NODE];
	per_node[ASSOC_TRES_NODE] = 0;
	if ((k = tres_over(&a->eff_max_tres_pn, per_node)) >= 0)
		return assoc_max_pn[k];
	return WAIT_NO_REASON;
}

static uint32_t assoc_reason(const job_record_t *j, const assoc_rec_t *a,
			     const uint64_t t[])
{
	uint32_t r = assoc_job_limits(a, j->info.time_limit, t);
	uint64_t want_min[ASSOC_TRES_CNT];
	bool safe = assoc_mgr_enforce() & ACCT_ENFORCE_SAFE;
	int k;

	if (r != WAIT_NO_REASON)
		return r;
	if (over(a->eff_max_jobs, a->usage.run_jobs, 1))
		return WAIT_ASSOC_MAX_JOBS;
	for (const assoc_rec_t *x = a; a->grp_limited && x; x = x->parent) {
		if (over(x->grp_jobs, x->usage.run_jobs, 1))
			return WAIT_ASSOC_GRP_JOBS;
		if ((k = tres_over_used(&x->grp_tres, x->usage.run_tres,
					t)) >= 0)
			return assoc_grp[k];
	}
	if (!a->time_limited)
		return WAIT_NO_REASON;
	assoc_limits_tres_mins(t, j->info.time_limit, want_min);
	/* not on root, as Slurm */
	for (const assoc_rec_t *x = a; x && x->parent; x = x->parent) {
		r = assoc_limits_time_grp(&x->grp_tres_mins,
					  &x->grp_tres_run_mins, x->grp_wall,
					  &x->tusage, want_min,
					  limit_minutes(j->info.time_limit),
					  safe, false);
		if (r != WAIT_NO_REASON)
			return r;
	}
	return WAIT_NO_REASON;
}

uint32_t assoc_mgr_job_reason(job_record_t *j, time_t now)
{
	uint32_t enforce = assoc_mgr_enforce();
	am_snap_t *s = am_snap();
	uint64_t t[ASSOC_TRES_CNT];
	assoc_qos_t *v[2], m;
	assoc_rec_t *a;
	uint32_t r = WAIT_NO_REASON;
	int n;

	/* QOS limits too are "limits" (Slurm: "qos" only asks for a
	 * valid QOS) */
	if (!s || !(enforce & ACCT_ENFORCE_LIMITS))
		return WAIT_NO_REASON;
	tusage_refresh(s, now);
	job_tres(&j->info, t);
	n = job_qos_limits(j, v);
	for (int i = 0; i < n && r == WAIT_NO_REASON; i++)
		if (v[i]->has_limits)
			r = qos_reason(j, s, qos_in_force(v, i, &m), t);
	if (r == WAIT_NO_REASON && s->assocs_limited && (a = job_assoc(j)))
		r = assoc_reason(j, a, t);
	return r;
}

/* ---- running jobs ---- */

static bool time_out_level(const job_record_t *j, const char *what,
			   const char *name, const assoc_tres_t *grp_mins,
			   uint64_t grp_wall, const assoc_tres_t *max_mins,
			   const assoc_time_usage_t *u, const uint64_t used[])
{
	uint64_t used_min = (uint64_t)(u->used_cpu_secs / 60.0);
	uint64_t wall_min = (uint64_t)(u->used_wall_secs / 60.0);

	if (grp_mins && grp_mins->v[ASSOC_TRES_CPU] != ASSOC_NO_LIMIT &&
	    used_min >= grp_mins->v[ASSOC_TRES_CPU]) {
		info("Job %u timed out, the job is at or exceeds %s %s's "
		     "group max tres(cpu) minutes of %" PRIu64 " with %"
		     PRIu64, j->info.job_id, what, name,
		     grp_mins->v[ASSOC_TRES_CPU], used_min);
		return true;
	}
	if (grp_wall != ASSOC_NO_LIMIT && wall_min >= grp_wall) {
		info("Job %u timed out, the job is at or exceeds %s %s's "
		     "group wall limit of %" PRIu64 " with %" PRIu64,
		     j->info.job_id, what, name, grp_wall, wall_min);
		return true;
	}
	for (int k = 0; max_mins && k < ASSOC_TRES_CNT; k++)
		if (max_mins->v[k] != ASSOC_NO_LIMIT &&
		    used[k] >= max_mins->v[k]) {
			info("Job %u timed out, the job is at or exceeds %s "
			     "%s's max tres minutes per job of %" PRIu64
			     " with %" PRIu64, j->info.job_id, what, name,
			     max_mins->v[k], used[k]);
			return true;
		}
	return false;
}

bool assoc_mgr_job_time_out(job_record_t *j, time_t now)
{
	am_snap_t *s = am_snap();
	uint64_t t[ASSOC_TRES_CNT], used[ASSOC_TRES_CNT];
	uint64_t mins;
	assoc_qos_t *v[2], m;
	assoc_rec_t *a;
	int n;

	if (!s || !(assoc_mgr_enforce() & ACCT_ENFORCE_LIMITS) ||
	    !j->info.start_time)
		return false;
	a = job_assoc(j);
	n = job_qos_limits(j, v);
	if (!s->time_limited && !(a && tres_any(&a->eff_max_tres_mins)) &&
	    !(n > 0 && tres_any(&v[0]->max_tres_mins)) &&
	    !(n > 1 && tres_any(&v[1]->max_tres_mins)))
		return false;
	tusage_refresh(s, now);
	job_tres(&j->info, t);
	mins = now > j->info.start_time ?
		(uint64_t)(now - j->info.start_time) / 60 : 0;
	for (int k = 0; k < ASSOC_TRES_CNT; k++)
		used[k] = mul_sat(t[k], mins);
	for (int i = 0; i < n; i++) {
		const assoc_qos_t *q = qos_in_force(v, i, &m);

		if (time_out_level(j, "QOS", q->name, &q->grp_tres_mins,
				   q->grp_wall, &q->max_tres_mins, &q->tusage,
				   used))
			return true;
	}
	if (a && time_out_level(j, "assoc", a->acct, NULL, ASSOC_NO_LIMIT,
				&a->eff_max_tres_mins, &a->tusage, used))
		return true;
	for (assoc_rec_t *x = a; x && x->parent && a->time_limited;
	     x = x->parent) {
		char *name = xstrdup_printf("%u(%s/%s)", x->id, x->acct,
					    x->user[0] ? x->user : "(null)");
		bool out = time_out_level(j, "assoc", name, &x->grp_tres_mins,
					  x->grp_wall, NULL, &x->tusage, used);

		xfree(name);
		if (out)
			return true;
	}
	return false;
}

/* ---- at submit ---- */

static bool in_list(char *const *list, const char *name)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* No --qos: the association's DefaultQOS, else "normal" if it may use
 * it, else the first it may use. */
static const char *default_qos(const assoc_rec_t *a)
{
	if (a->def_qos && *a->def_qos)
		return a->def_qos;
	if (!a->qos || !a->qos[0] || in_list(a->qos, "normal"))
		return "normal";
	return a->qos[0];
}

static int deny(char **msg, int rc, uint32_t reason)
{
	if (reason != WAIT_NO_REASON) {
		xfree(*msg);
		*msg = xstrdup(job_reason_string(reason));
	}
	return rc;
}

static int check_submit_counts(const assoc_rec_t *a, assoc_qos_t *const v[2],
			       int n, uid_t uid, char **msg)
{
	am_snap_t *s = am_snap();
	assoc_usage_t *uu;
	assoc_qos_t m;

	for (int i = 0; i < n; i++) {
		const assoc_qos_t *q = qos_in_force(v, i, &m);

		uu = user_usage(s, q, uid, false);
		if (uu && over(q->max_submit_pu, uu->submit_jobs, 1))
			return deny(msg, ESLURM_ACCOUNTING_POLICY,
				    WAIT_QOS_MAX_SUBMIT_PER_USER);
		if (over(q->grp_submit, q->usage.submit_jobs, 1))
			return deny(msg, ESLURM_ACCOUNTING_POLICY,
				    WAIT_QOS_GRP_SUBMIT);
	}
	if (over(a->eff_max_submit, a->usage.submit_jobs, 1))
		return deny(msg, ESLURM_ACCOUNTING_POLICY,
			    WAIT_ASSOC_MAX_SUBMIT);
	for (const assoc_rec_t *x = a; x; x = x->parent)
		if (over(x->grp_submit, x->usage.submit_jobs, 1))
			return deny(msg, ESLURM_ACCOUNTING_POLICY,
				    WAIT_ASSOC_GRP_SUBMIT);
	return 0;
}

/* The job's size as the submit checks see it. */
static void desc_tres(const job_desc_t *d, uint64_t t[ASSOC_TRES_CNT])
{
	job_info_t i = { 0 };

	i.num_cpus = d->min_cpus != NO_VAL32 ? d->min_cpus : 1;
	i.num_nodes = d->min_nodes != NO_VAL32 ? d->min_nodes : 1;
	i.pn_min_memory = d->pn_min_memory;
	i.mem_per_cpu = d->mem_per_cpu;
	job_tres(&i, t);
}

/* A time-based Grp limit of q or a the job breaks on its own (its
 * TRES-minutes or time limit over the limit, whatever the usage). */
static uint32_t time_grp_alone(const assoc_qos_t *q, const assoc_rec_t *a,
			       uint32_t time_limit, const uint64_t t[])
{
	static const assoc_time_usage_t none;
	uint64_t want_min[ASSOC_TRES_CNT];

	assoc_limits_tres_mins(t, time_limit, want_min);
	if (q)
		return assoc_limits_time_grp(&q->grp_tres_mins,
					     &q->grp_tres_run_mins,
					     q->grp_wall, &none, want_min,
					     limit_minutes(time_limit), false,
					     true);
	return assoc_limits_time_grp(&a->grp_tres_mins, &a->grp_tres_run_mins,
				     a->grp_wall, &none, want_min,
				     limit_minutes(time_limit), false, false);
}

/* DenyOnLimit of each QOS (the job's, the partition's) refuses what
 * would keep the job pending forever under that QOS's limits in force. */
static uint32_t qos_deny_on_limit(assoc_qos_t *const v[2], int n,
				  uint32_t time_limit, const uint64_t t[])
{
	uint32_t r = WAIT_NO_REASON;
	assoc_qos_t m;

	for (int i = 0; i < n && r == WAIT_NO_REASON; i++) {
		const assoc_qos_t *q = qos_in_force(v, i, &m);

		if (!(v[i]->flags & ASSOC_QOS_DENY_ON_LIMIT))
			continue;
		r = qos_job_limits(q, time_limit, t);
		if (r == WAIT_NO_REASON)
			r = time_grp_alone(q, NULL, time_limit, t);
	}
	return r;
}

int assoc_mgr_submit_check(job_desc_t *d, uid_t uid,
			   const part_record_t *part, uint32_t time_limit,
			   char **msg)
{
	uint32_t enforce = assoc_mgr_enforce();
	assoc_user_t *u = assoc_mgr_user(uid);
	assoc_rec_t *a;
	assoc_qos_t *q, *v[2];
	uint64_t t[ASSOC_TRES_CNT];
	uint32_t r;
	int n;

	if (!assoc_mgr_loaded())
		return (enforce & ACCT_ENFORCE_ASSOCS) ?
			ESLURM_INVALID_ACCOUNT : 0;
	if ((!d->account || !*d->account) && u && *u->default_acct) {
		xfree(d->account);
		d->account = xstrdup(u->default_acct);
	}
	if (d->account)
		xstrtolower(d->account);
	a = assoc_mgr_find(uid, d->account, part ? part->info.name : NULL);
	if (!a)
		return (enforce & ACCT_ENFORCE_ASSOCS) ?
			ESLURM_INVALID_ACCOUNT : 0;
	if (!d->qos || !*d->qos) {
		xfree(d->qos);
		d->qos = xstrdup(default_qos(a));
	}
	xstrtolower(d->qos);
	q = assoc_mgr_qos(d->qos);
	if (!q || ((enforce & ACCT_ENFORCE_QOS) && a->qos && a->qos[0] &&
		   !in_list(a->qos, d->qos)))
		return (enforce & (ACCT_ENFORCE_QOS | ACCT_ENFORCE_ASSOCS)) ?
			ESLURM_INVALID_QOS : 0;
	if (!(enforce & ACCT_ENFORCE_LIMITS))
		return 0;
	n = qos_order(q, assoc_mgr_part_qos(part), v);
	if (check_submit_counts(a, v, n, uid, msg))
		return ESLURM_ACCOUNTING_POLICY;
	desc_tres(d, t);
	r = qos_deny_on_limit(v, n, time_limit, t);
	if (!(q->flags & ASSOC_QOS_DENY_ON_LIMIT) && r == WAIT_NO_REASON)
		return 0;
	/* the job QOS's DenyOnLimit: the association's limits too */
	if (r == WAIT_NO_REASON)
		r = assoc_job_limits(a, time_limit, t);
	for (const assoc_rec_t *x = a; r == WAIT_NO_REASON && x && x->parent;
	     x = x->parent)
		r = time_grp_alone(NULL, x, time_limit, t);
	if (r != WAIT_NO_REASON)
		return deny(msg, ESLURM_ACCOUNTING_POLICY, r);
	return 0;
}
