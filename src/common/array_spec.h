/* array_spec.h — job array index expressions, as sbatch --array takes
 * them: "0-99", "1,3,5-9", "0-100:10", each with an optional "%N"
 * throttle (at most N tasks running at once).
 *
 * A set of task ids is a bitmap whose size is the largest id + 1; the
 * caller owns (bitmap_destroy) what the parser returns.
 */
#ifndef SLUICE_ARRAY_SPEC_H
#define SLUICE_ARRAY_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"

/* Largest MaxArraySize Slurm accepts. */
#define ARRAY_SPEC_MAX_SIZE 4000001u

/* Parse spec; every id must be below max_size (MaxArraySize).  Returns
 * the task set (never empty) and the throttle (0 = none), or NULL with
 * a message in err. */
bitmap_t *array_spec_parse(const char *spec, uint32_t max_size,
			   uint32_t *throttle, char *err, size_t errlen);

/* Task ids as Slurm prints them: "1,3,5-9", or "0-100:10" for an evenly
 * spaced set of more than five ids over more than ten; "%N" appended
 * when throttle.  Caller xfree()s. */
char     *array_spec_format(const bitmap_t *tasks, uint32_t throttle);

/* SLURM_ARRAY_TASK_{COUNT,MIN,MAX,STEP} of a task set: step is the
 * common distance of evenly spaced ids, else 1.  0 for an empty set. */
typedef struct {
	uint32_t count, min, max, step;
} array_spec_stats_t;
void      array_spec_stats(const bitmap_t *tasks, array_spec_stats_t *st);

/* Is task id in a formatted set ("1,3,5-9", "0-100:10%2")? */
int       array_spec_contains(const char *str, uint32_t task);

#endif
