/* node_plugins.h — the plugin types of a node, as one table.
 *
 * slurmd checks every type a node uses against its slurm.conf at start
 * (an unknown name stops it with Slurm's "cannot create <type> context
 * for <type>/<name>") and on reconfigure (a bad name keeps the old
 * configuration), before anything is set up from the new file:
 *   ProctrackType, TaskPlugin, JobAcctGatherType   (below: stepd's)
 *   AcctGatherEnergyType (acct_gather_energy.h), MpiDefault
 *   (mpi_plugin.h), PrEpPlugins (prep.h), SwitchType, JobContainerType,
 *   CredType (fixed_plugins.h); job_container.conf with
 *   job_container/tmpfs (job_container.h); and cgroup.conf beside slurm.conf, the
 *   cgroup plugins' settings (a file that does not parse is refused, not
 *   left to fail each step).
 *
 * proctrack, task and jobacct_gather run only in slurmstepd, whose
 * modules (stepd/proctrack.h, stepd/task_plugin.h, stepd/step_acct.h)
 * define their ops tables and built-ins.  This file is compiled into both
 * binaries from one list of built-in names per type: in slurmstepd the
 * list names those modules' descriptors; in slurmd (which never calls
 * them) it makes descriptors of the same names without ops code, so a
 * name is known to slurmd exactly when slurmstepd has it.
 */
#ifndef SLUICE_SLURMD_NODE_PLUGINS_H
#define SLUICE_SLURMD_NODE_PLUGINS_H

#include <stddef.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

/* X(type, name): the built-ins of the stepd's types.  The names are only
 * ever pasted or stringified (so "linux", a macro of GNU C, stays a
 * word). */
#define NODE_PROCTRACK_BUILTINS(X) \
	X(proctrack, cgroup) X(proctrack, pgid) X(proctrack, linuxproc)
#define NODE_TASK_BUILTINS(X) \
	X(task, affinity) X(task, cgroup) X(task, none)
#define NODE_JOBACCT_GATHER_BUILTINS(X) \
	X(jobacct_gather, linux) X(jobacct_gather, cgroup) \
	X(jobacct_gather, none)

extern const plugin_type_t proctrack_type;       /* ProctrackType */
extern const plugin_type_t task_type;            /* TaskPlugin (a list) */
extern const plugin_type_t jobacct_gather_type;  /* JobAcctGatherType */

/* Every type of the table resolved against c (no plugin code runs):
 * 0, or -1 with err naming the key and the plugin. */
/* Log, as warnings, what the node's other files (cgroup.conf) accept
 * without effect; the daemon calls it when it loads a configuration. */
void node_plugins_log_notes(const slurm_conf_t *c);

int node_plugins_check(const slurm_conf_t *c, char *err, size_t errlen);

#endif
