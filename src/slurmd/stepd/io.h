/* io.h — the batch script's stdin, stdout and stderr files.
 *
 * io_paths_build() expands the patterns (fname.h) in slurmstepd; the task
 * then opens the files itself after it became the user (io_open_task), so
 * they are created as the user and the user's permissions apply.
 * Relative names resolve against the task's working directory.
 */
#ifndef SLUICE_STEPD_IO_H
#define SLUICE_STEPD_IO_H

#include <stdbool.h>

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

#endif
