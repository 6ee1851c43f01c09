/* step_create.c — a new step in a running job: where its tasks go, its
 * CPUs and credential (REQUEST_JOB_STEP_CREATE; step_mgr.h). */
#include "ctld/step_mgr.h"
#include "ctld/step_mgr_int.h"
#include "ctld/resv_ports.h"
#include "ctld/power_save.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "common/debug_flags.h"
#include "common/bitmap.h"
#include "common/hostlist.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/msg_types.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/acct_outbox.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/het_job.h"
#include "ctld/job_nprolog.h"
#include "ctld/job_validate.h"
#include "ctld/rpc.h"
#include "ctld/select.h"
#include "ctld/gres_sel.h"
#include "ctld/step_gres.h"
#include "ctld/user_groups.h"
#include "slurm/slurm_errno.h"
/* The node CPU ids a new step gets on job node k: cnt of the job's ids
 * there, the ones no other step holds first (so --exact steps side by
 * side get different CPUs, as task/affinity and ConstrainCores then
 * bind them), then the others in order.  NULL if the job's ids are not
 * known. */
static bitmap_t *sm_pick_ids(const job_record_t *j, const struct job_steps *js,
			     uint32_t k, uint32_t cnt)
{
	const bitmap_t *all = j->node_cpu_ids && k < j->alloc_cnt ?
			      j->node_cpu_ids[k] : NULL;
	bitmap_t *taken, *out;
	uint32_t got = 0;

	if (!all || !bitmap_count(all))
		return NULL;
	taken = bitmap_create(bitmap_size(all));
	out = bitmap_create(bitmap_size(all));
	for (const sm_step_t *o = js->list; o; o = o->next)
		for (uint32_t i = 0; o->ids && i < o->node_cnt; i++)
			if (o->pos[i] == k && o->ids[i] &&
			    bitmap_size(o->ids[i]) == bitmap_size(all))
				bitmap_or(taken, o->ids[i]);
	for (int pass = 0; pass < 2 && got < cnt; pass++)
		for (long b = bitmap_first_set(all); b >= 0 && got < cnt;
		     b = bitmap_next_set(all, (size_t) b + 1))
			if (!bitmap_test(out, (size_t) b) &&
			    (pass || !bitmap_test(taken, (size_t) b))) {
				bitmap_set(out, (size_t) b);
				got++;
			}
	bitmap_destroy(taken);
	return out;
}


/* ---- placement ---- */

/* What a step's GPU request allows on each job node (step_gres.h):
 * whether it has now the GPUs one task needs, and how many tasks its
 * GPUs allow (--gpus-per-task) at all and now. */
typedef struct {
	bool     *ok;
	uint32_t *cap_all;
	uint32_t *cap_now;
} sm_gpu_fit_t;

static uint32_t sm_min(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}


typedef struct {
	uint32_t  cnt;            /* chosen nodes */
	uint32_t *pos;
	uint16_t *tasks;
	uint16_t *cpus;
	uint32_t  num_tasks;
	uint16_t  cpt;
} sm_layout_t;

static void sm_layout_free(sm_layout_t *l)
{
	xfree(l->pos);
	xfree(l->tasks);
	xfree(l->cpus);
}

static uint32_t sm_cap(const sm_job_nodes_t *jn, uint32_t k,
		     const job_step_create_request_msg_t *r, uint16_t cpt,
		     bool now)
{
	uint32_t cpus = jn->cpus[k];

	if (r->overcommit)              /* tasks share the CPUs */
		return UINT16_MAX;
	if (now && r->exact && !r->overlap)
		cpus = cpus > jn->used[k] ? cpus - jn->used[k] : 0;
	return cpus / cpt;
}

static bool sm_usable_now(const sm_job_nodes_t *jn, uint32_t k,
			const job_step_create_request_msg_t *r, uint16_t cpt)
{
	if (r->overlap)
		return true;
	if (r->exact)
		return jn->cpus[k] >= jn->used[k] + cpt;
	return jn->used[k] == 0;
}

/* Tasks per chosen node: Slurm's rounds (one more task per node per
 * round while its CPUs allow), planes of plane_size, or exactly
 * ntasks_per_node.  -1 if the tasks do not fit. */
