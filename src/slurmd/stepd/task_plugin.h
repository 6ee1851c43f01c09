/* task_plugin.h — TaskPlugin: what is done to each task before exec.
 *
 * A list, applied in its order ("task/affinity,task/cgroup").  Built in:
 *   task/affinity  binds tasks to CPUs (--cpu-bind, TaskPluginParam:
 *                  affinity.h) and the batch script to the job's CPUs
 *   task/cgroup    confines the step through its cgroup as cgroup.conf's
 *                  Constrain* say (cgroup.h): CPUs, memory, devices
 *   task/none      nothing
 * Others are task_<name>.so in PluginDir.
 *
 * When each op is called, all in slurmstepd:
 *   plan        main thread, once per srun step before its tasks fork
 *               (may use hwloc; must not wait on anything else)
 *   plan_free   main thread, when the step's tasks are done
 *   env         main thread, building each task's environment
 *   apply       in the task's child process after fork, as the user
 *               with its stdio in place, before exec: no allocation,
 *               no locks, no logging through the daemon's log
 *   batch       in the batch script's child, as root, before exec
 */
#ifndef SLUICE_STEPD_TASK_PLUGIN_H
#define SLUICE_STEPD_TASK_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/conf.h"
#include "slurmd/stepd/affinity.h"

#define TASK_OPS_VERSION 1

typedef struct {
	/* The step is to be confined through a cgroup (cgroup.h). */
	bool uses_cgroup;
	/* Plan the local tasks of a step: 0, or -1 (logged; the tasks run
	 * unbound). */
	int  (*plan)(const affinity_req_t *r);
	void (*plan_free)(void);
	/* Add the plan's variables to a task's environment. */
	void (*env)(char ***env);
	/* In task lid's child: apply the plan. */
	void (*apply)(uint32_t gtid, uint32_t lid);
	/* In the batch script's child: node CPUs node_cpus ("0-1"; NULL:
	 * the first ncpus) are the job's. */
	void (*batch)(const char *node_cpus, uint32_t ncpus);
} task_ops_t;

/* Resolve TaskPlugin: 0, or -1 (logged). */
int  task_plugin_init(const slurm_conf_t *conf);
bool task_plugin_uses_cgroup(void);
/* Each listed plugin's op in order (those without it are skipped);
 * plan returns the first failure. */
int  task_plugin_plan(const affinity_req_t *r);
void task_plugin_plan_free(void);
void task_plugin_env(char ***env);
void task_plugin_apply(uint32_t gtid, uint32_t lid);
void task_plugin_batch(const char *node_cpus, uint32_t ncpus);

#endif
