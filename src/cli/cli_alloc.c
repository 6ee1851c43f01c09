/* cli_alloc.c — allocations for srun and salloc (cli_alloc.h). */
#include "cli/cli_alloc.h"
#include "cli/cli_heartbeat.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_clusters.h"
#include "cli/cli_common.h"
#include "cli/cli_env.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/uid_cache.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

extern char **environ;

static volatile sig_atomic_t interrupted;

static void _on_int(int sig)
{
	interrupted = sig;
}

static char *_host(void)
{
	char host[256] = "";
	char *dot;

	gethostname(host, sizeof(host) - 1);
	if ((dot = strchr(host, '.')))
		*dot = '\0';
	return xstrdup(host);
}

/* What an allocation request carries beyond the options. */
static void _fill(job_desc_t *d, const char *name_default)
{
	char cwd[PATH_MAX];
	char user[256];

	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/tmp");
	if (!d->name)
		d->name = xstrdup(name_default);
	if (!d->work_dir)
		d->work_dir = xstrdup(cwd);
	d->user_id = getuid();
	d->group_id = getgid();
	if (uid_cache_name(d->user_id, user, sizeof(user)) == 0)
		d->user_name = xstrdup(user);
	d->submit_host = _host();
	d->environment = cli_env_set(d->environment, "SLURM_SUBMIT_DIR", cwd);
}

void cli_alloc_test_only(cli_job_opts_t *o, const char *name_default)
{
	const will_run_response_msg_t *w;
	slurm_msg_t resp;
	char when[64];
	struct tm tm;
	int rc;

	if (name_default)
		_fill(&o->desc, name_default);
	rc = cli_ctld_rpc(REQUEST_JOB_WILL_RUN, &o->desc, &resp);
	if (rc) {
		fprintf(stderr, "allocation failure: %s\n", cli_comm_strerror(rc));
		exit(1);
	}
	if (resp.type != RESPONSE_JOB_WILL_RUN || !resp.data) {
		const return_code_msg_t *r = resp.type == RESPONSE_SLURM_RC ?
			resp.data : NULL;

		if (r && r->msg && *r->msg)
			error("%s", r->msg);
		fprintf(stderr, "allocation failure: %s\n",
			slurm_strerror(r && r->rc ? r->rc :
				       SLURM_UNEXPECTED_MSG_ERROR));
		exit(1);
	}
	w = resp.data;
	localtime_r(&w->start_time, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	info("Job %u to start at %s using %u processors on nodes %s in "
	     "partition %s", w->job_id, when, w->proc_cnt,
	     w->node_list ? w->node_list : "", w->part_name ? w->part_name : "");
	msg_free(&resp);
	exit(0);
}

static void _cancel(uint32_t job_id);

/* The controller took the job but says its partition cannot run it as
 * asked (error_code): Slurm's srun and salloc say so first, and give up
 * with --immediate (salloc in its own words).  0 or -1. */
static int _part_error(const cli_job_opts_t *o, uint32_t job_id, int code,
		       bool salloc)
{
	if (!code)
		return 0;
	if (o->immediate < 0) {
		if (!o->quiet)
			info("%s", slurm_strerror(code));
		return 0;
	}
	_cancel(job_id);
	if (salloc) {
		error("Job submit/allocate failed: %s", slurm_strerror(code));
		info("Job allocation %u has been revoked.", job_id);
	} else {
		error("Unable to allocate resources: %s", slurm_strerror(code));
	}
	return -1;
}

/* The controller's answer to an allocation request (o: the first
 * component's options).  0 with *job_id, or -1 (message printed). */
static int _request_reply(cli_job_opts_t *o, bool salloc, int rc,
			  slurm_msg_t *resp_p, uint32_t *job_id)
{
	job_desc_t *d = &o->desc;
	slurm_msg_t resp = *resp_p;

	if (rc) {
		error("Unable to allocate resources: %s", cli_comm_strerror(rc));
		return -1;
	}
	if (resp.type == RESPONSE_RESOURCE_ALLOCATION && resp.data) {
		const submit_response_msg_t *sr = resp.data;

		*job_id = sr->job_id;
		rc = _part_error(o, sr->job_id, sr->error_code, salloc);
		msg_free(&resp);
		if (!rc && (d->bitflags & JOB_ALLOC_HEARTBEAT))
			cli_heartbeat_start(*job_id);  /* while it waits too */
		return rc;
	}
	if (resp.type == RESPONSE_SLURM_RC && resp.data) {
		return_code_msg_t *r = resp.data;

		if (r->msg && *r->msg)
			error("%s", r->msg);
		error("Unable to allocate resources: %s", slurm_strerror(r->rc));
	} else {
		error("Unable to allocate resources: %s",
		      slurm_strerror(SLURM_UNEXPECTED_MSG_ERROR));
	}
	msg_free(&resp);
	return -1;
}

int cli_alloc_request(cli_job_opts_t *o, size_t n, const char *name_default,
		      bool salloc, uint32_t *job_id)
{
	het_job_desc_msg_t h = { .cnt = (uint32_t) n };
	slurm_msg_t resp = { 0 };
	int rc;

	for (size_t k = 0; k < n; k++)
		_fill(&o[k].desc, name_default);
	if (n == 1)
		rc = cli_ctld_rpc(REQUEST_RESOURCE_ALLOCATION, &o->desc, &resp);
	else {
		h.desc = xcalloc(n, sizeof(*h.desc));
		for (size_t k = 0; k < n; k++)
			h.desc[k] = o[k].desc;  /* lent, not copied */
		rc = cli_ctld_rpc(REQUEST_HET_JOB_ALLOCATION, &h, &resp);
		xfree(h.desc);
	}
	return _request_reply(&o[0], salloc, rc, &resp, job_id);
}

/* 1 running, 0 still pending, -1 gone (message printed). */
static int _poll(uint32_t job_id, job_info_t *ji)
{
	job_info_request_msg_t req = {
		.job_ids = &job_id, .job_id_cnt = 1, .user_id = NO_VAL32,
	};
	slurm_msg_t resp;
	const job_info_msg_t *m;
	int rc = 0;

	if (cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp))
		return 0;
	if (resp.type != RESPONSE_JOB_INFO || !resp.data ||
	    !((job_info_msg_t *) resp.data)->cnt) {
		msg_free(&resp);
		return 0;
	}
	m = resp.data;
	switch (m->jobs[0].job_state & JOB_STATE_BASE) {
	case JOB_PENDING:
		break;
	case JOB_RUNNING:
		if (m->jobs[0].job_state & JOB_COMPLETING) {
			rc = -1;
			break;
		}
		fields_copy(job_info_fields, ji, &m->jobs[0]);
		rc = 1;
		break;
	default:
		rc = -1;
	}
	msg_free(&resp);
	if (rc < 0)
		info("Job allocation %u has been revoked.", job_id);
	return rc;
}

