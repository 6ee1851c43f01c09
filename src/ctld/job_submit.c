/* job_submit.c — REQUEST_SUBMIT_BATCH_JOB and REQUEST_RESOURCE_ALLOCATION:
 * run the job_submit plugins, validate the request (job_validate.h),
 * create the record, save its script, answer once the state is on disk;
 * and the trial submission of heterogeneous jobs (job_mgr.h). */
#include <inttypes.h>
#include <errno.h>
#include <string.h>
#include <sys/time.h>

#include "common/log.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/msg_types.h"
#include "common/conf_params.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_job.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/job_array.h"
#include "ctld/job_depend.h"
#include "ctld/job_files.h"
#include "ctld/job_mgr.h"
#include "ctld/lic_mgr.h"
#include "ctld/job_res.h"
#include "ctld/job_submit_plugin.h"
#include "ctld/job_validate.h"
#include "ctld/priority.h"
#include "ctld/site_factor.h"
#include "ctld/sched.h"
#include "ctld/stats.h"
#include "slurm/slurm_errno.h"

#define PRIO_TOP 4294901759u

static uint32_t next_prio = PRIO_TOP;

uint32_t job_mgr_new_priority(void)
{
	return next_prio > 1 ? next_prio-- : 1;
}

/* Below the lowest priority of the pending and running jobs.  Walks the
 * table's array (records in the order added, near that order in memory),
 * not the pending list (priority order: a cache miss at every record). */
void job_mgr_restore_priorities(void)
{
	uint32_t low = PRIO_TOP + 1, n, k;
	job_record_t *const *all = job_mgr_all(&n);

	for (k = 0; k < n; k++) {
		const job_record_t *j = all[k];

		if (!j || !(j->on_pend || j->on_run))
			continue;
		if (j->info.priority && j->info.priority < low)
			low = j->info.priority;
		if (j->on_pend && j->prio_saved && j->prio_saved < low)
			low = j->prio_saved;
	}
	next_prio = low - 1;
}

/* Cached a minute (uid_cache.h): a submit asked NSS for both, reading
 * /etc/passwd and /etc/group on the controller's loop every time. */
static char *_user_name(uid_t uid)
{
	char name[256];

	if (uid_cache_name(uid, name, sizeof(name)) == 0)
		return xstrdup(name);
	return xstrdup_printf("%u", (unsigned) uid);
}

static char *_group_name(gid_t gid)
{
	char name[256];

	if (gid_cache_name(gid, name, sizeof(name)) == 0)
		return xstrdup(name);
	return xstrdup_printf("%u", (unsigned) gid);
}

static char *_default_name(const job_desc_t *d)
{
	const char *slash;

	if (d->name && *d->name)
		return xstrdup(d->name);
	if (d->argv && d->argv[0]) {
		slash = strrchr(d->argv[0], '/');
		return xstrdup(slash ? slash + 1 : d->argv[0]);
	}
	return xstrdup("sbatch");
}

static void _tres_req(job_record_t *j, const submit_t *s)
{
	job_info_t *i = &j->info;
	uint64_t mem = s->mem_per_cpu ? s->mem * i->num_cpus :
		s->mem * s->min_nodes;
	long first = bitmap_first_set(s->part->node_bitmap);
	char m[32];

	/* No memory asked: Slurm counts whole nodes' memory in ReqTRES. */
	if (!s->mem && first >= 0)
		mem = node_mgr_at(first)->info.real_memory * s->min_nodes;

	i->tres_req_str = xstrdup_printf("cpu=%u", i->num_cpus);
	if (mem) {
		fmt_mem_mb(mem, m, sizeof(m));
		xstrfmtcat(&i->tres_req_str, ",mem=%s", m);
	}
	xstrfmtcat(&i->tres_req_str, ",node=%u,billing=%" PRIu64,
		   s->min_nodes,
		   billing_of(&s->part->billing, i->num_cpus, mem,
			      s->min_nodes, (uint64_t) s->gpn * s->min_nodes +
			      (uint64_t) s->gpt * s->num_tasks + s->gpj));
	if (s->gpn || s->gpt || s->gpj)
		xstrfmtcat(&i->tres_req_str, ",gres/gpu=%u",
			   s->gpn * s->min_nodes + s->gpt * s->num_tasks + s->gpj);
}

