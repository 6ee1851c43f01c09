/* plugin_cache.c — see plugin_cache.h. */
#include "common/plugin_cache.h"

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

const plugin_ctx_t *plugin_cache_get(plugin_cache_t *pc,
				     const plugin_type_t *t,
				     const char *names, const char *def,
				     const char *plugin_dir, char *err,
				     size_t errlen)
{
	plugin_ctx_t *c;

	if (!names || !*names)
		names = def;
	if (pc->ctx && !xstrcmp(pc->names, names) &&
	    !xstrcmp(pc->plugin_dir, plugin_dir))
		return pc->ctx;
	c = plugin_ctx_create(t, names, plugin_dir, NULL, err, errlen);
	if (c && plugin_ctx_init(c, err, errlen) < 0) {
		plugin_ctx_destroy(c);
		c = NULL;
	}
	if (!c) {
		if (xstrcmp(pc->failed, names)) {
			error("%s", err);
			xfree(pc->failed);
			pc->failed = xstrdup(names);
		}
		return NULL;
	}
	if (pc->ctx) {
		pc->old = xrealloc(pc->old, (pc->old_cnt + 1) * sizeof(*pc->old));
		pc->old[pc->old_cnt++] = pc->ctx;
	}
	pc->ctx = c;
	xfree(pc->names);
	xfree(pc->plugin_dir);
	pc->names = xstrdup(names);
	pc->plugin_dir = plugin_dir ? xstrdup(plugin_dir) : NULL;
	return c;
}