static int sm_spread(sm_layout_t *l, const uint32_t *caps,
		   const job_step_create_request_msg_t *r)
{
	uint32_t left = l->num_tasks, i;
	bool any;

	if (r->ntasks_per_node && r->ntasks_per_node != NO_VAL16) {
		for (i = 0; i < l->cnt; i++) {
			uint32_t t = left < r->ntasks_per_node ? left :
				r->ntasks_per_node;

			if (t > caps[i])
				return -1;
			l->tasks[i] = (uint16_t) t;
			left -= t;
		}
		return left ? -1 : 0;
	}
	if (r->task_dist == STEP_DIST_PLANE && r->plane_size &&
	    r->plane_size != NO_VAL16) {
		for (i = 0; left; i = (i + 1) % l->cnt) {
			uint32_t t = left < r->plane_size ? left : r->plane_size;

			l->tasks[i] += (uint16_t) t;
			left -= t;
		}
		for (i = 0; i < l->cnt; i++)
			if (l->tasks[i] > caps[i])
				return -1;
		return 0;
	}
	do {
		any = false;
		for (i = 0; i < l->cnt && left; i++) {
			if (l->tasks[i] >= caps[i] && l->tasks[i])
				continue;
			if (!caps[i])
				return -1;
			l->tasks[i]++;
			left--;
			any = true;
		}
	} while (left && any);
	return left ? -1 : 0;
}

static int sm_bitmap_from(const char *expr, const sm_job_nodes_t *jn, bool *want,
			uint32_t *cnt, bool must_exist)
{
	char err[256];
	hostlist_t *hl;
	size_t n;

	*cnt = 0;
	if (!expr || !*expr)
		return 0;
	if (!(hl = node_mgr_parse_user(expr, err, sizeof(err))))
		return ESLURM_INVALID_NODE_NAME;
	n = hostlist_count(hl);
	for (size_t h = 0; h < n; h++) {
		const char *name = hostlist_nth(hl, h);
		bool found = false;

		for (uint32_t k = 0; k < jn->cnt; k++) {
			if (!strcmp(jn->node[k]->info.name, name)) {
				if (!want[k])
					(*cnt)++;
				want[k] = true;
				found = true;
			}
		}
		if (!found && must_exist) {
			hostlist_destroy(hl);
			return ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
		}
	}
	hostlist_destroy(hl);
	return 0;
}

static uint32_t sm_want_nodes(const job_step_create_request_msg_t *r,
			    uint32_t cand, uint32_t req_cnt)
{
	uint32_t n;

	if (r->min_nodes != NO_VAL32 && r->min_nodes)
		n = r->min_nodes;
	else if (req_cnt)
		n = req_cnt;
	else if (r->num_tasks != NO_VAL32 && r->ntasks_per_node &&
		 r->ntasks_per_node != NO_VAL16)
		n = (r->num_tasks + r->ntasks_per_node - 1) / r->ntasks_per_node;
	else if (r->num_tasks != NO_VAL32 && r->num_tasks < cand)
		n = r->num_tasks;
	else
		n = cand;
	if (r->num_tasks != NO_VAL32 && r->num_tasks && r->num_tasks < n)
		n = r->num_tasks;
	return n;
}

/* Choose nodes and tasks: 0, ESLURM_NODES_BUSY (later), or an error
 * that will not go away. */
