/* site_factor.c — see site_factor.h. */
#include "ctld/site_factor.h"

#include <stdbool.h>
#include <stdio.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "ctld/job_mgr.h"
#include "ctld/priority.h"

static struct {
	plugin_ctx_t            *ctx;
	const site_factor_ops_t *ops;     /* NULL: none, or failed to load */
	bool                     inited;  /* ops->fini owed */
	uint32_t                 gen;     /* bumped by each (re)load */
	bool                     warned;  /* "no effect with basic" logged */
} sf = { .gen = 1 };

static const site_factor_ops_t none_ops = { 0 };
static const struct sluice_plugin site_factor_none_plugin = {
	.type = "site_factor", .name = "none",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = SITE_FACTOR_OPS_VERSION, .ops = &none_ops,
};
static const struct sluice_plugin *const builtins[] = {
	&site_factor_none_plugin, NULL,
};
const plugin_type_t site_factor_plugin_type = {
	.type = "site_factor", .key = "PrioritySiteFactorPlugin",
	.ops_version = SITE_FACTOR_OPS_VERSION, .builtins = builtins,
};

void site_factor_fini(void)
{
	if (sf.inited && sf.ops->fini)
		sf.ops->fini();
	plugin_ctx_destroy(sf.ctx);
	sf.ctx = NULL;
	sf.ops = NULL;
	sf.inited = false;
}

int site_factor_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	const char *where = conf_key_where(conf,
					   "PrioritySiteFactorPlugin");
	plugin_ctx_t *c = plugin_ctx_create(&site_factor_plugin_type,
					    conf->site_factor_plugin,
					    conf->plugin_dir, where, err,
					    errlen);
	const site_factor_ops_t *ops;
	char perr[512] = "";

	if (!c)
		return -1;
	/* the old instance's statics go before the new one's init */
	site_factor_fini();
	sf.warned = false;
	ops = plugin_ctx_count(c) ? plugin_ctx_ops(c, 0) : NULL;
	if (ops && ops->init && ops->init(conf, perr, sizeof(perr)) < 0) {
		snprintf(err, errlen, "%s: %s", plugin_ctx_name(c, 0), perr);
		plugin_ctx_destroy(c);
		return -1;
	}
	if (plugin_ctx_init(c, err, errlen) < 0) {
		if (ops && ops->fini)
			ops->fini();
		plugin_ctx_destroy(c);
		return -1;
	}
	sf.ctx = c;
	sf.ops = ops;
	sf.inited = ops != NULL;
	sf.gen++;       /* every pending job is set again by this one */
	if (ops)
		info("site_factor: loaded %s", plugin_ctx_name(c, 0));
	return 0;
}

void site_factor_set(job_record_t *j)
{
	int32_t f = j->site_factor;

	j->site_gen = sf.gen;
	if (!sf.ops || !sf.ops->set) {
		j->site_factor = 0;
		return;
	}
	if (!sf.warned && !priority_is_multifactor()) {
		info("PrioritySiteFactorPlugin=%s has no effect with "
		     "PriorityType=priority/basic", plugin_ctx_names(sf.ctx));
		sf.warned = true;
	}
	sf.ops->set(&j->info, &f);
	j->site_factor = f;
}

void site_factor_update(void)
{
	site_factor_job_t *v;
	size_t n = 0, k = 0;
	job_record_t *j;

	for (j = job_mgr_pending_first(); j; j = j->pend_next) {
		/* recovered at start, or pending across a plugin change */
		if (j->site_gen != sf.gen)
			site_factor_set(j);
		n++;
	}
	if (!sf.ops || !sf.ops->update || !n)
		return;
	v = xcalloc(n, sizeof(*v));
	for (j = job_mgr_pending_first(); j; j = j->pend_next, k++) {
		v[k].job = &j->info;
		v[k].factor = j->site_factor;
	}
	sf.ops->update(v, n);
	k = 0;
	for (j = job_mgr_pending_first(); j && k < n; j = j->pend_next, k++)
		j->site_factor = v[k].factor;
	xfree(v);
}
