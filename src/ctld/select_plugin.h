/* select_plugin.h — SelectType: how a job's nodes and CPUs are chosen.
 *
 * Built in: select/cons_tres (CPUs, cores, memory and GPUs are
 * consumable; the default) and select/linear (whole nodes); any other
 * name is PluginDir/select_<name>.so exporting select_ops_t.  The ops use
 * the controller's plain selection structs (select.h), so a .so must be
 * built against this source tree.
 *
 * Both ops run on the controller's loop and must not block: job_test is
 * called for every pending job the schedulers try, per partition, in a
 * tight loop (and by --test-only / will_run); keep it to arithmetic on the
 * arrays it is given.
 */
#ifndef SLUICE_CTLD_SELECT_PLUGIN_H
#define SLUICE_CTLD_SELECT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"
#include "ctld/select.h"

#define SELECT_OPS_VERSION 2

typedef struct {
	/* SelectTypeParameters as written (NULL if unset) to enum select_cr
	 * flags.  At load and whenever the configuration changes. */
	uint8_t (*cr_flags)(const char *params);
	/* select_job_test()'s contract (select.h): SELECT_OK with res
	 * filled (freed by the caller with select_result_free), or
	 * SELECT_BUSY / SELECT_NEVER. */
	int     (*job_test)(const select_node_t *nodes, size_t node_cnt,
			    const bitmap_t *avail, const select_req_t *req,
			    bool ignore_alloc, select_result_t *res);
} select_ops_t;

/* The type with its built-ins (ctld_plugins.c checks a new config). */
extern const plugin_type_t select_plugin_type;

/* Load conf's SelectType (empty: select/cons_tres).  Until the first load
 * select/cons_tres is in force (unit tests, benchmarks).  0, or -1 with
 * err and the old plugin kept. */
int     select_plugin_load(const slurm_conf_t *conf, char *err,
			   size_t errlen);
void    select_plugin_fini(void);
/* enum select_cr flags of the plugin and ctld_conf()'s
 * SelectTypeParameters (recomputed when the configuration changes). */
uint8_t select_plugin_cr(void);
/* The plugin's job_test. */
int     select_plugin_job_test(const select_node_t *nodes, size_t node_cnt,
			       const bitmap_t *avail, const select_req_t *req,
			       bool ignore_alloc, select_result_t *res);

#endif
