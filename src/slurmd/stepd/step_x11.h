/* step_x11.h — a node's end of srun --x11 (common/x11_fwd.h).
 *
 * When the launch names srun's X11 relay, the stepd listens on
 * 127.0.0.1:6000+N (the first free display N from 10), adds the user's
 * cookie for display N to an xauth file (a private one under TmpFS, or
 * ~/.Xauthority with X11Parameters=home_xauthority) as the user, and
 * gives the tasks DISPLAY=localhost:N.S and XAUTHORITY.  Each X client
 * connection is relayed to srun on the step's loop; at the end the
 * cookie (or the private file) is removed.
 */
#ifndef SLUICE_STEP_X11_H
#define SLUICE_STEP_X11_H

#include "slurmd/stepd/step.h"

/* Before the tasks start: 0, or a slurm_err_t (logged). */
int  step_x11_start(step_t *st);
/* The step is over: take the cookie back. */
void step_x11_fini(step_t *st);

#endif
