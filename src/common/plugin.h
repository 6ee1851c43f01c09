/* plugin.h — loading <type>_<name>.so plugins from PluginDir.
 *
 * Every plugin exports one symbol:
 *     const struct sluice_plugin sluice_plugin = {
 *             .type = "auth", .name = "munge",
 *             .abi_version = SLUICE_PLUGIN_ABI, .ops = &my_ops };
 * where ops points to the function table declared in that type's header
 * (e.g. auth.h's auth_ops_t).  A plugin built for another ABI is refused.
 */
#ifndef SLUICE_PLUGIN_H
#define SLUICE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define SLUICE_PLUGIN_ABI 0x19050001u   /* 25.05 family, bump on ops change */

struct sluice_plugin {
	const char *type;
	const char *name;
	uint32_t    abi_version;
	const void *ops;
};

typedef struct plugin_handle plugin_handle_t;

/* spec is "type/name" as slurm.conf writes it (e.g. "auth/munge").  The
 * directory list is PluginDir (colon-separated); NULL uses the built-in
 * search path (the build tree's plugins dir, then SLUICE_PLUGINDIR).
 * On failure returns NULL with a message in err. */
plugin_handle_t *plugin_load(const char *spec, const char *plugin_dir,
			     char *err, size_t errlen);
const void      *plugin_ops(const plugin_handle_t *p);
const char      *plugin_name(const plugin_handle_t *p);   /* "auth/munge" */
void             plugin_unload(plugin_handle_t *p);

#endif
