/* priority.c — PriorityType's context, priority/basic and
 * priority/multifactor (priority.h).
 *
 * Multifactor: priority = sum of weight x factor (each factor in [0,1])
 * - nice, at least 1.  Factors:
 *   age        time eligible (submit with ACCRUE_ALWAYS) / PriorityMaxAge
 *   fair-share from the accounting hook, 1.0 without one
 *   job size   (nodes / cluster nodes + CPUs / cluster CPUs) / 2;
 *              1 - that with PriorityFavorSmall
 *   partition  PriorityJobFactor / the highest PriorityJobFactor
 *   QOS        the job's QOS Priority / the highest QOS Priority
 *              (assoc_mgr; 0 without accounting)
 *   assoc      0 until association priorities exist
 *   TRES       CPUs, memory, nodes over the cluster's totals
 */
#define _GNU_SOURCE
#include <math.h>
#include <strings.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/controller.h"
#include "ctld/job_mgr.h"
#include "ctld/job_view_fill.h"
#include "ctld/node_mgr.h"
#include "ctld/part_mgr.h"
#include "ctld/priority.h"
#include "ctld/rpc.h"
#include "ctld/site_factor.h"
#include "slurm/slurm_errno.h"

#define PRIO_MAX 0xfffffffeu

static const priority_ops_t prio_basic_ops;

static struct {
	priority_conf_t       pc;
	priority_fairshare_f  fs_hook;
	struct event         *ev;
	time_t                last_calc;
	plugin_ctx_t         *ctx;
	const priority_ops_t *ops;
	priority_totals_t     recalc_tot;  /* during priority_recalc */
	bool                  builtin;     /* ops compiled in */
} pr = { .ops = &prio_basic_ops, .builtin = true };

/* The built-ins read the controller's record behind a view. */
#define REC(v) ((const job_record_t *) (v)->ctld)

/* ---- configuration ---- */

/* A key's value, NULL if unset ("(null)" is how unset ones print). */
static const char *_pr_get(const slurm_conf_t *c, const char *key)
{
	const char *s = conf_get(c, key);

	return s && *s && strcmp(s, "(null)") ? s : NULL;
}

static int _pr_u32(const slurm_conf_t *c, const char *key, uint32_t *v,
		char *err, size_t errlen)
{
	const char *s = _pr_get(c, key);

	*v = 0;
	if (!s)
		return 0;
	if (parse_u32(s, v) < 0) {
		snprintf(err, errlen, "Invalid %s=%s", key, s);
		return -1;
	}
	return 0;
}

static int _pr_mins(const slurm_conf_t *c, const char *key, uint32_t def,
		 uint32_t *secs, char *err, size_t errlen)
{
	const char *s = _pr_get(c, key);
	uint32_t m = def;

	if (s && parse_duration_min(s, &m) < 0) {
		snprintf(err, errlen, "Invalid %s=%s", key, s);
		return -1;
	}
	*secs = m * 60;
	return 0;
}

/* PriorityWeightTRES=CPU=1000,Mem=2000,Node=10 */
static int _pr_tres(priority_conf_t *pc, const char *s, char *err, size_t errlen)
{
	char **items = xstrsplit(s, ",", NULL);
	int rc = 0;

	for (size_t i = 0; items[i] && !rc; i++) {
		char *eq = strchr(items[i], '=');
		uint32_t v;

		if (!*items[i])
			continue;
		if (!eq || parse_u32(eq + 1, &v) < 0) {
			snprintf(err, errlen, "Invalid PriorityWeightTRES %s",
				 items[i]);
			rc = -1;
			break;
		}
		*eq = '\0';
		if (!strcasecmp(items[i], "cpu"))
			pc->w_tres_cpu = v;
		else if (!strcasecmp(items[i], "mem"))
			pc->w_tres_mem = v;
		else if (!strcasecmp(items[i], "node"))
			pc->w_tres_node = v;
	}
	xstrarray_free(items);
	return rc;
}

