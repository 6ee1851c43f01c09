/* het_job.c — heterogeneous jobs (het_job.h): the submit of every
 * component at once, their placement together, the leader's end and
 * the batch environment. */
#include "ctld/het_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/commit.h"
#include "ctld/job_mgr.h"
#include "ctld/job_res.h"
#include "ctld/lic_mgr.h"
#include "ctld/resv_mgr.h"
#include "slurm/slurm_errno.h"

#define HET_BASE(j) ((j)->info.job_state & JOB_STATE_BASE)

bool het_job_is_comp(const job_record_t *j)
{
	return j && j->info.het_job_id != 0;
}

/* "1234-1236" or "1234,1236,1240": the ids, in order (*cnt). */
static uint32_t *het_parse_set(const char *set, size_t *cnt)
{
	uint32_t *ids = NULL;
	size_t n = 0, cap = 0;
	const char *p = set;

	*cnt = 0;
	while (p && *p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a || b - a >= HET_JOB_MAX_COMPONENTS)
				break;
		}
		for (unsigned long k = a; k <= b; k++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				ids = xrealloc(ids, cap * sizeof(*ids));
			}
			ids[n++] = (uint32_t) k;
		}
		p = *end == ',' ? end + 1 : NULL;
		if (n > HET_JOB_MAX_COMPONENTS)
			break;
	}
	*cnt = n;
	return ids;
}

job_record_t **het_job_comps(const job_record_t *j, size_t *cnt)
{
	job_record_t **out;
	uint32_t *ids;
	size_t n;

	*cnt = 0;
	if (!het_job_is_comp(j))
		return NULL;
	ids = het_parse_set(j->info.het_job_id_set, &n);
	if (!n) {
		xfree(ids);
		return NULL;
	}
	out = xcalloc(n, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		job_record_t *c = job_mgr_find(ids[i]);

		if (!c || c->info.het_job_id != j->info.het_job_id ||
		    c->info.het_job_offset != i) {
			xfree(out);
			xfree(ids);
			return NULL;
		}
		out[i] = c;
	}
	xfree(ids);
	*cnt = n;
	return out;
}

job_record_t *het_job_find_str(const char *id)
{
	job_record_t *lead, **comps, *j = NULL;
	unsigned long a, b;
	char *end;
	size_t n;

	a = strtoul(id, &end, 10);
	if (end == id || *end != '+' || !end[1])
		return NULL;
	id = end + 1;
	b = strtoul(id, &end, 10);
	if (end == id || *end || a == 0 || a >= NO_VAL32)
		return NULL;
	lead = job_mgr_find((uint32_t) a);
	if (!lead || lead->info.het_job_id != lead->info.job_id ||
	    !(comps = het_job_comps(lead, &n)))
		return NULL;
	if (b < n)
		j = comps[b];
	xfree(comps);
	return j;
}

/* ---- submit ---- */

static void het_reply_error(net_conn_t *c, int rc, const char *msg)
{
	return_code_msg_t r = { .rc = rc, .msg = (char *) msg };

	net_reply(c, RESPONSE_SLURM_RC, &r);
}

static void het_free_resp(void *data)
{
	msg_body_free(RESPONSE_SUBMIT_BATCH_JOB, data);
}

static void het_free_alloc_resp(void *data)
{
	msg_body_free(RESPONSE_RESOURCE_ALLOCATION, data);
}

/* The ids as Slurm prints HetJobIdSet: ranges of consecutive ids. */
static char *het_id_set(job_record_t *const *made, size_t n)
{
	char *s = NULL;

	for (size_t i = 0; i < n; ) {
		size_t k = i;

		while (k + 1 < n && made[k + 1]->info.job_id ==
		       made[k]->info.job_id + 1)
			k++;
		if (k > i)
			xstrfmtcat(&s, "%s%u-%u", s ? "," : "",
				   made[i]->info.job_id, made[k]->info.job_id);
		else
			xstrfmtcat(&s, "%s%u", s ? "," : "",
				   made[i]->info.job_id);
		i = k + 1;
	}
	return s;
}

/* Each component as a submit of its own would be checked; the first
 * refusal refuses the whole job.  0 with made[] filled, or the error
 * (with *msg) and nothing made. */
