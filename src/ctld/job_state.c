/* job_state.c — job records in the snapshot, and the batch launch
 * (job_mgr.h). */
#include <signal.h>
#include <string.h>
#include <event2/event.h>

#include <utlist.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/agent.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_files.h"
#include "ctld/job_ckpt.h"
#include "ctld/het_job.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "ctld/job_nprolog.h"
#include "ctld/job_prolog.h"
#include "ctld/power_save.h"
#include "ctld/job_res.h"
#include "ctld/job_rec.h"
#include "ctld/journal.h"
#include "ctld/sched.h"
#include "ctld/state_save.h"
#include "ctld/user_groups.h"
#include "slurm/slurm_errno.h"

/* Records are packed when they are journaled or snapshotted, and the
 * bytes are not kept: a copy per job was the largest part of a pending
 * job's memory (~1 KiB of its ~3.6).  A snapshot packs every job again
 * (a few microseconds each, once per journal rotation). */
static void _pack_job(buf_t *b, job_record_t *j)
{
	job_rec_pack(b, j);
}

void job_mgr_pack_changes(buf_t *b, uint64_t *seq)
{
	uint32_t *dirty, *purged;
	size_t nd, np, k;
	buf_t *p;

	job_mgr_take_changes(&dirty, &nd, &purged, &np);
	for (k = 0; k < nd; k++) {
		job_record_t *j = job_mgr_find(dirty[k]);

		if (!j || !j->jdirty)
			continue;        /* purged since */
		j->jdirty = false;
		p = buf_create(2048);
		_pack_job(p, j);
		journal_frame(b, JREC_JOB, JOB_REC_VERSION, ++*seq,
			      buf_data(p), buf_len(p));
		buf_destroy(p);
	}
	for (k = 0; k < np; k++) {
		uint8_t id[4] = { purged[k] >> 24, purged[k] >> 16,
				  purged[k] >> 8, purged[k] };

		journal_frame(b, JREC_PURGE, 1, ++*seq, id, sizeof(id));
	}
	xfree(dirty);
	xfree(purged);
}

void job_mgr_changes_reset(void)
{
	uint32_t *dirty, *purged;
	size_t nd, np;

	job_mgr_take_changes(&dirty, &nd, &purged, &np);
	for (size_t k = 0; k < nd; k++) {
		job_record_t *j = job_mgr_find(dirty[k]);

		if (j)
			j->jdirty = false;
	}
	xfree(dirty);
	xfree(purged);
}

struct job_pack {
	uint32_t *ids;          /* the jobs there were at the start */
	size_t    cnt, next;
	size_t    count_at;     /* where the count goes in the buffer */
	uint32_t  packed;
};

/* The jobs in the table's order (the order added, near their order in
 * memory): walking the pending list (priority order) waited on memory at
 * every record, and recovery allocates the records in the snapshot's
 * order, which then is near the order it installs them in (end time,
 * job id).  Readers take the records in any order. */
job_pack_t *job_mgr_pack_begin(buf_t *b)
{
	job_pack_t *p = xmalloc(sizeof(*p));
	uint32_t n, k;
	job_record_t *const *all = job_mgr_all(&n);

	p->ids = xcalloc(job_mgr_count() + 1, sizeof(uint32_t));
	for (k = 0; k < n && p->cnt < job_mgr_count(); k++)
		if (all[k])
			p->ids[p->cnt++] = all[k]->info.job_id;
	if (p->cnt != job_mgr_count())
		error("state save: %zu of %u jobs in the table's array", p->cnt,
		      job_mgr_count());
	p->count_at = buf_len(b);
	pack32(b, 0);
	return p;
}

bool job_mgr_pack_some(job_pack_t *p, buf_t *b, size_t max)
{
	size_t end = p->cnt - p->next > max ? p->next + max : p->cnt;

	for (; p->next < end; p->next++) {
		job_record_t *j = job_mgr_find(p->ids[p->next]);

		if (!j)
			continue;        /* purged since: the journal says so */
		_pack_job(b, j);
		p->packed++;
	}
	return p->next == p->cnt;
}

void job_mgr_pack_end(job_pack_t *p, buf_t *b)
{
	if (b)
		pack32_at(b, p->count_at, p->packed);
	xfree(p->ids);
	xfree(p);
}

