/* launch_prolog.h — PrologFlags=Alloc on a node: REQUEST_LAUNCH_PROLOG
 * starts `slurmstepd -x` (stepd/extern_step.h), which runs the Prolog,
 * reports REQUEST_COMPLETE_PROLOG to the controller and, with Contain,
 * stays as the job's extern step on <spool>/<node>_<job>.4294967292 until
 * the job is terminated here. */
#ifndef SLUICE_SLURMD_LAUNCH_PROLOG_H
#define SLUICE_SLURMD_LAUNCH_PROLOG_H

#include "common/msg_types.h"
#include "slurmd/slurmd.h"

/* Start the extern stepd: 0 once it runs (the Prolog's outcome goes to
 * the controller later), else a slurm_err_t. */
int  launch_prolog(slurmd_t *sd, const prolog_launch_msg_t *m);
/* Nothing but (maybe) the extern stepd of the job is left here: run the
 * Epilog once that is gone too (at most kill_wait + 30 s later). */
void launch_prolog_epilog(slurmd_t *sd, uint32_t job_id, const char *nodes,
			  uint16_t kill_wait, uint32_t uid, uint32_t gid,
			  const char *user_name);

#endif