static int sm_place(job_record_t *j, const job_step_create_request_msg_t *r,
		  const sm_gpu_fit_t *fit, sm_layout_t *l)
{
	sm_job_nodes_t jn;
	bool *req = NULL, *exc = NULL;
	uint32_t *order = NULL, *caps = NULL, req_cnt, exc_cnt, ncand = 0;
	uint32_t start = 0, want, total_cap = 0, gpu_cap = 0, k, i;
	int rc;

	sm_job_nodes(j, &jn);
	req = xcalloc(jn.cnt + 1, sizeof(bool));
	exc = xcalloc(jn.cnt + 1, sizeof(bool));
	order = xcalloc(jn.cnt + 1, sizeof(uint32_t));
	l->cpt = (r->cpus_per_task && r->cpus_per_task != NO_VAL16) ?
		r->cpus_per_task : 1;
	if ((rc = sm_bitmap_from(r->node_list, &jn, req, &req_cnt, true)) ||
	    (rc = sm_bitmap_from(r->exc_nodes, &jn, exc, &exc_cnt, false)))
		goto out;
	if (r->relative != NO_VAL16) {
		if (r->relative >= jn.cnt) {
			rc = ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
			goto out;
		}
		start = r->relative;
	}
	for (k = start; k < jn.cnt; k++)
		if (!exc[k] || req[k])
			order[ncand++] = k;
	want = sm_want_nodes(r, ncand, req_cnt);
	l->num_tasks = (r->num_tasks != NO_VAL32 && r->num_tasks) ?
		r->num_tasks :
		(r->ntasks_per_node && r->ntasks_per_node != NO_VAL16) ?
		want * r->ntasks_per_node : want;
	if (!want || want > ncand || req_cnt > want) {
		rc = ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
		goto out;
	}
	/* could it ever fit (nothing else running)?  With the CPUs, and
	 * with the GPUs its tasks ask for */
	for (i = 0; i < ncand; i++) {
		uint32_t c = sm_cap(&jn, order[i], r, l->cpt, false);

		total_cap += c;
		gpu_cap += sm_min(c, fit ? fit->cap_all[order[i]] : UINT32_MAX);
	}
	if (total_cap < l->num_tasks || gpu_cap < l->num_tasks) {
		rc = total_cap < l->num_tasks ? ESLURM_TOO_MANY_REQUESTED_CPUS :
		     ESLURM_INVALID_GRES;
		goto out;
	}
	l->pos = xcalloc(want + 1, sizeof(uint32_t));
	l->tasks = xcalloc(want + 1, sizeof(uint16_t));
	l->cpus = xcalloc(want + 1, sizeof(uint16_t));
	caps = xcalloc(want + 1, sizeof(uint32_t));
	/* required nodes first, then the others in order */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < ncand && l->cnt < want; i++) {
			k = order[i];
			if ((pass == 0) != req[k])
				continue;
			if (!sm_usable_now(&jn, k, r, l->cpt) ||
			    (fit && !fit->ok[k])) {
				if (req[k]) {
					rc = ESLURM_NODES_BUSY;
					goto out;
				}
				continue;
			}
			l->pos[l->cnt++] = k;
		}
	}
	if (l->cnt < want) {
		rc = ESLURM_NODES_BUSY;
		goto out;
	}
	/* keep allocation order */
	for (i = 1; i < l->cnt; i++)
		for (uint32_t m = i; m > 0 && l->pos[m - 1] > l->pos[m]; m--) {
			uint32_t t = l->pos[m];

			l->pos[m] = l->pos[m - 1];
			l->pos[m - 1] = t;
		}
	for (i = 0; i < l->cnt; i++)
		caps[i] = sm_min(sm_cap(&jn, l->pos[i], r, l->cpt, true),
				 fit ? fit->cap_now[l->pos[i]] : UINT32_MAX);
	if (sm_spread(l, caps, r) < 0) {
		rc = r->exact ? ESLURM_NODES_BUSY : ESLURM_TOO_MANY_REQUESTED_CPUS;
		if (fit) {      /* its GPUs are short there, for ever or now */
			uint64_t all = 0, now = 0;

			for (i = 0; i < l->cnt; i++) {
				all += fit->cap_all[l->pos[i]];
				now += fit->cap_now[l->pos[i]];
			}
			if (all < l->num_tasks)
				rc = ESLURM_INVALID_GRES;
			else if (now < l->num_tasks)
				rc = ESLURM_NODES_BUSY;
		}
		goto out;
	}
	for (i = 0; i < l->cnt; i++) {
		k = l->pos[i];
		if (r->overlap)
			l->cpus[i] = 0;
		else if (r->exact)
			l->cpus[i] = (uint16_t) (l->tasks[i] * l->cpt);
		else
			l->cpus[i] = jn.cpus[k];
	}
	rc = 0;
out:
	if (rc)
		sm_layout_free(l);
	xfree(jn.node);
	xfree(req);
	xfree(exc);
	xfree(order);
	xfree(caps);
	return rc;
}

/* ---- GRES (step_gres.h) ---- */

