/* criu.h — CheckpointType=checkpoint/criu on the node: the batch stepd
 * dumps its job's processes (the batch script's process tree) with CRIU
 * into the job's checkpoint directory, leaving them running.
 */
#ifndef SLUICE_STEPD_CRIU_H
#define SLUICE_STEPD_CRIU_H

#include <stddef.h>

#include "slurmd/stepd/stepd.h"

/* Dump into dir/criu (made, owned by the job's user): 0, or -1 with why
 * CRIU could not (not installed, its own first error line).  Blocks
 * while CRIU runs. */
int stepd_criu_dump(stepd_t *sd, const char *dir, char *why, size_t len);

#endif
