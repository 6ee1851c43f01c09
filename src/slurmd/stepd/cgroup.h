/* cgroup.h — a step's process container (proctrack/cgroup) and its
 * limits (task/cgroup), as cgroup.conf asks.
 *
 * The hierarchy is detected, not assumed: CgroupMountpoint (statfs) is
 * either cgroup v2 (unified: one tree, controllers enabled top-down
 * through cgroup.subtree_control) or a tmpfs holding v1 controller
 * mounts (memory, cpuset, freezer are used where present; a v2 tree at
 * <mount>/unified tracks processes when there is no freezer).
 * CgroupPlugin=cgroup/v1|cgroup/v2 forces one; a forced one that is not
 * there, or a tree we cannot write, means no container (proctrack/pgid
 * goes on alone, one log line says why).
 *
 * Layout (one slurmd may emulate several nodes on one machine, so the
 * node name is part of it, as in Slurm's multiple-slurmd builds):
 *     <tree>/slurm_<node>/uid_<U>/job_<J>/step_<S>
 * S is "batch", "extern" or the step number.  Processes live only in
 * step_<S> (v2's no-internal-process rule); limits are set on job_<J>
 * (the node's allocation) and on step_<S>.
 *
 * Limits: ConstrainCores -> cpuset.cpus = the job's CPUs on the node
 * (emulated node CPU ids mapped onto the machine's, see affinity.h);
 * ConstrainRAMSpace -> memory limit = allocation * AllowedRAMSpace%
 * (at least MinRAMSpace); ConstrainSwapSpace -> RAM+swap limit adds
 * AllowedSwapSpace%.  OOM kills are read from memory.events (v2) or
 * memory.oom_control (v1), field oom_kill.  ConstrainDevices: the v1
 * devices controller denies the step the gres.conf GPU files its job does
 * not hold (cgroup_devices.h); cgroup v2 (BPF device programs) is not
 * supported: logged, devices stay open.
 */
#ifndef SLUICE_STEPD_CGROUP_H
#define SLUICE_STEPD_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/conf.h"
#include "common/job_info.h"   /* SIG_OOM */

typedef struct cgroup_step cgroup_step_t;

typedef struct {
	const slurm_conf_t *conf;
	const char *node_name;
	uint32_t    uid;
	uint32_t    job_id;
	const char *step;         /* "batch", "extern", "0", ... */
	const char *job_cpus;     /* the job's CPU ids on the node "0-1",
				   * or NULL: the first ncpus */
	uint32_t    ncpus;
	uint64_t    mem_mb;       /* the job's memory on the node, 0: none */
	const char *gpu_idx;      /* the GPUs (gres indexes) the step
				   * holds on the node, "0-1", or NULL */
} cgroup_req_t;

/* NULL when neither proctrack/cgroup nor task/cgroup is configured or no
 * usable hierarchy exists (logged once, with the reason). */
cgroup_step_t *cgroup_step_create(const cgroup_req_t *r);
/* proctrack/cgroup: the step's processes are found through the cgroup. */
bool cgroup_step_tracks(const cgroup_step_t *cg);
/* SignalChildrenProcesses of the step's cgroup.conf (true without a
 * cgroup: the other trackers signal every process they find) */
bool cgroup_step_signals_children(const cgroup_step_t *cg);
/* In a forked child before exec (no allocation): move the calling process
 * into the step.  0 or -1. */
int  cgroup_step_attach_self(const cgroup_step_t *cg);
/* Move process pid into the step (the extern step adopting a process).
 * 0, or -1 (also without a container). */
int  cgroup_step_attach_pid(const cgroup_step_t *cg, pid_t pid);
/* Living processes in the step; with sig != 0 they are sent sig (frozen
 * meanwhile, so none forks past it).  Returns how many. */
int  cgroup_step_signal(cgroup_step_t *cg, int sig);
/* OOM kills seen in the step (and the job) so far. */
uint64_t cgroup_step_oom_kills(const cgroup_step_t *cg);
/* The step's usage as its cgroup counts it (jobacct_gather/cgroup):
 * resident anonymous memory now (memory.stat's anon on v2, total_rss on
 * v1) where the memory controller is in use, CPU time from cpu.stat (v2
 * only).
 * 0, or -1 when the cgroup gives neither. */
typedef struct {
	bool     has_mem;
	uint64_t rss_kb;
	bool     has_cpu;
	uint64_t user_usec, sys_usec;
} cgroup_usage_t;
int  cgroup_step_usage(const cgroup_step_t *cg, cgroup_usage_t *u);
/* The machine CPUs the step may use ("0-1"), or NULL if not constrained. */
const char *cgroup_step_cpus(const cgroup_step_t *cg);
/* ConstrainDevices: the step may open only its own GPUs. */
bool cgroup_step_devices(const cgroup_step_t *cg);
/* Kill what is left, remove the step's directories (and the job's and
 * user's if now empty), free. */
void cgroup_step_destroy(cgroup_step_t *cg);

/* "cgroup v1 (memory,cpuset,freezer)" or a reason why none; for logs and
 * for tests (slurmstepd -C prints it). */
const char *cgroup_describe(void);

#endif