typedef struct {
	step_gres_req_t q;
	uint64_t *gpus;           /* per step node: its whole GPUs */
	char    **other;          /* per step node: its other GRES, or NULL */
	uint32_t  cnt;
} sm_gres_t;

static void sm_gres_free(sm_gres_t *g)
{
	for (uint32_t i = 0; g->other && i < g->cnt; i++)
		xfree(g->other[i]);
	xfree(g->other);
	xfree(g->gpus);
	step_gres_req_free(&g->q);
	g->cnt = 0;
}

static uint64_t sm_job_gpus(const job_record_t *j, uint32_t k)
{
	return j->node_gpus && k < j->alloc_cnt ? j->node_gpus[k] : 0;
}

/* GPUs of job node k held by steps that asked for theirs. */
static uint64_t sm_gpus_busy(const job_record_t *j, uint32_t k)
{
	uint64_t m = 0;

	for (const sm_step_t *o = j->steps ? j->steps->list : NULL; o;
	     o = o->next)
		for (uint32_t i = 0; o->gpu_excl && o->gpus && i < o->node_cnt;
		     i++)
			if (o->pos[i] == k)
				m |= o->gpus[i];
	return m;
}

/* The GPUs of type on node n (all if no type). */
static uint64_t sm_typed(const node_record_t *n, const char *type)
{
	if (!type)
		return UINT64_MAX;
	return n->gres ? gres_gpu_mask(n->gres, type) : 0;
}

/* Before placement: per job node, whether it has now the GPUs one task
 * of the step needs (a node that never will stays usable, so that the
 * pick says the request is invalid rather than waiting for ever), and
 * the tasks its GPUs allow; 0 when GPUs do not restrict the nodes. */
static int sm_gpu_fit(job_record_t *j, const job_step_create_request_msg_t *r,
		      const step_gres_req_t *q, sm_gpu_fit_t *f)
{
	uint32_t need = q->per_node > q->per_task ? q->per_node : q->per_task;
	sm_job_nodes_t jn;

	memset(f, 0, sizeof(*f));
	if (q->mode != STEP_GRES_ASK)
		return 0;
	sm_job_nodes(j, &jn);
	/* on one node (-N1 or -n1) --gpus=N all come from it; on several,
	 * each needs its even share (step_gres_pick): nodes without it
	 * free now are passed over while the step need not use all */
	if (q->per_step > need &&
	    (r->min_nodes == 1 || r->num_tasks == 1))
		need = q->per_step;
	else if (q->per_step) {
		uint32_t n = sm_want_nodes(r, jn.cnt, 0);

		if (n && q->per_step / n > need)
			need = q->per_step / n;
	}
	if (!need) {
		xfree(jn.node);
		return 0;
	}
	f->ok = xcalloc(jn.cnt + 1, sizeof(bool));
	f->cap_all = xcalloc(jn.cnt + 1, sizeof(uint32_t));
	f->cap_now = xcalloc(jn.cnt + 1, sizeof(uint32_t));
	for (uint32_t k = 0; k < jn.cnt; k++) {
		uint64_t mine = sm_job_gpus(j, k) & sm_typed(jn.node[k], q->type);
		uint64_t free = r->overlap ? mine : mine & ~sm_gpus_busy(j, k);
		uint32_t all = (uint32_t) __builtin_popcountll(mine);
		uint32_t now = (uint32_t) __builtin_popcountll(free);

		f->ok[k] = all < need || now >= need;
		f->cap_all[k] = q->per_task ? all / q->per_task : UINT32_MAX;
		f->cap_now[k] = q->per_task ? now / q->per_task : UINT32_MAX;
	}
	xfree(jn.node);
	return 1;
}

static void sm_gpu_fit_free(sm_gpu_fit_t *f)
{
	xfree(f->ok);
	xfree(f->cap_all);
	xfree(f->cap_now);
}

/* The step's GPUs and other GRES on the nodes of l: 0,
 * ESLURM_INVALID_GRES, ESLURM_NOT_SUPPORTED or ESLURM_NODES_BUSY. */
