/* plugin.h — loading <type>_<name>.so plugins from PluginDir.
 *
 * Every plugin exports one symbol:
 *     const struct sluice_plugin sluice_plugin = {
 *             .type = "auth", .name = "munge",
 *             .abi_version = SLUICE_PLUGIN_ABI,
 *             .ops_version = AUTH_OPS_VERSION, .ops = &my_ops };
 * where ops points to the function table declared in that type's header
 * (e.g. auth.h's auth_ops_t) and ops_version is that header's version of
 * the table.  A plugin built for another ABI is refused here; the ops
 * version is checked by the plugin context (plugin_ctx.h), which is what
 * daemons use.  A built-in implementation is the same descriptor compiled
 * into the binary.
 */
#ifndef SLUICE_PLUGIN_H
#define SLUICE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define SLUICE_PLUGIN_ABI 0x19050002u   /* 25.05 family, bump on layout change */

struct sluice_plugin {
	const char *type;
	const char *name;
	uint32_t    abi_version;   /* SLUICE_PLUGIN_ABI */
	uint32_t    ops_version;   /* the type header's <TYPE>_OPS_VERSION */
	const void *ops;
	/* Optional, called by the plugin context once after every plugin of
	 * the list resolved (init, in list order) and before unload (fini,
	 * in reverse order).  init returns 0, or -1 with a reason in err. */
	int  (*init)(char *err, size_t errlen);
	void (*fini)(void);
};

typedef struct plugin_handle plugin_handle_t;

/* spec is "type/name" as slurm.conf writes it (e.g. "auth/munge").  The
 * directory list is PluginDir (colon-separated); NULL uses the built-in
 * search path (the build tree's plugins dir, then SLUICE_PLUGINDIR).
 * On failure returns NULL with a message in err. */
plugin_handle_t *plugin_load(const char *spec, const char *plugin_dir,
			     char *err, size_t errlen);
const void      *plugin_ops(const plugin_handle_t *p);
const struct sluice_plugin *plugin_desc(const plugin_handle_t *p);
const char      *plugin_path(const plugin_handle_t *p);
const char      *plugin_name(const plugin_handle_t *p);   /* "auth/munge" */
void             plugin_unload(plugin_handle_t *p);

#endif