static void _cancel(uint32_t job_id)
{
	job_signal_msg_t r = { .job_id = job_id, .step_id = NO_VAL32,
			       .cancel = true };
	int rc;

	cli_ctld_rpc_rc(REQUEST_CANCEL_JOB, &r, &rc);
}

/* --immediate gave up: Slurm's words, srun's or salloc's (say_pending). */
static void _gave_up(uint32_t job_id, int immediate, bool say_pending)
{
	_cancel(job_id);
	if (say_pending && immediate > 0)
		info("Job allocation %u has been revoked.", job_id);
	error("Unable to allocate resources: %s",
	      say_pending && immediate > 0 ? strerror(ETIMEDOUT) :
	      slurm_strerror(ESLURM_NODES_BUSY));
	if (say_pending && !immediate)
		info("Job allocation %u has been revoked.", job_id);
}

int cli_alloc_held(const cli_job_opts_t *o, uint32_t job_id, bool salloc)
{
	if (!o->desc.hold)
		return 0;
	if (o->immediate >= 0) {        /* it can never start at once */
		_cancel(job_id);
		if (salloc) {
			error("Job submit/allocate failed: %s",
			      slurm_strerror(ESLURM_DEPENDENCY));
			info("Job allocation %u has been revoked.", job_id);
		} else {
			error("Unable to allocate resources: %s",
			      slurm_strerror(ESLURM_DEPENDENCY));
		}
		return -1;
	}
	if (!o->quiet)
		info("Job is in held state, pending scheduler release");
	return 0;
}

int cli_alloc_wait(uint32_t job_id, bool quiet, int immediate,
		   bool say_pending, job_info_t *ji)
{
	struct sigaction sa = { .sa_handler = _on_int }, old_int, old_term;
	struct timespec ts = { 0, 20 * 1000 * 1000 }, start, now;
	bool said = false;
	int rc, tries = 0;

	memset(ji, 0, sizeof(*ji));
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		rc = _poll(job_id, ji);
		if (rc)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* bare --immediate: the scheduler's first pass (about a
		 * second); --immediate=N: N seconds */
		if ((!immediate && ++tries > 6) ||
		    (immediate > 0 &&
		     (now.tv_sec - start.tv_sec) * 1000 +
		     (now.tv_nsec - start.tv_nsec) / 1000000 >=
		     (long) immediate * 1000)) {
			_gave_up(job_id, immediate, say_pending);
			rc = -1;
			break;
		}
		if (!said && !quiet && immediate) {
			if (say_pending)
				info("Pending job allocation %u", job_id);
			info("job %u queued and waiting for resources", job_id);
			said = true;
		}
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 500 * 1000 * 1000)
			ts.tv_nsec *= 2;
		if (interrupted) {
			info("Job allocation %u has been revoked.", job_id);
			_cancel(job_id);
			rc = -1;
			break;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (rc > 0 && said && !quiet)
		info("job %u has been allocated resources", job_id);
	return rc > 0 ? 0 : -1;
}

