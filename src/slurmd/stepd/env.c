/* env.c — the batch script's environment (see env.h). */
#include "slurmd/stepd/env.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "common/bitmap.h"
#include "common/gres.h"
#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/stepd/cgroup.h"

#define UNLIMITED_END_SECS (365L * 24 * 3600)

static long find(char *const *env, const char *name)
{
	size_t len = strlen(name);

	for (long i = 0; env && env[i]; i++) {
		if (!strncmp(env[i], name, len) && env[i][len] == '=')
			return i;
	}
	return -1;
}

const char *env_get(char *const *env, const char *name)
{
	long i = find(env, name);

	return i < 0 ? NULL : env[i] + strlen(name) + 1;
}

void env_set(char ***env, const char *name, const char *value)
{
	char *entry = xstrdup_printf("%s=%s", name, value ? value : "");
	long i = find(*env, name);

	if (i >= 0) {
		xfree((*env)[i]);
		(*env)[i] = entry;
		return;
	}
	*env = xstrarray_append(*env, entry);
	xfree(entry);
}

void env_setf(char ***env, const char *name, const char *fmt, ...)
{
	va_list ap;
	char *v = NULL;

	va_start(ap, fmt);
	xvstrfmtcat(&v, fmt, ap);
	va_end(ap);
	env_set(env, name, v);
	xfree(v);
}

#define PID_ROOM "            "    /* wider than any pid_t */

char *env_pid_room(char ***env)
{
	env_set(env, "SLURM_TASK_PID", PID_ROOM);
	return (char *) env_get(*env, "SLURM_TASK_PID");
}

