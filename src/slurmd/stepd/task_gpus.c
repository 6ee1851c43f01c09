/* task_gpus.c — each task's GPU variables (task_gpus.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/bitmap.h"
#include "common/gpu_bind.h"
#include "common/gres.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/env.h"
#include "slurmd/stepd/task_gpus.h"

#define MAX_GPUS 64

struct task_gpus {
	uint64_t   alloc;            /* the step's GPUs (gres indexes) */
	uint32_t   dev[MAX_GPUS];    /* device number of each index */
	bool       constrained;      /* ConstrainDevices: lists count from
				      * the step's first GPU */
	bool       bound;            /* --gpu-bind given (and good) */
	gpu_bind_t bind;
};

static uint64_t _mask(const char *idx)
{
	bitmap_t *b = idx && *idx ? bitmap_from_str(idx, MAX_GPUS) : NULL;
	uint64_t m = 0;

	for (long i = b ? bitmap_first_set(b) : -1; i >= 0 && i < MAX_GPUS;
	     i = bitmap_next_set(b, (size_t) i + 1))
		m |= (uint64_t) 1 << i;
	if (b)
		bitmap_destroy(b);
	return m;
}

static bool _has_cores(const gres_conf_t *gc)
{
	for (size_t i = 0; gc && i < gc->cnt; i++)
		if (!strcmp(gc->v[i].name, "gpu") && gc->v[i].cores &&
		    *gc->v[i].cores)
			return true;
	return false;
}

task_gpus_t *task_gpus_create(const slurm_conf_t *conf, const char *node,
			      uint32_t job_id, const char *gpu_idx,
			      char *const *env, bool constrained)
{
	uint64_t alloc = _mask(gpu_idx);
	const char *spec = env_get(env, "SLURM_GPU_BIND");
	char err[256], *path;
	gres_conf_t *gc;
	size_t n = 0;
	task_gpus_t *g;

	if (!alloc)
		return NULL;
	g = xcalloc(1, sizeof(*g));
	g->alloc = alloc;
	g->constrained = constrained;
	path = conf_sibling_path(conf, "gres.conf");
	gc = gres_conf_load(path, node, err, sizeof(err));
	if (!gc)
		error("JobId=%u: %s", job_id, err);
	else
		n = gres_conf_gpu_devices(gc, g->dev, MAX_GPUS);
	for (size_t i = n; i < MAX_GPUS; i++)
		g->dev[i] = (uint32_t) i;
	xfree(path);
	if (spec && *spec) {
		if (gpu_bind_parse(spec, &g->bind, err, sizeof(err)) < 0)
			error("JobId=%u: SLURM_GPU_BIND: %s: tasks not bound "
			      "to GPUs", job_id, err);
		else
			g->bound = true;
	}
	if (g->bound && g->bind.type == GPU_BIND_CLOSEST && _has_cores(gc))
		info("JobId=%u: --gpu-bind=closest: GPUs are not chosen "
		     "by gres.conf Cores= yet: each task sees all the "
		     "step's GPUs", job_id);
	gres_conf_destroy(gc);
	return g;
}

/* m's GPUs as a list: device numbers, or (rel) positions among the
 * step's GPUs.  Into buf (no allocation: may run in a vfork child). */
static void _list(const task_gpus_t *g, uint64_t m, bool rel, char *buf,
		  size_t len)
{
	uint32_t pos = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < MAX_GPUS; i++) {
		if (!(g->alloc & (uint64_t) 1 << i))
			continue;
		if (m & (uint64_t) 1 << i) {
			int k = snprintf(buf + at, len - at, "%s%u",
					 at ? "," : "", rel ? pos : g->dev[i]);

			if (k < 0 || (size_t) k >= len - at)
				break;
			at += (size_t) k;
		}
		pos++;
	}
}

static uint64_t _task_mask(const task_gpus_t *g, uint32_t lid, bool *out)
{
	*out = false;
	return g->bound ? gpu_bind_task(&g->bind, g->alloc, lid,
					g->constrained, out) : g->alloc;
}

void task_gpus_env(const task_gpus_t *g, uint32_t lid, char ***env)
{
	char all[MAX_GPUS * 11], mine[MAX_GPUS * 11];
	bool out;
	uint64_t m;

	if (!g)
		return;
	m = _task_mask(g, lid, &out);
	_list(g, g->alloc, false, all, sizeof(all));
	_list(g, m, g->constrained, mine, sizeof(mine));
	env_set(env, "CUDA_VISIBLE_DEVICES", mine);
	env_set(env, "ROCR_VISIBLE_DEVICES", mine);
	env_set(env, "GPU_DEVICE_ORDINAL", mine);
	env_set(env, "SLURM_STEP_GPUS", all);
	if (!env_get(*env, "SLURM_JOB_GPUS"))
		env_set(env, "SLURM_JOB_GPUS", all);
}

void task_gpus_verbose(const task_gpus_t *g, uint32_t lid)
{
	char line[512], glob[MAX_GPUS * 11], loc[MAX_GPUS * 11];
	bool out;
	uint64_t m;
	int n;

	if (!g || !g->bound)
		return;
	m = _task_mask(g, lid, &out);
	if (out) {
		n = snprintf(line, sizeof(line), "slurmstepd: error: "
			     "--gpu-bind for task %u names no GPU of the "
			     "step: bound to its first GPU\n", lid);
		if (n > 0 && write(STDERR_FILENO, line, (size_t) n) < 0)
			return;
	}
	if (!g->bind.verbose)
		return;
	_list(g, m, false, glob, sizeof(glob));
	_list(g, m, true, loc, sizeof(loc));
	n = snprintf(line, sizeof(line), "gpu-bind: usable_gres=0x%llx; "
		     "bit_alloc=0x%llx; local_inx=%u; global_list=%s; "
		     "local_list=%s\n", (unsigned long long) m,
		     (unsigned long long) g->alloc, lid, glob, loc);
	if (n > 0 && write(STDERR_FILENO, line, (size_t) n) < 0)
		return;
}

void task_gpus_destroy(task_gpus_t *g)
{
	if (!g)
		return;
	gpu_bind_free(&g->bind);
	xfree(g);
}
