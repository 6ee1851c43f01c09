/* step_mgr.c — job steps in the controller (step_mgr.h). */
#include "ctld/step_mgr.h"
#include "ctld/step_mgr_int.h"
#include "ctld/het_job.h"
#include "ctld/step_gres.h"
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
#include "ctld/job_nprolog.h"
#include "ctld/rpc.h"
#include "ctld/select.h"
#include "ctld/user_groups.h"
#include "slurm/slurm_errno.h"
void sm_step_free(sm_step_t *s)
{
	xfree(s->name);
	xfree(s->pos);
	xfree(s->cpus);
	xfree(s->tasks);
	xfree(s->done);
	xfree(s->nodes);
	xfree(s->host);
	xfree(s->container);
	for (uint32_t i = 0; s->ids && i < s->node_cnt; i++)
		bitmap_destroy(s->ids[i]);
	xfree(s->ids);
	if (s->ports) {
		resv_ports_release(s->port_nodes, s->node_cnt, s->ports,
				   s->port_cnt);
		log_flag(STEPS, "%s: StepId=?.%u released ports %s", __func__,
			 s->step_id, s->resv_ports);
	}
	xstrarray_free(s->port_nodes);
	xfree(s->ports);
	xfree(s->resv_ports);
	xfree(s->gpus);
	xfree(s->tres);
	xfree(s);
}


struct job_steps *sm_steps(job_record_t *j)
{
	if (!j->steps) {
		j->steps = xmalloc(sizeof(*j->steps));
		j->steps->alloc_cnt = j->alloc_cnt;
		j->steps->used = xcalloc(j->alloc_cnt + 1, sizeof(uint16_t));
	}
	return j->steps;
}

char *sm_join16(const uint16_t *v, uint32_t n)
{
	char *s = xstrdup("");

	for (uint32_t i = 0; i < n; i++)
		xstrfmtcat(&s, "%s%u", i ? "," : "", v[i]);
	return s;
}

/* ---- the job's nodes ---- */

void sm_job_nodes(job_record_t *j, sm_job_nodes_t *jn)
{
	long i;
	uint32_t k = 0;

	jn->cnt = j->alloc_cnt;
	jn->node = xcalloc(jn->cnt + 1, sizeof(*jn->node));
	for (i = bitmap_first_set(j->node_bitmap); i >= 0 && k < jn->cnt;
	     i = bitmap_next_set(j->node_bitmap, i + 1))
		jn->node[k++] = node_mgr_at(i);
	jn->cpus = j->node_cpus;
	jn->used = sm_steps(j)->used;
}

void step_mgr_job_free(job_record_t *j)
{
	sm_step_t *s, *next;

	if (!j->steps)
		return;
	for (s = j->steps->list; s; s = next) {
		next = s->next;
		sm_step_free(s);
	}
	xfree(j->steps->used);
	xfree(j->steps);
	j->steps = NULL;
}

/* ---- accounting (ACCT_REC_STEP, upserted by job and step id) ---- */

static uint32_t sm_num_cpus(const sm_step_t *s)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < s->node_cnt; k++)
		n += s->cpus[k] ? s->cpus[k] : s->tasks[k] * s->cpt;
	return n;
}

void sm_step_tres(sm_step_t *s)
{
	char *g = step_gres_tres(s->gpus, s->node_cnt);

	xfree(s->tres);
	s->tres = xstrdup_printf("cpu=%u,node=%u%s%s", sm_num_cpus(s),
				 s->node_cnt, *g ? "," : "", g);
	xfree(g);
}

/* end 0: the step started (RUNNING); else its end with state and
 * wait status. */