static int sm_gres(job_record_t *j, const job_step_create_request_msg_t *r,
		   const sm_layout_t *l, sm_gres_t *g)
{
	uint64_t *job = xcalloc(l->cnt + 1, sizeof(uint64_t));
	uint64_t *typed = xcalloc(l->cnt + 1, sizeof(uint64_t));
	uint64_t *busy = xcalloc(l->cnt + 1, sizeof(uint64_t));
	sm_job_nodes_t jn;
	int rc = 0;

	sm_job_nodes(j, &jn);
	g->cnt = l->cnt;
	g->gpus = xcalloc(l->cnt + 1, sizeof(uint64_t));
	g->other = xcalloc(l->cnt + 1, sizeof(char *));
	for (uint32_t i = 0; i < l->cnt; i++) {
		uint32_t k = l->pos[i];

		job[i] = sm_job_gpus(j, k);
		typed[i] = sm_typed(jn.node[k], g->q.type);
		busy[i] = r->overlap ? 0 : sm_gpus_busy(j, k);
		if (g->q.mode == STEP_GRES_ALL)
			g->gpus[i] = job[i];
	}
	if (g->q.mode == STEP_GRES_ASK)
		rc = step_gres_pick(&g->q, l->cnt, l->tasks, job, typed, busy,
				    g->gpus);
	for (uint32_t i = 0; !rc && i < l->cnt; i++) {
		uint32_t k = l->pos[i];

		g->other[i] = step_gres_other(&g->q, j->node_gres &&
					      k < j->alloc_cnt ?
					      j->node_gres[k] : NULL, &rc);
		if (rc == ESLURM_NOT_SUPPORTED)
			info("JobId=%u: a step gets all the job's GRES of a "
			     "name on a node (%s) or none of it, not a part",
			     j->info.job_id, j->node_gres[k]);
	}
	xfree(job);
	xfree(typed);
	xfree(busy);
	xfree(jn.node);
	return rc;
}

/* ---- create ---- */

/* The id a new step of j gets: the one asked for (a het step's further
 * components, checked by sm_check_step_id), else the next free one.  In
 * a het job that is past every component's last id, so that one step
 * over several components finds its id free in each of them. */
static uint32_t sm_pick_step_id(job_record_t *j, uint32_t want)
{
	struct job_steps *js = sm_steps(j);
	job_record_t **comps;
	size_t n = 0;
	uint32_t id;

	if (want != NO_VAL32) {
		if (want >= js->next_id)
			js->next_id = want + 1;
		return want;
	}
	id = js->next_id;
	comps = het_job_comps(j, &n);
	for (size_t i = 0; i < n; i++)
		if (comps[i] != j && comps[i]->steps &&
		    comps[i]->steps->next_id > id)
			id = comps[i]->steps->next_id;
	xfree(comps);
	js->next_id = id + 1;
	return id;
}

/* A step id asked for: only in a het job component, below the ids of
 * the special steps, and not one j has used already. */
static int sm_check_step_id(job_record_t *j, uint32_t want)
{
	struct job_steps *js = sm_steps(j);

	if (want == NO_VAL32)
		return 0;
	if (!het_job_is_comp(j) || want >= SM_SPECIAL_STEP_MIN)
		return ESLURM_INVALID_JOB_ID;
	for (sm_step_t *s = js->list; s; s = s->next)
		if (s->step_id == want)
			return ESLURM_DUPLICATE_STEP_ID;
	if (want < js->next_id)         /* used once, since ended */
		return ESLURM_DUPLICATE_STEP_ID;
	return 0;
}

