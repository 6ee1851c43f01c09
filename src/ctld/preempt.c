/* preempt.c — job preemption (preempt.h).
 *
 * The search works on a copy of the scheduler's view: jobs already being
 * preempted give their resources back in it first (if that is enough,
 * nothing more is preempted); then the candidates, in preference order,
 * as a prefix found by binary search (more released never fits less),
 * and that prefix is pruned of jobs it does not need.  A suspended
 * victim gives back only its CPUs, as a suspended job does.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/conf.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/controller.h"
#include "ctld/job_ckpt.h"
#include "ctld/job_res.h"
#include "ctld/job_view_fill.h"
#include "ctld/preempt.h"

_Static_assert(PREEMPT_VIEW_MODE_SUSPEND == PREEMPT_MODE_SUSPEND &&
	       PREEMPT_VIEW_MODE_REQUEUE == PREEMPT_MODE_REQUEUE &&
	       PREEMPT_VIEW_MODE_CANCEL == PREEMPT_MODE_CANCEL,
	       "preempt_plugin.h's modes are enum preempt_mode's");

static const preempt_ops_t pe_none_ops;

static struct {
	const slurm_conf_t *conf;   /* the config the values below are from */
	bool     enabled;
	int      mode;              /* global PreemptMode */
	uint32_t exempt;            /* PreemptExemptTime, s */
	plugin_ctx_t        *ctx;
	const preempt_ops_t *ops;
	bool     builtin;           /* ops compiled in: record-only views */
} pe = { .ops = &pe_none_ops, .builtin = true };

int preempt_mode_parse(const char *s)
{
	char **w;
	int mode = PREEMPT_MODE_OFF;

	if (!s)
		return mode;
	w = xstrsplit(s, ",", NULL);
	for (size_t i = 0; w[i]; i++) {
		if (!strcasecmp(w[i], "CANCEL"))
			mode = PREEMPT_MODE_CANCEL;
		else if (!strcasecmp(w[i], "REQUEUE"))
			mode = PREEMPT_MODE_REQUEUE;
		else if (!strcasecmp(w[i], "SUSPEND"))
			mode = PREEMPT_MODE_SUSPEND;
		else if (!strcasecmp(w[i], "CHECKPOINT"))
			mode = PREEMPT_MODE_CHECKPOINT;
	}
	xstrarray_free(w);
	return mode;
}

/* PreemptType, checked by ctld_plugins_check at start and before a
 * reconfigure: a plugin whose init fails leaves the old one. */
static void _pe_plugin(const slurm_conf_t *c)
{
	const char *type = conf_get_set(c, "PreemptType");

	if (plugin_ctx_replace(&pe.ctx, &preempt_plugin_type,
			       type && *type ? type : "preempt/none",
			       c->plugin_dir, "preempt/none")) {
		pe.ops = plugin_ctx_ops(pe.ctx, 0);
		pe.builtin = plugin_ctx_builtin(pe.ctx, 0);
	}
}

static void _pe_load(void)
{
	const slurm_conf_t *c = ctld_conf();
	const char *ex;

	if (pe.conf == c)
		return;
	pe.conf = c;
	_pe_plugin(c);
	pe.mode = preempt_mode_parse(conf_get(c, "PreemptMode"));
	pe.enabled = pe.ops->preempts && pe.mode != PREEMPT_MODE_OFF;
	ex = conf_get(c, "PreemptExemptTime");
	if (!ex || parse_duration_sec(ex, &pe.exempt) < 0)
		pe.exempt = 0;
}

bool preempt_enabled(void)
{
	_pe_load();
	return pe.enabled;
}

/* ---- the built-ins ---- */

/* The built-ins read the controller's record behind a view. */
#define REC(v) ((const job_record_t *) (v)->ctld)

/* preempt/qos: the QOS of a job (NULL: none known) */
static const assoc_qos_t *_pe_qos(const job_record_t *j)
{
	return j->info.qos && *j->info.qos ? assoc_mgr_qos(j->info.qos) : NULL;
}

static uint32_t _pp_tier(const job_view_t *v)
{
	const job_record_t *j = REC(v);

	return j->part ? j->part->info.priority_tier : 0;
}

static bool _pp_preempts(const job_view_t *j, const job_view_t *r)
{
	return _pp_tier(r) < _pp_tier(j);
}

