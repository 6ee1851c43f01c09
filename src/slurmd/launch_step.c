/* launch_step.c — start the tasks of an srun step (launch_step.h). */
#include "slurmd/launch_step.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"
#include "slurmd/launch.h"
#include "slurmd/step_prolog.h"

/* Steps launched here while their credentials are valid: a second launch
 * of the same job.step is a replay. */
typedef struct {
	uint32_t job_id;
	uint32_t step_id;
	time_t   expiry;
} seen_t;

static seen_t *seen;
static size_t  seen_cnt;

static bool _seen_check_add(uint32_t job, uint32_t step, time_t expiry,
			    time_t now)
{
	size_t i, k = 0;

	for (i = 0; i < seen_cnt; i++)          /* drop expired entries */
		if (seen[i].expiry >= now)
			seen[k++] = seen[i];
	seen_cnt = k;
	for (i = 0; i < seen_cnt; i++)
		if (seen[i].job_id == job && seen[i].step_id == step)
			return true;
	seen = xrealloc(seen, (seen_cnt + 1) * sizeof(*seen));
	seen[seen_cnt++] = (seen_t) { job, step, expiry };
	return false;
}

char *launch_step_socket(const char *spool, const char *node,
			 uint32_t job_id, uint32_t step_id)
{
	return xstrdup_printf("%s/%s_%u.%u", spool, node, job_id, step_id);
}

char **launch_step_sockets(slurmd_t *sd, uint32_t job_id)
{
	char *prefix = xstrdup_printf("%s_%u.", sd->node->name, job_id);
	size_t plen = strlen(prefix);
	char **out = xcalloc(1, sizeof(char *));
	DIR *d = opendir(sd->spool_dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *end, *path;

		if (strncmp(de->d_name, prefix, plen))
			continue;
		strtoul(de->d_name + plen, &end, 10);
		if (*end || end == de->d_name + plen)
			continue;          /* .batch and others */
		path = xstrdup_printf("%s/%s", sd->spool_dir, de->d_name);
		if (spool_step_alive(path))
			out = xstrarray_append(out, path);
		else
			unlink(path);
		xfree(path);
	}
	if (d)
		closedir(d);
	xfree(prefix);
	return out;
}

static int _check(slurmd_t *sd, uid_t sender,
		  const launch_tasks_request_msg_t *m)
{
	const char *why = NULL;
	step_cred_t *c = NULL;
	time_t now = time(NULL);
	int rc;

	if (sender != m->uid && sender != 0) {
		why = "sender is not the step's user";
		rc = ESLURMD_INVALID_JOB_CREDENTIAL;
		goto out;
	}
	rc = step_cred_verify(m->cred_payload, m->cred_sig,
			      sd->conf->slurm_user_id, sd->node->name, now,
			      &c, &why);
	if (rc)
		goto out;
	rc = ESLURMD_INVALID_JOB_CREDENTIAL;
	if (c->job_id != m->job_id || c->step_id != m->step_id) {
		why = "job or step differs";
		goto out;
	}
	if (c->uid != m->uid || c->gid != m->gid) {
		why = "user differs";
		goto out;
	}
	if (xstrcmp(c->node_list, m->node_list)) {
		why = "node list differs";
		goto out;
	}
	if (_seen_check_add(c->job_id, c->step_id, c->expiry, now)) {
		why = "step already launched";
		rc = ESLURMD_CREDENTIAL_REPLAYED;
		goto out;
	}
	rc = SLURM_SUCCESS;
out:
	if (rc)
		error("StepId=%u.%u: credential refused from uid %u: %s",
		      m->job_id, m->step_id, (unsigned) sender,
		      why ? why : slurm_strerror(rc));
	step_cred_free(c);
	return rc;
}

int launch_step(slurmd_t *sd, uid_t sender, const launch_tasks_request_msg_t *m)
{
	char *sock;
	int rc;

	if (!m->argv || !m->argv[0] || !m->srun_host || !m->gtids) {
		error("StepId=%u.%u: malformed launch request", m->job_id,
		      m->step_id);
		return SLURM_UNEXPECTED_MSG_ERROR;
	}
	if ((rc = _check(sd, sender, m)))
		return rc;
	sock = launch_step_socket(sd->spool_dir, sd->node->name, m->job_id,
				  m->step_id);
	if (spool_step_alive(sock)) {
		xfree(sock);
		return ESLURMD_STEP_EXISTS;
	}
	unlink(sock);
	xfree(sock);
	if ((rc = step_prolog_run(sd, m)))
		return rc;
	info("launch task StepId=%u.%u request from UID:%u", m->job_id,
	     m->step_id, (unsigned) m->uid);
	return launch_run_stepd(sd, REQUEST_LAUNCH_TASKS, m, m->job_id);
}