static int het_trial_all(het_job_desc_msg_t *h, slurm_msg_t *m,
			 job_record_t **made, char **msg, const char *rpc)
{
	int rc = 0;

	for (uint32_t i = 0; i < h->cnt && !rc; i++) {
		job_desc_t *d = &h->desc[i];

		if (i)
			xfree(d->script);    /* the leader's runs */
		if (d->array_inx && *d->array_inx)
			rc = ESLURM_NOT_SUPPORTED;
		else if (!(made[i] = job_mgr_trial(d, m, &rc, msg)) && !rc)
			rc = SLURM_ERROR;
		if (rc) {
			info("%s: uid=%u: component %u: %s", rpc,
			     (unsigned) m->auth_uid, i, slurm_strerror(rc));
			for (uint32_t k = 0; k < i; k++) {
				job_mgr_trial_free(made[k]);
				made[k] = NULL;
			}
		}
	}
	return rc;
}

/* Batch (sbatch: the leader runs the script) or an allocation (salloc,
 * srun: no script in any component). */
static void het_submit_common(net_conn_t *c, slurm_msg_t *m, bool batch)
{
	const char *rpc = batch ? "_slurm_rpc_submit_batch_het_job" :
		"_slurm_rpc_allocate_het_job";
	het_job_desc_msg_t *h = m->data;
	submit_response_msg_t *resp;
	job_record_t **made;
	struct timeval t0, t1;
	char *msg = NULL, *set;
	int rc;

	gettimeofday(&t0, NULL);
	if (!h || !h->cnt) {
		het_reply_error(c, SLURM_ERROR, NULL);
		return;
	}
	if (!batch)
		xfree(h->desc[0].script);
	else if (!h->desc[0].script || !*h->desc[0].script) {
		het_reply_error(c, ESLURM_JOB_SCRIPT_MISSING, NULL);
		return;
	}
	made = xcalloc(h->cnt, sizeof(*made));
	if ((rc = het_trial_all(h, m, made, &msg, rpc))) {
		het_reply_error(c, rc, msg);
		xfree(msg);
		xfree(made);
		return;
	}
	xfree(msg);
	/* all or nothing: from here on nothing is refused */
	for (uint32_t i = 0; i < h->cnt; i++)
		job_mgr_trial_add(made[i], &h->desc[i]);
	set = het_id_set(made, h->cnt);
	for (uint32_t i = 0; i < h->cnt; i++) {
		job_info_t *ji = &made[i]->info;

		ji->het_job_id = made[0]->info.job_id;
		ji->het_job_offset = i;
		ji->het_job_id_set = xstrdup(set);
		job_mgr_touch(made[i]);
		acct_job_changed(made[i]);
	}
	resp = xmalloc(sizeof(*resp));
	resp->job_id = made[0]->info.job_id;
	resp->step_id = NO_VAL32;
	gettimeofday(&t1, NULL);
	info("%s: JobId=%u HetJobIdSet=%s InitPrio=%u usec=%ld", rpc,
	     made[0]->info.job_id, set,
	     made[0]->info.priority,
	     (long) ((t1.tv_sec - t0.tv_sec) * 1000000 +
		     (t1.tv_usec - t0.tv_usec)));
	xfree(set);
	xfree(made);
	if (batch)
		commit_reply(c, RESPONSE_SUBMIT_BATCH_JOB, resp, het_free_resp);
	else
		commit_reply(c, RESPONSE_RESOURCE_ALLOCATION, resp,
			     het_free_alloc_resp);
}

void het_job_rpc_submit(net_conn_t *c, slurm_msg_t *m)
{
	het_submit_common(c, m, true);
}

void het_job_rpc_allocate(net_conn_t *c, slurm_msg_t *m)
{
	het_submit_common(c, m, false);
}

/* ---- placement ---- */

/* What res takes, on the scratch view: its CPUs, memory, GPUs and CPU
 * ids (those in copies the caller frees: owned[node]). */
