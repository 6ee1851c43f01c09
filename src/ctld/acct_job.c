/* acct_job.c — controller objects to accounting records (acct_job.h). */
#include <string.h>
#include <sys/wait.h>
#include <utlist.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "common/conf_params.h"
#include "common/uid_cache.h"
#include "ctld/acct_job.h"
#include "ctld/assoc_mgr.h"
#include "ctld/resv_mgr.h"
#include "ctld/controller.h"
#include "ctld/ha.h"
#include "ctld/acct_storage.h"
#include "ctld/fairshare.h"
#include "ctld/gres_sel.h"
#include "ctld/job_res.h"
#include "ctld/lic_mgr.h"

static bool enabled;

/* AccountingStoreFlags as ACCT_STORE_* bits, parsed again when the
 * configured words change (a reconfigure). */
static uint32_t store_flags(void)
{
	static char *seen;
	static uint32_t bits;
	const char *now = ctld_conf()->accounting_store_flags;
	char err[128];

	if (!xstrcmp(seen, now) && (seen || !now))
		return bits;
	xfree(seen);
	seen = xstrdup(now);
	if (conf_parse_acct_store_flags(now, &bits, err, sizeof(err)) < 0)
		bits = 0;       /* checked when the file was loaded */
	return bits;
}

bool acct_enabled(void)
{
	return enabled;
}

/* The cluster's TRES from now on: an event with no node name, as
 * Slurm keeps them (sreport's reported time): CPUs, memory, nodes,
 * billing (a CPU each), GPUs, and the GRES and licenses that
 * AccountingStorageTRES names (slurmdbd gives those names ids). */
static void register_cluster_tres(time_t now)
{
	acct_event_rec_t e = { .node_name = "", .start = now,
			       .reason = "Cluster Registered TRES" };
	uint64_t cpus = 0, mem = 0, gpus = 0;
	size_t n = node_mgr_count();
	gres_tally_t t = { .cnt = 0 };
	char *tres;

	for (size_t i = 0; i < n; i++) {
		const node_record_t *nd = node_mgr_at(i);

		cpus += nd->info.cpus;
		mem += nd->info.real_memory;
		for (size_t k = 0; nd->gres && k < nd->gres->cnt; k++) {
			const gres_item_t *g = &nd->gres->v[k];

			if (!strcmp(g->name, "gpu"))
				gpus += g->count;
			else
				gres_tally_add(&t, g->name, NULL, g->count);
			if (g->type)
				gres_tally_add(&t, g->name, g->type, g->count);
		}
	}
	tres = xstrdup_printf("cpu=%llu,mem=%lluM,node=%zu,billing=%llu",
			      (unsigned long long)cpus,
			      (unsigned long long)mem, node_mgr_used(),
			      (unsigned long long)cpus);
	if (gpus)
		xstrfmtcat(&tres, ",gres/gpu=%llu", (unsigned long long)gpus);
	for (size_t k = 0; k < t.cnt; k++)
		if (job_res_tres_tracked(t.key[k]))
			xstrfmtcat(&tres, ",gres/%s=%llu", t.key[k],
				   (unsigned long long)t.n[k]);
	lic_mgr_cluster_tres(&tres);
	e.tres = tres;
	e.reason_uid = NO_VAL32;
	acct_record(ACCT_REC_NODE_EVENT, &e);
	xfree(tres);
}

static void register_cluster(const slurm_conf_t *c)
{
	acct_cluster_rec_t r = {
		.control_host = c->ctld_host_cnt ?
			c->ctld_addrs[ha_index()] : NULL,   /* the one in control */
		.control_port = c->slurmctld_port,
		.registered = time(NULL),
	};

	acct_record(ACCT_REC_CLUSTER, &r);
	register_cluster_tres(r.registered);
}

int acct_init(const slurm_conf_t *c, char *err, size_t errlen)
{
	if (acct_storage_load(c, err, errlen) < 0)
		return -1;
	enabled = acct_storage_on();
	if (enabled)
		register_cluster(c);
	return 0;
}

void acct_fini(void)
{
	acct_storage_fini();
	enabled = false;
}

uint32_t acct_queue_depth(void)
{
	return acct_storage_depth();
}

void acct_record(uint16_t kind, const void *rec)
{
	acct_storage_record(kind, rec);
}

/* ---- jobs ---- */

static uint64_t req_mem(const job_info_t *i)
{
	return i->pn_min_memory;
}

/* The id of the job's wckey (its user's, on this cluster; "*name" is
 * the user's default name), 0 if slurmdbd has none. */
static uint32_t wckey_id(const job_info_t *i)
{
	const char *w = i->wckey;
	char name[256];

	if (!w || !*w || !ctld_conf()->track_wckey)
		return 0;
	if (*w == '*')
		w++;
	if (uid_cache_name(i->user_id, name, sizeof(name)) < 0)
		return 0;
	return assoc_mgr_wckey_id(name, w);
}