static sm_step_t *sm_record(job_record_t *j,
			      const job_step_create_request_msg_t *r,
			      sm_layout_t *l, sm_gres_t *g, uid_t uid)
{
	struct job_steps *js = sm_steps(j);
	sm_step_t *s = xmalloc(sizeof(*s));
	hostlist_t *hl = hostlist_create();
	sm_job_nodes_t jn;

	sm_job_nodes(j, &jn);
	s->step_id = sm_pick_step_id(j, r->step_id);
	s->name = xstrdup(r->name && *r->name ? r->name : "srun");
	s->uid = uid;
	s->start = time(NULL);
	s->num_tasks = l->num_tasks;
	s->cpt = l->cpt;
	s->dist = r->task_dist;
	s->plane = r->plane_size == NO_VAL16 ? 0 : r->plane_size;
	s->node_cnt = l->cnt;
	s->pos = l->pos;
	s->tasks = l->tasks;
	s->cpus = l->cpus;
	s->done = xcalloc(l->cnt + 1, sizeof(bool));
	s->remaining = l->cnt;
	s->ids = xcalloc(l->cnt + 1, sizeof(bitmap_t *));
	for (uint32_t i = 0; i < l->cnt; i++) {
		hostlist_push_host(hl, jn.node[l->pos[i]]->info.name);
		js->used[l->pos[i]] += l->cpus[i];
		s->ids[i] = sm_pick_ids(j, js, l->pos[i], l->cpus[i]);
	}
	s->nodes = hostlist_ranged(hl);
	s->host = xstrdup(r->host);
	s->srun_pid = r->srun_pid;
	s->gpus = g->gpus;
	g->gpus = NULL;
	s->gpu_excl = g->q.mode == STEP_GRES_ASK && !r->overlap;
	sm_step_tres(s);
	s->container = r->container && *r->container ?
		xstrdup(r->container) : NULL;
	hostlist_destroy(hl);
	xfree(jn.node);
	{
		sm_step_t **tail = &js->list;   /* kept in step id order */

		while (*tail)
			tail = &(*tail)->next;
		*tail = s;
	}
	memset(l, 0, sizeof(*l));
	return s;
}

static job_step_create_response_msg_t *
sm_response(job_record_t *j, const sm_step_t *s, const sm_gres_t *g)
{
	job_step_create_response_msg_t *resp = xmalloc(sizeof(*resp));
	step_cred_t cred = { 0 };
	sm_job_nodes_t jn;

	sm_job_nodes(j, &jn);
	resp->job_id = j->info.job_id;
	resp->step_id = s->step_id;
	resp->node_list = xstrdup(s->nodes);
	resp->resv_ports = xstrdup(s->resv_ports);
	resp->node_names = xcalloc(s->node_cnt + 1, sizeof(char *));
	resp->node_addrs = xcalloc(s->node_cnt + 1, sizeof(char *));
	resp->cred_sigs = xcalloc(s->node_cnt + 1, sizeof(char *));
	for (uint32_t i = 0; i < s->node_cnt; i++) {
		node_record_t *n = jn.node[s->pos[i]];

		resp->node_names[i] = xstrdup(n->info.name);
		resp->node_addrs[i] = xstrdup_printf("%s:%u",
			n->info.node_addr ? n->info.node_addr : n->info.name,
			n->info.port);
	}
	resp->tasks_per_node = sm_join16(s->tasks, s->node_cnt);
	resp->cpus_per_node = sm_join16(s->cpus, s->node_cnt);
	resp->num_tasks = s->num_tasks;
	resp->cpus_per_task = s->cpt;
	cred.job_id = j->info.job_id;
	cred.step_id = s->step_id;
	cred.uid = j->info.user_id;
	cred.gid = j->info.group_id;
	cred.user_name = j->info.user_name;
	cred.node_list = s->nodes;
	cred.cpus_per_node = resp->cpus_per_node;
	for (uint32_t i = 0; i < s->node_cnt; i++) {
		char *ids = s->ids && s->ids[i] ? bitmap_to_str(s->ids[i])
						: NULL;

		/* its GPUs, and those its shards/MPS are on: the step may
		 * open them (ConstrainDevices) */
		uint64_t m = (s->gpus ? s->gpus[i] : 0) |
			(g->other && g->other[i] ?
			 gres_alloc_gpu_mask(g->other[i]) : 0);
		char *gpus = m ? select_gpu_idx_str(m) : NULL;

		xstrfmtcat(&cred.cpu_ids, "%s%s", i ? ";" : "",
			   ids ? ids : "");
		xstrfmtcat(&cred.gpu_idx, "%s%s", i ? ";" : "",
			   gpus ? gpus : "");
		xfree(ids);
		xfree(gpus);
	}
	cred.expiry = time(NULL) + STEP_CRED_TTL;
	cred.job_node_list = j->info.nodes;
	/* the job's memory on the step's nodes (task/cgroup's limit), also
	 * where the select plugin does not track memory; one figure for
	 * all of them: the largest */
	for (uint32_t i = 0; i < s->node_cnt; i++) {
		uint32_t k = s->pos[i];
		uint64_t mem = j->node_mem && k < j->alloc_cnt ?
			       j->node_mem[k] : 0;

		if (!mem && j->info.pn_min_memory)
			mem = j->info.pn_min_memory *
			      (j->info.mem_per_cpu && j->node_cpus &&
			       k < j->alloc_cnt ? j->node_cpus[k] : 1);
		if (mem > cred.mem_per_node)
			cred.mem_per_node = mem;
	}
	cred.gids = user_groups_str(j->info.user_name, j->info.user_id,
				    j->info.group_id);
	cred.profile = j->info.profile;
	cred.acctg_freq = j->info.acctg_freq;
	resp->cred_payload = step_cred_encode(&cred);
	xfree(cred.cpu_ids);
	xfree(cred.gpu_idx);
	xfree(cred.gids);
	xfree(jn.node);
	return resp;
}