void sm_acct(const job_record_t *j, const sm_step_t *s, time_t end,
	     uint32_t state, uint32_t rc)
{
	acct_step_rec_t r;

	if (!acct_enabled())
		return;
	r = (acct_step_rec_t){
		.job_id = j->info.job_id,
		.submit = j->info.submit_time,
		.step_id = s->step_id,
		.name = s->name,
		.start = s->start,
		.end = end,
		.state = end ? state : JOB_RUNNING,
		.exit_code = end ? rc : 0,
		.requid = NO_VAL32,
		.nodes = s->nodes,
		.num_nodes = s->node_cnt,
		.ntasks = s->num_tasks,
		.num_cpus = sm_num_cpus(s),
		.user_usec = s->user_usec,
		.sys_usec = s->sys_usec,
		.max_rss_kb = s->max_rss_kb,
		.max_vsize_kb = s->max_vsize_kb,
		.ave_rss_kb = s->num_tasks ? s->tot_rss_kb / s->num_tasks : 0,
		.ave_vsize_kb = s->num_tasks ?
			s->tot_vsize_kb / s->num_tasks : 0,
		.consumed_energy = s->energy,
		.container = s->container,
	};
	if (s->step_id == SLURM_EXTERN_CONT)      /* as Slurm: the job's */
		r.num_cpus = j->info.num_cpus;
	if (s->tres && s->step_id != SLURM_EXTERN_CONT)
		r.tres_alloc = xstrdup(s->tres);
	else
		r.tres_alloc = xstrdup_printf("cpu=%u,node=%u", r.num_cpus,
					      r.num_nodes);
	acct_record(ACCT_REC_STEP, &r);
	xfree(r.tres_alloc);
}

void step_mgr_job_end(job_record_t *j)
{
	sm_step_t *s;

	if (!j->steps)
		return;
	for (s = j->steps->list; s; s = s->next) {
		info("StepId=%u.%u ended with JobId=%u", j->info.job_id,
		     s->step_id, j->info.job_id);
		/* as Slurm: the step of a job that ends under it; the
		 * extern step ends with the job, COMPLETED (22.05 shows it
		 * so also when the job was cancelled) */
		if (s->step_id == SLURM_EXTERN_CONT)
			sm_acct(j, s, time(NULL), JOB_COMPLETE, 0);
		else
			sm_acct(j, s, time(NULL), JOB_CANCELLED, SIGKILL);
	}
	step_mgr_job_free(j);
}

/* ---- placement ---- */
const char *step_mgr_step_nodes(job_record_t *j, uint32_t step_id)
{
	for (sm_step_t *s = sm_steps(j)->list; s; s = s->next)
		if (s->step_id == step_id)
			return s->nodes;
	return NULL;
}

void step_mgr_extern_start(job_record_t *j)
{
	struct job_steps *js = sm_steps(j);
	sm_step_t *s = xmalloc(sizeof(*s));

	s->step_id = SLURM_EXTERN_CONT;
	s->name = xstrdup("extern");
	s->uid = j->info.user_id;
	s->start = j->info.start_time;
	s->num_tasks = j->alloc_cnt;
	s->cpt = 1;
	s->node_cnt = j->alloc_cnt;
	s->pos = xcalloc(j->alloc_cnt + 1, sizeof(uint32_t));
	s->tasks = xcalloc(j->alloc_cnt + 1, sizeof(uint16_t));
	s->cpus = xcalloc(j->alloc_cnt + 1, sizeof(uint16_t));
	s->done = xcalloc(j->alloc_cnt + 1, sizeof(bool));
	for (uint32_t k = 0; k < j->alloc_cnt; k++) {
		s->pos[k] = k;
		s->tasks[k] = 1;
	}
	s->nodes = xstrdup(j->info.nodes);
	s->next = js->list;          /* before the job's srun steps */
	js->list = s;
	sm_acct(j, s, 0, JOB_RUNNING, 0);
	job_mgr_touch(j);            /* saved with the job (step_rec.c) */
	commit_dirty();
}

static int sm_signal_one(job_record_t *j, uint32_t step_id, uint16_t sig)
{
	sm_step_t *s = NULL;
	sm_job_nodes_t jn;
	node_signal_msg_t *m;
	bitmap_t *to;

	if (step_id == SLURM_BATCH_SCRIPT) {
		if (!j->info.batch_flag || !j->info.batch_host)
			return ESLURM_INVALID_JOB_ID;
		job_mgr_signal_nodes(j, sig, KILL_JOB_BATCH);
		return 0;
	}
	for (s = j->steps ? j->steps->list : NULL; s && s->step_id != step_id;
	     s = s->next)
		;
	if (!s || !j->node_bitmap)
		return ESLURM_INVALID_JOB_ID;
	to = bitmap_create(node_mgr_count() ? node_mgr_count() : 1);
	sm_job_nodes(j, &jn);
	for (uint32_t i = 0; i < s->node_cnt; i++)
		if (!s->done[i] && s->pos[i] < jn.cnt && jn.node[s->pos[i]])
			bitmap_set(to, jn.node[s->pos[i]]->index);
	xfree(jn.node);
	m = xmalloc(sizeof(*m));
	m->job_id = j->info.job_id;
	m->step_id = step_id;
	m->signal = sig;
	m->job_state = j->info.job_state;
	m->nodes = xstrdup(s->nodes);
	job_mgr_send_nodes(to, REQUEST_SIGNAL_JOB, m);
	bitmap_destroy(to);
	return 0;
}