static void _copy_strings(job_info_t *i, const job_desc_t *d)
{
	i->account = xstrdup(d->account);
	i->qos = xstrdup(d->qos);
	i->comment = xstrdup(d->comment);
	i->work_dir = xstrdup(d->work_dir);
	i->std_out = xstrdup(d->std_out);
	i->std_err = xstrdup(d->std_err);
	i->std_in = xstrdup(d->std_in);
	i->command = xstrdup(d->argv && d->argv[0] ? d->argv[0] : NULL);
	i->submit_line = xstrdup(d->submit_line);
	i->alloc_node = xstrdup(d->submit_host);
	i->req_nodes = xstrdup(d->req_nodes);
	i->exc_nodes = xstrdup(d->exc_nodes);
	i->features = xstrdup(d->features);
	i->gres = job_res_tres_spec(d->gres);
	i->tres_per_task = job_res_tres_spec(d->tres_per_task);
	i->tres_per_job = job_res_tres_spec(d->tres_per_job);
	i->cpus_per_tres = job_res_tres_spec(d->cpus_per_tres);
	i->mem_per_tres = job_res_tres_spec(d->mem_per_tres);
	i->bitflags = d->bitflags;
	i->profile = d->profile;
	i->acctg_freq = xstrdup(d->acctg_freq);
	i->req_switch = d->req_switch;
	/* as Slurm: the wait is capped by max_switch_wait when submitted */
	i->wait4switch = d->wait4switch < sched_params()->max_switch_wait ?
		d->wait4switch : sched_params()->max_switch_wait;
	i->segment_size = d->segment_size;
#ifdef SLUICE_PROTO_NEXT
	i->proto_next = d->proto_next;
#endif
	if (d->licenses && *d->licenses &&
	    lic_mgr_validate(d->licenses, &i->licenses))
		i->licenses = NULL;           /* checked by _validate */
	i->reservation = xstrdup(d->reservation);
	i->wckey = xstrdup(d->wckey);
	i->mail_type = xstrdup(d->mail_type);
	i->mail_user = xstrdup(d->mail_user);
	i->container = xstrdup(d->container);
	i->cluster = xstrdup(ctld_conf()->cluster_name);
}

static void _set_priority(job_record_t *j, const job_desc_t *d,
			  const submit_t *s, time_t now)
{
	job_info_t *i = &j->info;
	uint32_t prio = s->fixed_prio ? d->priority : priority_new_job(j, now);

	j->prio_fixed = s->fixed_prio;

	if (d->nice != NO_VAL32) {
		int64_t p = (int64_t) prio - ((int64_t) d->nice - NICE_OFFSET);

		i->nice = d->nice;
		prio = p < 1 ? 1 : p > PRIO_TOP ? PRIO_TOP : (uint32_t) p;
	}
	i->priority = prio;
	j->prio_saved = prio;
	if (d->hold || prio == 0) {
		i->priority = 0;
		i->state_reason = d->hold ? WAIT_HELD_USER : WAIT_HELD;
		i->held_by_user = d->hold;
		return;
	}
	if (j->begin_time > now) {
		i->state_reason = WAIT_TIME;
		i->eligible_time = j->begin_time;
	} else {
		i->eligible_time = now;
	}
	i->accrue_time = i->eligible_time;
}

