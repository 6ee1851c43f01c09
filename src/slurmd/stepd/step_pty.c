/* step_pty.c — task 0 on a pseudo-terminal (step_pty.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/step_pty.h"

#include <fcntl.h>
#include <pty.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "common/log.h"

int step_pty_open(const step_t *st, step_task_t *t, int *master)
{
	struct winsize ws = { .ws_row = st->m->pty_rows,
			      .ws_col = st->m->pty_cols };
	int slave;

	*master = -1;
	if (!(st->m->flags & LAUNCH_PTY) || t->gtid != 0)
		return 0;
	if (openpty(master, &slave, NULL, NULL,
		    ws.ws_row && ws.ws_col ? &ws : NULL) < 0) {
		error("StepId=%u.%u: openpty: %m", st->m->job_id,
		      st->m->step_id);
		return -1;
	}
	fcntl(*master, F_SETFD, FD_CLOEXEC);
	fcntl(slave, F_SETFD, FD_CLOEXEC);
	t->pty = true;
	t->pty_slave = slave;
	return 0;
}

void step_pty_child(step_task_t *t)
{
	if (!t->pty)
		return;
	setsid();
	ioctl(t->pty_slave, TIOCSCTTY, 0);
	dup2(t->pty_slave, STDIN_FILENO);
	dup2(t->pty_slave, STDOUT_FILENO);
	dup2(t->pty_slave, STDERR_FILENO);
}

void step_pty_winsize(step_t *st, uint32_t task, const void *p, size_t len)
{
	const uint8_t *b = p;
	struct winsize ws = { 0 };

	if (len != 4)
		return;
	ws.ws_row = (unsigned short) (b[0] << 8 | b[1]);
	ws.ws_col = (unsigned short) (b[2] << 8 | b[3]);
	for (uint32_t i = 0; i < st->ntasks; i++)
		if (st->tasks[i].pty && st->tasks[i].gtid == task &&
		    st->tasks[i].out_fd >= 0)
			ioctl(st->tasks[i].out_fd, TIOCSWINSZ, &ws);
}
