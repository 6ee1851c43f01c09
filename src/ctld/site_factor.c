/* site_factor.c — see site_factor.h. */
#include "ctld/site_factor.h"

#include <stdbool.h>
#include <stdio.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "ctld/job_mgr.h"
#include "ctld/job_view_fill.h"
#include "ctld/priority.h"

/* Ops version 1, frozen: the ops took job_info_t. */
typedef struct {
	const job_info_t *job;
	int32_t           factor;
} site_factor_job_v1_t;
typedef struct {
	int  (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	void (*fini)(void);
	void (*set)(const job_info_t *job, int32_t *factor);
	void (*update)(site_factor_job_v1_t *jobs, size_t cnt);
} site_factor_ops_v1_t;

static struct {
	plugin_ctx_t            *ctx;
	const site_factor_ops_t *ops;     /* NULL: none, or failed to load */
	bool                     inited;  /* ops->fini owed */
	uint32_t                 gen;     /* bumped by each (re)load */
	uint32_t                 ops_ver; /* the plugin's ops version */
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
	.ops_version = SITE_FACTOR_OPS_VERSION,
	.ops_version_min = SITE_FACTOR_OPS_OLDEST, .builtins = builtins,
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
	sf.ops_ver = plugin_ctx_ops_version(c, 0);
	if (ops && sf.ops_ver != SITE_FACTOR_OPS_VERSION)
		info("site_factor: loaded %s (built for site_factor ops "
		     "version %u, this slurmctld's is %u: served as %u)",
		     plugin_ctx_name(c, 0), sf.ops_ver,
		     SITE_FACTOR_OPS_VERSION, sf.ops_ver);
	else if (ops)
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
	if (sf.ops_ver == 1) {
		((const site_factor_ops_v1_t *) (const void *) sf.ops)
			->set(&j->info, &f);
	} else {
		job_view_t v;

		job_view_fill(&v, &j->info, j);
		sf.ops->set(&v, &f);
	}
	j->site_factor = f;
}

/* An ops version 1 plugin's update: job_info_t, not views. */
static void _update_v1(size_t n)
{
	site_factor_job_v1_t *v = xcalloc(n, sizeof(*v));
	job_record_t *j;
	size_t k = 0;

	for (j = job_mgr_pending_first(); j; j = j->pend_next, k++) {
		v[k].job = &j->info;
		v[k].factor = j->site_factor;
	}
	((const site_factor_ops_v1_t *) (const void *) sf.ops)->update(v, n);
	k = 0;
	for (j = job_mgr_pending_first(); j && k < n; j = j->pend_next, k++)
		j->site_factor = v[k].factor;
	xfree(v);
}

void site_factor_update(void)
{
	site_factor_job_t *v;
	job_view_t *views;
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
	if (sf.ops_ver == 1) {
		_update_v1(n);
		return;
	}
	v = xcalloc(n, sizeof(*v));
	views = xcalloc(n, sizeof(*views));
	for (j = job_mgr_pending_first(); j; j = j->pend_next, k++) {
		job_view_fill(&views[k], &j->info, j);
		v[k].job = &views[k];
		v[k].factor = j->site_factor;
	}
	sf.ops->update(v, n);
	k = 0;
	for (j = job_mgr_pending_first(); j && k < n; j = j->pend_next, k++)
		j->site_factor = v[k].factor;
	xfree(views);
	xfree(v);
}
