/* extern_step.h — slurmstepd -x: PrologFlags=Alloc on one node.
 *
 * Started by slurmd with REQUEST_LAUNCH_PROLOG on stdin (launch.h's pipe
 * protocol).  With Contain it first makes the job's extern step: cgroup
 * .../job_<J>/step_extern (proctrack/cgroup) and the socket
 * <spool>/<node>_<J>.4294967292 (SLURM_EXTERN_CONT), so slurmd's
 * signal/terminate forwarding reaches it.  Then it runs the Prolog (as
 * root, Slurm's environment) and sends REQUEST_COMPLETE_PROLOG to the
 * controller.  Without Contain, or if the Prolog failed, it exits then.
 *
 * The extern step holds no task of its own; processes enter it through
 * REQUEST_ADD_EXTERN_PID (pam_slurm_adopt): moved into its cgroup and
 * remembered, so that REQUEST_TERMINATE_JOB ends them (SIGCONT+SIGTERM,
 * SIGKILL after KillWait) together with their descendants.  The stepd
 * exits once none is left.
 */
#ifndef SLUICE_STEPD_EXTERN_STEP_H
#define SLUICE_STEPD_EXTERN_STEP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/msg_types.h"

/* Run an extern stepd; returns the process exit code. */
int extern_main(const char *conf_file, const char *node_name, int verbose);

#endif
