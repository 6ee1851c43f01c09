/* io.h — the batch script's stdin, stdout and stderr files.
 *
 * io_paths_build() expands the patterns (fname.h) in slurmstepd; the task
 * then opens the files itself after it became the user (io_open_task), so
 * they are created as the user and the user's permissions apply.
 * Relative names resolve against the task's working directory.
 *
 * Every stdio file of a task (batch or srun step) is opened with
 * io_open_nowait: the child may share the root slurmstepd's memory and
 * thread until it execs (vfork), so an open that waits (a FIFO without a
 * reader or writer, a device) would stop the step daemon itself and the
 * job could never end.
 */
#ifndef SLUICE_STEPD_IO_H
#define SLUICE_STEPD_IO_H

#include <stdbool.h>
#include <sys/types.h>

#include "slurmd/stepd/stepd.h"

typedef struct {
	char *in;       /* default /dev/null */
	char *out;      /* default slurm-%j.out (arrays slurm-%A_%a.out) */
	char *err;      /* NULL: same file as out */
	bool  append;
} io_paths_t;

void io_paths_build(const stepd_t *sd, io_paths_t *p);
void io_paths_free(io_paths_t *p);
/* In the task: open the files and put them on fds 0, 1, 2.  On failure
 * returns -1 with errno set and *what naming the file that failed. */
int  io_open_task(const io_paths_t *p, const char **what);
/* open(2) that never waits: O_NONBLOCK for the open, cleared after, so
 * the task then reads and writes as usual.  A FIFO opened for writing
 * with no reader fails at once (ENXIO).  -1 with errno on failure. */
int  io_open_nowait(const char *path, int flags, mode_t mode);

#endif
