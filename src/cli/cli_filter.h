/* cli_filter.h — CliFilterPlugins: site code inside sbatch, salloc and
 * srun, around their job options.
 *
 * slurm.conf names a comma-separated list (CliFilterPlugins=lua,syslog),
 * called in that order.  Built in: none, user_defaults (the user's
 * ~/.slurm/defaults), syslog (each submission to syslog); lua
 * (cli_filter.lua beside slurm.conf) and any other name load
 * PluginDir/cli_filter_<name>.so exporting a struct sluice_plugin of type
 * "cli_filter" with ops of this type.
 *
 * The hooks, per job request (offset is the het job component, 0):
 *   setup_defaults  before any option is read: values set here are
 *                   defaults, below #SBATCH lines, the environment and
 *                   the command line
 *   pre_submit      after every option was read and checked, before the
 *                   controller is asked: may read and change any option
 *                   (a change counts as given on the command line); an
 *                   error ends the command ("cli_filter plugin terminated
 *                   with error", exit 1)
 *   post_submit     after the job (srun: the step) exists
 *
 * Threads: the command's one thread.  A filter runs as the user, in the
 * user's command: it is a convenience, not a security boundary.
 */
#ifndef SLUICE_CLI_FILTER_H
#define SLUICE_CLI_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

#define CLI_FILTER_OPS_VERSION 1

/* A command's options by long name ("time", "partition"), handed to each
 * hook; call through the pointers (a plugin needs no symbol of the
 * command's). */
typedef struct cli_filter_options cli_filter_options_t;
struct cli_filter_options {
	const char *command;          /* "sbatch", "salloc", "srun" */
	/* the value as given ("set" for a flag), NULL when not set */
	const char *(*get)(cli_filter_options_t *o, const char *name);
	/* set it: 0; 1 when the command has no such option; -1 when the
	 * value is refused (the command printed its error) */
	int         (*set)(cli_filter_options_t *o, const char *name,
			   const char *value);
	/* i-th option name the command takes, NULL past the end */
	const char *(*name_at)(cli_filter_options_t *o, size_t i);
	/* {"option":"value",...} of every option set, xmalloc'd */
	char       *(*json)(cli_filter_options_t *o);
	void        *priv;            /* the command's */
};

typedef struct {
	/* Once, before the first hook: 0, or -1 with err (the command
	 * stops). */
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	/* early: true only in a pass before the script is read (Sluice
	 * makes one pass: always false).  0, or an error (ignored, as in
	 * Slurm: defaults are a convenience). */
	int  (*setup_defaults)(cli_filter_options_t *opts, bool early);
	/* 0, or an error: the command stops. */
	int  (*pre_submit)(cli_filter_options_t *opts, int offset);
	/* step_id is NO_VAL (0xfffffffe) for sbatch and salloc. */
	void (*post_submit)(cli_filter_options_t *opts, int offset,
			    uint32_t job_id, uint32_t step_id);
} cli_filter_ops_t;

/* ---- the commands' side ---- */

struct cli_job_opts;

/* Each exits 1 with Slurm's messages when CliFilterPlugins does not load
 * or pre_submit refuses. */
/* The type (built-ins and the .so search) */
extern const plugin_type_t cli_filter_type;

void cli_filter_setup_defaults(struct cli_job_opts *o);
void cli_filter_pre_submit(struct cli_job_opts *o);
void cli_filter_post_submit(struct cli_job_opts *o, uint32_t job_id,
			    uint32_t step_id);

#endif
