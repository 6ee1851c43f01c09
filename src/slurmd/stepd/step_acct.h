/* step_acct.h — JobAcctGatherType: usage of a step's tasks on this node.
 *
 * Built in: jobacct_gather/linux (/proc, below), jobacct_gather/cgroup
 * (the same, with the step's cgroup's memory and CPU figures for a step
 * with one task on the node: cgroup.h's cgroup_step_usage; the step gets
 * a cgroup with the memory controller for it) and jobacct_gather/none
 * (only each task's rusage at its exit).  Others are
 * jobacct_gather_<name>.so in PluginDir.  The sample op runs on the
 * step's slurmstepd event loop: every JobAcctGatherFrequency seconds,
 * for each sstat request and as each task exits; it reads /proc or
 * cgroup files and must not block on anything else.
 *
 * linux: every JobAcctGatherFrequency seconds (task=N or N; 0 = only at the
 * end and on request) /proc is read: a process belongs to the task whose
 * pid is its nearest ancestor (tasks' children, grandchildren, ...).  Per
 * task the RSS and VM size are summed over its processes (the largest
 * sum seen is kept) and the CPU time is user+sys of the living processes
 * plus what their waited-for children used.  A task's exit adds its
 * rusage (CPU, ru_maxrss) as the final word.
 *
 * JobAcctGatherParams: UsePss counts a process's PSS (smaps_rollup),
 * NoShared its RSS less its shared pages (statm); OverMemoryKill kills a
 * step whose tasks here use more than its memory (--mem, --mem-per-cpu)
 * at a sample, and its tasks end OUT_OF_MEMORY.
 */
#ifndef SLUICE_STEPD_STEP_ACCT_H
#define SLUICE_STEPD_STEP_ACCT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "common/conf.h"
#include "common/msg_types.h"
#include "slurmd/stepd/step.h"

#define JOBACCT_GATHER_OPS_VERSION 1

typedef struct {
	/* The step is to get a cgroup with the memory controller. */
	bool uses_cgroup;
	/* Update st->tasks[].usage now (sizes now, peaks and CPU kept
	 * monotonic).  NULL: no sampling. */
	void (*sample)(step_t *st);
} jobacct_gather_ops_t;

/* Resolve JobAcctGatherType: 0, or -1 (logged). */
int  step_acct_init(const slurm_conf_t *conf);
bool step_acct_uses_cgroup(void);

/* Start sampling (nothing with a plugin that does not sample). */
void step_acct_start(step_t *st);
void step_acct_stop(step_t *st);
/* Sample now (the plugin's op). */
void step_acct_sample(step_t *st);
/* A task ended with this rusage. */
void step_acct_task_exit(step_t *st, step_task_t *t, const struct rusage *ru);
/* The node's totals into the step-complete message (fields after
 * step_rc): tot_* sum the tasks' peaks, or (now) their current sizes
 * (sstat's Ave*). */
void step_acct_fill(const step_t *st, step_complete_msg_t *c, bool now);

/* Seconds from a JobAcctGatherFrequency value ("30", "task=5,energy=0");
 * def if absent or bad. */
int  step_acct_freq(const char *spec, int def);

#endif
