/* step_pmi.h — PMI for MPI (srun --mpi=pmi2, MpiDefault=pmi2): a PMI-1
 * "simple" wire server per task on PMI_FD, with the key-value space
 * exchanged across nodes through srun at each barrier (IO_PMI_FENCE). */
#ifndef SLUICE_STEPD_STEP_PMI_H
#define SLUICE_STEPD_STEP_PMI_H

#include <stddef.h>

#include "slurmd/stepd/step.h"

step_pmi_t *step_pmi_create(step_t *st);
/* Before fork: the task's end of its PMI socket (*child_fd, to be
 * exported as PMI_FD). 0 or -1. */
int  step_pmi_task_fd(step_pmi_t *p, step_task_t *t, int *child_fd);
/* After fork, in the stepd: close the task's end, serve ours. */
void step_pmi_task_started(step_pmi_t *p, step_task_t *t, int child_fd);
/* srun's merged key-value pairs ("k=v\n"...): release the barrier. */
void step_pmi_fence_out(step_pmi_t *p, const char *data, size_t len);
void step_pmi_destroy(step_pmi_t *p);

#endif
