/* cgroup_stepd.c — cgroups for batch and srun steps (cgroup_stepd.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/cgroup_stepd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io_frame.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/step_cred.h"
#include "common/bitmap.h"
#include "common/gres.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/cgroup.h"
#include "slurmd/stepd/proctrack.h"
#include "slurmd/stepd/task.h"

/* Logs Slurm's message; returns it as the job sees it on stderr. */
static char *oom_line(uint64_t n, uint32_t job_id, const char *step)
{
	char *msg = xstrdup_printf("Detected %llu oom-kill event(s) in StepId=%u.%s. Some of your processes may have been killed by the cgroup out-of-memory handler.",
				   (unsigned long long) n, job_id, step);
	char *line = xstrdup_printf("slurmstepd: error: %s\n", msg);

	error("%s", msg);
	xfree(msg);
	return line;
}

static bool mem_given(uint64_t v)
{
	return v && v != NO_VAL64 && v != INFINITE64;
}

/* The GPUs the batch step may open: its whole GPUs and those its shards
 * or MPS are on ("0,2"); NULL = just gpu_idx. */
static char *_batch_devices(const batch_launch_msg_t *j)
{
	uint64_t m = gres_alloc_gpu_mask(j->gres_alloc);
	bitmap_t *b;
	char *s;

	if (!m)
		return NULL;
	b = j->gpu_idx && *j->gpu_idx ? bitmap_from_str(j->gpu_idx, 64) :
		NULL;
	if (!b)
		b = bitmap_create(64);
	for (size_t g = 0; g < 64; g++)
		if (m & ((uint64_t) 1 << g))
			bitmap_set(b, g);
	s = bitmap_to_str(b);
	bitmap_destroy(b);
	return s;
}

void stepd_cgroup_create(stepd_t *sd)
{
	const batch_launch_msg_t *j = sd->job;
	uint64_t mem = 0;
	char *devs = _batch_devices(j);
	cgroup_req_t r = {
		.conf = sd->conf, .node_name = sd->node_name, .uid = j->uid,
		.job_id = j->job_id, .step = "batch", .job_cpus = j->cpu_bind,
		.ncpus = j->cpus_on_node, .gpu_idx = devs ? devs : j->gpu_idx,
	};

	if (mem_given(j->mem_per_node))
		mem = j->mem_per_node;
	else if (mem_given(j->mem_per_cpu))
		mem = j->mem_per_cpu * (j->cpus_on_node ? j->cpus_on_node : 1);
	r.mem_mb = mem;
	sd->cg = cgroup_step_create(&r);
	xfree(devs);
	proctrack_use_cgroup(sd->cg);
}

int stepd_cgroup_exit_status(stepd_t *sd, int status)
{
	uint64_t n = cgroup_step_oom_kills(sd->cg);
	char *line;

	if (!n)
		return status;
	line = oom_line(n, sd->job->job_id, "batch");
	task_note(sd, line);
	xfree(line);
	return SIG_OOM;
}

void step_cgroup_create(step_t *st)
{
	const launch_tasks_request_msg_t *m = st->m;
	step_cred_t *c = step_cred_decode(m->cred_payload);
	char step[16], *gpus = NULL;
	cgroup_req_t r = {
		.conf = st->conf, .node_name = st->node_name, .uid = m->uid,
		.job_id = m->job_id, .step = step,
	};

	snprintf(step, sizeof(step), "%u", m->step_id);
	if (c) {
		/* this node's CPUs: the node_id-th of "2,2,1" */
		const char *p = c->cpus_per_node;

		for (uint32_t i = 0; p && i < m->node_id; i++)
			if ((p = strchr(p, ',')))
				p++;
		r.ncpus = p ? (uint32_t) strtoul(p, NULL, 10) : 1;
		st->node_cpus = r.ncpus;
		xfree(st->cpu_ids);
		st->cpu_ids = step_cred_node_cpus(c, m->node_id);
		gpus = step_cred_node_gpus(c, m->node_id);
		r.gpu_idx = gpus;
		r.mem_mb = c->mem_per_node;
		st->mem_mb = mem_given(c->mem_per_node) ? c->mem_per_node : 0;
		/* not the cgroup's, but decoded here once for the step */
		xfree(st->gids);
		st->gids = c->gids;
		c->gids = NULL;
		step_cred_free(c);
	}
	st->cg = cgroup_step_create(&r);
	xfree(st->gpu_idx);
	st->gpu_idx = gpus;           /* its tasks' GPUs (task_gpus.h) */
	proctrack_use_cgroup(st->cg);
}

int step_cgroup_exit_status(step_t *st, uint32_t gtid, int status)
{
	uint64_t n = cgroup_step_oom_kills(st->cg);
	char step[16], *line;

	if (!n)
		return status;
	if (!st->oom_told) {
		st->oom_told = true;
		snprintf(step, sizeof(step), "%u", st->m->step_id);
		line = oom_line(n, st->m->job_id, step);
		step_send(st, IO_STDERR, gtid, line, strlen(line));
		xfree(line);
	}
	return SIG_OOM;
}

void step_cgroup_destroy(step_t *st)
{
	proctrack_use_cgroup(NULL);
	cgroup_step_destroy(st->cg);
	st->cg = NULL;
}
