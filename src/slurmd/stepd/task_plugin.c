/* task_plugin.c — TaskPlugin's context and built-ins (task_plugin.h). */
#include "slurmd/stepd/task_plugin.h"

#include "common/log.h"
#include "common/plugin_ctx.h"
#include "slurmd/common/node_plugins.h"

static const task_ops_t affinity_ops = {
	.plan = affinity_plan, .plan_free = affinity_plan_free,
	.env = affinity_env, .apply = affinity_apply,
	.batch = affinity_batch,
};
static const task_ops_t cgroup_ops = { .uses_cgroup = true };
static const task_ops_t none_ops;

#define TASK_BUILTIN(n) \
	const struct sluice_plugin task_##n##_plugin = { \
		.type = "task", .name = #n, .abi_version = SLUICE_PLUGIN_ABI, \
		.ops_version = TASK_OPS_VERSION, .ops = &n##_ops }
TASK_BUILTIN(affinity);
TASK_BUILTIN(cgroup);
TASK_BUILTIN(none);

static plugin_ctx_t *ctx;

static size_t count(void)
{
	return plugin_ctx_count(ctx);
}

static const task_ops_t *at(size_t i)
{
	return plugin_ctx_ops(ctx, i);
}

int task_plugin_init(const slurm_conf_t *conf)
{
	const char *v = conf->task_plugin;
	char err[1024];

	if (ctx)
		return 0;
	ctx = plugin_ctx_create(&task_type, v && *v ? v : "task/none",
				conf->plugin_dir, NULL, err, sizeof(err));
	if (!ctx || plugin_ctx_init(ctx, err, sizeof(err)) < 0) {
		error("%s", err);
		plugin_ctx_destroy(ctx);
		ctx = NULL;
		return -1;
	}
	return 0;
}

bool task_plugin_uses_cgroup(void)
{
	for (size_t i = 0; i < count(); i++)
		if (at(i)->uses_cgroup)
			return true;
	return false;
}

int task_plugin_plan(const affinity_req_t *r)
{
	for (size_t i = 0; i < count(); i++)
		if (at(i)->plan && at(i)->plan(r) < 0)
			return -1;
	return 0;
}

void task_plugin_plan_free(void)
{
	for (size_t i = 0; i < count(); i++)
		if (at(i)->plan_free)
			at(i)->plan_free();
}

void task_plugin_env(char ***env)
{
	for (size_t i = 0; i < count(); i++)
		if (at(i)->env)
			at(i)->env(env);
}

void task_plugin_apply(uint32_t gtid, uint32_t lid)
{
	for (size_t i = 0; i < count(); i++)
		if (at(i)->apply)
			at(i)->apply(gtid, lid);
}

void task_plugin_batch(const char *node_cpus, uint32_t ncpus)
{
	for (size_t i = 0; i < count(); i++)
		if (at(i)->batch)
			at(i)->batch(node_cpus, ncpus);
}
