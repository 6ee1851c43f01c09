/* plugin_cache.h — a plugin context kept for the value it was made from.
 *
 * Modules whose type is asked about now and then (the controller asking
 * whether AcctGatherEnergyType gathers anything, slurmd finding PrEpPlugins'
 * program for a Prolog) hold one plugin_cache_t: plugin_cache_get() makes
 * the context the first time and again only when the configured value or
 * PluginDir changed.  A replaced context is kept to the process's end, not
 * unloaded: ops it handed out may still be in use.  Used on one thread
 * (the daemon's loop or main thread).
 */
#ifndef SLUICE_PLUGIN_CACHE_H
#define SLUICE_PLUGIN_CACHE_H

#include <stddef.h>

#include "common/plugin_ctx.h"

typedef struct {
	plugin_ctx_t  *ctx;
	char          *names;        /* the value ctx was made from */
	char          *plugin_dir;
	plugin_ctx_t **old;          /* replaced ones, kept */
	size_t         old_cnt;
	char          *failed;       /* last value that did not resolve */
} plugin_cache_t;

/* The initialised context of names (NULL/"" means def), or NULL with err
 * set when it does not resolve (logged once per value). */
const plugin_ctx_t *plugin_cache_get(plugin_cache_t *pc,
				     const plugin_type_t *t,
				     const char *names, const char *def,
				     const char *plugin_dir, char *err,
				     size_t errlen);

#endif
