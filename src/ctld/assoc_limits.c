/* assoc_limits.c — counters per association and QOS, and the limits
 * AccountingStorageEnforce asks for (assoc_mgr.h): checked at submit
 * (account, QOS, submit counts, DenyOnLimit) and by the schedulers for
 * each pending job (assoc_mgr_job_reason, one cheap call per job). */
#include <stddef.h>
#include <string.h>
#include <uthash.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/assoc_mgr_int.h"
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

static assoc_qos_t *job_qos(job_record_t *j)
{
	job_lookup(j);
	return j->assoc_cache.qos;
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
	assoc_qos_t *q;

	job_tres(&j->info, t);
	for (assoc_rec_t *a = job_assoc(j); a; a = a->parent)
		apply(&a->usage, t, delta, running);
	if ((q = job_qos(j))) {
		apply(&q->usage, t, delta, running);
		apply(user_usage(s, q, j->info.user_id, true), t, delta,
		      running);
	}
}

void assoc_mgr_job_pending(job_record_t *j, int delta)
{
	am_snap_t *s = am_snap();

	if (s)
		count(s, j, delta, false);
}

void assoc_mgr_job_running(job_record_t *j, int delta)
{
	am_snap_t *s = am_snap();

	if (s)
		count(s, j, delta, true);
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

/* Limits a job breaks on its own, whatever else runs (DenyOnLimit
 * refuses these at submit). */
static uint32_t qos_job_limits(const assoc_qos_t *q, uint32_t time_limit,
			       const uint64_t t[])
{
	int k;

	if (q->max_wall != ASSOC_NO_LIMIT && time_limit != INFINITE32 &&
	    time_limit != NO_VAL32 && time_limit > q->max_wall)
		return WAIT_QOS_MAX_WALL_PER_JOB;
	if ((k = tres_over(&q->max_tres, t)) >= 0)
		return qos_max_pj[k];
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
	return WAIT_NO_REASON;
}

static uint32_t assoc_job_limits(const assoc_rec_t *a, uint32_t time_limit,
				 const uint64_t t[])
{
	uint64_t wall = a->eff_max_wall, per_node[ASSOC_TRES_CNT];
	int k;

	if (wall != ASSOC_NO_LIMIT && time_limit != INFINITE32 &&
	    time_limit != NO_VAL32 && time_limit > wall)
		return WAIT_ASSOC_MAX_WALL_PER_JOB;
	if ((k = tres_over(&a->eff_max_tres, t)) >= 0)
		return assoc_max_pj[k];
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
	return WAIT_NO_REASON;
}

uint32_t assoc_mgr_job_reason(job_record_t *j, time_t now)
{
	uint32_t enforce = assoc_mgr_enforce();
	am_snap_t *s = am_snap();
	uint64_t t[ASSOC_TRES_CNT];
	assoc_qos_t *q;
	assoc_rec_t *a;
	uint32_t r = WAIT_NO_REASON;

	(void)now;
	if (!s || !(enforce & (ACCT_ENFORCE_LIMITS | ACCT_ENFORCE_QOS)))
		return WAIT_NO_REASON;
	job_tres(&j->info, t);
	if ((enforce & ACCT_ENFORCE_QOS) && (q = job_qos(j)) && q->has_limits)
		r = qos_reason(j, s, q, t);
	if (r == WAIT_NO_REASON && (enforce & ACCT_ENFORCE_LIMITS) &&
	    s->assocs_limited && (a = job_assoc(j)))
		r = assoc_reason(j, a, t);
	return r;
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

static int check_submit_counts(const assoc_rec_t *a, assoc_qos_t *q,
			       uid_t uid, char **msg)
{
	am_snap_t *s = am_snap();
	assoc_usage_t *uu;

	if (q && (assoc_mgr_enforce() & ACCT_ENFORCE_QOS)) {
		uu = user_usage(s, q, uid, false);
		if (uu && over(q->max_submit_pu, uu->submit_jobs, 1))
			return deny(msg, ESLURM_ACCOUNTING_POLICY,
				    WAIT_QOS_MAX_SUBMIT_PER_USER);
		if (over(q->grp_submit, q->usage.submit_jobs, 1))
			return deny(msg, ESLURM_ACCOUNTING_POLICY,
				    WAIT_QOS_GRP_SUBMIT);
	}
	if (!(assoc_mgr_enforce() & ACCT_ENFORCE_LIMITS))
		return 0;
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

int assoc_mgr_submit_check(job_desc_t *d, uid_t uid, const char *part,
			   uint32_t time_limit, char **msg)
{
	uint32_t enforce = assoc_mgr_enforce();
	assoc_user_t *u = assoc_mgr_user(uid);
	assoc_rec_t *a;
	assoc_qos_t *q;
	uint64_t t[ASSOC_TRES_CNT];
	uint32_t r;

	if (!assoc_mgr_loaded())
		return (enforce & ACCT_ENFORCE_ASSOCS) ?
			ESLURM_INVALID_ACCOUNT : 0;
	if ((!d->account || !*d->account) && u && *u->default_acct) {
		xfree(d->account);
		d->account = xstrdup(u->default_acct);
	}
	if (d->account)
		xstrtolower(d->account);
	a = assoc_mgr_find(uid, d->account, part);
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
	if (check_submit_counts(a, q, uid, msg))
		return ESLURM_ACCOUNTING_POLICY;
	if (!(q->flags & ASSOC_QOS_DENY_ON_LIMIT))
		return 0;
	/* DenyOnLimit: what would keep it pending forever refuses it */
	desc_tres(d, t);
	r = qos_job_limits(q, time_limit, t);
	if (r == WAIT_NO_REASON && (enforce & ACCT_ENFORCE_LIMITS))
		r = assoc_job_limits(a, time_limit, t);
	if (r != WAIT_NO_REASON)
		return deny(msg, ESLURM_ACCOUNTING_POLICY, r);
	return 0;
}
