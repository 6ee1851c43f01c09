/* affinity.h — which machine CPUs a task may run on: the emulated node's
 * CPU ids mapped onto this machine, and task/affinity's --cpu-bind.
 *
 * Emulated nodes: a test cluster runs several slurmd "nodes" with
 * CPUs=N each on one small machine.  Node CPU id i is machine CPU
 * avail[i % n], avail being the n CPUs slurmstepd itself may use
 * (sched_getaffinity).  On a real node (CPUs = the machine's) that is the
 * identity.
 *
 * task/affinity (TaskPlugin=task/affinity, alone or with task/cgroup):
 * the step's --cpu-bind is planned in slurmstepd before the fork, over
 * the CPUs the step may use on the node (its cgroup's cpuset, else its
 * CPU count mapped as above) with hwloc's cores and packages: local task
 * L gets
 *   cores|threads|sockets  the (L*c)-th .. (L*c+c-1)-th core / PU /
 *                          socket of those (c = --cpus-per-task), wrapping
 *   rank                   the L-th CPU
 *   map_cpu:LIST           node CPU LIST[L % n], mapped as above
 *   mask_cpu:LIST          the node CPUs of LIST[L % n], mapped
 *   none                   no binding.
 * Without --cpu-bind: TaskPluginParam's type (Cores, Sockets, Threads,
 * None; Verbose), else auto binding as srun(1) says: threads, cores or
 * sockets when the step has as many of them on the node as tasks x c,
 * else TaskPluginParam autobind=TYPE, else every task on all the step's
 * CPUs.  Each task gets SLURM_CPU_BIND, SLURM_CPU_BIND_VERBOSE, _TYPE and
 * _LIST as Slurm sets them.  With verbose each task prints Slurm's line
 * on its stderr:
 *   cpu-bind=MASK - n1, task  0  0 [4242]: mask 0x1 set
 * The batch script is bound to the job's CPUs on its node.
 */
#ifndef SLUICE_STEPD_AFFINITY_H
#define SLUICE_STEPD_AFFINITY_H

#include <sched.h>
#include <stdint.h>

/* "0-3" in node CPU ids -> the machine CPU list ("0-1"); NULL node_cpus
 * means the first ncpus ids.  xmalloc'd, or NULL if nothing maps. */
char *affinity_map_cpus(const char *node_cpus, uint32_t ncpus);

typedef struct {
	const char *task_plugin_param; /* TaskPluginParam, or NULL */
	const char *cpu_bind;          /* --cpu-bind, or NULL */
	const char *allowed;           /* machine CPU list of the step, or
					  NULL: stepd's affinity */
	uint32_t    ntasks;            /* local tasks */
	uint16_t    cpus_per_task;
	const char *node_name;
} affinity_req_t;

/* Plan the binding of the local tasks (task/affinity's plan op,
 * task_plugin.h).  0, or -1 (logged; tasks run unbound). */
int  affinity_plan(const affinity_req_t *r);
void affinity_plan_free(void);
/* In task lid's child, as the user and with its stderr open: bind it and
 * print the verbose line. */
void affinity_apply(uint32_t gtid, uint32_t lid);
/* The SLURM_CPU_BIND* variables of the plan (nothing without one). */
void affinity_env(char ***env);
/* In the batch script's child: bind it to node CPUs node_cpus ("0-1";
 * NULL: the first ncpus). */
void affinity_batch(const char *node_cpus, uint32_t ncpus);

#endif
