/* cli_spank.c — SPANK plugins in the commands (cli_spank.h). */
#include "cli/cli_spank.h"

#include <stdlib.h>

#include "cli/cli_common.h"
#include "common/conf.h"
#include "common/log.h"

spank_stack_t *cli_spank_start(spank_context_t ctx)
{
	char err[512] = "";
	const slurm_conf_t *c = cli_conf_load(err, sizeof(err));
	spank_stack_t *s;

	if (!c)
		return NULL;
	s = spank_stack_create(ctx, c->plugstack_config, c->plugin_dir, NULL);
	if (!s || spank_stack_call(s, SPANK_CB_INIT, NULL, NULL) < 0) {
		/* Slurm's wording differs between srun and the allocators */
		error(ctx == S_CTX_LOCAL ? "Plug-in initialization failed"
					 : "Failed to initialize plugin stack");
		exit(1);
	}
	return s;
}

int cli_spank_env_options(cli_job_opts_t *o, char *const *env)
{
	return spank_stack_options_from_env(o->spank, env, CLI_SRC_ENV);
}

void cli_spank_post_opt(cli_job_opts_t *o)
{
	if (spank_stack_call(o->spank, SPANK_CB_INIT_POST_OPT, NULL,
			     NULL) < 0) {
		error("Plugin stack post-option processing failed.");
		exit(1);
	}
}

void cli_spank_finish(cli_job_opts_t *o)
{
	spank_stack_call(o->spank, SPANK_CB_EXIT, NULL, NULL);
	spank_stack_destroy(o->spank);
	o->spank = NULL;
}