void job_mgr_pack_state(buf_t *b)
{
	job_pack_t *p = job_mgr_pack_begin(b);

	job_mgr_pack_some(p, b, SIZE_MAX);
	job_mgr_pack_end(p, b);
}

void job_mgr_attach(job_record_t *j)
{
	uint32_t st = j->info.job_state;
	long i, k = 0;

	job_res_attach_parts(j);
	job_mgr_add(j);
	/* a requeued job still completing on its nodes holds them */
	if ((st & JOB_STATE_BASE) == JOB_PENDING && !(st & JOB_COMPLETING)) {
		job_mgr_pending_add(j);
		return;
	}
	if (!j->node_bitmap || (!(st & JOB_COMPLETING) &&
				(st & JOB_STATE_BASE) != JOB_RUNNING &&
				(st & JOB_STATE_BASE) != JOB_SUSPENDED)) {
		time_t end = j->info.end_time;

		job_mgr_reend(j);
		j->info.job_state = st & ~JOB_COMPLETING;
		j->info.end_time = end;
		return;
	}
	for (i = bitmap_first_set(j->node_bitmap); i >= 0;
	     i = bitmap_next_set(j->node_bitmap, i + 1), k++) {
		node_record_t *n = node_mgr_at(i);

		if ((st & JOB_COMPLETING) && !bitmap_test(j->comp_bitmap, i))
			continue;      /* this node already confirmed */
		node_mgr_alloc(n, j->node_cpus[k], j->node_mem[k]);
		job_res_hold_node(j, (uint32_t) k, n, true);
		if (st & JOB_COMPLETING)
			node_mgr_completing(n, true);
	}
	job_mgr_running_add(j);
	if (!(st & JOB_COMPLETING))
		lic_mgr_job_recover(j);   /* held till it ends, suspended too */
	/* its tasks stay stopped on the nodes; its CPUs stay lent */
	if ((st & JOB_STATE_BASE) == JOB_SUSPENDED && !(st & JOB_COMPLETING))
		job_mgr_suspend_res(j, false);
}

/* ---- batch launch ---- */

static char *_tasks_per_node(const job_record_t *j)
{
	return select_compress_counts(j->node_tasks, j->alloc_cnt);
}

/* sbatch exports SLURM_SUBMIT_DIR (where it ran) in the job's
 * environment; -D/--chdir only moves work_dir. */
static char *_submit_dir(const job_info_t *i, char **env)
{
	static const char key[] = "SLURM_SUBMIT_DIR=";

	for (size_t k = 0; env && env[k]; k++)
		if (!strncmp(env[k], key, sizeof(key) - 1))
			return xstrdup(env[k] + sizeof(key) - 1);
	return xstrdup(i->work_dir);
}