void env_put_pid(char *room)
{
	char digits[16];
	unsigned long v = (unsigned long) getpid();
	int n = 0;

	do {
		digits[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v && n < (int) sizeof(PID_ROOM) - 1);
	while (n)
		*room++ = digits[--n];
	*room = '\0';
}

static void set_job_ids(char ***env, const stepd_t *sd)
{
	const batch_launch_msg_t *j = sd->job;

	env_setf(env, "SLURM_JOB_ID", "%u", j->job_id);
	env_setf(env, "SLURM_JOBID", "%u", j->job_id);
	env_set(env, "SLURM_JOB_NAME", j->job_name);
	env_set(env, "SLURM_JOB_USER", sd->user_name);
	env_setf(env, "SLURM_JOB_UID", "%u", j->uid);
	env_setf(env, "SLURM_JOB_GID", "%u", j->gid);
	if (sd->group_name)
		env_set(env, "SLURM_JOB_GROUP", sd->group_name);
	env_set(env, "SLURM_JOB_PARTITION", j->partition);
	if (j->account && *j->account)
		env_set(env, "SLURM_JOB_ACCOUNT", j->account);
	if (j->qos && *j->qos)
		env_set(env, "SLURM_JOB_QOS", j->qos);
	if (j->array_job_id) {
		env_setf(env, "SLURM_ARRAY_JOB_ID", "%u", j->array_job_id);
		env_setf(env, "SLURM_ARRAY_TASK_ID", "%u", j->array_task_id);
	}
	if (j->restart_cnt)
		env_setf(env, "SLURM_RESTART_COUNT", "%u", j->restart_cnt);
}

static void set_layout(char ***env, const stepd_t *sd)
{
	const batch_launch_msg_t *j = sd->job;

	env_set(env, "SLURM_JOB_NODELIST", j->nodes);
	env_set(env, "SLURM_NODELIST", j->nodes);
	env_setf(env, "SLURM_JOB_NUM_NODES", "%u", j->num_nodes);
	env_setf(env, "SLURM_NNODES", "%u", j->num_nodes);
	env_set(env, "SLURM_JOB_CPUS_PER_NODE", j->cpus_per_node);
	env_setf(env, "SLURM_CPUS_ON_NODE", "%u", j->cpus_on_node);
	if (j->tasks_per_node && *j->tasks_per_node)
		env_set(env, "SLURM_TASKS_PER_NODE", j->tasks_per_node);
	else if (j->num_nodes > 1)
		env_setf(env, "SLURM_TASKS_PER_NODE", "1(x%u)", j->num_nodes);
	else
		env_set(env, "SLURM_TASKS_PER_NODE", "1");
	if (j->num_tasks && j->num_tasks != NO_VAL32) {
		env_setf(env, "SLURM_NTASKS", "%u", j->num_tasks);
		env_setf(env, "SLURM_NPROCS", "%u", j->num_tasks);
	}
	if (j->cpus_per_task && j->cpus_per_task != NO_VAL16)
		env_setf(env, "SLURM_CPUS_PER_TASK", "%u", j->cpus_per_task);
	if (j->ntasks_per_node && j->ntasks_per_node != NO_VAL16)
		env_setf(env, "SLURM_NTASKS_PER_NODE", "%u",
			 j->ntasks_per_node);
	if (j->mem_per_node && j->mem_per_node != NO_VAL64)
		env_setf(env, "SLURM_MEM_PER_NODE", "%llu",
			 (unsigned long long) j->mem_per_node);
	if (j->mem_per_cpu && j->mem_per_cpu != NO_VAL64)
		env_setf(env, "SLURM_MEM_PER_CPU", "%llu",
			 (unsigned long long) j->mem_per_cpu);
}

static void set_host(char ***env, const stepd_t *sd)
{
	char host[256] = "";
	char *dot;

	if (gethostname(host, sizeof(host) - 1) == 0) {
		if ((dot = strchr(host, '.')))
			*dot = '\0';
		env_set(env, "HOSTNAME", host);
	}
	if (!env_get(*env, "TMPDIR"))
		env_set(env, "TMPDIR", sd->conf->tmp_fs ? sd->conf->tmp_fs
							: "/tmp");
}

static void set_site(char ***env, const stepd_t *sd)
{
	const batch_launch_msg_t *j = sd->job;
	long end;

	env_set(env, "SLURM_SUBMIT_DIR", j->submit_dir ? j->submit_dir
						       : j->work_dir);
	env_set(env, "SLURM_SUBMIT_HOST", j->submit_host);
	env_set(env, "SLURM_CLUSTER_NAME", j->cluster_name ? j->cluster_name
							   : sd->conf->cluster_name);
	env_set(env, "SLURM_CONF", sd->conf_path);
	env_set(env, "SLURMD_NODENAME", sd->node_name);
	if (j->container && *j->container)
		env_set(env, "SLURM_CONTAINER", j->container);
	env_setf(env, "SLURM_JOB_START_TIME", "%ld", (long) j->start_time);
	if (j->time_limit == INFINITE32 || j->time_limit == NO_VAL32)
		end = (long) j->start_time + UNLIMITED_END_SECS;
	else
		end = (long) j->start_time + (long) j->time_limit * 60;
	env_setf(env, "SLURM_JOB_END_TIME", "%ld", end);
	if (!env_get(*env, "SLURM_PRIO_PROCESS"))
		env_set(env, "SLURM_PRIO_PROCESS", "0");
	env_set(env, "SLURM_GTIDS", "0");
	env_set(env, "SLURM_LOCALID", "0");
	env_set(env, "SLURM_NODEID", "0");
	env_set(env, "SLURM_PROCID", "0");
	env_set(env, "SLURM_TOPOLOGY_ADDR", sd->node_name);
	env_set(env, "SLURM_TOPOLOGY_ADDR_PATTERN", "node");
	env_set(env, "ENVIRONMENT", "BATCH");
	set_host(env, sd);
}

/* Device numbers of the GPU indexes in idx ("0,2"), by gres.conf's
 * File= lines (the index itself without them); *cnt = how many.  rel:
 * their places instead (0, 1, ...), as CUDA numbers the devices a
 * ConstrainDevices cgroup leaves it. */
static char *_devices(const stepd_t *sd, const bitmap_t *idx, bool rel,
		      unsigned *cnt)
{
	gres_conf_t *g;
	uint32_t dev[64];
	size_t ndev;
	char err[256], *path, *list = NULL;

	*cnt = 0;
	path = conf_sibling_path(sd->conf, "gres.conf");
	g = gres_conf_load(path, sd->node_name, err, sizeof(err));
	if (!g)
		error("JobId=%u: %s", sd->job->job_id, err);
	ndev = g ? gres_conf_gpu_devices(g, dev, 64) : 0;
	for (long i = bitmap_first_set(idx); i >= 0;
	     i = bitmap_next_set(idx, i + 1), (*cnt)++)
		xstrfmtcat(&list, "%s%u", list ? "," : "", rel ? *cnt :
			   (size_t) i < ndev ? dev[i] : (unsigned) i);
	xfree(path);
	gres_conf_destroy(g);
	return list;
}

/* The GPUs allocated on this node: the controller sends gres indexes,
 * gres.conf's File= lines turn them into device numbers. */
static void set_gpus(char ***env, const stepd_t *sd)
{
	const batch_launch_msg_t *j = sd->job;
	bitmap_t *idx;
	char *list, *seen;
	unsigned cnt;

	if (!j->gpu_idx || !*j->gpu_idx ||
	    !(idx = bitmap_from_str(j->gpu_idx, 64)))
		return;
	list = _devices(sd, idx, false, &cnt);
	seen = _devices(sd, idx, cgroup_step_devices(sd->cg), &cnt);
	env_set(env, "CUDA_VISIBLE_DEVICES", seen);
	env_set(env, "ROCR_VISIBLE_DEVICES", seen);
	env_set(env, "GPU_DEVICE_ORDINAL", seen);
	env_set(env, "SLURM_JOB_GPUS", list);
	env_setf(env, "SLURM_GPUS_ON_NODE", "%u", cnt);
	xfree(list);
	xfree(seen);
	bitmap_destroy(idx);
}

/* Shards and MPS on this node: the GPUs they are on become
 * CUDA_VISIBLE_DEVICES; SLURM_SHARDS_ON_NODE counts the shards; MPS
 * gets CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, its share of the GPU. */
static void set_shared(char ***env, const stepd_t *sd)
{
	gres_alloc_item_t a[128];
	int n = gres_alloc_parse(sd->job->gres_alloc, a, 128);
	bitmap_t *idx = bitmap_create(64);
	uint64_t shards = 0, mps = 0, mps_per = 0;
	char *list;
	unsigned cnt;

	if (n < 0)
		error("JobId=%u: bad GRES allocation \"%s\"", sd->job->job_id,
		      sd->job->gres_alloc);
	for (int k = 0; k < n; k++) {
		if (a[k].gpu < 0)
			continue;
		bitmap_set(idx, (size_t) a[k].gpu);
		if (!strcmp(a[k].name, "shard"))
			shards += a[k].count;
		else if (!strcmp(a[k].name, "mps")) {
			mps += a[k].count;
			mps_per = a[k].per_gpu;
		}
	}
	if (bitmap_count(idx) && !(sd->job->gpu_idx && *sd->job->gpu_idx)) {
		list = _devices(sd, idx, cgroup_step_devices(sd->cg), &cnt);
		env_set(env, "CUDA_VISIBLE_DEVICES", list);
		xfree(list);
	}
	if (shards)
		env_setf(env, "SLURM_SHARDS_ON_NODE", "%llu",
			 (unsigned long long) shards);
	if (mps && mps_per)
		env_setf(env, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "%llu",
			 (unsigned long long) (mps * 100 / mps_per));
	bitmap_destroy(idx);
}

char **env_build_batch(const stepd_t *sd)
{
	char **env = xstrarray_dup(sd->job->environment);

	if (!env)
		env = xcalloc(1, sizeof(char *));
	set_job_ids(&env, sd);
	set_layout(&env, sd);
	set_site(&env, sd);
	set_gpus(&env, sd);
	set_shared(&env, sd);
	return env;
}
