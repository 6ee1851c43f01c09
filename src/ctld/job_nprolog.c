/* job_nprolog.c — the nodes' Prolog at allocation (job_nprolog.h). */
#include "ctld/job_nprolog.h"

#include <string.h>

#include "common/conf_params.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_prolog.h"
#include "ctld/node_mgr.h"
#include "ctld/sched.h"
#include "ctld/step_mgr.h"
#include "slurm/slurm_errno.h"

typedef struct np_wait {
	uint32_t        job_id;
	time_t          start;        /* the run it belongs to */
	uint32_t        cnt;          /* allocated nodes */
	bool           *left;         /* per allocation position */
	uint32_t        left_cnt;
	void          (*cont)(job_record_t *j);
	struct np_wait *next;
} np_wait_t;

typedef struct {
	uint32_t job_id;
	char    *node;
} np_send_t;

static np_wait_t *waits;

uint32_t job_nprolog_flags(void)
{
	uint32_t bits = 0;

	if (conf_parse_prolog_flags(ctld_conf()->prolog_flags, &bits, NULL,
				    0) < 0)
		bits = 0;
	return bits;
}

static np_wait_t **np_find(uint32_t job_id)
{
	np_wait_t **pp;

	for (pp = &waits; *pp && (*pp)->job_id != job_id; pp = &(*pp)->next)
		;
	return pp;
}

static void np_drop(np_wait_t **pp)
{
	np_wait_t *w = *pp;

	*pp = w->next;
	xfree(w->left);
	xfree(w);
}

/* The entry of j's current run, NULL if none (stale ones are dropped). */
static np_wait_t *np_current(const job_record_t *j, uint32_t job_id)
{
	np_wait_t **pp = np_find(job_id);

	if (!*pp)
		return NULL;
	if (!j || (j->info.job_state & JOB_STATE_BASE) != JOB_RUNNING ||
	    (j->info.job_state & JOB_COMPLETING) ||
	    j->info.start_time != (*pp)->start) {
		np_drop(pp);
		return NULL;
	}
	return *pp;
}

bool job_nprolog_running(const job_record_t *j)
{
	return np_current(j, j->info.job_id) != NULL;
}

static long np_pos(const job_record_t *j, const char *node)
{
	long i, k = 0;

	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++)
		if (!strcmp(node_mgr_at(i)->info.name, node))
			return k;
	return -1;
}

/* One node answered (rc 0) or failed. */
static void np_node_done(uint32_t job_id, const char *node, int rc)
{
	job_record_t *j = job_mgr_find(job_id);
	np_wait_t *w = np_current(j, job_id);
	long k;

	/* no Alloc wait: the Prolog ran before a step's first task there
	 * (srun may have ended the job already: the node drains anyway) */
	if (!w && rc && node) {
		node_record_t *n = node_mgr_find(node);

		error("prolog_slurmd JobId=%u failed on node %s: %s", job_id,
		      node, slurm_strerror(rc));
		if (j && np_pos(j, node) >= 0 &&
		    (j->info.job_state & JOB_STATE_BASE) == JOB_RUNNING &&
		    !(j->info.job_state & JOB_COMPLETING))
			job_prolog_node_failed(j, node);
		else if (n)
			node_mgr_drain(n, "Prolog error",
				       ctld_conf()->slurm_user_id);
		commit_dirty();
		return;
	}
	if (!w || !node || (k = np_pos(j, node)) < 0 ||
	    (uint32_t) k >= w->cnt || !w->left[k])
		return;
	if (rc) {
		error("prolog_slurmd JobId=%u failed on node %s: %s", job_id,
		      node, slurm_strerror(rc));
		np_drop(np_find(job_id));
		job_prolog_node_failed(j, node);
		commit_dirty();
		return;
	}
	w->left[k] = false;
	if (--w->left_cnt)
		return;
	debug("JobId=%u: Prolog done on all nodes", job_id);
	{
		void (*cont)(job_record_t *) = w->cont;

		np_drop(np_find(job_id));
		if (j->info.state_reason == WAIT_PROLOG) {
			j->info.state_reason = WAIT_NO_REASON;
			job_mgr_touch(j);
		}
		cont(j);
	}
}

static void np_sent(int rc, void *arg)
{
	np_send_t *s = arg;

	if (rc)
		np_node_done(s->job_id, s->node, rc == ESLURMD_PROLOG_FAILED ?
			     rc : ESLURMD_PROLOG_FAILED);
	xfree(s->node);
	xfree(s);
}