static void het_view_take(select_node_t *view, bitmap_t **owned,
			  const select_result_t *res)
{
	long i, k = 0;

	for (i = bitmap_first_set(res->nodes); i >= 0;
	     i = bitmap_next_set(res->nodes, i + 1), k++) {
		view[i].alloc_cpus += res->cpus[k];
		view[i].alloc_memory += res->mem[k];
		view[i].gpu_used |= res->gpus[k];
		if (!res->cpu_ids || !res->cpu_ids[k] || !view[i].cpu_used)
			continue;
		if (!owned[i]) {
			owned[i] = bitmap_copy(view[i].cpu_used);
			view[i].cpu_used = owned[i];
		}
		bitmap_or(owned[i], res->cpu_ids[k]);
	}
}

uint32_t het_job_place(job_record_t *const *comps, size_t n,
		       const select_node_t *view, size_t node_cnt,
		       const bitmap_t *usable, time_t now,
		       select_result_t *res)
{
	select_node_t *scratch = xcalloc(node_cnt + 1, sizeof(*scratch));
	bitmap_t **owned = xcalloc(node_cnt + 1, sizeof(*owned));
	uint32_t why = WAIT_NO_REASON;
	size_t i;

	memcpy(scratch, view, node_cnt * sizeof(*scratch));
	for (i = 0; i < n && why == WAIT_NO_REASON; i++) {
		bitmap_t *mine = NULL;
		uint32_t removed = 0;

		memset(&res[i], 0, sizeof(res[i]));
		if (!lic_mgr_job_test(comps[i])) {
			why = WAIT_LICENSES;
			break;
		}
		why = resv_mgr_job_nodes(comps[i], usable, now, &mine,
					 &removed);
		if (why != WAIT_NO_REASON)
			break;
		if (job_res_select(comps[i], scratch, node_cnt,
				   mine ? mine : usable, false, &res[i]) !=
		    SELECT_OK)
			why = WAIT_RESOURCES;
		else
			het_view_take(scratch, owned, &res[i]);
		if (mine)
			bitmap_destroy(mine);
	}
	if (why != WAIT_NO_REASON)
		for (size_t k = 0; k < i; k++)
			select_result_free(&res[k]);
	for (size_t k = 0; k < node_cnt; k++)
		if (owned[k])
			bitmap_destroy(owned[k]);
	xfree(owned);
	xfree(scratch);
	return why;
}

/* ---- end, cancel ---- */

/* The leader was requeued (job_mgr_end with JOB_REQUEUE): c, still
 * live, goes with it, held when the leader is held. */
static void het_requeue_comp(job_record_t *lead, job_record_t *c)
{
	const job_info_t *l = &lead->info;
	job_info_t *i = &c->info;

	i->restart_cnt++;
	if (!l->priority) {
		if (i->priority)
			c->prio_saved = i->priority;
		i->priority = 0;
		i->held_by_user = l->held_by_user;
		xfree(i->state_desc);
		i->state_desc = xstrdup(l->state_desc);
	}
	debug("%s: JobId=%u (HetJobId=%u+%u) requeued with its leader",
	      __func__, i->job_id, l->job_id, (unsigned) i->het_job_offset);
	job_mgr_end(c, l->job_state & ~JOB_COMPLETING, l->state_reason,
		    l->exit_code);
}

void het_job_ended(job_record_t *j)
{
	job_record_t **comps;
	size_t n;
	bool requeue = j->info.job_state & JOB_REQUEUE;

	if (!het_job_is_comp(j) || j->info.het_job_offset != 0)
		return;
	if (HET_BASE(j) == JOB_PENDING && !requeue)
		return;
	if (!(comps = het_job_comps(j, &n)))
		return;
	for (size_t i = 1; i < n; i++) {
		job_record_t *c = comps[i];
		uint32_t b = HET_BASE(c);

		if (b != JOB_PENDING && b != JOB_RUNNING &&
		    b != JOB_SUSPENDED)
			continue;
		if (b == JOB_PENDING && (c->info.job_state & JOB_COMPLETING))
			continue;       /* a requeue cleaning up */
		if (requeue) {          /* the whole het job runs again */
			if (b != JOB_PENDING &&
			    !(c->info.job_state & JOB_COMPLETING))
				het_requeue_comp(j, c);
			continue;
		}
		debug("%s: JobId=%u (HetJobId=%u+%u) ends with its leader",
		      __func__, c->info.job_id, j->info.job_id, (unsigned) i);
		c->acct_requid = j->acct_requid;
		job_mgr_end(c, j->info.job_state & ~JOB_COMPLETING,
			    b == JOB_PENDING ? c->info.state_reason :
			    WAIT_NO_REASON, j->info.exit_code);
	}
	xfree(comps);
}

