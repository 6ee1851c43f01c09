/* step_pmix.h — srun --mpi=pmix: a PMIx server (Debian's OpenPMIx
 * server library) in the step's slurmstepd, so Open MPI programs start
 * directly under srun.
 *
 * The stepd registers the step as the namespace "slurm.pmix.JOB.STEP"
 * with its job-level and per-rank information (sizes, node and rank
 * maps from PMI_process_mapping, local ranks, host names) and each local
 * task as a client; the tasks get the server's PMIX_* variables.  A
 * fence's local contribution goes to srun (IO_PMI_FENCE), which
 * concatenates every node's and sends the whole back (IO_PMI_FENCE_OUT):
 * that is the fence's result (the modex).  The PMIx library runs its own
 * thread; its callbacks hand work to the stepd's loop through a pipe.
 *
 * Built when pkg-config finds pmix (HAVE_PMIX); otherwise create fails
 * and the launch is refused.
 */
#ifndef SLUICE_STEPD_STEP_PMIX_H
#define SLUICE_STEPD_STEP_PMIX_H

#include <stddef.h>

#include "slurmd/stepd/step.h"

/* Start the server and register the step; NULL on failure (logged). */
step_pmix_t *step_pmix_create(step_t *st);
/* Before fork: the PMIX_* variables for task t (xstrarray; caller
 * frees), NULL on failure. */
char **step_pmix_task_env(step_pmix_t *x, const step_task_t *t);
/* srun's concatenation of every node's contribution: end the fence. */
void step_pmix_fence_out(step_pmix_t *x, const char *data, size_t len);
void step_pmix_destroy(step_pmix_t *x);

#endif
