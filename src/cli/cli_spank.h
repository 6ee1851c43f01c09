/* cli_spank.h — the SPANK plugin stack of a command: sbatch and salloc
 * (the allocator context), srun (the local context).
 *
 * The stack is loaded and initialised before any option is read, so the
 * plugins' options are known to the parser (cli_job_opts_t.spank); after
 * the options, init_post_opt; at the end, exit.  Failures print Slurm's
 * message for the command and exit 1.
 */
#ifndef SLUICE_CLI_SPANK_H
#define SLUICE_CLI_SPANK_H

#include "cli/cli_opt.h"
#include "common/spank.h"

/* ctx: S_CTX_ALLOCATOR or S_CTX_LOCAL.  No slurm.conf yet: no plugins
 * (the command reports the config later). */
spank_stack_t *cli_spank_start(spank_context_t ctx);
/* Options given as _SLURM_SPANK_OPTION_* / SLURM_SPANK__SLURM_SPANK_OPTION_*
 * in env, where the command line did not give them.  0 or -1. */
int  cli_spank_env_options(cli_job_opts_t *o, char *const *env);
void cli_spank_post_opt(cli_job_opts_t *o);
void cli_spank_finish(cli_job_opts_t *o);

#endif
