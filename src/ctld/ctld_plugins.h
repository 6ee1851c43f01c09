/* ctld_plugins.h — the plugin types slurmctld loads, as one table.
 *
 * Each row names a type (its plugin_type_t, with the built-ins) and the
 * slurm.conf value that selects it.  ctld_plugins_check() resolves every
 * row against a configuration without running plugin code: slurmctld runs
 * it at start before anything else loads, and `scontrol reconfigure` runs
 * it on the new file and keeps the old configuration when it fails.
 */
#ifndef SLUICE_CTLD_PLUGINS_H
#define SLUICE_CTLD_PLUGINS_H

#include <stddef.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

/* MCSPlugin (only mcs/none), for the check of every built-in */
extern const plugin_type_t mcs_plugin_type;

int ctld_plugins_check(const slurm_conf_t *c, char *err, size_t errlen);

#endif