static int _pp_mode(const job_view_t *r)
{
	return preempt_part_mode(REC(r)->part);
}

static uint32_t _pp_grace(const job_view_t *v)
{
	const job_record_t *r = REC(v);

	return r->part ? r->part->info.grace_time : 0;
}

static uint32_t _qos_tier(const job_view_t *v)
{
	const assoc_qos_t *q = _pe_qos(REC(v));

	return q ? q->priority : 0;
}

/* Is r's QOS in the Preempt list of j's? */
static bool _qos_preempts(const job_view_t *j, const job_view_t *r)
{
	const assoc_qos_t *jq = _pe_qos(REC(j)), *rq = _pe_qos(REC(r));

	if (!jq || !rq || jq == rq)
		return false;
	for (size_t k = 0; jq->preempt && jq->preempt[k]; k++)
		if (!strcasecmp(jq->preempt[k], rq->name))
			return true;
	return false;
}

static int _qos_mode(const job_view_t *r)
{
	return pe.mode;
}

static uint32_t _qos_grace(const job_view_t *r)
{
	const assoc_qos_t *q = _pe_qos(REC(r));

	return q && q->grace_time < UINT32_MAX ? (uint32_t) q->grace_time : 0;
}

static const preempt_ops_t pe_none_ops;
static const preempt_ops_t pe_pp_ops = {
	.preempts = _pp_preempts, .tier = _pp_tier, .mode = _pp_mode,
	.grace = _pp_grace,
};
static const preempt_ops_t pe_qos_ops = {
	.preempts = _qos_preempts, .tier = _qos_tier, .mode = _qos_mode,
	.grace = _qos_grace,
};
#define PE_PLUGIN(n, o) { .type = "preempt", .name = n, \
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = PREEMPT_OPS_VERSION, \
	.ops = &(o) }
static const struct sluice_plugin pe_none = PE_PLUGIN("none", pe_none_ops);
static const struct sluice_plugin pe_partition_prio =
	PE_PLUGIN("partition_prio", pe_pp_ops);
static const struct sluice_plugin pe_qos = PE_PLUGIN("qos", pe_qos_ops);
#undef PE_PLUGIN
static const struct sluice_plugin *const pe_builtins[] = {
	&pe_none, &pe_partition_prio, &pe_qos, NULL,
};
const plugin_type_t preempt_plugin_type = {
	.type = "preempt", .key = "PreemptType",
	.ops_version = PREEMPT_OPS_VERSION, .builtins = pe_builtins,
};

/* A built-in reads the record behind the view; any other plugin gets
 * every member. */
static void _pe_view(job_view_t *v, const job_record_t *j)
{
	if (pe.builtin)
		job_view_fill_builtin(v, &j->info, j);
	else
		job_view_fill(v, &j->info, j);
}

/* The mode, GraceTime and tier of a job as the plugin says (it sees
 * the job's view). */
static int _pe_mode(const job_record_t *r)
{
	job_view_t v = { 0 };

	if (!pe.ops->mode)
		return PREEMPT_MODE_OFF;
	_pe_view(&v, r);
	return pe.ops->mode(&v);
}

static uint32_t _pe_grace(const job_record_t *r)
{
	job_view_t v = { 0 };

	if (!pe.ops->grace)
		return 0;
	_pe_view(&v, r);
	return pe.ops->grace(&v);
}

static uint32_t _pe_tier(const job_record_t *j)
{
	job_view_t v = { 0 };

	if (!pe.ops->tier)
		return 0;
	_pe_view(&v, j);
	return pe.ops->tier(&v);
}

static bool _pe_preempts(const job_record_t *j, const job_record_t *r)
{
	job_view_t jv = { 0 }, rv = { 0 };

	_pe_view(&jv, j);
	_pe_view(&rv, r);
	return pe.ops->preempts(&jv, &rv);
}

int preempt_part_mode(const part_record_t *part)
{
	_pe_load();
	if (part && part->info.preempt_mode)
		return preempt_mode_parse(part->info.preempt_mode);
	return pe.mode;
}

void preempt_job_started(job_record_t *j)
{
	job_info_t *i = &j->info;

	i->preempt_time = 0;
	i->preempt_susp = false;
	i->preemptable_time = preempt_enabled() ?
		i->start_time + (time_t) pe.exempt : 0;
}

/* ---- the search ---- */

