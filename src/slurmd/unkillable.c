/* unkillable.c — steps that outlive their terminate (see unkillable.h). */
#include "slurmd/unkillable.h"

#include <event2/event.h>
#include <unistd.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/script.h"
#include "slurmd/common/spool.h"
#include "slurmd/launch_step.h"

typedef struct {
	slurmd_t     *sd;
	uint32_t      job_id;
	struct event *ev;
} watch_t;

/* Is a step daemon of the job (its batch step or an srun step) here? */
static bool job_has_stepd(slurmd_t *sd, uint32_t job_id)
{
	char *batch = spool_step_socket(sd->spool_dir, sd->node->name, job_id);
	char **steps = launch_step_sockets(sd, job_id);
	bool any = steps[0] || (access(batch, F_OK) == 0 &&
				spool_step_alive(batch));

	xstrarray_free(steps);
	xfree(batch);
	return any;
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

	if (job_has_stepd(sd, w->job_id)) {
		error("JobId=%u: step(s) not ended %u s after SIGKILL "
		      "(UnkillableStepTimeout): Kill task failed, node %s "
		      "will be drained", w->job_id,
		      (unsigned) sd->conf->unkillable_timeout, sd->node->name);
		run_program(sd, w->job_id);
		slurmd_epilog_complete(sd, w->job_id, ESLURMD_KILL_TASK_FAILED);
	}
	event_free(w->ev);
	xfree(w);
}

void unkillable_watch(slurmd_t *sd, uint32_t job_id, uint16_t kill_wait)
{
	watch_t *w = xmalloc(sizeof(*w));
	struct timeval tv = {
		(kill_wait ? kill_wait : sd->conf->kill_wait) +
			sd->conf->unkillable_timeout, 0 };

	w->sd = sd;
	w->job_id = job_id;
	w->ev = evtimer_new(sd->base, on_timeout, w);
	if (!w->ev || evtimer_add(w->ev, &tv) < 0) {
		error("JobId=%u: cannot watch its end", job_id);
		if (w->ev)
			event_free(w->ev);
		xfree(w);
	}
}