int priority_conf_load(const slurm_conf_t *c, priority_conf_t *pc, char *err,
		       size_t errlen)
{
	priority_conf_t n = { 0 };
	const char *s;
	bool b;

	if (_pr_u32(c, "PriorityWeightAge", &n.w_age, err, errlen) < 0 ||
	    _pr_u32(c, "PriorityWeightFairshare", &n.w_fs, err, errlen) < 0 ||
	    _pr_u32(c, "PriorityWeightJobSize", &n.w_js, err, errlen) < 0 ||
	    _pr_u32(c, "PriorityWeightPartition", &n.w_part, err, errlen) < 0 ||
	    _pr_u32(c, "PriorityWeightQOS", &n.w_qos, err, errlen) < 0 ||
	    _pr_u32(c, "PriorityWeightAssoc", &n.w_assoc, err, errlen) < 0 ||
	    _pr_mins(c, "PriorityMaxAge", 7 * 1440, &n.max_age, err, errlen) < 0 ||
	    _pr_mins(c, "PriorityCalcPeriod", 5, &n.calc_period, err, errlen) < 0)
		return -1;
	if ((s = _pr_get(c, "PriorityWeightTRES"))) {
		if (_pr_tres(&n, s, err, errlen) < 0)
			return -1;
		n.tres = xstrdup(s);
	}
	if ((s = _pr_get(c, "PriorityFavorSmall")) && parse_bool(s, &b) == 0)
		n.favor_small = b;
	if ((s = _pr_get(c, "PriorityFlags"))) {
		n.accrue_always = strcasestr(s, "ACCRUE_ALWAYS") != NULL;
		n.calc_running = strcasestr(s, "CALCULATE_RUNNING") != NULL;
	}
	*pc = n;
	return 0;
}

void priority_conf_free(priority_conf_t *pc)
{
	xfree(pc->tres);
}

/* ---- the arithmetic ---- */

static double _pr_clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

static double _pr_age(const priority_conf_t *pc, const job_info_t *i, time_t now)
{
	time_t from = pc->accrue_always ? i->submit_time :
		(i->accrue_time ? i->accrue_time : i->eligible_time);

	if (!from || from >= now)
		return 0;
	if (!pc->max_age)
		return 1;
	return _pr_clamp01((double) (now - from) / pc->max_age);
}

static double _pr_job_size(const priority_conf_t *pc,
			const priority_totals_t *t, const job_info_t *i)
{
	double f = 0;

	if (t->nodes)
		f += (double) (i->num_nodes ? i->num_nodes : 1) / t->nodes;
	if (t->cpus)
		f += (double) i->num_cpus / t->cpus;
	f = _pr_clamp01(f / 2);
	return pc->favor_small ? 1.0 - f : f;
}

static uint64_t _pr_job_mem(const job_info_t *i)
{
	uint64_t m = i->pn_min_memory;

	if (!m || m == NO_VAL64)
		return 0;
	return i->mem_per_cpu ? m * i->num_cpus :
		m * (i->num_nodes ? i->num_nodes : 1);
}

static void _pr_tres_factors(const priority_conf_t *pc,
			  const priority_totals_t *t, const job_info_t *i,
			  priority_factors_t *o, double *sum)
{
	double cpu = t->cpus ? _pr_clamp01((double) i->num_cpus / t->cpus) : 0;
	double mem = t->mem ? _pr_clamp01((double) _pr_job_mem(i) / t->mem) : 0;
	double node = t->nodes ? _pr_clamp01((double) (i->num_nodes ?
		i->num_nodes : 1) / t->nodes) : 0;

	*sum = pc->w_tres_cpu * cpu + pc->w_tres_mem * mem +
		pc->w_tres_node * node;
	if (!o || !pc->tres)
		return;
	if (pc->w_tres_cpu) {
		xstrfmtcat(&o->tres, "%scpu=%.0f", o->tres ? "," : "",
			   pc->w_tres_cpu * cpu);
		xstrfmtcat(&o->norm_tres, "%scpu=%.7f", o->norm_tres ? "," : "",
			   cpu);
	}
	if (pc->w_tres_mem) {
		xstrfmtcat(&o->tres, "%smem=%.0f", o->tres ? "," : "",
			   pc->w_tres_mem * mem);
		xstrfmtcat(&o->norm_tres, "%smem=%.7f", o->norm_tres ? "," : "",
			   mem);
	}
	if (pc->w_tres_node) {
		xstrfmtcat(&o->tres, "%snode=%.0f", o->tres ? "," : "",
			   pc->w_tres_node * node);
		xstrfmtcat(&o->norm_tres, "%snode=%.7f",
			   o->norm_tres ? "," : "", node);
	}
}

