/* ctld_plugins.c — see ctld_plugins.h. */
#include "ctld/ctld_plugins.h"

#include <stddef.h>
#include <stdint.h>

#include "common/acct_gather_energy.h"
#include "common/fixed_plugins.h"
#include "common/plugin_ctx.h"
#include "common/prep.h"
#include "ctld/acct_storage.h"
#include "ctld/job_submit_plugin.h"
#include "ctld/jobcomp.h"
#include "ctld/preempt.h"
#include "ctld/priority.h"
#include "ctld/sched_plugin.h"
#include "ctld/select_plugin.h"
#include "ctld/site_factor.h"
#include "ctld/topo_mgr.h"

/* Types whose ops slurmctld does not call yet: only what changes nothing
 * is accepted (a loaded plugin would be silently ignored), any other name
 * stops the controller.  TopologyPlugin is topo_mgr.c's. */
static const char no_ops[1];
#define NOOP(t, n) { .type = t, .name = n, .abi_version = SLUICE_PLUGIN_ABI, \
	.ops_version = 1, .ops = no_ops }
static const struct sluice_plugin mcs_none = NOOP("mcs", "none");
#undef NOOP
static const struct sluice_plugin *const mcs_builtins[] = { &mcs_none, NULL };
const plugin_type_t mcs_plugin_type = {
	.type = "mcs", .key = "MCSPlugin", .ops_version = 1,
	.builtins = mcs_builtins, .builtin_only = true,
};
static const plugin_type_t burst_buffer_plugin_type = {
	.type = "burst_buffer", .key = "BurstBufferType", .ops_version = 1,
	.builtin_only = true,
};
static const plugin_type_t node_features_plugin_type = {
	.type = "node_features", .key = "NodeFeaturesPlugins",
	.ops_version = 1, .list = true, .builtin_only = true,
};

typedef struct {
	const plugin_type_t *type;
	const char          *key;      /* slurm.conf key */
	size_t               off;      /* its value in slurm_conf_t, or
					* NO_FIELD: what the file set */
	const char          *def;      /* when the value is empty */
} ctld_plugin_row_t;

#define NO_FIELD SIZE_MAX
#define ROW(t, k, field, d) { &(t), k, offsetof(slurm_conf_t, field), d }
#define ROW_KV(t, k, d) { &(t), k, NO_FIELD, d }

static const ctld_plugin_row_t rows[] = {
	ROW(job_submit_plugin_type, "JobSubmitPlugins", job_submit_plugins,
	    NULL),
	ROW(jobcomp_plugin_type, "JobCompType", job_comp_type,
	    "jobcomp/none"),
	ROW(acct_storage_plugin_type, "AccountingStorageType",
	    accounting_storage_type, "accounting_storage/none"),
	ROW(acct_gather_energy_type, "AcctGatherEnergyType",
	    acct_gather_energy_type, "acct_gather_energy/none"),
	ROW_KV(burst_buffer_plugin_type, "BurstBufferType", NULL),
	ROW_KV(mcs_plugin_type, "MCSPlugin", "mcs/none"),
	ROW_KV(node_features_plugin_type, "NodeFeaturesPlugins", NULL),
	ROW(prep_type, "PrEpPlugins", prep_plugins, NULL),
	ROW_KV(preempt_plugin_type, "PreemptType", "preempt/none"),
	ROW(priority_plugin_type, "PriorityType", priority_type,
	    "priority/basic"),
	ROW(site_factor_plugin_type, "PrioritySiteFactorPlugin",
	    site_factor_plugin, NULL),
	ROW(sched_plugin_type, "SchedulerType", scheduler_type,
	    "sched/backfill"),
	ROW(select_plugin_type, "SelectType", select_type,
	    "select/cons_tres"),
	ROW_KV(topology_plugin_type, "TopologyPlugin", "topology/flat"),
};

static const char *_value(const slurm_conf_t *c, const ctld_plugin_row_t *r)
{
	if (r->off == NO_FIELD)
		return conf_get_set(c, r->key);
	return *(const char *const *)((const char *)c + r->off);
}

int ctld_plugins_check(const slurm_conf_t *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *v = _value(c, &rows[i]);

		if (!v || !*v)
			v = rows[i].def;
		if (plugin_ctx_check(rows[i].type, v, c->plugin_dir,
				     conf_key_where(c, rows[i].key), err,
				     errlen) < 0)
			return -1;
	}
	/* SwitchType, CredType: one implementation each */
	return fixed_plugins_check(c, false, err, errlen);
}
