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
 * the CPUs the step may use (its cgroup's cpuset, else stepd's own
 * affinity) with hwloc's cores and packages: local task L gets
 *   cores|threads|sockets  the (L*c)-th .. (L*c+c-1)-th core / PU /
 *                          socket of those (c = --cpus-per-task), wrapping
 *   rank                   the L-th CPU
 *   map_cpu:LIST           node CPU LIST[L % n], mapped as above
 *   mask_cpu:LIST          the node CPUs of LIST[L % n], mapped
 *   none (or not given)    no binding.
 * With verbose each task prints Slurm's line on its stderr:
 *   cpu-bind=MASK - n1, task  0  0 [4242]: mask 0x1 set
 */
#ifndef SLUICE_STEPD_AFFINITY_H
#define SLUICE_STEPD_AFFINITY_H

#include <sched.h>
#include <stdint.h>

/* "0-3" in node CPU ids -> the machine CPU list ("0-1"); NULL node_cpus
 * means the first ncpus ids.  xmalloc'd, or NULL if nothing maps. */
char *affinity_map_cpus(const char *node_cpus, uint32_t ncpus);

/* Plan the binding of ntasks local tasks (nothing unless task_plugin
 * lists task/affinity).  cpu_bind: the --cpu-bind
 * value or NULL; allowed: the step's machine CPU list or NULL (stepd's
 * affinity).  0, or -1 (logged; tasks run unbound). */
int  affinity_plan(const char *task_plugin, const char *cpu_bind,
		   const char *allowed,
		   uint32_t ntasks, uint16_t cpus_per_task,
		   const char *node_name);
/* In task lid's child, as the user and with its stderr open: bind it and
 * print the verbose line. */
void affinity_apply(uint32_t gtid, uint32_t lid);

#endif