static batch_launch_msg_t *_launch_msg(job_record_t *j, char *script,
				       char **env)
{
	batch_launch_msg_t *l = xmalloc(sizeof(*l));
	const job_info_t *i = &j->info;

	l->job_id = i->job_id;
	l->array_job_id = j->array ? i->array_job_id : 0;
	l->array_task_id = j->array ? i->array_task_id : NO_VAL32;
	l->uid = i->user_id;
	l->gid = i->group_id;
	l->user_name = xstrdup(i->user_name);
	l->gids = user_groups_str(i->user_name, i->user_id, i->group_id);
	l->group_name = xstrdup(i->group_name);
	l->job_name = xstrdup(i->name);
	l->profile = i->profile;
	l->acctg_freq = xstrdup(i->acctg_freq);
	l->partition = xstrdup(i->partition);
	l->account = xstrdup(i->account);
	l->qos = xstrdup(i->qos);
	l->nodes = xstrdup(i->nodes);
	l->num_nodes = i->num_nodes;
	l->cpus_per_node = xstrdup(i->cpus_per_node_str);
	l->cpus_on_node = j->node_cpus[0];
	l->num_tasks = j->ntasks_given ? i->num_tasks : NO_VAL32;
	l->cpus_per_task = j->cpt_given ? i->cpus_per_task : NO_VAL16;
	l->ntasks_per_node = i->ntasks_per_node;
	l->tasks_per_node = _tasks_per_node(j);
	l->mem_per_node = (i->pn_min_memory && !i->mem_per_cpu) ?
		i->pn_min_memory : NO_VAL64;
	l->mem_per_cpu = (i->pn_min_memory && i->mem_per_cpu) ?
		i->pn_min_memory : NO_VAL64;
	l->time_limit = i->time_limit;
	l->start_time = i->start_time;
	l->work_dir = xstrdup(i->work_dir);
	l->std_out = xstrdup(i->std_out);
	l->std_err = xstrdup(i->std_err);
	l->std_in = xstrdup(i->std_in);
	l->open_mode = j->open_mode;
	l->script = script;
	l->argv = xstrarray_dup(j->argv);
	l->environment = job_ckpt_env(j, job_array_env(j, het_job_env(j, env)));
	l->submit_dir = _submit_dir(i, l->environment);
	l->submit_host = xstrdup(i->alloc_node);
	l->cluster_name = xstrdup(ctld_conf()->cluster_name);
	l->restart_cnt = i->restart_cnt;
	l->nice = i->nice;
	l->container = xstrdup(i->container);
	if (j->node_cpu_ids && j->node_cpu_ids[0])
		l->cpu_bind = bitmap_to_str(j->node_cpu_ids[0]);
	if (j->node_gpus && j->node_gpus[0])
		l->gpu_idx = select_gpu_idx_str(j->node_gpus[0]);
	if (j->node_gres && j->node_gres[0])
		l->gres_alloc = xstrdup(j->node_gres[0]);
	return l;
}

#define LAUNCH_RETRY_SEC 2

static void _launch_now(void *arg);

/* No answer is not a refusal: the slurmd may have started the job and
 * died (or been restarted) before it replied.  slurmd ignores a second
 * launch of a job it runs, so resend until the node answers or is
 * declared DOWN (which ends the job NODE_FAIL). */
static bool _launch_transport_error(int rc)
{
	return (rc >= SLURM_COMMUNICATIONS_CONNECTION_ERROR &&
		rc <= SLURM_COMMUNICATIONS_SHUTDOWN_ERROR) ||
	       rc == SLURM_COMMUNICATIONS_MISSING_SOCKET_ERROR ||
	       (rc >= SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH &&
		rc <= SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT);
}

static void _launch_retry(evutil_socket_t fd, short what, void *arg)
{
	_launch_now(arg);
}

static void _launch_done(int rc, void *arg)
{
	uint32_t id = (uint32_t) (uintptr_t) arg;
	job_record_t *j = job_mgr_find(id);
	unsigned max_tries = ctld_conf()->slurmd_timeout / LAUNCH_RETRY_SEC + 1;
	struct timeval tv = { LAUNCH_RETRY_SEC, 0 };

	if (!rc && j && j->launch_tries == 1)
		j->launch_acked = true;     /* no other launch is on its way */
	if (!rc && j)
		j->launch_ok = true;
	if (!rc || !j || j->info.job_state != JOB_RUNNING)
		return;
	if (_launch_transport_error(rc) && j->launch_tries < max_tries) {
		info("Launch of batch JobId=%u on %s: %s; resending in %d s",
		     id, j->info.batch_host, slurm_strerror(rc), LAUNCH_RETRY_SEC);
		event_base_once(ctld_base(), -1, EV_TIMEOUT, _launch_retry, arg, &tv);
		return;
	}
	error("Launch of batch JobId=%u on %s failed: %s", id,
	      j->info.batch_host, slurm_strerror(rc));
	if (rc == ESLURMD_PROLOG_FAILED) {
		job_prolog_node_failed(j, j->info.batch_host);
		return;
	}
	job_mgr_end(j, JOB_FAILED, FAIL_LAUNCH, 0);
}

