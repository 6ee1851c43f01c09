/* step_prolog.c — see step_prolog.h. */
#define _GNU_SOURCE
#include "slurmd/step_prolog.h"

#include <errno.h>
#include <sys/wait.h>

#include "common/conf_params.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/prep.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/ctld_send.h"
#include "slurmd/common/script.h"
#include "slurmd/common/spool.h"

/* Jobs whose Prolog ran (or was not needed) here and that are not over,
 * with their user (for the Epilog's environment). */
typedef struct {
	uint32_t job_id, uid, gid;
	char    *user_name;
} ran_t;

static ran_t  *ran;
static size_t  ran_cnt;

static bool _ran(uint32_t job_id)
{
	for (size_t i = 0; i < ran_cnt; i++)
		if (ran[i].job_id == job_id)
			return true;
	return false;
}

static void _note(const launch_tasks_request_msg_t *m)
{
	if (_ran(m->job_id))
		return;
	ran = xrealloc(ran, (ran_cnt + 1) * sizeof(*ran));
	ran[ran_cnt++] = (ran_t) { m->job_id, m->uid, m->gid,
				   xstrdup(m->user_name) };
}

void step_prolog_forget(uint32_t job_id, uint32_t *uid, uint32_t *gid,
			char **user_name)
{
	*uid = *gid = NO_VAL32;
	*user_name = NULL;
	for (size_t i = 0; i < ran_cnt; i++) {
		if (ran[i].job_id == job_id) {
			*uid = ran[i].uid;
			*gid = ran[i].gid;
			*user_name = ran[i].user_name;
			ran[i] = ran[--ran_cnt];
			return;
		}
	}
}

/* The batch slurmstepd of the job lives here: it ran the Prolog before
 * the script that runs this step started. */
static bool _batch_here(slurmd_t *sd, uint32_t job_id)
{
	char *sock = spool_step_socket(sd->spool_dir, sd->node->name, job_id);
	bool alive = spool_step_alive(sock);

	xfree(sock);
	return alive;
}

static void _report_failure(slurmd_t *sd, uint32_t job_id)
{
	epilog_complete_msg_t *c = xmalloc(sizeof(*c));

	c->job_id = job_id;
	c->rc = 1;
	c->node_name = xstrdup(sd->node->name);
	ctld_sender_queue(sd->sender, REQUEST_COMPLETE_PROLOG, c, -1);
}

static int _spawn_wait(slurmd_t *sd, const launch_tasks_request_msg_t *m)
{
	step_cred_t *c = step_cred_decode(m->cred_payload);
	script_info_t si = {
		.context = "prolog_slurmd", .job_id = m->job_id,
		.uid = m->uid, .gid = m->gid, .user_name = m->user_name,
		.nodes = c && c->job_node_list ? c->job_node_list
					       : m->node_list,
		.node_name = sd->node->name,
		.cluster_name = sd->conf->cluster_name,
		.conf_path = sd->conf_path,
	};
	int status = 0;
	pid_t pid = script_spawn(prep_program(sd->conf, PREP_PROLOG), &si);

	step_cred_free(c);
	if (pid < 0)
		return -1;
	/* the loop's SIGCHLD reaper runs only after this returns */
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return status;
}

int step_prolog_run(slurmd_t *sd, const launch_tasks_request_msg_t *m)
{
	const char *path = prep_program(sd->conf, PREP_PROLOG);
	uint32_t flags = 0;
	int status;

	if (_ran(m->job_id))
		return SLURM_SUCCESS;
	/* PrologFlags=Alloc: it ran when the job was allocated */
	if (conf_parse_prolog_flags(sd->conf->prolog_flags, &flags, NULL,
				    0) == 0 && (flags & PROLOG_FLAG_ALLOC))
		return SLURM_SUCCESS;
	if (!path || !*path || _batch_here(sd, m->job_id)) {
		_note(m);
		return SLURM_SUCCESS;
	}
	debug("JobId=%u: running the Prolog before StepId=%u.%u", m->job_id,
	      m->job_id, m->step_id);
	status = _spawn_wait(sd, m);
	if (status == 0) {
		_note(m);
		return SLURM_SUCCESS;
	}
	error("JobId=%u: prolog %s failed, status 0x%x", m->job_id, path,
	      (unsigned) status);
	_report_failure(sd, m->job_id);
	return ESLURMD_PROLOG_FAILED;
}