static prolog_launch_msg_t *np_msg(const job_record_t *j, uint32_t k,
				   uint32_t flags)
{
	prolog_launch_msg_t *m = xmalloc(sizeof(*m));
	const job_info_t *i = &j->info;

	m->job_id = i->job_id;
	m->uid = i->user_id;
	m->gid = i->group_id;
	m->user_name = xstrdup(i->user_name);
	m->partition = xstrdup(i->partition);
	m->account = xstrdup(i->account);
	m->nodes = xstrdup(i->nodes);
	m->cluster_name = xstrdup(ctld_conf()->cluster_name);
	if (j->node_cpu_ids && j->node_cpu_ids[k])
		m->job_cpus = bitmap_to_str(j->node_cpu_ids[k]);
	m->ncpus = j->node_cpus ? j->node_cpus[k] : 0;
	m->mem_mb = j->node_mem ? j->node_mem[k] : 0;
	if (!m->mem_mb && i->pn_min_memory)
		m->mem_mb = i->pn_min_memory *
			    (i->mem_per_cpu ? (m->ncpus ? m->ncpus : 1) : 1);
	m->prolog_flags = flags;
	return m;
}

typedef struct {
	char                *addr;
	uint16_t             port;
	prolog_launch_msg_t *msg;
	np_send_t           *s;
} np_out_t;

/* The prologs run once the job's start is on disk. */
static void np_send_saved(void *arg)
{
	np_out_t *o = arg;

	agent_send_rc(o->addr, o->port, REQUEST_LAUNCH_PROLOG, o->msg,
		      ctld_conf()->message_timeout * 1000, np_sent, o->s);
	xfree(o->addr);
	xfree(o);
}

bool job_nprolog_start(job_record_t *j, void (*cont)(job_record_t *j))
{
	uint32_t flags = job_nprolog_flags();
	np_wait_t **pp, *w;
	long i;
	uint32_t k = 0;

	if (!(flags & PROLOG_FLAG_ALLOC) || !j->node_bitmap || !j->alloc_cnt)
		return false;
	if (*(pp = np_find(j->info.job_id)))
		np_drop(pp);
	w = xmalloc(sizeof(*w));
	w->job_id = j->info.job_id;
	w->start = j->info.start_time;
	w->cnt = j->alloc_cnt;
	w->left = xcalloc(w->cnt + 1, sizeof(bool));
	w->cont = cont;
	w->next = waits;
	waits = w;
	if (flags & PROLOG_FLAG_CONTAIN)
		step_mgr_extern_start(j);
	if (!(flags & PROLOG_FLAG_NOHOLD)) {
		j->info.state_reason = WAIT_PROLOG;
		job_mgr_touch(j);
	}
	for (i = bitmap_first_set(j->node_bitmap); i >= 0 && k < w->cnt;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
		node_record_t *n = node_mgr_at(i);
		np_send_t *s = xmalloc(sizeof(*s));

		w->left[k] = true;
		w->left_cnt++;
		np_out_t *o = xmalloc(sizeof(*o));

		s->job_id = j->info.job_id;
		s->node = xstrdup(n->info.name);
		o->addr = xstrdup(n->info.node_addr);
		o->port = n->info.port;
		o->msg = np_msg(j, k, flags);
		o->s = s;
		commit_after(np_send_saved, o);
	}
	debug("JobId=%u: Prolog started on %u node(s)", j->info.job_id,
	      w->left_cnt);
	return true;
}

void job_nprolog_recover(void)
{
	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next) {
		if ((j->info.job_state & JOB_STATE_BASE) != JOB_RUNNING ||
		    j->info.state_reason != WAIT_PROLOG)
			continue;
		info("JobId=%u: its Prolog was running before the restart; going on",
		     j->info.job_id);
		j->info.state_reason = WAIT_NO_REASON;
		job_mgr_touch(j);
	}
}

void job_nprolog_rpc_complete(net_conn_t *c, slurm_msg_t *m)
{
	epilog_complete_msg_t *r = m->data;

	if (!r) {
		net_reply_rc(c, SLURM_SUCCESS);
		return;
	}
	debug("REQUEST_COMPLETE_PROLOG JobId=%u node %s rc %d", r->job_id,
	      r->node_name ? r->node_name : "?", r->rc);
	np_node_done(r->job_id, r->node_name, r->rc ? ESLURMD_PROLOG_FAILED
						   : 0);
	sched_trigger();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);   /* once it is saved */
}