static job_record_t *_create(const job_desc_t *d, const submit_t *s)
{
	job_record_t *j = job_mgr_create(job_mgr_next_id());
	job_info_t *i = &j->info;
	time_t now = time(NULL);

	i->name = _default_name(d);
	i->user_id = s->uid;
	i->user_name = _user_name(s->uid);
	i->group_id = s->gid;
	i->group_name = _group_name(s->gid);
	i->partition = xstrdup(s->parts ? s->parts : s->part->info.name);
	job_res_attach_parts(j);
	_copy_strings(i, d);
	/* MailDomain qualifies the user's name when --mail-user was not
	 * given (MailUser shows it); later changes leave old jobs be */
	if ((!i->mail_user || !*i->mail_user) && ctld_conf()->mail_domain &&
	    i->user_name) {
		xfree(i->mail_user);
		i->mail_user = xstrdup_printf("%s@%s", i->user_name,
					      ctld_conf()->mail_domain);
	}
	i->job_state = JOB_PENDING;
	i->num_nodes = s->min_nodes;
	i->max_nodes = s->max_nodes;
	i->num_tasks = s->num_tasks;
	i->cpus_per_task = s->cpt;
	i->ntasks_per_node = s->ntpn;
	i->num_cpus = job_validate_alloc_tasks(s) * s->cpt;
	i->min_cpus_node = s->cpt;
	i->pn_min_memory = s->mem;
	i->mem_per_cpu = s->mem_per_cpu;
	i->time_limit = s->time_limit;
	i->time_min = d->time_min;
	i->submit_time = now;
	i->shared = d->shared;
	i->contiguous = d->contiguous == NO_VAL16 ? 0 : d->contiguous;
	i->requeue = d->requeue != NO_VAL16 ? d->requeue :
		(ctld_conf()->job_requeue ? 1 : 0);
	i->batch_flag = d->script != NULL;
	i->deadline = d->deadline;
	i->kill_inv_dep = d->kill_inv_dep == NO_VAL16 ? 0 :
		d->kill_inv_dep ? 1 : 2;
	if (d->warn_signal != NO_VAL16 && d->warn_signal) {
		i->warn_signal = d->warn_signal;
		i->warn_time = d->warn_time == NO_VAL16 ? 60 : d->warn_time;
		i->warn_flags = d->warn_flags;
	}
	j->argv = xstrarray_dup(d->argv);
	j->exclusive = s->exclusive;
	j->ntasks_given = d->num_tasks != NO_VAL32;
	j->cpt_given = d->cpus_per_task != NO_VAL16;
	j->open_mode = d->open_mode;
	j->begin_time = d->begin_time;
	site_factor_set(j);
	_set_priority(j, d, s, now);
	_tres_req(j, s);
	return j;
}

static void _free_submit_resp(void *data)
{
	msg_body_free(RESPONSE_SUBMIT_BATCH_JOB, data);
}

static void _reply_error(net_conn_t *c, int rc, const char *msg)
{
	return_code_msg_t r = { .rc = rc, .msg = (char *) msg };

	net_reply(c, RESPONSE_SLURM_RC, &r);
}

job_record_t *job_mgr_trial(job_desc_t *d, const slurm_msg_t *m, int *rc,
			    char **msg)
{
	submit_t s = { 0 };
	job_record_t *j;

	*msg = NULL;
	*rc = d ? job_submit_plugin_submit(d, m->auth_uid, m->version,
					  &s.msg) :
		ESLURM_JOB_SCRIPT_MISSING;
	if (!*rc) {
		xfree(s.msg);
		/* sbatch's request has a script to check, srun's none */
		*rc = job_validate(d, m, &s, d->script != NULL);
	}
	if (*rc) {
		*msg = s.msg;
		job_validate_free(&s);
		return NULL;
	}
	j = _create(d, &s);
	job_validate_free(&s);
	xfree(s.msg);
	if ((*rc = job_depend_check(j, d->dependency))) {
		job_mgr_trial_free(j);
		return NULL;
	}
	return j;
}

void job_mgr_trial_add(job_record_t *j, const job_desc_t *d)
{
	j->info.job_id = job_mgr_next_id();
	job_depend_set(j, d->dependency);
	if (d->script)          /* in the journal now, in its file soon */
		job_files_save(ctld_conf()->state_save_location,
			       j->info.job_id, d->script, d->environment);
	job_mgr_add(j);
	job_mgr_pending_add(j);
	acct_job_changed(j);
	if (d->script)
		acct_job_script(j, d->script, d->environment);
	info("%s: JobId=%u InitPrio=%u", __func__, j->info.job_id,
	     j->info.priority);
	stats_job(STATS_JOB_SUBMITTED);
	sched_trigger_new(j);
}