/* The job's start is on disk: now tell its batch host. */
static void _launch_now(void *arg)
{
	uint32_t id = (uint32_t) (uintptr_t) arg;
	job_record_t *j = job_mgr_find(id);
	node_record_t *n;
	char *script = NULL, **env = NULL;
	batch_launch_msg_t *l;

	if (!j || j->info.job_state != JOB_RUNNING)
		return;
	n = node_mgr_find(j->info.batch_host);

	if (job_files_read(ctld_conf()->state_save_location,
			   job_array_files_id(j), &script, &env) < 0) {
		job_mgr_end(j, JOB_FAILED, FAIL_LAUNCH, 0);
		return;
	}
	l = _launch_msg(j, script, env);
	if (!j->launch_tries++)
		j->launch_sent = time(NULL);
	agent_send_rc(n->info.node_addr, n->info.port, REQUEST_BATCH_JOB_LAUNCH,
		      l, ctld_conf()->message_timeout * 1000, _launch_done,
		      (void *) (uintptr_t) j->info.job_id);
}

/* PrologSlurmctld succeeded: launch as usual. */
static void _launch_after_prolog(job_record_t *j)
{
	commit_after(_launch_now, (void *) (uintptr_t) j->info.job_id);
}

void job_mgr_launch_recover(void)
{
	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next)
		power_save_job_recover(j, job_mgr_launch);
	job_nprolog_recover();
	job_prolog_recover(_launch_after_prolog);
}

/* The nodes' prologs (PrologFlags=Alloc) are done: go on. */
static void _launch_after_nprolog(job_record_t *j)
{
	if (!j->info.batch_flag)      /* srun/salloc: they start the steps */
		return;
	j->launch_tries = 0;
	j->launch_acked = j->relaunched = j->launch_ok = false;
	if (job_prolog_start(j, _launch_after_prolog))
		return;
	commit_after(_launch_now, (void *) (uintptr_t) j->info.job_id);
}

void job_mgr_launch(job_record_t *j)
{
	/* nodes powered down: CONFIGURING until they registered */
	if (power_save_job_wait(j, job_mgr_launch))
		return;
	if (job_nprolog_start(j, _launch_after_nprolog))
		return;
	if (!j->info.batch_flag)      /* srun/salloc: they start the steps */
		return;
	j->launch_tries = 0;
	j->launch_acked = j->relaunched = j->launch_ok = false;
	if (job_prolog_start(j, _launch_after_prolog))
		return;
	commit_after(_launch_now, (void *) (uintptr_t) j->info.job_id);
}

void job_mgr_relaunch(job_record_t *j)
{
	j->launch_tries = 0;
	j->launch_acked = j->launch_ok = false;
	j->relaunched = true;   /* a launch from before the restart may be late */
	commit_after(_launch_now, (void *) (uintptr_t) j->info.job_id);
}

void job_mgr_relaunch_running(void)
{
	job_record_t *j;
	unsigned n = 0;

	for (j = job_mgr_running_first(); j; j = j->run_next) {
		if (j->info.job_state == JOB_SUSPENDED && j->node_bitmap)
			j->recovered_sig = SIGSTOP;
		else if (j->info.job_state == JOB_RUNNING && j->node_bitmap &&
			 j->info.suspend_time)  /* suspended, then resumed */
			j->recovered_sig = SIGCONT;
		if (j->info.job_state != JOB_RUNNING || !j->info.batch_flag ||
		    !j->node_bitmap || !j->alloc_cnt)
			continue;
		j->recovered_run = true;
		n++;
	}
	if (n)
		info("%u recovered running batch job(s) wait for their nodes "
		     "to register", n);
}

void job_mgr_launch_check(time_t now)
{
	const slurm_conf_t *c = ctld_conf();
	time_t lost = now - c->batch_start_timeout - c->message_timeout;
	job_record_t *j, *next;

	for (j = job_mgr_running_first(); j; j = next) {
		next = j->run_next;     /* a requeue moves j off the list */
		if (j->info.job_state != JOB_RUNNING || !j->info.batch_flag ||
		    !j->launch_tries || j->launch_ok ||
		    j->launch_sent > lost)
			continue;
		if (j->info.requeue) {
			error("Batch JobId=%u missing from batch node %s (not "
			      "found BatchStartTime after startup), "
			      "requeuing it", j->info.job_id,
			      j->info.batch_host);
			job_mgr_requeue_auto(j);
			continue;
		}
		error("Batch JobId=%u missing from batch node %s (not found "
		      "BatchStartTime after startup), killing it",
		      j->info.job_id, j->info.batch_host);
		job_mgr_end(j, JOB_NODE_FAIL, FAIL_LAUNCH, 0);
	}
}
