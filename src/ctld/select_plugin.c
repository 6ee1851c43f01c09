/* select_plugin.c — SelectType's context and the two built-ins
 * (select_plugin.h).  The placement itself is select.c's. */
#define _GNU_SOURCE
#include "ctld/select_plugin.h"

#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "ctld/controller.h"

/* SelectTypeParameters as both built-ins read them. */
static uint8_t _cr_cons_tres(const char *params)
{
	const char *p = params ? params : "";
	uint8_t cr = 0;

	if (strcasestr(p, "CR_CORE") || strcasestr(p, "CR_SOCKET"))
		cr |= SELECT_CR_CORE;
	if (!strcasestr(p, "MEMORY"))
		cr |= SELECT_CR_NO_MEMORY;
	if (strcasestr(p, "CR_LLN"))
		cr |= SELECT_LLN;
	return cr;
}

static uint8_t _cr_linear(const char *params)
{
	return _cr_cons_tres(params) | SELECT_LINEAR;
}

static const select_ops_t sel_cons_tres_ops = {
	.cr_flags = _cr_cons_tres, .job_test = select_job_test,
};
static const select_ops_t sel_linear_ops = {
	.cr_flags = _cr_linear, .job_test = select_job_test,
};
static const struct sluice_plugin select_cons_tres = {
	.type = "select", .name = "cons_tres",
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = SELECT_OPS_VERSION,
	.ops = &sel_cons_tres_ops,
};
static const struct sluice_plugin select_linear = {
	.type = "select", .name = "linear",
	.abi_version = SLUICE_PLUGIN_ABI, .ops_version = SELECT_OPS_VERSION,
	.ops = &sel_linear_ops,
};
static const struct sluice_plugin *const select_builtins[] = {
	&select_cons_tres, &select_linear, NULL,
};
const plugin_type_t select_plugin_type = {
	.type = "select", .key = "SelectType",
	.ops_version = SELECT_OPS_VERSION, .builtins = select_builtins,
};

static struct {
	plugin_ctx_t       *ctx;
	const select_ops_t *ops;
	const slurm_conf_t *cr_conf;   /* the config cr was computed from */
	const select_ops_t *cr_ops;    /* ... and the plugin */
	uint8_t             cr;
} sel = { .ops = &sel_cons_tres_ops };

int select_plugin_load(const slurm_conf_t *conf, char *err, size_t errlen)
{
	const char *type = conf->select_type && *conf->select_type ?
		conf->select_type : "select/cons_tres";
	plugin_ctx_t *c = plugin_ctx_create(&select_plugin_type, type,
					    conf->plugin_dir, NULL, err,
					    errlen);
	const select_ops_t *o;

	if (!c)
		return -1;
	o = plugin_ctx_ops(c, 0);
	if (!o->cr_flags || !o->job_test) {
		snprintf(err, errlen, "SelectType: cannot create select context "
			 "for %s: it has no %s op", plugin_ctx_names(c),
			 o->cr_flags ? "job_test" : "cr_flags");
		plugin_ctx_destroy(c);
		return -1;
	}
	if (sel.ctx && o == sel.ops) {
		plugin_ctx_destroy(c);  /* the same plugin stays as it is */
		sel.cr_conf = NULL;     /* SelectTypeParameters may differ */
		return 0;
	}
	if (plugin_ctx_init(c, err, errlen) < 0) {
		plugin_ctx_destroy(c);
		return -1;
	}
	select_plugin_fini();
	sel.ctx = c;
	sel.ops = o;
	debug("select: using %s", plugin_ctx_names(c));
	return 0;
}

void select_plugin_fini(void)
{
	sel.ops = &sel_cons_tres_ops;
	sel.cr_conf = NULL;
	plugin_ctx_destroy(sel.ctx);
	sel.ctx = NULL;
}

uint8_t select_plugin_cr(void)
{
	const slurm_conf_t *c = ctld_conf();

	if (c != sel.cr_conf || sel.ops != sel.cr_ops) {
		sel.cr = sel.ops->cr_flags(c ? c->select_type_parameters :
					   NULL);
		sel.cr_conf = c;
		sel.cr_ops = sel.ops;
	}
	return sel.cr;
}

int select_plugin_job_test(const select_node_t *nodes, size_t node_cnt,
			   const bitmap_t *avail, const select_req_t *req,
			   bool ignore_alloc, select_result_t *res)
{
	return sel.ops->job_test(nodes, node_cnt, avail, req, ignore_alloc,
				 res);
}