void job_mgr_trial_free(job_record_t *j)
{
	if (!j)
		return;
	job_res_free(j);
	job_info_free_members(&j->info);
	xstrarray_free(j->argv);
	xfree(j);
}

/* An allocation its partition cannot run as asked (time, CPUs, nodes;
 * it pends with that reason): Slurm tells srun and salloc so in the
 * answer, "Requested partition configuration not available now", and
 * they give up at once with --immediate. */
static int32_t _alloc_part_error(job_record_t *j)
{
	switch (job_mgr_part_reason(j, time(NULL))) {
	case WAIT_PART_CONFIG:
	case WAIT_PART_NODE_LIMIT:
	case WAIT_PART_TIME_LIMIT:
		return ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE;
	default:
		return 0;
	}
}

static void _submit(net_conn_t *c, slurm_msg_t *m, bool batch)
{
	job_desc_t *d = m->data;
	const char *rpc = batch ? "_slurm_rpc_submit_batch_job" :
		"_slurm_rpc_allocate_resources";
	submit_t s = { 0 };
	submit_response_msg_t *resp;
	struct timeval t0, t1;
	job_record_t *j;
	int rc;

	gettimeofday(&t0, NULL);
	if (d && !batch)
		xfree(d->script);
	rc = d ? job_submit_plugin_submit(d, m->auth_uid, m->version,
					  &s.msg) :
		 ESLURM_JOB_SCRIPT_MISSING;
	if (!rc) {
		char *plugin_msg = s.msg;

		s.msg = NULL;
		rc = job_validate(d, m, &s, batch);
		if (!s.msg)
			s.msg = plugin_msg;
		else
			xfree(plugin_msg);
	}
	if (rc) {
		info("%s: uid=%u: %s", rpc, m->auth_uid, slurm_strerror(rc));
		_reply_error(c, rc, s.msg);
		xfree(s.msg);
		job_validate_free(&s);
		return;
	}
	j = _create(d, &s);
	if (!batch && d->alloc_resp_port &&
	    (j->info.resp_host = net_peer_host(m->peer)))
		j->info.alloc_resp_port = d->alloc_resp_port;
	job_validate_free(&s);
	if ((rc = job_depend_check(j, d->dependency))) {
		info("%s: uid=%u: %s", rpc, m->auth_uid,
		     slurm_strerror(rc));
		_reply_error(c, rc, NULL);
		job_res_free(j);
		job_info_free_members(&j->info);
		xstrarray_free(j->argv);
		xfree(j);
		xfree(s.msg);
		return;
	}
	job_depend_set(j, d->dependency);
	if (batch)              /* in the journal now, in its file soon */
		job_files_save(ctld_conf()->state_save_location,
			       j->info.job_id, d->script, d->environment);
	job_mgr_add(j);
	if (d->array_inx && *d->array_inx)
		job_array_create(j, d->array_inx);
	job_mgr_pending_add(j);
	acct_job_changed(j);
	if (batch)
		acct_job_script(j, d->script, d->environment);
	resp = xmalloc(sizeof(*resp));
	resp->job_id = j->info.job_id;
	resp->step_id = NO_VAL32;
	resp->job_submit_user_msg = s.msg;     /* from a job_submit plugin */
	s.msg = NULL;
	if (!batch)
		resp->error_code = _alloc_part_error(j);
	gettimeofday(&t1, NULL);
	info("%s: JobId=%u InitPrio=%u usec=%ld", rpc,
	     j->info.job_id, j->info.priority,
	     (long) ((t1.tv_sec - t0.tv_sec) * 1000000 +
		     (t1.tv_usec - t0.tv_usec)));
	commit_reply(c, batch ? RESPONSE_SUBMIT_BATCH_JOB :
		     RESPONSE_RESOURCE_ALLOCATION, resp, _free_submit_resp);
	stats_job(STATS_JOB_SUBMITTED);
	sched_trigger_new(j);
}

void job_mgr_rpc_submit(net_conn_t *c, slurm_msg_t *m)
{
	_submit(c, m, true);
}

void job_mgr_rpc_allocate(net_conn_t *c, slurm_msg_t *m)
{
	_submit(c, m, false);
}
