/* step_prolog.h — the node Prolog for a job's first srun step on a node
 * (without PrologFlags=Alloc).  Slurm runs the Prolog on every node of a
 * job, once, before the job's first task there: the batch slurmstepd runs
 * it on the batch node, this module on the job's other nodes (and on all
 * nodes of a job srun or salloc created) when the first step arrives.
 * A failure is reported to the controller as REQUEST_COMPLETE_PROLOG
 * with rc 1 (drain "Prolog error", requeue held or cancel) and fails the
 * launch with ESLURMD_PROLOG_FAILED.  The Epilog needs nothing from here:
 * at termination every node of the job runs it (req.c, epilog.h). */
#ifndef SLUICE_SLURMD_STEP_PROLOG_H
#define SLUICE_SLURMD_STEP_PROLOG_H

#include <stdint.h>

#include "common/msg_types.h"
#include "slurmd/slurmd.h"

/* Before the step's stepd starts: 0, or ESLURMD_PROLOG_FAILED.  Runs the
 * Prolog (as root, waiting for it) unless it ran for the job here. */
int  step_prolog_run(slurmd_t *sd, const launch_tasks_request_msg_t *m);
/* The job ended here: a later job with its id runs the Prolog again.
 * *uid, *gid, *user_name (xmalloc'd) get the job's user as its steps
 * gave it, else NO_VAL32 and NULL. */
void step_prolog_forget(uint32_t job_id, uint32_t *uid, uint32_t *gid,
			char **user_name);

#endif
