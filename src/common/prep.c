/* prep.c — see prep.h. */
#include "common/prep.h"

#include "common/plugin_cache.h"

static const char *script_program(const slurm_conf_t *c, prep_event_t ev)
{
	const char *p = NULL;

	switch (ev) {
	case PREP_PROLOG: p = c->prolog; break;
	case PREP_EPILOG: p = c->epilog; break;
	case PREP_PROLOG_SLURMCTLD: p = c->prolog_slurmctld; break;
	case PREP_EPILOG_SLURMCTLD: p = c->epilog_slurmctld; break;
	}
	return p && *p ? p : NULL;
}

static const prep_ops_t script_ops = { .program = script_program };
static const struct sluice_plugin prep_script = {
	.type = "prep", .name = "script", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = PREP_OPS_VERSION, .ops = &script_ops,
};
static const struct sluice_plugin *const builtins[] = { &prep_script, NULL };
const plugin_type_t prep_type = {
	.type = "prep", .key = "PrEpPlugins", .ops_version = PREP_OPS_VERSION,
	.list = true, .builtins = builtins,
};

static plugin_cache_t cache;

const char *prep_program(const slurm_conf_t *c, prep_event_t ev)
{
	char err[512];
	const plugin_ctx_t *ctx = plugin_cache_get(&cache, &prep_type,
						   c->prep_plugins, NULL,
						   c->plugin_dir, err,
						   sizeof(err));

	for (size_t i = 0; i < plugin_ctx_count(ctx); i++) {
		const prep_ops_t *o = plugin_ctx_ops(ctx, i);
		const char *p = o->program ? o->program(c, ev) : NULL;

		if (p)
			return p;
	}
	return NULL;
}
