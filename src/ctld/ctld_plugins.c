/* ctld_plugins.c — see ctld_plugins.h. */
#include "ctld/ctld_plugins.h"

#include <stddef.h>

#include "common/acct_gather_energy.h"
#include "common/fixed_plugins.h"
#include "common/plugin_ctx.h"
#include "common/prep.h"
#include "ctld/job_submit_plugin.h"
#include "ctld/jobcomp.h"
#include "ctld/site_factor.h"

typedef struct {
	const plugin_type_t *type;
	const char          *key;      /* slurm.conf key */
	size_t               off;      /* its value in slurm_conf_t */
	const char          *def;      /* when the value is empty */
} ctld_plugin_row_t;

#define ROW(t, k, field, d) { &(t), k, offsetof(slurm_conf_t, field), d }

static const ctld_plugin_row_t rows[] = {
	ROW(job_submit_plugin_type, "JobSubmitPlugins", job_submit_plugins,
	    NULL),
	ROW(jobcomp_plugin_type, "JobCompType", job_comp_type,
	    "jobcomp/none"),
	ROW(acct_gather_energy_type, "AcctGatherEnergyType",
	    acct_gather_energy_type, "acct_gather_energy/none"),
	ROW(prep_type, "PrEpPlugins", prep_plugins, NULL),
	ROW(site_factor_plugin_type, "PrioritySiteFactorPlugin",
	    site_factor_plugin, NULL),
};

int ctld_plugins_check(const slurm_conf_t *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *v = *(const char *const *)((const char *)c +
						       rows[i].off);

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