/* QOS factor: its Priority over the highest of all QOS. */
static double _pr_qos(const job_info_t *i)
{
	uint32_t max = assoc_mgr_qos_max_priority();
	assoc_qos_t *q;

	if (!max)
		return 0;
	q = assoc_mgr_qos(i->qos && *i->qos ? i->qos : "normal");
	return q ? (double) q->priority / max : 0;
}

uint32_t priority_compute(const priority_conf_t *pc,
			  const priority_totals_t *t,
			  const struct job_record *j, time_t now,
			  priority_factors_t *out)
{
	const job_info_t *i = &j->info;
	priority_factors_t f = { 0 };
	double sum, tres;
	int64_t nice = (int64_t) i->nice - NICE_OFFSET;

	f.site = j->site_factor;      /* site_factor.c, added as is */
	f.norm_age = _pr_age(pc, i, now);
	f.norm_fairshare = pr.fs_hook ? _pr_clamp01(pr.fs_hook(i->user_id,
							    i->account)) : 1.0;
	f.norm_job_size = _pr_job_size(pc, t, i);
	f.norm_part = j->part && t->max_part_factor ?
		(double) j->part->info.priority_job_factor /
		t->max_part_factor : 0;
	f.age = pc->w_age * f.norm_age;
	f.fairshare = pc->w_fs * f.norm_fairshare;
	f.job_size = pc->w_js * f.norm_job_size;
	f.part = pc->w_part * f.norm_part;
	f.norm_qos = _pr_qos(i);
	f.qos_f = pc->w_qos * f.norm_qos;
	f.nice = (int32_t) nice;
	_pr_tres_factors(pc, t, i, out ? &f : NULL, &tres);
	sum = f.age + f.fairshare + f.job_size + f.part + f.qos_f + f.assoc +
		f.site + tres - (double) nice;
	log_flag(PRIO, "%s: JobId=%u Age=%.2f Fairshare=%.2f JobSize=%.2f "
		 "Partition=%.2f QOS=%.2f TRES=%.2f Site=%.2f Nice=%lld "
		 "Priority=%.0f", __func__, i->job_id, f.age, f.fairshare,
		 f.job_size, f.part, f.qos_f, tres, (double) f.site,
		 (long long) nice, sum < 1 ? 1 : sum > PRIO_MAX ? PRIO_MAX : sum);
	if (out) {
		xfree(out->tres);
		xfree(out->norm_tres);
		*out = f;
	}
	if (sum < 1)
		return 1;
	return sum > PRIO_MAX ? PRIO_MAX : (uint32_t) sum;
}

/* ---- in the controller ---- */

void priority_set_fairshare_hook(priority_fairshare_f f)
{
	pr.fs_hook = f;
}

bool priority_is_multifactor(void)
{
	return pr.ops->factors != NULL;
}

static void _pr_totals(priority_totals_t *t)
{
	memset(t, 0, sizeof(*t));
	t->nodes = node_mgr_used();     /* not MaxNodeCount's vacant slots */
	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_record_t *n = node_mgr_at(i);

		t->cpus += n->info.cpus;
		t->mem += n->info.real_memory;
	}
	for (size_t i = 0; i < part_mgr_count(); i++) {
		uint16_t f = part_mgr_at(i)->info.priority_job_factor;

		if (f > t->max_part_factor)
			t->max_part_factor = f;
	}
}

/* ---- the built-ins ---- */

static uint32_t _basic_new_job(const job_view_t *v, time_t now)
{
	return job_mgr_new_priority();
}

static uint32_t _mf_new_job(const job_view_t *v, time_t now)
{
	priority_totals_t t;

	_pr_totals(&t);
	return priority_compute(&pr.pc, &t, REC(v), now, NULL);
}