int cli_alloc_wait_prolog(uint32_t job_id, bool quiet, job_info_t *ji)
{
	struct sigaction sa = { .sa_handler = _on_int }, old_int, old_term;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int rc = 1;

	if (ji->state_reason != WAIT_PROLOG)
		return 0;
	if (!quiet)
		info("Waiting for resource configuration");
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	while (rc > 0 && ji->state_reason == WAIT_PROLOG) {
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 320 * 1000 * 1000)
			ts.tv_nsec *= 2;
		if (interrupted) {
			info("Job allocation %u has been revoked.", job_id);
			_cancel(job_id);
			rc = -1;
			break;
		}
		{
			job_info_t nj;
			int p;

			memset(&nj, 0, sizeof(nj));
			p = _poll(job_id, &nj);
			if (p < 0) {
				rc = -1;
				break;
			}
			if (p == 0)          /* no answer: ask again */
				continue;
			job_info_free_members(ji);
			*ji = nj;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (rc > 0 && !quiet)
		info("Nodes %s are ready for job", ji->nodes ? ji->nodes : "");
	return rc > 0 ? 0 : -1;
}

static void _set(char ***env, const char *k, const char *v)
{
	if (v)
		*env = cli_env_set(*env, k, v);
}

static void _setu(char ***env, const char *k, uint32_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%u", v);
	*env = cli_env_set(*env, k, b);
}

/* "2(x3),1" -> counts (at most n); number filled. */
static uint32_t _expand(const char *s, uint32_t *out, uint32_t n)
{
	uint32_t k = 0;

	while (s && *s && k < n) {
		char *end;
		unsigned long v = strtoul(s, &end, 10), rep = 1;

		if (end == s)
			break;
		if (!strncmp(end, "(x", 2)) {
			rep = strtoul(end + 2, &end, 10);
			if (*end == ')')
				end++;
		}
		for (unsigned long i = 0; i < rep && k < n; i++)
			out[k++] = (uint32_t) v;
		s = *end == ',' ? end + 1 : end;
		if (!*end)
			break;
	}
	return k;
}

/* SLURM_TASKS_PER_NODE as Slurm's salloc: the job's tasks (one per node
 * without -n) spread a round at a time over the nodes while their CPUs
 * allow, compressed ("2(x2),1"). */
static char *_tasks_per_node(const job_info_t *j, const cli_job_opts_t *o)
{
	uint32_t n = j->num_nodes, *cpus, *tasks, left, cpt = 1;
	char *out = NULL;
	bool any = true;

	if (!n || n > 100000)
		return NULL;
	cpus = xcalloc(n, sizeof(uint32_t));
	tasks = xcalloc(n, sizeof(uint32_t));
	if (_expand(j->cpus_per_node_str, cpus, n) != n) {
		xfree(cpus);
		xfree(tasks);
		return NULL;
	}
	if (o && o->desc.cpus_per_task != NO_VAL16 && o->desc.cpus_per_task)
		cpt = o->desc.cpus_per_task;
	left = o && o->desc.num_tasks != NO_VAL32 ? o->desc.num_tasks : n;
	while (left && any) {
		any = false;
		for (uint32_t i = 0; i < n && left; i++) {
			if (tasks[i] && (tasks[i] + 1) * cpt > cpus[i] &&
			    !(j->bitflags & JOB_OVERCOMMIT))
				continue;
			tasks[i]++;
			left--;
			any = true;
		}
	}
	for (uint32_t i = 0; i < n;) {
		uint32_t r = 1;

		while (i + r < n && tasks[i + r] == tasks[i])
			r++;
		if (r > 1)
			xstrfmtcat(&out, "%s%u(x%u)", out ? "," : "", tasks[i], r);
		else
			xstrfmtcat(&out, "%s%u", out ? "," : "", tasks[i]);
		i += r;
	}
	xfree(cpus);
	xfree(tasks);
	return out;
}

void cli_alloc_env(char ***env, const job_info_t *j, const cli_job_opts_t *o)
{
	char cwd[PATH_MAX], *host = _host();
	mode_t mask = umask(0);
	char b[32];

	umask(mask);
	_setu(env, "SLURM_JOB_ID", j->job_id);
	_setu(env, "SLURM_JOBID", j->job_id);
	_set(env, "SLURM_JOB_NAME", j->name);
	_set(env, "SLURM_JOB_NODELIST", j->nodes);
	_set(env, "SLURM_NODELIST", j->nodes);
	_setu(env, "SLURM_JOB_NUM_NODES", j->num_nodes);
	_setu(env, "SLURM_NNODES", j->num_nodes);
	_set(env, "SLURM_JOB_CPUS_PER_NODE", j->cpus_per_node_str);
	_set(env, "SLURM_JOB_PARTITION", j->partition);
	if (o)
		_set(env, "SLURM_DISTRIBUTION", o->distribution);
	_set(env, "SLURM_JOB_ACCOUNT", j->account);
	_set(env, "SLURM_JOB_QOS", j->qos);
	_setu(env, "SLURM_JOB_UID", j->user_id);
	_set(env, "SLURM_JOB_USER", j->user_name);
	_setu(env, "SLURM_JOB_GID", j->group_id);
	/* -M: the cluster the job runs on */
	_set(env, "SLURM_CLUSTER_NAME", j->cluster && *j->cluster ?
	     j->cluster : cli_clusters_current());
	if (getcwd(cwd, sizeof(cwd)))
		_set(env, "SLURM_SUBMIT_DIR", cwd);
	_set(env, "SLURM_SUBMIT_HOST", host);
	if (o && o->desc.num_tasks != NO_VAL32) {
		_setu(env, "SLURM_NTASKS", o->desc.num_tasks);
		_setu(env, "SLURM_NPROCS", o->desc.num_tasks);
	}
	if (o && o->desc.cpus_per_task != NO_VAL16)
		_setu(env, "SLURM_CPUS_PER_TASK", o->desc.cpus_per_task);
	if (j->bitflags & JOB_OVERCOMMIT)
		_set(env, "SLURM_OVERCOMMIT", "1");
	if (o && o->gpu_bind)
		_set(env, "SLURM_GPU_BIND", o->gpu_bind);
	/* --container: the allocation's steps run in its bundle */
	if (j->container && *j->container)
		_set(env, "SLURM_CONTAINER", j->container);
	{
		char *tpn = _tasks_per_node(j, o);

		if (tpn)
			_set(env, "SLURM_TASKS_PER_NODE", tpn);
		xfree(tpn);
	}
	snprintf(b, sizeof(b), "0%o%o%o", (mask >> 6) & 7, (mask >> 3) & 7,
		 mask & 7);
	if (!cli_env_get(*env, "SLURM_UMASK"))
		_set(env, "SLURM_UMASK", b);
	xfree(host);
}

/* Each "SLURM_X=v" of one component's variables as SLURM_X_HET_GROUP_g. */
static void _het_copy(char ***env, char **comp, size_t g)
{
	for (char **e = comp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char *k;

		if (!eq || strncmp(*e, "SLURM_", 6) ||
		    !strncmp(*e, "SLURM_UMASK=", 12))
			continue;
		k = xstrdup_printf("%.*s_HET_GROUP_%zu", (int) (eq - *e), *e,
				   g);
		*env = cli_env_set(*env, k, eq + 1);
		xfree(k);
	}
}

int cli_alloc_env_het(char ***env, uint32_t leader, const cli_job_opts_t *o,
		      size_t n)
{
	job_info_request_msg_t req = {
		.job_ids = &leader, .job_id_cnt = 1, .user_id = NO_VAL32,
	};
	slurm_msg_t resp;
	const job_info_msg_t *m;
	size_t seen = 0;

	if (cli_ctld_rpc(REQUEST_JOB_INFO, &req, &resp))
		return -1;
	if (resp.type != RESPONSE_JOB_INFO || !(m = resp.data)) {
		msg_free(&resp);
		return -1;
	}
	for (uint32_t i = 0; i < m->cnt; i++) {
		const job_info_t *j = &m->jobs[i];
		size_t g = j->het_job_offset;
		char **comp = NULL;

		if (j->het_job_id != leader || g >= n)
			continue;
		cli_alloc_env(&comp, j, &o[g]);
		_het_copy(env, comp, g);
		xstrarray_free(comp);
		seen++;
	}
	msg_free(&resp);
	if (seen != n)
		return -1;
	_setu(env, "SLURM_HET_SIZE", (uint32_t) n);
	return 0;
}

void cli_alloc_release(uint32_t job_id, uint32_t status)
{
	complete_job_alloc_msg_t r = { .job_id = job_id, .job_rc = status };
	int rc;

	cli_heartbeat_stop();
	cli_ctld_rpc_rc(REQUEST_COMPLETE_JOB_ALLOCATION, &r, &rc);
}
