/* cli_show_step.h — `scontrol show step [N[.S]]`: the running steps as
 * the controller reports them (REQUEST_JOB_STEP_INFO). */
#ifndef SLUICE_CLI_SHOW_STEP_H
#define SLUICE_CLI_SHOW_STEP_H

#include <stdbool.h>

#include "cli/cli_show.h"

/* Print the steps matching id (NULL = all); exit code 0 or 1. */
int cli_show_steps(const char *id, bool one_liner, cli_doc_t doc);

#endif