static void _mf_recalc(priority_job_t *jobs, size_t cnt, time_t now)
{
	for (size_t k = 0; k < cnt; k++)
		jobs[k].priority = priority_compute(&pr.pc, &pr.recalc_tot,
						    REC(jobs[k].job), now,
						    NULL);
}

static uint32_t _mf_factors(const priority_totals_t *t, const job_view_t *v,
			    time_t now, priority_factors_view_t *out)
{
	priority_factors_t f = { 0 };
	uint32_t p = priority_compute(&pr.pc, t, REC(v), now, &f);

	*out = (priority_factors_view_t) {
		.site = f.site, .age = f.age, .fairshare = f.fairshare,
		.job_size = f.job_size, .part = f.part, .qos = f.qos_f,
		.assoc = f.assoc, .norm_age = f.norm_age,
		.norm_fairshare = f.norm_fairshare,
		.norm_job_size = f.norm_job_size, .norm_part = f.norm_part,
		.norm_qos = f.norm_qos, .norm_assoc = f.norm_assoc,
		.tres = f.tres, .norm_tres = f.norm_tres,
	};
	return p;
}

static const priority_ops_t prio_basic_ops = { .new_job = _basic_new_job };
static const priority_ops_t prio_mf_ops = {
	.new_job = _mf_new_job, .recalc = _mf_recalc,
	.factors = _mf_factors,
};
static const struct sluice_plugin priority_basic = {
	.type = "priority", .name = "basic", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = PRIORITY_OPS_VERSION, .ops = &prio_basic_ops,
};
static const struct sluice_plugin priority_multifactor = {
	.type = "priority", .name = "multifactor",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = PRIORITY_OPS_VERSION, .ops = &prio_mf_ops,
};
static const struct sluice_plugin *const prio_builtins[] = {
	&priority_basic, &priority_multifactor, NULL,
};
const plugin_type_t priority_plugin_type = {
	.type = "priority", .key = "PriorityType",
	.ops_version = PRIORITY_OPS_VERSION, .builtins = prio_builtins,
};

/* A built-in reads the record behind the view; any other plugin gets
 * every member. */
static void _pr_view(job_view_t *v, const job_record_t *j)
{
	if (pr.builtin)
		job_view_fill_builtin(v, &j->info, j);
	else
		job_view_fill(v, &j->info, j);
}

/* The plugin sees the job before nice (the caller applies it) and
 * eligible from now if it has no eligible time yet. */
uint32_t priority_new_job(struct job_record *j, time_t now)
{
	uint32_t nice = j->info.nice;
	time_t elig = j->info.eligible_time;
	job_view_t v = { 0 };
	uint32_t p;

	if (!pr.ops->new_job)
		return job_mgr_new_priority();
	j->info.nice = NICE_OFFSET;
	if (!j->info.eligible_time)
		j->info.eligible_time = now;
	_pr_view(&v, j);
	p = pr.ops->new_job(&v, now);
	j->info.nice = nice;
	j->info.eligible_time = elig;
	return p;
}

/* One batch of pending jobs through the plugin's recalc: the changed
 * priorities back into the records.  Returns how many changed. */
static uint32_t _pr_recalc_batch(job_record_t **recs, job_view_t *views,
				 priority_job_t *pj, size_t n, time_t now)
{
	uint32_t changed = 0;

	for (size_t k = 0; k < n; k++) {
		_pr_view(&views[k], recs[k]);
		pj[k].job = &views[k];
		pj[k].priority = recs[k]->info.priority;
	}
	pr.ops->recalc(pj, n, now);
	for (size_t k = 0; k < n; k++) {
		job_record_t *j = recs[k];
		uint32_t p = pj[k].priority ? pj[k].priority : 1;

		if (p != j->info.priority) {
			j->info.priority = p;
			j->prio_saved = p;
			job_mgr_touch(j);
			changed++;
		}
	}
	return changed;
}