/* The record's time_suspended (acct_rec.h).  The controller keeps the
 * running time before the last suspension (pre_sus_time) and when the
 * last suspension or resume happened (suspend_time); suspend_start is
 * set while a suspension lasts (also when the job ended in it). */
static time_t suspended_field(const job_info_t *i, uint32_t base)
{
	time_t start = i->start_time;

	if (!start || !i->suspend_time)
		return 0;
	if (base == JOB_SUSPENDED)
		return start + i->pre_sus_time;
	if (i->suspend_start) {         /* ended while suspended */
		time_t t = i->end_time - start - i->pre_sus_time;

		return t > 0 ? t : 0;
	}
	if (i->suspend_time - start - i->pre_sus_time > 0)
		return i->suspend_time - start - i->pre_sus_time;
	return 0;
}

void acct_job_changed(job_record_t *j)
{
	const job_info_t *i = &j->info;
	uint32_t base = i->job_state & JOB_STATE_BASE;
	/* Slurm reports a cancelled or timed-out job's own exit code as
	 * 0:0 (the .batch step keeps the signal). */
	bool killed = base == JOB_CANCELLED || base == JOB_TIMEOUT;
	/* Set at start and kept (also across a restart, unlike the node
	 * bitmap of a finished job). */
	bool started = base != JOB_PENDING && i->nodes && i->nodes[0];
	acct_job_rec_t r;

	if (!enabled)
		return;
	r = (acct_job_rec_t){
		.job_id = i->job_id,
		.array_job_id = i->array_job_id,
		.array_task_id = i->array_task_id,
		.het_job_id = i->het_job_id,
		.het_job_offset = i->het_job_offset,
		.proto_next = PROTO_OWN,
		.name = i->name,
		.uid = i->user_id,
		.gid = i->group_id,
		.account = i->account,
		.partition = i->partition,
		.qos = i->qos,
		.state = i->job_state & ~JOB_COMPLETING,
		.reason = i->state_reason,
		.requid = j->acct_requid,
		.exit_code = killed ? 0 : i->exit_code,
		.derived_ec = i->derived_ec,
		.submit = i->submit_time,
		.eligible = i->eligible_time,
		/* ended without starting (cancelled while pending): Slurm
		 * records Start = End, the moment it ended */
		.start = started ? i->start_time :
			 base >= JOB_COMPLETE ? i->end_time : 0,
		.end = base >= JOB_COMPLETE ? i->end_time : 0,
		.time_limit = i->time_limit,
		.nodes = started ? i->nodes : NULL,
		.num_nodes = i->num_nodes,
		.num_cpus = i->num_cpus,
		.req_cpus = i->num_cpus,
		.tres_alloc = started ? i->tres_alloc_str : NULL,
		.tres_req = i->tres_req_str,
		.req_mem = req_mem(i),
		.mem_per_cpu = i->mem_per_cpu,
		.work_dir = i->work_dir,
		.container = i->container,
		.comment = store_flags() & ACCT_STORE_JOB_COMMENT ?
			   i->comment : NULL,
		.submit_line = i->submit_line,
		.constraints = i->features,
		.restart_cnt = i->restart_cnt,
		.priority = i->priority,
		.array_task_str = base == JOB_PENDING &&
			i->array_task_id == NO_VAL32 ? i->array_task_str : NULL,
		.wckey = i->wckey,
		.wckey_id = wckey_id(i),
		.resv_id = resv_mgr_id(i->reservation),
		.time_suspended = suspended_field(i, base),
	};
	acct_record(ACCT_REC_JOB, &r);
	if (base >= JOB_COMPLETE)
		fairshare_job_end(j);
}

/* A record is one outbox frame: what does not fit is not kept (the
 * environment first), and the log says so. */
#define SCRIPT_REC_MAX (ACCT_FRAME_MAX_BODY - 4096)

void acct_job_script(const job_record_t *j, const char *script,
		     char *const *env)
{
	uint32_t flags = store_flags();
	acct_script_rec_t r = { .job_id = j->info.job_id,
				.submit = j->info.submit_time };
	char *env_text = NULL;
	size_t len = 0;

	if (!enabled || !(flags & (ACCT_STORE_JOB_SCRIPT | ACCT_STORE_JOB_ENV)))
		return;
	if (flags & ACCT_STORE_JOB_SCRIPT && script)
		r.script = (char *)script;
	for (size_t k = 0; flags & ACCT_STORE_JOB_ENV && env && env[k]; k++)
		xstrfmtcat(&env_text, "%s\n", env[k]);
	r.env = env_text;
	len = (r.script ? strlen(r.script) : 0) +
	      (r.env ? strlen(r.env) : 0);
	if (len > SCRIPT_REC_MAX && r.env) {
		error("JobId=%u: its environment (%zu bytes) is too large "
		      "for accounting: not stored", r.job_id, strlen(r.env));
		len -= strlen(r.env);
		r.env = NULL;
	}
	if (len > SCRIPT_REC_MAX) {
		error("JobId=%u: its batch script (%zu bytes) is too large "
		      "for accounting: not stored", r.job_id, len);
		r.script = NULL;
	}
	if (r.script || r.env)
		acct_record(ACCT_REC_JOB_SCRIPT, &r);
	xfree(env_text);
}

