/* fname.h — output/error/input file name patterns ("slurm-%j.out").
 *
 * Replacement symbols, as sbatch(1) and srun(1) document them:
 *     %%  a literal '%'           %A  array master job id (job id if no array)
 *     %a  array task id           %b  array task id modulo 10
 *     %J  jobid.stepid            %j  job id
 *     %N  short host name         %n  node index within the job
 *     %s  step id ("batch" for the batch step)
 *     %t  task rank               %u  user name
 *     %x  job name                %r  restart count
 * A number between '%' and the letter zero-pads numeric values to that
 * width (at most 10); it is ignored for names (%N %u %x).  An unknown
 * letter leaves the whole sequence as written.  A pattern containing a
 * backslash is not expanded: the backslashes are removed and the rest is
 * taken literally.  Shared by slurmstepd and srun.
 */
#ifndef SLUICE_FNAME_H
#define SLUICE_FNAME_H

#include <stdint.h>

typedef struct {
	uint32_t    job_id;
	uint32_t    array_job_id;   /* 0 = not an array job */
	uint32_t    array_task_id;  /* NO_VAL32 when not an array task */
	uint32_t    step_id;        /* FNAME_BATCH_STEP for the batch step */
	uint32_t    node_id;        /* %n */
	uint32_t    task_id;        /* %t */
	uint32_t    restart_cnt;    /* %r */
	const char *job_name;       /* %x */
	const char *user_name;      /* %u */
	const char *node_name;      /* %N: the short host name */
} fname_ctx_t;

#define FNAME_BATCH_STEP 0xfffffffbu

/* Expand pattern for ctx; caller xfree()s.  NULL pattern -> NULL. */
char *fname_expand(const char *pattern, const fname_ctx_t *ctx);
/* The default output pattern of a batch job: "slurm-%j.out", or
 * "slurm-%A_%a.out" for an array task. */
const char *fname_default_batch(uint32_t array_job_id);

#endif
