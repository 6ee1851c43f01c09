/* fixed_plugins.c — see fixed_plugins.h. */
#include "common/fixed_plugins.h"

#include <stdio.h>

static const fixed_ops_t no_ops;

#define FIXED(var, t, n) \
	static const struct sluice_plugin var = { \
		.type = t, .name = n, .abi_version = SLUICE_PLUGIN_ABI, \
		.ops_version = FIXED_OPS_VERSION, .ops = &no_ops }; \
	static const struct sluice_plugin *const var##_list[] = { &var, NULL }

FIXED(switch_none, "switch", "none");
static const fixed_ops_t tmpfs_ops = { .job_container_tmpfs = 1 };
static const struct sluice_plugin job_container_none = {
	.type = "job_container", .name = "none",
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = FIXED_OPS_VERSION,
	.ops = &no_ops };
static const struct sluice_plugin job_container_tmpfs = {
	.type = "job_container", .name = "tmpfs",
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = FIXED_OPS_VERSION,
	.ops = &tmpfs_ops };
static const struct sluice_plugin *const job_container_none_list[] = {
	&job_container_none, &job_container_tmpfs, NULL };
FIXED(cred_munge, "cred", "munge");
FIXED(launch_slurm, "launch", "slurm");

const plugin_type_t switch_type = {
	.type = "switch", .key = "SwitchType",
	.ops_version = FIXED_OPS_VERSION, .builtins = switch_none_list,
};
const plugin_type_t job_container_type = {
	.type = "job_container", .key = "JobContainerType",
	.ops_version = FIXED_OPS_VERSION, .builtins = job_container_none_list,
};
const plugin_type_t cred_type = {
	.type = "cred", .key = "CredType",
	.ops_version = FIXED_OPS_VERSION, .builtins = cred_munge_list,
};
const plugin_type_t launch_type = {
	.type = "launch", .key = "LaunchType",
	.ops_version = FIXED_OPS_VERSION, .builtins = launch_slurm_list,
};

int fixed_plugin_check(const plugin_type_t *t, const char *names,
		       const char *plugin_dir, const char *where, char *err,
		       size_t errlen)
{
	plugin_ctx_t *c = plugin_ctx_create(t, names, plugin_dir, where, err,
					    errlen);
	int rc = c ? 0 : -1;

	for (size_t i = 0; c && i < plugin_ctx_count(c); i++) {
		if (plugin_ctx_builtin(c, i))
			continue;
		snprintf(err, errlen, "%s%s%s: cannot create %s context for "
			 "%s: Sluice implements %s itself; a plugin cannot "
			 "replace it", where ? where : "", where ? ": " : "",
			 t->key, t->type, plugin_ctx_name(c, i), t->key);
		rc = -1;
		break;
	}
	plugin_ctx_destroy(c);
	return rc;
}

int fixed_plugins_check(const slurm_conf_t *c, bool node, char *err,
			size_t errlen)
{
	const char *sw = c->switch_type, *cr = c->cred_type;
	const char *jc = c->job_container_type;

	if (fixed_plugin_check(&switch_type, sw && *sw ? sw : "switch/none",
			       c->plugin_dir, NULL, err, errlen) < 0 ||
	    fixed_plugin_check(&cred_type, cr && *cr ? cr : "cred/munge",
			       c->plugin_dir, NULL, err, errlen) < 0)
		return -1;
	if (node && fixed_plugin_check(&job_container_type,
				       jc && *jc ? jc : "job_container/none",
				       c->plugin_dir, NULL, err, errlen) < 0)
		return -1;
	return 0;
}

bool fixed_job_container_tmpfs(const slurm_conf_t *c)
{
	const char *jc = c->job_container_type;
	char err[256];
	plugin_ctx_t *ctx;
	const fixed_ops_t *ops;
	bool on;

	if (!jc || !*jc)
		return false;
	ctx = plugin_ctx_create(&job_container_type, jc, c->plugin_dir, NULL,
				err, sizeof(err));
	ops = plugin_ctx_ops(ctx, 0);
	on = ops && ops->job_container_tmpfs;
	plugin_ctx_destroy(ctx);
	return on;
}
