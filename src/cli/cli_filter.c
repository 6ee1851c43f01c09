/* cli_filter.c — CliFilterPlugins in sbatch, salloc and srun (see
 * cli_filter.h): loads the list once, hands each hook the command's
 * options by name (cli_opt_raw.c).
 */
#include "cli/cli_filter.h"

#include <stdlib.h>

#include "cli/cli_common.h"
#include "cli/cli_filter_builtin.h"
#include "cli/cli_opt.h"
#include "common/log.h"
#include "common/plugin_ctx.h"

static const cli_filter_ops_t none_ops = { 0 };
static const struct sluice_plugin cli_filter_none_plugin = {
	.type = "cli_filter", .name = "none",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = CLI_FILTER_OPS_VERSION, .ops = &none_ops,
};
static const struct sluice_plugin *const builtins[] = {
	&cli_filter_none_plugin, &cli_filter_user_defaults_plugin,
	&cli_filter_syslog_plugin, NULL,
};
const plugin_type_t cli_filter_type = {
	.type = "cli_filter", .key = "CliFilterPlugins",
	.ops_version = CLI_FILTER_OPS_VERSION, .list = true,
	.builtins = builtins,
};

static struct {
	plugin_ctx_t *ctx;
	bool          loaded;
	cli_src_t     src;     /* what a plugin's set counts as */
} cf;

static void terminated(void)
{
	error("cli_filter plugin terminated with error");
	exit(1);
}

static void unload(void)
{
	for (size_t i = plugin_ctx_count(cf.ctx); i-- > 0;) {
		const cli_filter_ops_t *ops = plugin_ctx_ops(cf.ctx, i);

		if (ops->fini)
			ops->fini();
	}
	plugin_ctx_destroy(cf.ctx);
	cf.ctx = NULL;
}

/* The list of slurm.conf, once; a failure ends the command. */
static void load(void)
{
	char err[1024] = "";
	const slurm_conf_t *c;

	if (cf.loaded)
		return;
	cf.loaded = true;
	c = cli_conf_load(err, sizeof(err));
	if (!c)
		return;         /* the command reports the config itself */
	cf.ctx = plugin_ctx_create(&cli_filter_type, c->cli_filter_plugins,
				   c->plugin_dir,
				   conf_key_where(c, "CliFilterPlugins"), err,
				   sizeof(err));
	if (!cf.ctx) {
		error("%s", err);
		terminated();
	}
	for (size_t i = 0; i < plugin_ctx_count(cf.ctx); i++) {
		const cli_filter_ops_t *ops = plugin_ctx_ops(cf.ctx, i);
		char perr[512] = "";

		if (ops->init && ops->init(c, perr, sizeof(perr)) < 0) {
			error("%s", perr);
			error("cannot create cli_filter context for %s",
			      plugin_ctx_name(cf.ctx, i));
			terminated();
		}
	}
	if (plugin_ctx_init(cf.ctx, err, sizeof(err)) < 0) {
		error("%s", err);
		terminated();
	}
	atexit(unload);
}

static const char *opt_get(cli_filter_options_t *f, const char *name)
{
	return cli_opt_raw_get(f->priv, name);
}

static int opt_set(cli_filter_options_t *f, const char *name,
		   const char *value)
{
	return cli_opt_set_named(f->priv, name, value, cf.src);
}

static const char *opt_name_at(cli_filter_options_t *f, size_t i)
{
	return cli_opt_name_at(f->priv, i);
}

/* One view for the process, not one per call: a script may keep the
 * options it was handed (a Lua global) and use them in a later hook. */
static cli_filter_options_t *view(cli_job_opts_t *o)
{
	static cli_filter_options_t v = {
		.get = opt_get, .set = opt_set, .name_at = opt_name_at,
		.json = cli_filter_options_json,
	};

	v.command = o->prog;
	v.priv = o;
	return &v;
}

void cli_filter_setup_defaults(cli_job_opts_t *o)
{
	cli_filter_options_t *v = view(o);

	load();
	cf.src = CLI_SRC_NONE;      /* below every source of the command */
	for (size_t i = 0; i < plugin_ctx_count(cf.ctx); i++) {
		const cli_filter_ops_t *ops = plugin_ctx_ops(cf.ctx, i);

		if (ops->setup_defaults)
			ops->setup_defaults(v, false);
	}
}

void cli_filter_pre_submit(cli_job_opts_t *o)
{
	cli_filter_options_t *v = view(o);

	load();
	cf.src = CLI_SRC_ARGV;      /* as if given on the command line */
	for (size_t i = 0; i < plugin_ctx_count(cf.ctx); i++) {
		const cli_filter_ops_t *ops = plugin_ctx_ops(cf.ctx, i);

		if (ops->pre_submit && ops->pre_submit(v, 0))
			terminated();
	}
}

void cli_filter_post_submit(cli_job_opts_t *o, uint32_t job_id,
			    uint32_t step_id)
{
	cli_filter_options_t *v = view(o);

	for (size_t i = 0; i < plugin_ctx_count(cf.ctx); i++) {
		const cli_filter_ops_t *ops = plugin_ctx_ops(cf.ctx, i);

		if (ops->post_submit)
			ops->post_submit(v, 0, job_id, step_id);
	}
}
