/* task_gpus.h — the GPUs each task of an srun step sees.
 *
 * The step's GPUs on this node come in its credential (gres indexes,
 * "0-1"); gres.conf's File= lines give their device numbers.  Each task
 * gets CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES and GPU_DEVICE_ORDINAL
 * for its share as --gpu-bind (SLURM_GPU_BIND in the step's environment)
 * says, and SLURM_STEP_GPUS / SLURM_JOB_GPUS for all of them.  Under
 * ConstrainDevices the step's cgroup holds only its GPUs, so the
 * CUDA-style lists count from its first GPU (0) as Slurm's do; per-task
 * device cgroups are not made: a bound task could still open the step's
 * other GPUs.
 */
#ifndef SLUICE_STEPD_TASK_GPUS_H
#define SLUICE_STEPD_TASK_GPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/conf.h"

typedef struct task_gpus task_gpus_t;

/* NULL when the step has no GPUs here (gpu_idx NULL or "").  A bad
 * SLURM_GPU_BIND in env (srun checked it; someone set it by hand) is
 * logged for the job and the tasks are not bound. */
task_gpus_t *task_gpus_create(const slurm_conf_t *conf, const char *node,
			      uint32_t job_id, const char *gpu_idx,
			      char *const *env, bool constrained);
/* Set the variables of local task lid in *env. */
void task_gpus_env(const task_gpus_t *g, uint32_t lid, char ***env);
/* In task lid's child, stderr open (--gpu-bind=verbose): one line on
 * stderr saying what it got.  Allocates nothing. */
void task_gpus_verbose(const task_gpus_t *g, uint32_t lid);
void task_gpus_destroy(task_gpus_t *g);

#endif
