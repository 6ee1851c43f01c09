/* acct_gather_energy.c — see acct_gather_energy.h. */
#include "common/acct_gather_energy.h"

#include "common/plugin_cache.h"
#include "common/rapl.h"

static void *rapl_open_op(char **why)
{
	return rapl_open(why);
}

static int rapl_poll_op(void *h)
{
	return rapl_poll(h);
}

static uint64_t rapl_total_op(const void *h)
{
	return rapl_total_uj(h);
}

static uint32_t rapl_watts_op(const void *h)
{
	return rapl_current_watts(h);
}

static const char *rapl_describe_op(const void *h)
{
	return rapl_paths(h);
}

static void rapl_close_op(void *h)
{
	rapl_close(h);
}

static const acct_gather_energy_ops_t rapl_ops = {
	.open = rapl_open_op, .poll = rapl_poll_op,
	.total_uj = rapl_total_op, .current_watts = rapl_watts_op,
	.describe = rapl_describe_op, .close = rapl_close_op,
};
static const acct_gather_energy_ops_t none_ops;   /* gathers nothing */

static const struct sluice_plugin energy_rapl = {
	.type = "acct_gather_energy", .name = "rapl",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = ACCT_GATHER_ENERGY_OPS_VERSION, .ops = &rapl_ops,
};
static const struct sluice_plugin energy_none = {
	.type = "acct_gather_energy", .name = "none",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = ACCT_GATHER_ENERGY_OPS_VERSION, .ops = &none_ops,
};
static const struct sluice_plugin *const builtins[] = {
	&energy_none, &energy_rapl, NULL,
};
const plugin_type_t acct_gather_energy_type = {
	.type = "acct_gather_energy", .key = "AcctGatherEnergyType",
	.ops_version = ACCT_GATHER_ENERGY_OPS_VERSION, .builtins = builtins,
};

static plugin_cache_t cache;

const acct_gather_energy_ops_t *acct_gather_energy_ops(const slurm_conf_t *c,
							char *err,
							size_t errlen)
{
	const plugin_ctx_t *ctx = plugin_cache_get(&cache,
						   &acct_gather_energy_type,
						   c->acct_gather_energy_type,
						   "acct_gather_energy/none",
						   c->plugin_dir, err, errlen);

	return ctx ? plugin_ctx_ops(ctx, 0) : NULL;
}

bool acct_gather_energy_gathers(const slurm_conf_t *c)
{
	char err[512];
	const acct_gather_energy_ops_t *o = acct_gather_energy_ops(c, err,
								   sizeof(err));

	return o && o->open;
}