void priority_recalc(time_t now)
{
	job_record_t *recs[PRIORITY_RECALC_BATCH];
	priority_job_t *pj;
	job_view_t *views;
	uint32_t changed = 0;
	size_t n = 0;

	if (!pr.ops->recalc)
		return;
	site_factor_update();
	_pr_totals(&pr.recalc_tot);
	pr.last_calc = now;
	views = xcalloc(PRIORITY_RECALC_BATCH, sizeof(*views));
	pj = xcalloc(PRIORITY_RECALC_BATCH, sizeof(*pj));
	/* held jobs (priority 0) and operators' priorities stay */
	for (job_record_t *j = job_mgr_pending_first(); j; j = j->pend_next) {
		if (!j->info.priority || j->prio_fixed)
			continue;
		recs[n++] = j;
		if (n == PRIORITY_RECALC_BATCH) {
			changed += _pr_recalc_batch(recs, views, pj, n, now);
			n = 0;
		}
	}
	if (n)
		changed += _pr_recalc_batch(recs, views, pj, n, now);
	xfree(views);
	xfree(pj);
	if (changed)
		job_mgr_pending_sort();
	debug2("priority_recalc: %u pending jobs changed priority", changed);
	log_flag(PRIO, "%s: %u pending jobs changed priority", __func__,
		 changed);
}

static void _pr_on_calc(evutil_socket_t fd, short what, void *arg)
{
	priority_recalc(time(NULL));
}

static void _pr_arm(void)
{
	struct timeval tv = { pr.pc.calc_period ? pr.pc.calc_period : 300, 0 };

	if (!pr.ev)
		return;
	event_del(pr.ev);
	if (pr.ops->recalc)
		event_add(pr.ev, &tv);
}

/* PriorityType (already checked by ctld_plugins_check at start and
 * before a reconfigure): a plugin whose init fails leaves the old one. */
static void _pr_plugin(const slurm_conf_t *c)
{
	const char *type = c->priority_type && *c->priority_type ?
		c->priority_type : "priority/basic";

	if (plugin_ctx_replace(&pr.ctx, &priority_plugin_type, type,
			       c->plugin_dir, "priority/basic")) {
		pr.ops = plugin_ctx_ops(pr.ctx, 0);
		pr.builtin = plugin_ctx_builtin(pr.ctx, 0);
		debug("priority: using %s", plugin_ctx_names(pr.ctx));
	}
}

static void _pr_load(void)
{
	char err[256];

	priority_conf_free(&pr.pc);
	memset(&pr.pc, 0, sizeof(pr.pc));
	if (priority_conf_load(ctld_conf(), &pr.pc, err, sizeof(err)) < 0)
		error("%s: the Priority* weights are 0", err);
	_pr_plugin(ctld_conf());
}

void priority_init(struct event_base *base)
{
	_pr_load();
	if (base)
		pr.ev = event_new(base, -1, EV_PERSIST, _pr_on_calc, NULL);
	_pr_arm();
}

void priority_fini(void)
{
	if (pr.ev)
		event_free(pr.ev);
	pr.ev = NULL;
	priority_conf_free(&pr.pc);
	plugin_ctx_destroy(pr.ctx);
	pr.ctx = NULL;
	pr.ops = &prio_basic_ops;
	pr.builtin = true;
}

void priority_reconfig(void)
{
	_pr_load();
	_pr_arm();
	priority_recalc(time(NULL));
}

/* ---- sprio ---- */

static bool _pr_in(char **list, const char *v)
{
	if (!list)
		return true;
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], v))
			return true;
	return false;
}

static bool _pr_user_in(char **list, uint32_t uid, const char *name)
{
	char num[16];

	if (!list)
		return true;
	snprintf(num, sizeof(num), "%u", uid);
	return _pr_in(list, num) || (name && _pr_in(list, name));
}

static bool _pr_wanted(const priority_factors_request_msg_t *q,
		    const job_record_t *j)
{
	char id[16];

	if (!q)
		return true;
	snprintf(id, sizeof(id), "%u", j->info.job_id);
	return _pr_in(q->job_ids, id) &&
	       _pr_user_in(q->users, j->info.user_id, j->info.user_name);
}