/* A step of a het job's leader is also the step of that id in every
 * other component (one srun over several components, srun(1)): the
 * signal reaches all of them, as Slurm's scancel J.S does. */
int step_mgr_signal(job_record_t *j, uint32_t step_id, uint16_t sig)
{
	int rc = sm_signal_one(j, step_id, sig);
	job_record_t **comps;
	size_t n = 0;

	if (step_id >= SM_SPECIAL_STEP_MIN || !het_job_is_comp(j) ||
	    j->info.het_job_offset != 0 || !(comps = het_job_comps(j, &n)))
		return rc;
	for (size_t i = 1; i < n; i++)
		if (sm_signal_one(comps[i], step_id, sig) == 0)
			rc = 0;
	xfree(comps);
	return rc;
}


static uint32_t sm_rc_state(uint32_t rc)
{
	if (rc == SIG_OOM)
		return JOB_OOM;
	if (WIFSIGNALED(rc))
		return WTERMSIG(rc) == 9 ? JOB_CANCELLED : JOB_FAILED;
	return WEXITSTATUS(rc) ? JOB_FAILED : JOB_COMPLETE;
}

static const char *sm_state_name(uint32_t state)
{
	return state == JOB_OOM ? "OUT_OF_MEMORY" :
		state == JOB_CANCELLED ? "CANCELLED" :
		state == JOB_FAILED ? "FAILED" : "COMPLETED";
}