typedef struct {
	const select_node_t *base;
	select_node_t       *v;
	bitmap_t           **ids;    /* own CPU-id bitmaps, per node */
	size_t               n;
} pe_view_t;

static void _pe_pv_init(pe_view_t *pv, const select_node_t *base, size_t n)
{
	pv->base = base;
	pv->n = n;
	pv->v = xcalloc(n + 1, sizeof(*pv->v));
	pv->ids = xcalloc(n + 1, sizeof(*pv->ids));
}

static void _pe_pv_free(pe_view_t *pv)
{
	for (size_t i = 0; i < pv->n; i++)
		if (pv->ids[i])
			bitmap_destroy(pv->ids[i]);
	xfree(pv->ids);
	xfree(pv->v);
}

/* j gives back its share in the view (only CPUs if cpus_only). */
static void _pe_pv_release(pe_view_t *pv, const job_record_t *j, bool cpus_only)
{
	long i, k = 0;

	for (i = bitmap_first_set(j->node_bitmap); i >= 0 &&
	     (size_t) i < pv->n && (uint32_t) k < j->alloc_cnt;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
		select_node_t *s = &pv->v[i];
		const bitmap_t *ids = j->node_cpu_ids ? j->node_cpu_ids[k] :
			NULL;

		s->alloc_cpus = s->alloc_cpus > j->node_cpus[k] ?
			s->alloc_cpus - j->node_cpus[k] : 0;
		if (!cpus_only) {
			s->alloc_memory = s->alloc_memory > j->node_mem[k] ?
				s->alloc_memory - j->node_mem[k] : 0;
			if (j->node_gpus)
				s->gpu_used &= ~j->node_gpus[k];
		}
		if (!ids || !s->cpu_used ||
		    bitmap_size(ids) != bitmap_size(s->cpu_used))
			continue;
		if (s->cpu_used != pv->ids[i]) {
			if (!pv->ids[i]) {
				pv->ids[i] = bitmap_copy(s->cpu_used);
			} else {
				bitmap_clear_all(pv->ids[i]);
				bitmap_or(pv->ids[i], s->cpu_used);
			}
			s->cpu_used = pv->ids[i];
		}
		bitmap_and_not(pv->ids[i], ids);
	}
}

static bool _pe_cpus_only(const job_record_t *j)
{
	return _pe_mode(j) == PREEMPT_MODE_SUSPEND;
}

/* The view with the releasing jobs and the first cnt candidates gone
 * (skip: one of them left in, or -1). */
static void _pe_pv_build(pe_view_t *pv, job_record_t **rel, size_t rel_cnt,
		      job_record_t **cand, size_t cnt, long skip)
{
	memcpy(pv->v, pv->base, pv->n * sizeof(*pv->v));
	for (size_t k = 0; k < rel_cnt; k++)
		_pe_pv_release(pv, rel[k], false);
	for (size_t k = 0; k < cnt; k++)
		if ((long) k != skip)
			_pe_pv_release(pv, cand[k], _pe_cpus_only(cand[k]));
}

static bool _pe_fits(job_record_t *j, pe_view_t *pv, const bitmap_t *usable)
{
	select_result_t res = { 0 };

	if (job_res_select(j, pv->v, pv->n, usable, false, &res) != SELECT_OK)
		return false;
	select_result_free(&res);
	return true;
}

/* Lowest tier first, then lowest priority, then the youngest. */
static int _pe_cand_cmp(const void *a, const void *b)
{
	const job_record_t *x = *(job_record_t *const *) a;
	const job_record_t *y = *(job_record_t *const *) b;

	if (_pe_tier(x) != _pe_tier(y))
		return _pe_tier(x) < _pe_tier(y) ? -1 : 1;
	if (x->info.priority != y->info.priority)
		return x->info.priority < y->info.priority ? -1 : 1;
	if (x->info.start_time != y->info.start_time)
		return x->info.start_time > y->info.start_time ? -1 : 1;
	return x->info.job_id > y->info.job_id ? -1 : 1;
}

/* Running, or waiting for its gang time slice (it holds its CPUs). */
static bool _pe_running(const job_record_t *r)
{
	return r->node_bitmap && r->alloc_cnt &&
	       (r->info.job_state == JOB_RUNNING ||
		(r->info.job_state == JOB_SUSPENDED && r->gang_susp));
}

