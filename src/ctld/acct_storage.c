/* acct_storage.c — AccountingStorageType's context and built-ins
 * (acct_storage.h). */
#include "ctld/acct_storage.h"

#include <stdio.h>

#include "common/log.h"
#include "ctld/acct_outbox.h"
#include "ctld/acct_send.h"

/* ---- accounting_storage/slurmdbd ---- */

static int _dbd_init(const slurm_conf_t *c, char *err, size_t errlen)
{
	const char *host = c->accounting_storage_host ?
		c->accounting_storage_host : "localhost";
	int timeout = c->message_timeout * 1000 * 3;

	if (acct_outbox_open(c->state_save_location, err, errlen) < 0)
		return -1;
	if (timeout < 30000)
		timeout = 30000;
	if (acct_send_start(host, c->accounting_storage_port,
			    c->cluster_name, timeout) < 0) {
		snprintf(err, errlen, "Unable to start the slurmdbd agent");
		acct_outbox_close();
		return -1;
	}
	verbose("Accounting storage SLURMDBD plugin loaded: %s:%u",
		host, c->accounting_storage_port);
	return 0;
}

static void _dbd_fini(void)
{
	acct_send_stop();
	acct_outbox_close();
}

static const acct_storage_ops_t as_dbd_ops = {
	.init = _dbd_init, .fini = _dbd_fini, .record = acct_outbox_append,
	.depth = acct_outbox_depth, .dbd_assocs = true,
};
static const acct_storage_ops_t as_none_ops;

static const struct sluice_plugin as_none = {
	.type = "accounting_storage", .name = "none",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = ACCT_STORAGE_OPS_VERSION, .ops = &as_none_ops,
};
static const struct sluice_plugin as_slurmdbd = {
	.type = "accounting_storage", .name = "slurmdbd",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = ACCT_STORAGE_OPS_VERSION, .ops = &as_dbd_ops,
};
static const struct sluice_plugin *const as_builtins[] = {
	&as_none, &as_slurmdbd, NULL,
};
const plugin_type_t acct_storage_plugin_type = {
	.type = "accounting_storage", .key = "AccountingStorageType",
	.ops_version = ACCT_STORAGE_OPS_VERSION, .builtins = as_builtins,
};

/* ---- the context ---- */

static plugin_ctx_t             *as_ctx;
static const acct_storage_ops_t *as_ops = &as_none_ops;

static const char *_type(const slurm_conf_t *c)
{
	return c->accounting_storage_type && *c->accounting_storage_type ?
		c->accounting_storage_type : "accounting_storage/none";
}

int acct_storage_load(const slurm_conf_t *c, char *err, size_t errlen)
{
	plugin_ctx_t *n = plugin_ctx_create(&acct_storage_plugin_type,
					    _type(c), c->plugin_dir, NULL,
					    err, errlen);
	const acct_storage_ops_t *o;

	if (!n)
		return -1;
	o = plugin_ctx_ops(n, 0);
	if (plugin_ctx_init(n, err, errlen) < 0 ||
	    (o->init && o->init(c, err, errlen) < 0)) {
		plugin_ctx_destroy(n);
		return -1;
	}
	acct_storage_fini();
	as_ctx = n;
	as_ops = o;
	return 0;
}

void acct_storage_fini(void)
{
	if (as_ops->fini)
		as_ops->fini();
	plugin_ctx_destroy(as_ctx);
	as_ctx = NULL;
	as_ops = &as_none_ops;
}

bool acct_storage_on(void)
{
	return as_ops->record != NULL;
}

bool acct_storage_dbd_assocs(void)
{
	return as_ops->dbd_assocs;
}

void acct_storage_record(uint16_t kind, const void *rec)
{
	if (as_ops->record)
		as_ops->record(kind, rec);
}

uint32_t acct_storage_depth(void)
{
	return as_ops->depth ? as_ops->depth() : 0;
}

bool acct_storage_same(const slurm_conf_t *c)
{
	char err[512];
	plugin_ctx_t *n = plugin_ctx_create(&acct_storage_plugin_type,
					    _type(c), c->plugin_dir, NULL,
					    err, sizeof(err));
	bool same = n && plugin_ctx_ops(n, 0) == as_ops;

	plugin_ctx_destroy(n);
	return same;
}
