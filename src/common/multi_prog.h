/* multi_prog.h — srun --multi-prog FILE (Slurm's MPMD configuration).
 *
 * Each line: task ids, then the program and its arguments.  Task ids are
 * "*" (every task not named elsewhere; last line only) or a comma list
 * of N and N-M.  Arguments are split at white space; single quotes group
 * (and are removed); in them and outside, %t is the task id, %o the
 * task's offset within its line's ids, any other %X is dropped.  A line
 * ending in '\' continues on the next (both become one line, without the
 * backslash).  Blank lines and lines starting with '#' are skipped.
 */
#ifndef SLUICE_COMMON_MULTI_PROG_H
#define SLUICE_COMMON_MULTI_PROG_H

#include <stddef.h>
#include <stdint.h>

/* Check text for ntasks tasks: 0, or -1 with Slurm's messages in err
 * (lines separated by '\n', without "srun: error: "); file names the
 * file in them. */
int    multi_prog_check(const char *text, uint32_t ntasks, const char *file,
			char *err, size_t errlen);
/* Tasks the text names (its highest id + 1; "*" not counted). */
uint32_t multi_prog_count(const char *text);
/* The argv of task (xstrarray, caller frees), or NULL if the text gives
 * it none. */
char **multi_prog_argv(const char *text, uint32_t ntasks, uint32_t task);

#endif
