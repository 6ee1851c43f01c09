/* affinity.h — which machine CPUs a task may run on: the emulated node's
 * CPU ids mapped onto this machine, and task/affinity's --cpu-bind.
 *
 * Emulated nodes: a test cluster runs several slurmd "nodes" with
 * CPUs=N each on one small machine.  Node CPU id i is machine CPU
 * avail[i % n], avail being the n CPUs slurmstepd itself may use
 * (sched_getaffinity).  On a real node (CPUs = the machine's) that is the
 * identity.
 */
#ifndef SLUICE_STEPD_AFFINITY_H
#define SLUICE_STEPD_AFFINITY_H

#include <sched.h>
#include <stdint.h>

/* "0-3" in node CPU ids -> the machine CPU list ("0-1"); NULL node_cpus
 * means the first ncpus ids.  xmalloc'd, or NULL if nothing maps. */
char *affinity_map_cpus(const char *node_cpus, uint32_t ncpus);

#endif