job_record_t *het_job_leader(job_record_t *j)
{
	if (!het_job_is_comp(j))
		return NULL;
	if (j->info.het_job_offset == 0)
		return j;
	return job_mgr_find(j->info.het_job_id);
}

bool het_job_node_fail(job_record_t *j, const char *node)
{
	job_record_t *lead = het_job_leader(j);
	uint32_t b;

	if (!lead || lead == j)
		return false;   /* the leader's own end or requeue takes all */
	b = HET_BASE(lead);
	if ((b != JOB_RUNNING && b != JOB_SUSPENDED) ||
	    (lead->info.job_state & JOB_COMPLETING))
		return false;
	if (lead->info.batch_flag && lead->info.requeue) {
		info("job_mgr_node_fail: requeue JobId=%u (HetJobId=%u) due to "
		     "failure of node %s", j->info.job_id, lead->info.job_id,
		     node);
		job_mgr_requeue_auto(lead);
		return true;
	}
	info("Killing JobId=%u (HetJobId=%u) on failed node %s",
	     j->info.job_id, lead->info.job_id, node);
	job_mgr_end(lead, JOB_NODE_FAIL, FAIL_DOWN_NODE, 0);
	return true;
}

int het_job_requeue_check(const job_record_t *j)
{
	if (het_job_is_comp(j) && j->info.het_job_offset != 0)
		return ESLURM_NOT_HET_JOB_LEADER;
	return 0;
}

int het_job_cancel_check(const job_record_t *j)
{
	if (het_job_is_comp(j) && j->info.het_job_offset != 0 &&
	    HET_BASE(j) == JOB_PENDING)
		return ESLURM_NOT_WHOLE_HET_JOB;
	return 0;
}

/* ---- environment ---- */

static char **het_env_add(char **env, const char *name, unsigned n,
			  const char *val)
{
	char *kv;

	if (!val)
		return env;
	kv = xstrdup_printf("%s_HET_GROUP_%u=%s", name, n, val);
	env = xstrarray_append(env, kv);
	xfree(kv);
	return env;
}

static char **het_env_u32(char **env, const char *name, unsigned n,
			  uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	return het_env_add(env, name, n, buf);
}

char **het_job_env(const job_record_t *j, char **env)
{
	job_record_t **comps;
	size_t n;
	char buf[40];

	if (!het_job_is_comp(j) || !(comps = het_job_comps(j, &n)))
		return env;
	snprintf(buf, sizeof(buf), "SLURM_HET_SIZE=%zu", n);
	env = xstrarray_append(env, buf);
	for (size_t k = 0; k < n; k++) {
		const job_info_t *i = &comps[k]->info;
		unsigned g = (unsigned) k;

		env = het_env_u32(env, "SLURM_JOB_ID", g, i->job_id);
		env = het_env_u32(env, "SLURM_JOBID", g, i->job_id);
		env = het_env_add(env, "SLURM_JOB_NAME", g, i->name);
		env = het_env_add(env, "SLURM_JOB_PARTITION", g, i->partition);
		env = het_env_add(env, "SLURM_JOB_ACCOUNT", g, i->account);
		env = het_env_add(env, "SLURM_JOB_QOS", g, i->qos);
		env = het_env_add(env, "SLURM_JOB_NODELIST", g, i->nodes);
		env = het_env_add(env, "SLURM_NODELIST", g, i->nodes);
		env = het_env_u32(env, "SLURM_JOB_NUM_NODES", g, i->num_nodes);
		env = het_env_u32(env, "SLURM_NNODES", g, i->num_nodes);
		env = het_env_add(env, "SLURM_JOB_CPUS_PER_NODE", g,
				  i->cpus_per_node_str);
		if (comps[k]->ntasks_given) {
			env = het_env_u32(env, "SLURM_NTASKS", g, i->num_tasks);
			env = het_env_u32(env, "SLURM_NPROCS", g, i->num_tasks);
		}
		if (comps[k]->cpt_given)
			env = het_env_u32(env, "SLURM_CPUS_PER_TASK", g,
					  i->cpus_per_task);
	}
	xfree(comps);
	return env;
}
