/* job_prolog.c — see job_prolog.h. */
#include "ctld/job_prolog.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/prep.h"
#include "common/spawn.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/commit.h"
#include "ctld/controller.h"
#include "ctld/node_mgr.h"
#include "ctld/power_save.h"
#include "ctld/sched.h"

typedef struct {
	char     *path;
	char     *context;     /* "prolog_slurmctld" / "epilog_slurmctld" */
	char    **env;
	uint32_t  job_id;
	time_t    start_time;  /* which run of the job (requeue starts anew) */
	void    (*launch)(job_record_t *j);
	int       status;      /* wait() status, or -1: could not run */
} run_t;

static char **add(char **env, const char *name, const char *val)
{
	char *e;

	if (!val)
		return env;
	e = xstrdup_printf("%s=%s", name, val);
	env = xstrarray_append(env, e);
	xfree(e);
	return env;
}

static char **addu(char **env, const char *name, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	return add(env, name, buf);
}

static char **job_env(const job_record_t *j, const char *context)
{
	const job_info_t *i = &j->info;
	char **env = xcalloc(1, sizeof(char *));
	char ec[16];

	env = add(env, "PATH", "/bin:/usr/bin:/sbin:/usr/sbin");
	env = add(env, "SLURM_SCRIPT_CONTEXT", context);
	env = add(env, "SLURM_CLUSTER_NAME", ctld_conf()->cluster_name);
	env = addu(env, "SLURM_JOB_ID", i->job_id);
	env = addu(env, "SLURM_JOBID", i->job_id);
	env = add(env, "SLURM_JOB_NAME", i->name);
	env = addu(env, "SLURM_JOB_UID", i->user_id);
	env = addu(env, "SLURM_JOB_GID", i->group_id);
	env = add(env, "SLURM_JOB_USER", i->user_name);
	env = add(env, "SLURM_JOB_GROUP", i->group_name);
	env = add(env, "SLURM_JOB_PARTITION", i->partition);
	env = add(env, "SLURM_JOB_ACCOUNT", i->account);
	env = add(env, "SLURM_JOB_QOS", i->qos);
	env = add(env, "SLURM_JOB_NODELIST", i->nodes);
	env = add(env, "SLURM_JOB_CONSTRAINTS", i->features);
	env = add(env, "SLURM_JOB_WORK_DIR", i->work_dir);
	env = addu(env, "SLURM_JOB_RESTART_COUNT", i->restart_cnt);
	if (i->array_job_id) {
		env = addu(env, "SLURM_ARRAY_JOB_ID", i->array_job_id);
		env = addu(env, "SLURM_ARRAY_TASK_ID", i->array_task_id);
	}
	if (!strcmp(context, "epilog_slurmctld")) {
		job_exit_code_str(i->exit_code, ec, sizeof(ec));
		env = addu(env, "SLURM_JOB_EXIT_CODE", i->exit_code);
		env = add(env, "SLURM_JOB_EXIT_CODE2", ec);
		job_exit_code_str(i->derived_ec, ec, sizeof(ec));
		env = add(env, "SLURM_JOB_DERIVED_EC", ec);
		env = add(env, "SLURM_JOB_STATE",
			  job_state_string(i->job_state & JOB_STATE_BASE));
	}
	return env;
}

static void run_free(run_t *r)
{
	xfree(r->path);
	xfree(r->context);
	xstrarray_free(r->env);
	xfree(r);
}

static void prolog_done(evutil_socket_t fd, short what, void *arg)
{
	run_t *r = arg;
	job_record_t *j = job_mgr_find(r->job_id);
	job_info_t *i;

	(void) fd;
	(void) what;
	if (!j || j->info.start_time != r->start_time ||
	    !(j->info.job_state & JOB_CONFIGURING)) {
		run_free(r);           /* the job went on without us */
		return;
	}
	i = &j->info;
	i->job_state &= ~JOB_CONFIGURING;
	job_mgr_touch(j);
	if (r->status == 0) {
		debug("prolog_slurmctld JobId=%u done", i->job_id);
		r->launch(j);
		commit_dirty();
		run_free(r);
		return;
	}
	error("prolog_slurmctld JobId=%u failed: %s", i->job_id,
	      r->status < 0 ? "could not run it" : "exit status");
	if (!job_prolog_requeue_held(j))
		job_mgr_end(j, JOB_FAILED, FAIL_LAUNCH, 0);
	commit_dirty();
	sched_trigger();
	run_free(r);
}