/* r may be preempted by j: a running job of a lower tier whose
 * partition allows it, past PreemptExemptTime, on nodes j may use. */
static bool _pe_may_preempt(const job_record_t *j, const job_record_t *r,
			 const bitmap_t *nodes, time_t now)
{
	if (r == j || !_pe_running(r) || r->info.preempt_time || !r->part ||
	    !j->part)
		return false;
	if (!_pe_preempts(j, r))
		return false;
	if (_pe_mode(r) == PREEMPT_MODE_OFF)
		return false;
	if (pe.exempt && now < r->info.start_time + (time_t) pe.exempt)
		return false;
	return bitmap_overlaps(r->node_bitmap, nodes);
}

static void _pe_push(job_record_t ***v, size_t *n, size_t *cap, job_record_t *j)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;

		*v = xrealloc_sz(*v, *cap * sizeof(**v), nc * sizeof(**v));
		*cap = nc;
	}
	(*v)[(*n)++] = j;
}

/* Nodes of every partition j may run in. */
static bitmap_t *_pe_job_nodes(job_record_t *j, const bitmap_t *usable)
{
	bitmap_t *b = bitmap_create(bitmap_size(usable));

	if (!j->part_cnt)
		job_res_attach_parts(j);
	for (uint32_t k = 0; k < j->part_cnt; k++)
		bitmap_or(b, j->part_list[k]->node_bitmap);
	if (!j->part_cnt && j->part)
		bitmap_or(b, j->part->node_bitmap);
	bitmap_and(b, usable);
	return b;
}

static void _pe_act(job_record_t *r, job_record_t *by, time_t now);

bool preempt_for(job_record_t *j, const select_node_t *view, size_t node_cnt,
		 const bitmap_t *usable)
{
	job_record_t **rel = NULL, **cand = NULL, *r;
	size_t rel_cnt = 0, rel_cap = 0, cnt = 0, cap = 0, lo, hi, k;
	time_t now = time(NULL);
	bitmap_t *nodes;
	pe_view_t pv;
	bool ok = false;

	if (!preempt_enabled() || !j->part)
		return false;
	nodes = _pe_job_nodes(j, usable);
	for (r = job_mgr_running_first(); r; r = r->run_next) {
		if (r->info.preempt_time && r->node_bitmap &&
		    bitmap_overlaps(r->node_bitmap, nodes))
			_pe_push(&rel, &rel_cnt, &rel_cap, r);
		else if (_pe_may_preempt(j, r, nodes, now))
			_pe_push(&cand, &cnt, &cap, r);
	}
	bitmap_destroy(nodes);
	if (!rel_cnt && !cnt)
		return false;
	_pe_pv_init(&pv, view, node_cnt);
	/* what is being freed already may be enough */
	_pe_pv_build(&pv, rel, rel_cnt, NULL, 0, -1);
	if (rel_cnt && _pe_fits(j, &pv, usable)) {
		ok = true;
		goto out;
	}
	_pe_pv_build(&pv, rel, rel_cnt, cand, cnt, -1);
	if (!cnt || !_pe_fits(j, &pv, usable))
		goto out;
	qsort(cand, cnt, sizeof(*cand), _pe_cand_cmp);
	/* shortest prefix that fits */
	for (lo = 1, hi = cnt; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		_pe_pv_build(&pv, rel, rel_cnt, cand, mid, -1);
		if (_pe_fits(j, &pv, usable))
			hi = mid;
		else
			lo = mid + 1;
	}
	cnt = lo;
	/* drop the ones the start does not need (the last one it does) */
	for (k = cnt - 1; k-- > 0;) {
		_pe_pv_build(&pv, rel, rel_cnt, cand, cnt, (long) k);
		if (!_pe_fits(j, &pv, usable))
			continue;
		memmove(&cand[k], &cand[k + 1], (cnt - k - 1) * sizeof(*cand));
		cnt--;
	}
	for (k = 0; k < cnt; k++)
		_pe_act(cand[k], j, now);
	ok = true;
out:
	_pe_pv_free(&pv);
	xfree(rel);
	xfree(cand);
	return ok;
}

/* ---- acting on a victim ---- */