void sm_step_done(job_record_t *j, sm_step_t *s)
{
	struct job_steps *js = j->steps;
	sm_step_t **pp;

	for (uint32_t i = 0; i < s->node_cnt; i++) {
		uint32_t k = s->pos[i];

		js->used[k] = js->used[k] > s->cpus[i] ?
			js->used[k] - s->cpus[i] : 0;
	}
	sm_acct(j, s, time(NULL), sm_rc_state(s->rc), s->rc);
	log_flag(STEPS, "%s: StepId=%u.%u released its CPUs on %s", __func__,
		 j->info.job_id, s->step_id, s->nodes);
	info("_slurm_rpc_step_complete: StepId=%u.%u State=%s ExitCode=%u:%u",
	     j->info.job_id, s->step_id, sm_state_name(sm_rc_state(s->rc)),
	     WIFEXITED(s->rc) ? WEXITSTATUS(s->rc) : 0,
	     WIFSIGNALED(s->rc) ? WTERMSIG(s->rc) : 0);
	for (pp = &js->list; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	sm_step_free(s);
}

static uint32_t sm_worse(uint32_t a, uint32_t b)
{
	uint32_t ca = WIFSIGNALED(a) ? 128 + WTERMSIG(a) : WEXITSTATUS(a);
	uint32_t cb = WIFSIGNALED(b) ? 128 + WTERMSIG(b) : WEXITSTATUS(b);

	return cb > ca ? b : a;
}

void step_mgr_job_resized(job_record_t *j, const uint32_t *map,
			 uint32_t old_cnt)
{
	struct job_steps *js = j->steps;
	uint16_t *used;
	sm_step_t *s, *next;

	if (!js)
		return;
	used = xcalloc(j->alloc_cnt + 1, sizeof(*used));
	for (uint32_t k = 0; k < old_cnt && k < js->alloc_cnt; k++)
		if (map[k] != UINT32_MAX)
			used[map[k]] = js->used[k];
	xfree(js->used);
	js->used = used;
	js->alloc_cnt = j->alloc_cnt;
	for (s = js->list; s; s = next) {
		next = s->next;
		for (uint32_t i = 0; i < s->node_cnt; i++) {
			uint32_t k = s->pos[i];

			if (k < old_cnt && map[k] != UINT32_MAX) {
				s->pos[i] = map[k];
				continue;
			}
			/* its tasks there are ended with the node's share */
			s->pos[i] = 0;
			s->cpus[i] = 0;
			if (!s->done[i]) {
				s->done[i] = true;
				s->remaining--;
			}
		}
		if (!s->remaining)
			sm_step_done(j, s);
	}
}

void step_mgr_rpc_complete(net_conn_t *c, slurm_msg_t *m)
{
	step_complete_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find(r->job_id) : NULL;
	sm_step_t *s = NULL;
	sm_job_nodes_t jn;

	if (j && j->steps)
		for (s = j->steps->list; s && s->step_id != r->step_id;
		     s = s->next)
			;
	if (!s) {
		debug("REQUEST_STEP_COMPLETE for StepId=%u.%u: nothing to do",
		      r ? r->job_id : 0, r ? r->step_id : 0);
		net_reply_rc(c, 0);
		return;
	}
	sm_job_nodes(j, &jn);
	for (uint32_t i = 0; i < s->node_cnt; i++) {
		if (s->done[i] || !r->node_name ||
		    strcmp(jn.node[s->pos[i]]->info.name, r->node_name))
			continue;
		s->done[i] = true;
		s->remaining--;
		s->rc = sm_worse(s->rc, r->step_rc);
		s->user_usec += r->user_cpu_usec;
		s->sys_usec += r->sys_cpu_usec;
		s->tot_rss_kb += r->tot_rss_kb;
		s->tot_vsize_kb += r->tot_vsize_kb;
		s->energy += r->consumed_energy;
		if (r->max_rss_kb > s->max_rss_kb)
			s->max_rss_kb = r->max_rss_kb;
		if (r->max_vsize_kb > s->max_vsize_kb)
			s->max_vsize_kb = r->max_vsize_kb;
	}
	xfree(jn.node);
	if (!s->remaining)
		sm_step_done(j, s);
	/* the node stops resending once answered: answer when it is saved */
	job_mgr_touch(j);
	commit_reply_rc(c, 0, NULL);
}

/* ---- info ---- */

static void sm_info_fill(job_step_info_t *o, const job_record_t *j,
		       const sm_step_t *s)
{
	const job_info_t *i = &j->info;

	o->job_id = i->job_id;
	o->array_job_id = i->array_job_id;
	o->array_task_id = i->array_task_id;
	o->partition = i->partition;
	o->user_id = i->user_id;
	o->user_name = i->user_name;
	o->state = JOB_RUNNING;
	o->time_limit = i->time_limit;
	if (!s) {
		o->step_id = SLURM_BATCH_SCRIPT;
		o->name = "batch";
		o->start_time = i->start_time;
		o->nodes = i->batch_host;
		o->node_cnt = 1;
		o->num_tasks = 1;
		o->num_cpus = j->node_cpus ? j->node_cpus[0] : 1;
		return;
	}
	o->step_id = s->step_id;
	o->name = s->name;
	o->start_time = s->start;
	o->nodes = s->nodes;
	o->node_cnt = s->node_cnt;
	o->num_tasks = s->num_tasks;
	o->num_cpus = s->step_id == SLURM_EXTERN_CONT ? 0 : sm_num_cpus(s);
	o->task_dist = s->dist;
	o->srun_host = s->host;
	o->srun_pid = s->srun_pid;
	o->tres = s->tres;
}

static bool sm_step_wanted(const job_step_info_request_msg_t *r,
			 uint32_t step_id)
{
	return !r || r->step_id == NO_VAL32 || r->step_id == step_id;
}

void step_mgr_rpc_info(net_conn_t *c, slurm_msg_t *m)
{
	job_step_info_request_msg_t *r = m->data;
	job_step_info_msg_t resp = { .last_update = time(NULL) };
	rpc_viewer_t v = rpc_viewer(m);         /* PrivateData=jobs */
	uint32_t cap = 16;
	job_record_t *j;

	resp.steps = xcalloc(cap, sizeof(job_step_info_t));
	for (j = job_mgr_running_first(); j; j = j->run_next) {
		sm_step_t *s;

		if (STEP_JOB_BASE(j) != JOB_RUNNING || (j->info.job_state & JOB_COMPLETING))
			continue;
		if (r && r->job_id && r->job_id != NO_VAL32 &&
		    r->job_id != j->info.job_id)
			continue;
		if ((r && r->user_id != NO_VAL32 &&
		     r->user_id != j->info.user_id) || rpc_hides_job(&v, j))
			continue;
		if (resp.cnt + 2 >= cap || (j->steps && resp.cnt + 64 >= cap)) {
			cap = cap * 2 + 64;
			resp.steps = xrealloc(resp.steps, cap * sizeof(job_step_info_t));
		}
		/* in the order they began, as Slurm: N.extern, N.batch,
		 * N.0 ... */
		s = j->steps ? j->steps->list : NULL;
		if (s && s->step_id == SLURM_EXTERN_CONT &&
		    sm_step_wanted(r, s->step_id))
			sm_info_fill(&resp.steps[resp.cnt++], j, s);
		if (j->info.batch_flag && sm_step_wanted(r, SLURM_BATCH_SCRIPT))
			sm_info_fill(&resp.steps[resp.cnt++], j, NULL);
		for (; s; s = s->next) {
			if (!sm_step_wanted(r, s->step_id) ||
			    s->step_id == SLURM_EXTERN_CONT)
				continue;
			if (resp.cnt + 1 >= cap) {
				cap *= 2;
				resp.steps = xrealloc(resp.steps,
						      cap * sizeof(job_step_info_t));
			}
			sm_info_fill(&resp.steps[resp.cnt++], j, s);
		}
	}
	net_reply(c, RESPONSE_JOB_STEP_INFO, &resp);   /* shallow copies */
	xfree(resp.steps);
}

/* ---- layout (sattach) ---- */

/* REQUEST_STEP_LAYOUT: where a running step's tasks are.  As Slurm: an
 * unknown job or step is ESLURM_INVALID_JOB_ID, a pending job
 * ESLURM_JOB_PENDING, an ended one ESLURM_ALREADY_DONE; with
 * PrivateData=jobs only those who may see the job (rpc_hides_job). */
void step_mgr_rpc_layout(net_conn_t *c, slurm_msg_t *m)
{
	const job_step_info_request_msg_t *r = m->data;
	job_record_t *j = r ? job_mgr_find(r->job_id) : NULL;
	step_layout_msg_t resp = { 0 };
	rpc_viewer_t v = rpc_viewer(m);         /* PrivateData=jobs */
	sm_step_t *s = NULL;
	char *counts = NULL;

	if (!j) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	if (rpc_hides_job(&v, j)) {
		net_reply_rc(c, ESLURM_ACCESS_DENIED);
		return;
	}
	if (STEP_JOB_BASE(j) == JOB_PENDING) {
		net_reply_rc(c, ESLURM_JOB_PENDING);
		return;
	}
	if (STEP_JOB_BASE(j) != JOB_RUNNING ||
	    (j->info.job_state & JOB_COMPLETING)) {
		net_reply_rc(c, ESLURM_ALREADY_DONE);
		return;
	}
	resp.job_id = j->info.job_id;
	resp.step_id = r->step_id;
	if (r->step_id == SLURM_BATCH_SCRIPT && j->info.batch_flag) {
		resp.node_list = j->info.batch_host;
		resp.node_cnt = 1;
		resp.task_cnt = 1;
		resp.tasks_per_node = "1";
		resp.task_dist = STEP_DIST_BLOCK;
		net_reply(c, RESPONSE_STEP_LAYOUT, &resp);
		return;
	}
	for (s = j->steps ? j->steps->list : NULL; s; s = s->next)
		if (s->step_id == r->step_id)
			break;
	if (!s) {
		net_reply_rc(c, ESLURM_INVALID_JOB_ID);
		return;
	}
	counts = sm_join16(s->tasks, s->node_cnt);
	resp.node_list = s->nodes;
	resp.node_cnt = s->node_cnt;
	resp.task_cnt = s->num_tasks;
	resp.tasks_per_node = counts;
	resp.task_dist = s->dist;
	resp.plane_size = s->plane;
	net_reply(c, RESPONSE_STEP_LAYOUT, &resp);     /* shallow copies */
	xfree(counts);
}