bool job_prolog_requeue_held(job_record_t *j)
{
	job_info_t *i = &j->info;

	if (!i->batch_flag || !i->requeue)
		return false;
	info("Requeuing JobId=%u (held: launch failed)", i->job_id);
	i->restart_cnt++;
	if (i->priority)
		j->prio_saved = i->priority;
	i->priority = 0;
	i->held_by_user = false;
	job_mgr_end(j, JOB_PENDING | JOB_REQUEUE, WAIT_HELD, 0);
	xfree(i->state_desc);
	i->state_desc = xstrdup("launch failed requeued held");
	return true;
}

void job_prolog_node_failed(job_record_t *j, const char *node_name)
{
	node_record_t *n = node_name ? node_mgr_find(node_name) : NULL;

	if (n) {
		error("validate_node_specs: Prolog or job env setup failure on node %s, draining the node",
		      n->info.name);
		node_mgr_drain(n, "Prolog error", ctld_conf()->slurm_user_id);
	}
	if (!job_prolog_requeue_held(j)) {
		info("JobId=%u cannot be requeued: cancelled", j->info.job_id);
		job_mgr_end(j, JOB_CANCELLED, WAIT_NO_REASON, 0);
	}
	sched_trigger();
}

static void epilog_done(evutil_socket_t fd, short what, void *arg)
{
	run_t *r = arg;

	(void) fd;
	(void) what;
	if (r->status)
		error("epilog_slurmctld JobId=%u failed (status 0x%x)", r->job_id,
		      (unsigned) r->status);
	else
		debug("epilog_slurmctld JobId=%u done", r->job_id);
	run_free(r);
}

static int run_wait(const run_t *r)
{
	int err = 0, status = spawn_wait(r->path, NULL, r->env, NULL, &err);

	if (status < 0)
		error("%s: cannot run %s for JobId=%u: %s", r->context, r->path,
		      r->job_id, strerror(err));
	return status;
}

static void *runner(void *arg)
{
	run_t *r = arg;
	struct timeval now = { 0, 0 };

	r->status = run_wait(r);
	event_base_once(ctld_base(), -1, EV_TIMEOUT,
			r->launch ? prolog_done : epilog_done, r, &now);
	return NULL;
}

static void spawn_saved(void *arg);

/* The script runs once the change that asks for it (the job's start or
 * end) is on disk: a controller restarted from before it must not find
 * that its PrologSlurmctld already ran. */
static bool start(const job_record_t *j, const char *path, const char *context,
		  void (*launch)(job_record_t *j))
{
	run_t *r = xmalloc(sizeof(*r));

	r->path = xstrdup(path);
	r->context = xstrdup(context);
	r->env = job_env(j, context);
	r->job_id = j->info.job_id;
	r->start_time = j->info.start_time;
	r->launch = launch;
	commit_after(spawn_saved, r);
	return true;
}

static void spawn_saved(void *arg)
{
	run_t *r = arg;
	void (*launch)(job_record_t *j) = r->launch;
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &attr, runner, r);
	pthread_attr_destroy(&attr);
	if (rc) {
		error("%s: cannot start a thread for JobId=%u: %s", r->context,
		      r->job_id, strerror(rc));
		r->status = -1;
		if (launch) {             /* report the failure on the loop */
			struct timeval now = { 0, 0 };

			event_base_once(ctld_base(), -1, EV_TIMEOUT, prolog_done,
					r, &now);
			return;
		}
		run_free(r);
	}
}

bool job_prolog_start(job_record_t *j, void (*launch)(job_record_t *j))
{
	const char *path = prep_program(ctld_conf(), PREP_PROLOG_SLURMCTLD);

	if (!path || !*path)
		return false;
	j->info.job_state |= JOB_CONFIGURING;
	debug("prolog_slurmctld JobId=%u: running %s", j->info.job_id, path);
	return start(j, path, "prolog_slurmctld", launch);
}

void job_epilog_start(const job_record_t *j)
{
	const char *path = prep_program(ctld_conf(), PREP_EPILOG_SLURMCTLD);

	if (path && *path)
		start(j, path, "epilog_slurmctld", NULL);
}

void job_prolog_recover(void (*launch)(job_record_t *j))
{
	for (job_record_t *j = job_mgr_running_first(); j; j = j->run_next) {
		if (!(j->info.job_state & JOB_CONFIGURING) ||
		    power_save_job_waiting(j))
			continue;
		info("prolog_slurmctld JobId=%u: interrupted by a restart, running it again",
		     j->info.job_id);
		j->info.job_state &= ~JOB_CONFIGURING;
		if (!job_prolog_start(j, launch))
			launch(j);
	}
}
