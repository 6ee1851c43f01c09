/* gpu_bind.h — --gpu-bind values and the GPUs each task of a step gets.
 *
 * A value is "[verbose,]<type>" with type one of
 *   closest  none  per_task:<n>  single:<tasks_per_gpu>
 *   map_gpu:<id>[*<rep>][,...]   mask_gpu:<hex>[*<rep>][,...]
 * (sbatch, salloc and srun check it; SLURM_GPU_BIND carries it to the
 * steps; slurmstepd picks each task's GPUs with gpu_bind_task).
 * GPUs are gres indexes on the node, as bits of a uint64_t.
 */
#ifndef SLUICE_GPU_BIND_H
#define SLUICE_GPU_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	GPU_BIND_NONE = 0,      /* every task sees all the step's GPUs */
	GPU_BIND_CLOSEST,
	GPU_BIND_PER_TASK,
	GPU_BIND_SINGLE,
	GPU_BIND_MAP,
	GPU_BIND_MASK,
} gpu_bind_type_t;

#define GPU_BIND_MAX_LIST 1024  /* map/mask items after repetition */

typedef struct {
	gpu_bind_type_t type;
	bool            verbose;
	uint32_t        n;        /* per_task: GPUs per task; single: tasks
				   * per GPU */
	uint32_t        cnt;      /* map_gpu ids / mask_gpu masks */
	uint64_t       *list;     /* map: ids; mask: masks (GPUs 0-63) */
} gpu_bind_t;

/* 0, or -1 with Slurm's message in err ("Invalid --gpu-bind argument:
 * gpu:<s>"); out is left empty then. */
int  gpu_bind_parse(const char *s, gpu_bind_t *out, char *err, size_t errlen);
void gpu_bind_free(gpu_bind_t *b);

/* The GPUs of local task lid (its SLURM_LOCALID) out of the step's
 * GPUs here (alloc).  relative: map/mask ids count the step's GPUs
 * (0 = its first), as under ConstrainDevices; else they are the node's
 * gres indexes.  closest without GPU-to-CPU topology is all of alloc.
 * A map/mask naming no GPU of alloc gives its first and sets *outside. */
uint64_t gpu_bind_task(const gpu_bind_t *b, uint64_t alloc, uint32_t lid,
		       bool relative, bool *outside);

#endif