static int sm_check_job(job_record_t *j, uid_t uid)
{
	if (!j)
		return ESLURM_INVALID_JOB_ID;
	if (j->info.user_id != uid && !ctld_is_operator(uid))
		return ESLURM_ACCESS_DENIED;
	if (STEP_JOB_BASE(j) == JOB_PENDING)
		return ESLURM_JOB_PENDING;
	if (STEP_JOB_BASE(j) != JOB_RUNNING || (j->info.job_state & JOB_COMPLETING) ||
	    !j->node_bitmap)
		return ESLURM_ALREADY_DONE;
	if (job_nprolog_running(j) ||   /* PrologFlags=Alloc */
	    power_save_job_waiting(j))  /* its nodes are powering up */
		return ESLURM_PROLOG_RUNNING;
	return 0;
}

/* MaxStepCount (steps a job may create) and MaxTasksPerNode (tasks a
 * step may start on a node, on average, as Slurm counts them). */
static int sm_limits(job_record_t *j, const job_step_create_request_msg_t *r)
{
	const slurm_conf_t *c = ctld_conf();
	uint32_t nodes = r->min_nodes && r->min_nodes != NO_VAL32 ?
			 r->min_nodes : j->info.num_nodes;

	/* without -N the tasks spread over the job's nodes */
	if (r->num_tasks && r->num_tasks != NO_VAL32 && nodes > r->num_tasks)
		nodes = r->num_tasks;
	if (!nodes)
		nodes = 1;

	if (c->max_step_count && sm_steps(j)->next_id >= c->max_step_count)
		return ESLURM_STEP_LIMIT;
	if (r->num_tasks && r->num_tasks != NO_VAL32 &&
	    r->num_tasks / nodes > c->max_tasks_per_node) {
		error("step has invalid task count: %u node_count: %u",
		      r->num_tasks, nodes);
		return ESLURM_BAD_TASK_COUNT;
	}
	return 0;
}

static void sm_resp_free(void *resp)
{
	msg_body_free(RESPONSE_JOB_STEP_CREATE, resp);
}

/* One signature of the credential per node (each slurmd's MUNGE replay
 * cache sees its own): on a credential worker while the step is
 * journalled, not on the loop, which a 64-node step held up for 64
 * round trips to munged. */
static int sm_sign_creds(void *data)
{
	job_step_create_response_msg_t *resp = data;

	for (uint32_t i = 0; resp->node_names[i]; i++) {
		if (step_cred_sign(resp->cred_payload, &resp->cred_sigs[i])) {
			error("StepId=%u.%u: cannot sign its credential",
			      resp->job_id, resp->step_id);
			return ESLURM_INVALID_JOB_CREDENTIAL;
		}
	}
	return SLURM_SUCCESS;
}

/* MpiParams=ports: the ports a new step laid out as l gets (srun
 * --resv-ports[=count]; without it, every step when a range is set): as
 * many as its most tasks on one node unless a count is given.  0 (also
 * when it gets none) or ESLURM_PORTS_BUSY / ESLURM_PORTS_INVALID. */
