/* step_pty.h — srun --pty: task 0 of the step runs on a pseudo-terminal
 * (its session leader and controlling terminal), sized as srun's
 * terminal; the master side is the task's stdin and stdout, forwarded
 * as they come; IO_WINSIZE from srun resizes it. */
#ifndef SLUICE_STEPD_STEP_PTY_H
#define SLUICE_STEPD_STEP_PTY_H

#include <stddef.h>

#include "slurmd/stepd/step.h"

/* Before fork: open the terminal if t is --pty's task (t->pty set,
 * *master >= 0); 0, or -1 on failure. */
int  step_pty_open(const step_t *st, step_task_t *t, int *master);
/* In the child (not yet a group leader): new session, the terminal as
 * controlling terminal and stdin/stdout/stderr. */
void step_pty_child(step_task_t *t);
/* IO_WINSIZE payload (u16 rows, u16 cols) for task. */
void step_pty_winsize(step_t *st, uint32_t task, const void *p, size_t len);

#endif