/* The plugin's factors of j in partition p (j->part is p) into f. */
static uint32_t _pr_factors(const priority_totals_t *t, job_record_t *j,
			    const part_record_t *p, time_t now,
			    priority_factors_t *f)
{
	priority_factors_view_t o = { 0 };
	job_view_t v;
	uint32_t prio;

	job_view_fill(&v, &j->info, j);
	if (p)
		v.partition = p->info.name;
	prio = pr.ops->factors(t, &v, now, &o);
	f->site = o.site;
	f->age = o.age;
	f->fairshare = o.fairshare;
	f->job_size = o.job_size;
	f->part = o.part;
	f->qos_f = o.qos;
	f->assoc = o.assoc;
	f->norm_age = o.norm_age;
	f->norm_fairshare = o.norm_fairshare;
	f->norm_job_size = o.norm_job_size;
	f->norm_part = o.norm_part;
	f->norm_qos = o.norm_qos;
	f->norm_assoc = o.norm_assoc;
	f->tres = o.tres;
	f->norm_tres = o.norm_tres;
	f->nice = (int32_t) ((int64_t) j->info.nice - NICE_OFFSET);
	return prio;
}

void priority_rpc_factors(net_conn_t *c, slurm_msg_t *m)
{
	priority_factors_request_msg_t *q = m->data;
	priority_factors_msg_t r = { .last_update = time(NULL) };
	priority_totals_t t;
	time_t now = time(NULL);
	job_record_t *j;
	rpc_viewer_t v = rpc_viewer(m);         /* PrivateData=jobs */
	uint32_t n = 0;

	_pr_totals(&t);
	for (j = job_mgr_pending_first(); j; j = j->pend_next)
		n += j->part_cnt > 1 ? j->part_cnt : 1;
	r.jobs = xcalloc(n + 1, sizeof(*r.jobs));
	for (j = job_mgr_pending_first(); j; j = j->pend_next) {
		/* -p a,b: one row per partition, as Slurm shows it */
		uint32_t parts = j->part_cnt > 1 ? j->part_cnt : 1;
		part_record_t *save = j->part;

		if (!j->info.priority || !_pr_wanted(q, j) ||
		    rpc_hides_job(&v, j))
			continue;
		for (uint32_t k = 0; k < parts; k++) {
			part_record_t *p = j->part_cnt > 1 ? j->part_list[k] :
				j->part;
			priority_factors_t *f;
			uint32_t prio;

			if (q && q->partitions && !_pr_in(q->partitions,
				p ? p->info.name : j->info.partition))
				continue;
			f = &r.jobs[r.cnt++];
			j->part = p;
			prio = pr.ops->factors ?
				_pr_factors(&t, j, p, now, f) :
				j->info.priority;
			j->part = save;
			f->job_id = j->info.job_id;
			f->user_id = j->info.user_id;
			f->user_name = xstrdup(j->info.user_name);
			f->partition = xstrdup(p ? p->info.name :
					       j->info.partition);
			f->account = xstrdup(j->info.account);
			f->qos = xstrdup(j->info.qos);
			f->priority = parts > 1 && pr.ops->factors &&
				!j->prio_fixed ? prio : j->info.priority;
			if (!pr.ops->factors) {
				f->fairshare = f->norm_fairshare = 0;
				f->age = f->job_size = f->part = 0;
			}
		}
	}
	r.multifactor = pr.ops->factors != NULL;
	r.weight_age = pr.pc.w_age;
	r.weight_fs = pr.pc.w_fs;
	r.weight_js = pr.pc.w_js;
	r.weight_part = pr.pc.w_part;
	r.weight_qos = pr.pc.w_qos;
	r.weight_assoc = pr.pc.w_assoc;
	r.weight_tres = pr.pc.tres;
	net_reply(c, RESPONSE_PRIORITY_FACTORS, &r);
	for (uint32_t k = 0; k < r.cnt; k++) {
		xfree(r.jobs[k].user_name);
		xfree(r.jobs[k].partition);
		xfree(r.jobs[k].account);
		xfree(r.jobs[k].qos);
		xfree(r.jobs[k].tres);
		xfree(r.jobs[k].norm_tres);
	}
	xfree(r.jobs);
}