static int sm_take_ports(job_record_t *j, const job_step_create_request_msg_t *r,
			 const sm_layout_t *l, sm_step_t *s)
{
	uint16_t cnt = r->resv_ports, most = 0;
	node_record_t **node;
	long i;
	uint32_t k = 0;
	int rc;

	if (cnt == NO_VAL16 && !resv_ports_configured())
		return 0;
	if (cnt == NO_VAL16 || cnt == NO_VAL16 - 1)
		for (uint32_t t = 0; t < l->cnt; t++)
			most = l->tasks[t] > most ? l->tasks[t] : most;
	cnt = cnt == NO_VAL16 || cnt == NO_VAL16 - 1 ? most : cnt;
	if (!cnt)
		return 0;
	node = xcalloc(j->alloc_cnt + 1, sizeof(*node));
	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1))
		node[k++] = node_mgr_at(i);
	s->port_nodes = xcalloc(l->cnt + 1, sizeof(char *));
	for (uint32_t t = 0; t < l->cnt; t++)
		s->port_nodes[t] = xstrdup(node[l->pos[t]]->info.name);
	xfree(node);
	rc = resv_ports_take(s->port_nodes, l->cnt, cnt, &s->ports,
			     &s->resv_ports);
	if (rc) {
		xstrarray_free(s->port_nodes);
		s->port_nodes = NULL;
		return rc;
	}
	s->port_cnt = cnt;
	return 0;
}

void step_mgr_rpc_create(net_conn_t *c, slurm_msg_t *m)
{
	job_step_create_request_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find(r->job_id) : NULL;
	job_step_create_response_msg_t *resp;
	sm_layout_t l = { 0 };
	sm_step_t *s, ports = { 0 };
	sm_gres_t g = { 0 };
	sm_gpu_fit_t fit = { 0 };
	bool fits = false;
	int rc;

	if (!r) {
		net_reply_rc(c, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (!(rc = sm_check_job(j, m->auth_uid)) &&
	    !(rc = sm_check_step_id(j, r->step_id)) && !(rc = sm_limits(j, r)) &&
	    !(r->container && *r->container &&
	      (rc = job_validate_container(r->container))) &&
	    !(rc = step_gres_parse(r->tres_per_step, r->tres_per_node,
				   r->tres_per_task, &g.q)))
		fits = sm_gpu_fit(j, r, &g.q, &fit);
	if (rc || (rc = sm_place(j, r, fits ? &fit : NULL, &l)) ||
	    (rc = sm_gres(j, r, &l, &g)) ||
	    (rc = sm_take_ports(j, r, &l, &ports))) {
		sm_layout_free(&l);
		sm_gres_free(&g);
		sm_gpu_fit_free(&fit);
		if (rc == ESLURM_NODES_BUSY || rc == ESLURM_PROLOG_RUNNING ||
		    rc == ESLURM_PORTS_BUSY)
			debug("_slurm_rpc_job_step_create: JobId=%u: %s",
			      r->job_id, slurm_strerror(rc));
		else
			info("_slurm_rpc_job_step_create: JobId=%u uid=%u: %s",
			     r->job_id, (unsigned) m->auth_uid,
			     slurm_strerror(rc));
		net_reply_rc(c, rc);
		return;
	}
	sm_gpu_fit_free(&fit);
	s = sm_record(j, r, &l, &g, m->auth_uid);
	s->port_nodes = ports.port_nodes;
	s->ports = ports.ports;
	s->port_cnt = ports.port_cnt;
	s->resv_ports = ports.resv_ports;
	log_flag(STEPS, "%s: StepId=%u.%u created on %s: %u tasks, uid=%u",
		 __func__, j->info.job_id, s->step_id, s->nodes,
		 r->num_tasks, (unsigned) m->auth_uid);
	resp = sm_response(j, s, &g);
	sm_gres_free(&g);
	info("_slurm_rpc_job_step_create: StepId=%u.%u %s usec=0",
	     j->info.job_id, s->step_id, s->nodes);
	sm_acct(j, s, 0, JOB_RUNNING, 0);
	/* srun launches once the step is on disk: a restarted controller
	 * knows it and never hands its id out again */
	job_mgr_touch(j);
	commit_reply_finish(c, RESPONSE_JOB_STEP_CREATE, resp, sm_sign_creds,
			    sm_resp_free);
}

/* ---- completion ---- */
