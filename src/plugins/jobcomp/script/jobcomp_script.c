/* jobcomp_script.c — JobCompType=jobcomp/script: run JobCompLoc for every
 * ended job, with the job described in its environment (Slurm's names:
 * JOBID JOBNAME JOBSTATE UID GID USERNAME GROUPNAME PARTITION ACCOUNT QOS
 * LIMIT START END SUBMIT NODES NODECNT PROCS EXITCODE DERIVED_EC
 * WORK_DIR BATCH CLUSTER ARRAYJOBID ARRAYTASKID DEPENDENCY CONSTRAINTS
 * RESERVATION STDIN STDOUT STDERR, and PATH).
 *
 * The script runs as the controller's user, in /tmp, in a session of its
 * own, one at a time on this plugin's thread so a slow script never holds
 * up the controller; a non-zero exit is logged.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/plugin.h"
#include "common/spawn.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/jobcomp.h"

typedef struct item {
	uint32_t     job_id;
	char       **env;
	struct item *next;
} item_t;

static struct {
	char           *script;
	char           *cluster;
	pthread_t       thread;
	bool            running;
	pthread_mutex_t lock;
	pthread_cond_t  cond;
	item_t         *head, *tail;
	bool            stop;
} sc = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void run_one(const item_t *it)
{
	int err = 0, status = spawn_wait(sc.script, NULL, it->env, "/tmp", &err);

	if (status < 0)
		error("jobcomp/script: cannot run %s for JobId=%u: %s", sc.script,
		      it->job_id, strerror(err));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		debug("jobcomp/script: %s done for JobId=%u", sc.script, it->job_id);
	else if (WIFSIGNALED(status))
		error("jobcomp/script: %s for JobId=%u killed by signal %d",
		      sc.script, it->job_id, WTERMSIG(status));
	else
		error("jobcomp/script: %s for JobId=%u exited with status %d",
		      sc.script, it->job_id, WEXITSTATUS(status));
}

static void *worker(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&sc.lock);
	for (;;) {
		item_t *it;

		while (!sc.head && !sc.stop)
			pthread_cond_wait(&sc.cond, &sc.lock);
		if (!sc.head)
			break;
		it = sc.head;
		sc.head = it->next;
		if (!sc.head)
			sc.tail = NULL;
		pthread_mutex_unlock(&sc.lock);
		run_one(it);
		xstrarray_free(it->env);
		xfree(it);
		pthread_mutex_lock(&sc.lock);
	}
	pthread_mutex_unlock(&sc.lock);
	return NULL;
}

static int js_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	if (!conf->job_comp_loc || access(conf->job_comp_loc, X_OK) < 0) {
		snprintf(err, errlen, "jobcomp/script: JobCompLoc %s is not an executable: %s",
			 conf->job_comp_loc ? conf->job_comp_loc : "(unset)",
			 conf->job_comp_loc ? strerror(errno) : "set it");
		return -1;
	}
	sc.script = xstrdup(conf->job_comp_loc);
	sc.cluster = xstrdup(conf->cluster_name);
	sc.stop = false;
	if (pthread_create(&sc.thread, NULL, worker, NULL)) {
		snprintf(err, errlen, "jobcomp/script: cannot start its thread");
		xfree(sc.script);
		xfree(sc.cluster);
		return -1;
	}
	sc.running = true;
	return 0;
}

/* Scripts already queued still run (the controller waits for them). */
static void js_fini(void)
{
	if (sc.running) {
		pthread_mutex_lock(&sc.lock);
		sc.stop = true;
		pthread_cond_signal(&sc.cond);
		pthread_mutex_unlock(&sc.lock);
		pthread_join(sc.thread, NULL);
		sc.running = false;
	}
	xfree(sc.script);
	xfree(sc.cluster);
}

static char **add(char **env, const char *name, const char *val)
{
	char *e = xstrdup_printf("%s=%s", name, val ? val : "");

	env = xstrarray_append(env, e);
	xfree(e);
	return env;
}

static char **addu(char **env, const char *name, unsigned long long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", v);
	return add(env, name, buf);
}

static void js_job_end(const job_view_t *j)
{
	char **env = xcalloc(1, sizeof(char *));
	char buf[32];
	item_t *it;

	env = add(env, "PATH", "/usr/bin:/bin:/usr/sbin:/sbin");
	env = addu(env, "JOBID", j->job_id);
	env = add(env, "JOBNAME", j->name);
	env = add(env, "JOBSTATE", job_state_string(j->job_state));
	env = addu(env, "UID", j->user_id);
	env = addu(env, "GID", j->group_id);
	env = add(env, "USERNAME", j->user_name);
	env = add(env, "GROUPNAME", j->group_name);
	env = add(env, "PARTITION", j->partition);
	env = add(env, "ACCOUNT", j->account);
	env = add(env, "QOS", j->qos);
	fmt_time_limit(j->time_limit, buf, sizeof(buf));
	env = add(env, "LIMIT", buf);
	env = addu(env, "SUBMIT", (unsigned long long) j->submit_time);
	env = addu(env, "START", (unsigned long long)
		   (j->start_time ? j->start_time : j->end_time));
	env = addu(env, "END", (unsigned long long) j->end_time);
	env = add(env, "NODES", j->nodes);
	env = addu(env, "NODECNT", j->nodes && *j->nodes ? j->num_nodes : 0);
	env = addu(env, "PROCS", j->nodes && *j->nodes ? j->num_cpus : 0);
	job_exit_code_str(j->exit_code, buf, sizeof(buf));
	env = add(env, "EXITCODE", buf);
	job_exit_code_str(j->derived_ec, buf, sizeof(buf));
	env = add(env, "DERIVED_EC", buf);
	env = add(env, "WORK_DIR", j->work_dir);
	env = add(env, "BATCH", j->batch_flag ? "yes" : "no");
	env = add(env, "CLUSTER", sc.cluster);
	env = addu(env, "ARRAYJOBID", j->array_job_id);
	env = addu(env, "ARRAYTASKID", j->array_job_id ? j->array_task_id : NO_VAL32);
	env = add(env, "DEPENDENCY", j->dependency);
	env = add(env, "CONSTRAINTS", j->features);
	env = add(env, "RESERVATION", j->reservation);
	env = add(env, "STDIN", j->std_in && *j->std_in ? j->std_in : "/dev/null");
	if (j->std_out)
		env = add(env, "STDOUT", j->std_out);
	if (j->std_err)
		env = add(env, "STDERR", j->std_err);
	it = xmalloc(sizeof(*it));
	it->job_id = j->job_id;
	it->env = env;
	pthread_mutex_lock(&sc.lock);
	if (sc.tail)
		sc.tail->next = it;
	else
		sc.head = it;
	sc.tail = it;
	pthread_cond_signal(&sc.cond);
	pthread_mutex_unlock(&sc.lock);
}

static const jobcomp_ops_t ops = {
	.init = js_init,
	.fini = js_fini,
	.job_end = js_job_end,
};

const struct sluice_plugin sluice_plugin = {
	.type = "jobcomp",
	.name = "script",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = JOBCOMP_OPS_VERSION,
	.ops = &ops,
};
