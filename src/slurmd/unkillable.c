/* unkillable.c — steps that outlive their terminate (see unkillable.h). */
#include "slurmd/unkillable.h"

#include <event2/event.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/script.h"
#include "slurmd/common/spool.h"
#include "slurmd/launch_step.h"

/* A step daemon's socket as it was at the terminate: a later run of the
 * same job (requeued) has a socket of its own, another inode. */
typedef struct {
	char  *path;
	ino_t  ino;
} sock_t;

typedef struct {
	slurmd_t     *sd;
	uint32_t      job_id;
	struct event *ev;
	sock_t       *socks;
	size_t        cnt;
} watch_t;

static void add_sock(watch_t *w, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return;
	w->socks = xrealloc(w->socks, (w->cnt + 1) * sizeof(*w->socks));
	w->socks[w->cnt].path = xstrdup(path);
	w->socks[w->cnt++].ino = st.st_ino;
}

/* Is one of the step daemons seen at the terminate still there? */
static bool still_there(const watch_t *w)
{
	struct stat st;

	for (size_t i = 0; i < w->cnt; i++)
		if (stat(w->socks[i].path, &st) == 0 &&
		    st.st_ino == w->socks[i].ino &&
		    spool_step_alive(w->socks[i].path))
			return true;
	return false;
}

static void watch_free(watch_t *w)
{
	for (size_t i = 0; i < w->cnt; i++)
		xfree(w->socks[i].path);
	xfree(w->socks);
	if (w->ev)
		event_free(w->ev);
	xfree(w);
}

static void run_program(slurmd_t *sd, uint32_t job_id)
{
	const char *prog = sd->conf->unkillable_program;
	script_info_t si = {
		.context = "unkillable_step",
		.job_id = job_id,
		.uid = NO_VAL32,
		.gid = NO_VAL32,
		.node_name = sd->node->name,
		.nodes = sd->node->name,
		.cluster_name = sd->conf->cluster_name,
		.conf_path = sd->conf_path,
	};

	if (prog && *prog && script_spawn(prog, &si) < 0)
		error("JobId=%u: cannot run UnkillableStepProgram %s", job_id,
		      prog);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
	watch_t *w = arg;
	slurmd_t *sd = w->sd;

	if (still_there(w)) {
		error("JobId=%u: step(s) not ended %u s after SIGKILL "
		      "(UnkillableStepTimeout): Kill task failed, node %s "
		      "will be drained", w->job_id,
		      (unsigned) sd->conf->unkillable_timeout, sd->node->name);
		run_program(sd, w->job_id);
		slurmd_epilog_complete(sd, w->job_id, ESLURMD_KILL_TASK_FAILED);
	}
	watch_free(w);
}

void unkillable_watch(slurmd_t *sd, uint32_t job_id, uint16_t kill_wait)
{
	watch_t *w = xmalloc(sizeof(*w));
	struct timeval tv = {
		(kill_wait ? kill_wait : sd->conf->kill_wait) +
			sd->conf->unkillable_timeout, 0 };
	char *batch = spool_step_socket(sd->spool_dir, sd->node->name, job_id);
	char **steps = launch_step_sockets(sd, job_id);

	w->sd = sd;
	w->job_id = job_id;
	add_sock(w, batch);
	for (size_t i = 0; steps[i]; i++)
		add_sock(w, steps[i]);
	xstrarray_free(steps);
	xfree(batch);
	if (!w->cnt) {                   /* nothing of the job runs here */
		watch_free(w);
		return;
	}
	w->ev = evtimer_new(sd->base, on_timeout, w);
	if (!w->ev || evtimer_add(w->ev, &tv) < 0) {
		error("JobId=%u: cannot watch its end", job_id);
		watch_free(w);
	}
}
