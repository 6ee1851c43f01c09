/* task.h — starting the batch script.
 *
 * The child makes its own session (the job's process container), becomes
 * the job's user (initgroups, setgid, setuid), changes to the working
 * directory (/tmp if that fails, as Slurm does, with a note on the job's
 * stderr), opens its files as the user and execs the script.  Only the
 * first two steps run as root.
 */
#ifndef SLUICE_STEPD_TASK_H
#define SLUICE_STEPD_TASK_H

#include "slurmd/stepd/stepd.h"

/* 0 with sd->task_pid set once the script runs (or has at least started
 * and failed in a way its exit status reports); else a slurm_err_t and
 * nothing is left running. */
int task_start(stepd_t *sd);
/* Append text to the job's stderr file, opened as the user (nothing is
 * created).  Blocks for a short fork; for Slurm's cancel notice. */
void task_note(const stepd_t *sd, const char *text);

#endif