static void _pe_finish(job_record_t *r, int mode, uint32_t by)
{
	if (mode == PREEMPT_MODE_CHECKPOINT && job_ckpt_pending(r)) {
		info("preempted JobId=%u has been checkpointed and requeued to "
		     "reclaim resources for JobId=%u", r->info.job_id, by);
		job_ckpt_requeue_now(r);
		return;
	}
	if (mode == PREEMPT_MODE_REQUEUE && !job_mgr_preempt_requeue(r)) {
		info("preempted JobId=%u has been requeued to reclaim resources "
		     "for JobId=%u", r->info.job_id, by);
		return;
	}
	info("preempted JobId=%u has been killed to reclaim resources for "
	     "JobId=%u", r->info.job_id, by);
	job_mgr_end(r, JOB_PREEMPTED, WAIT_NO_REASON, SIGKILL);
}

static void _pe_act(job_record_t *r, job_record_t *by, time_t now)
{
	job_info_t *i = &r->info;
	int mode = _pe_mode(r);
	uint32_t grace = _pe_grace(r);

	if (mode == PREEMPT_MODE_SUSPEND && r->gang_susp) {
		/* out of the gang's turns: its CPUs go to the preemptor */
		r->gang_susp = false;
		job_mgr_suspend_res(r, false);
	} else if (mode == PREEMPT_MODE_SUSPEND) {
		job_mgr_suspend_job(r, true, now);
	}
	if (mode == PREEMPT_MODE_SUSPEND) {
		i->preempt_susp = true;
		job_mgr_touch(r);
		info("preempted JobId=%u has been suspended to reclaim resources "
		     "for JobId=%u", i->job_id, by->info.job_id);
		return;
	}
	i->preempt_time = now;
	r->preempt_by = by->info.job_id;
	job_mgr_touch(r);
	if (mode == PREEMPT_MODE_CHECKPOINT &&
	    job_ckpt_preempt(r, grace, by->info.job_id)) {
		/* requeued when it ends or at its checkpoint deadline */
		info("preempt: JobId=%u to be checkpointed for JobId=%u",
		     i->job_id, by->info.job_id);
		return;
	}
	if (!grace) {
		_pe_finish(r, mode, by->info.job_id);
		return;
	}
	/* GraceTime: the steps are told now, the job ends at its new end */
	i->end_time = now + (time_t) grace;
	job_mgr_signal_nodes(r, SIGCONT, 0);
	job_mgr_signal_nodes(r, SIGTERM, 0);
	info("preempt: JobId=%u to be preempted for JobId=%u in %u s", i->job_id,
	     by->info.job_id, grace);
}

void preempt_tick(time_t now)
{
	job_record_t *r, *next;

	for (r = job_mgr_running_first(); r; r = next) {
		next = r->run_next;
		if (!r->info.preempt_time || !_pe_running(r) ||
		    now < r->info.end_time)
			continue;
		if (job_ckpt_pending(r))   /* job_ckpt_tick's, at its deadline */
			continue;
		r->info.preempt_time = now;
		_pe_finish(r, _pe_mode(r), r->preempt_by);
	}
}

/* ---- resuming ---- */

/* Every CPU id r had on its nodes is free, and the counts fit. */
static bool _pe_cpus_free(const job_record_t *r)
{
	long i, k = 0;

	for (i = bitmap_first_set(r->node_bitmap); i >= 0 &&
	     (uint32_t) k < r->alloc_cnt;
	     i = bitmap_next_set(r->node_bitmap, i + 1), k++) {
		const node_record_t *n = node_mgr_at(i);
		const bitmap_t *ids = r->node_cpu_ids ? r->node_cpu_ids[k] :
			NULL;

		if (n->info.alloc_cpus + r->node_cpus[k] > n->info.cpus)
			return false;
		if (ids && n->cpu_used &&
		    bitmap_size(ids) == bitmap_size(n->cpu_used) &&
		    bitmap_overlaps(ids, n->cpu_used))
			return false;
	}
	return true;
}

void preempt_resume_suspended(void)
{
	job_record_t *r;

	for (r = job_mgr_running_first(); r; r = r->run_next) {
		if (!r->info.preempt_susp ||
		    (r->info.job_state & JOB_STATE_BASE) != JOB_SUSPENDED ||
		    (r->info.job_state & JOB_COMPLETING) || !_pe_cpus_free(r))
			continue;
		info("preempt: resuming JobId=%u", r->info.job_id);
		job_mgr_suspend_job(r, false, time(NULL));
	}
}
