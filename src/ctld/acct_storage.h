/* acct_storage.h — AccountingStorageType: where the controller's
 * accounting records go.
 *
 * Built in: accounting_storage/none (the default: no records, no
 * associations) and accounting_storage/slurmdbd (records go to the
 * outbox in StateSaveLocation and a sender thread carries them to
 * slurmdbd; associations, QOS and users come from slurmdbd).  Any other
 * name is PluginDir/accounting_storage_<name>.so exporting
 * acct_storage_ops_t over the records of common/acct_rec.h.
 *
 * The plugin is loaded once, at start; a reconfigure that names another
 * one is logged as taking effect at the next start (the records already
 * queued belong to the old one).  record is called on the controller's
 * loop for every job, step, reservation and node event and must not
 * block: queue the record and carry it from a thread the plugin owns.
 */
#ifndef SLUICE_CTLD_ACCT_STORAGE_H
#define SLUICE_CTLD_ACCT_STORAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

#define ACCT_STORAGE_OPS_VERSION 1

typedef struct {
	/* At start, after slurmctld became the controller: open what the
	 * plugin needs and start its thread.  0, or -1 with err (fatal). */
	int      (*init)(const slurm_conf_t *conf, char *err, size_t errlen);
	/* At shutdown: stop the thread (what is queued may stay queued). */
	void     (*fini)(void);
	/* One record (an acct_rec_kind_t and its struct).  NULL: the plugin
	 * takes no records and accounting is off. */
	void     (*record)(uint16_t kind, const void *rec);
	/* Records not yet stored (sdiag's "DBD Agent queue size"). */
	uint32_t (*depth)(void);
	/* The association manager loads associations, QOS and users from
	 * slurmdbd at AccountingStorageHost:AccountingStoragePort. */
	bool     dbd_assocs;
} acct_storage_ops_t;

extern const plugin_type_t acct_storage_plugin_type;

/* Load and init conf's AccountingStorageType (empty:
 * accounting_storage/none).  0, or -1 with err. */
int      acct_storage_load(const slurm_conf_t *conf, char *err,
			   size_t errlen);
void     acct_storage_fini(void);
/* The plugin takes records. */
bool     acct_storage_on(void);
/* The plugin's dbd_assocs. */
bool     acct_storage_dbd_assocs(void);
void     acct_storage_record(uint16_t kind, const void *rec);
uint32_t acct_storage_depth(void);
/* Does conf name the plugin in use?  (A reconfigure logs that another
 * one takes effect at the next start.) */
bool     acct_storage_same(const slurm_conf_t *conf);

#endif