/* The batch step's state from the script's wait status and the job. */
static uint32_t batch_state(const job_record_t *j, uint32_t status)
{
	uint32_t base = j->info.job_state & JOB_STATE_BASE;

	if (base == JOB_CANCELLED || base == JOB_TIMEOUT ||
	    base == JOB_PREEMPTED)
		return JOB_CANCELLED;
	if (base == JOB_NODE_FAIL || base == JOB_OOM)
		return base;
	if (status == SIG_OOM)
		return JOB_OOM;
	if (WIFSIGNALED(status) || WEXITSTATUS(status))
		return JOB_FAILED;
	return JOB_COMPLETE;
}

/* The .batch step: on the batch host, with that node's CPUs. */
static void batch_step(job_record_t *j, acct_step_rec_t *s)
{
	const job_info_t *i = &j->info;
	uint32_t cpus = j->node_cpus && j->alloc_cnt ? j->node_cpus[0] : 1;
	uint64_t mem = j->node_mem && j->alloc_cnt ? j->node_mem[0] : 0;
	char m[32];

	*s = (acct_step_rec_t){
		.job_id = i->job_id,
		.submit = i->submit_time,
		.step_id = (uint32_t)ACCT_STEP_BATCH,
		.name = "batch",
		.start = i->start_time,
		.state = JOB_RUNNING,
		.requid = NO_VAL32,
		.nodes = i->batch_host,
		.num_nodes = 1,
		.ntasks = 1,
		.num_cpus = cpus,
		.container = i->container,   /* as Slurm's batch step */
	};
	s->tres_alloc = xstrdup_printf("cpu=%u", cpus);
	if (mem) {
		fmt_mem_mb(mem, m, sizeof(m));
		xstrfmtcat(&s->tres_alloc, ",mem=%s", m);
	}
	xstrcat(&s->tres_alloc, ",node=1");
}

void acct_job_batch_started(job_record_t *j)
{
	acct_step_rec_t s;

	if (!enabled || !j->info.batch_flag)   /* salloc/srun: no N.batch */
		return;
	batch_step(j, &s);
	acct_record(ACCT_REC_STEP, &s);
	xfree(s.tres_alloc);
}

void acct_job_batch_done(job_record_t *j, const batch_complete_msg_t *b)
{
	acct_step_rec_t s;

	if (!enabled || b->slurm_rc)
		return;
	batch_step(j, &s);
	s.end = time(NULL);
	s.state = batch_state(j, b->job_rc);
	s.exit_code = b->job_rc;       /* Slurm names no canceller here */
	s.user_usec = b->user_cpu_usec;
	s.sys_usec = b->sys_cpu_usec;
	s.max_rss_kb = b->max_rss_kb;
	s.ave_rss_kb = b->max_rss_kb;
	s.consumed_energy = b->consumed_energy;
	acct_record(ACCT_REC_STEP, &s);
	xfree(s.tres_alloc);
}

/* ---- nodes ---- */

void acct_node_reason(node_record_t *n, const char *old_reason,
		      time_t old_time)
{
	acct_event_rec_t e = { .node_name = n->info.name,
			       .state = n->info.node_state };
	char tres[32];

	if (!enabled)
		return;
	snprintf(tres, sizeof(tres), "cpu=%u", (unsigned)n->info.cpus);
	e.tres = tres;
	if (old_reason && old_time) {
		e.reason = (char *)old_reason;
		e.start = old_time;
		e.end = time(NULL);
		acct_record(ACCT_REC_NODE_EVENT, &e);
	}
	if (n->info.reason && n->info.reason_time) {
		e.reason = n->info.reason;
		e.reason_uid = n->info.reason_uid;
		e.start = n->info.reason_time;
		e.end = 0;
		acct_record(ACCT_REC_NODE_EVENT, &e);
	}
}

void acct_resync(void)
{
	job_record_t *j;
	uint32_t n = 0;

	if (!enabled)
		return;
	DL_FOREACH2(job_mgr_pending_first(), j, pend_next) {
		acct_job_changed(j);
		n++;
	}
	DL_FOREACH2(job_mgr_running_first(), j, run_next) {
		acct_job_changed(j);
		n++;
	}
	DL_FOREACH2(job_mgr_finished_first(), j, run_next) {
		acct_job_changed(j);
		n++;
	}
	if (n)
		debug("slurmdbd: queued the state of %u jobs", n);
}
