/* plugin.c — find, dlopen and check <type>_<name>.so plugins (see plugin.h).
 *
 * Search order: each directory of PluginDir when given; otherwise
 * $SLUICE_PLUGIN_DIR, then the build tree's plugins dir when it exists,
 * then the install dir.  The first file that exists is the one loaded: a
 * broken plugin is reported, not skipped, so an admin sees why.
 */
#include "common/plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define PLUGIN_SYMBOL "sluice_plugin"

struct plugin_handle {
	void                       *dl;
	const struct sluice_plugin *desc;
	char                       *name;      /* "auth/munge" */
	char                       *path;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return path && *path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The colon-separated list of directories to search; caller frees. */
static char *plugin_search_path(const char *plugin_dir)
{
	const char *env = getenv("SLUICE_PLUGIN_DIR");
	char *path = NULL;

	if (plugin_dir && *plugin_dir)
		return xstrdup(plugin_dir);
	if (env && *env)
		xstrfmtcat(&path, "%s:", env);
#ifdef SLUICE_BUILD_PLUGINDIR
	if (is_dir(SLUICE_BUILD_PLUGINDIR))
		xstrfmtcat(&path, "%s:", SLUICE_BUILD_PLUGINDIR);
#endif
#ifdef SLUICE_PLUGINDIR
	xstrcat(&path, SLUICE_PLUGINDIR);
#endif
	return path;
}

/* Split "type/name"; both parts non-empty, one slash, no path tricks. */
static int parse_spec(const char *spec, char **type, char **name)
{
	const char *slash = spec ? strchr(spec, '/') : NULL;

	if (!slash || slash == spec || !slash[1] || strchr(slash + 1, '/') ||
	    strstr(spec, ".."))
		return -1;
	*type = xstrndup(spec, (size_t)(slash - spec));
	*name = xstrdup(slash + 1);
	return 0;
}

/* First "<dir>/<type>_<name>.so" that exists, or NULL. */
static char *find_file(const char *dirs, const char *type, const char *name)
{
	char **list = xstrsplit(dirs, ":", NULL);
	char *found = NULL;

	for (size_t i = 0; list && list[i] && !found; i++) {
		char *p = xstrdup_printf("%s/%s_%s.so", list[i], type, name);

		if (access(p, F_OK) == 0)
			found = p;
		else
			xfree(p);
	}
	xstrarray_free(list);
	return found;
}

/* Check the exported descriptor against what we asked for. */
static int check_desc(const struct sluice_plugin *d, const char *type,
		      const char *name, const char *path, char *err,
		      size_t errlen)
{
	if (!d) {
		snprintf(err, errlen, "%s: no symbol %s", path, PLUGIN_SYMBOL);
		return -1;
	}
	if (d->abi_version != SLUICE_PLUGIN_ABI) {
		snprintf(err, errlen,
			 "%s: built for plugin ABI 0x%08x, this is 0x%08x",
			 path, d->abi_version, SLUICE_PLUGIN_ABI);
		return -1;
	}
	if (!d->type || !d->name || strcmp(d->type, type) ||
	    strcmp(d->name, name)) {
		snprintf(err, errlen, "%s: plugin calls itself %s/%s, not %s/%s",
			 path, d->type ? d->type : "(null)",
			 d->name ? d->name : "(null)", type, name);
		return -1;
	}
	if (!d->ops) {
		snprintf(err, errlen, "%s: plugin has no operations", path);
		return -1;
	}
	return 0;
}

static plugin_handle_t *open_file(const char *path, const char *type,
				  const char *name, char *err, size_t errlen)
{
	plugin_handle_t *p = NULL;
	const struct sluice_plugin *d;
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!dl) {
		snprintf(err, errlen, "%s: %s", path, dlerror());
		return NULL;
	}
	d = dlsym(dl, PLUGIN_SYMBOL);
	if (check_desc(d, type, name, path, err, errlen) < 0) {
		dlclose(dl);
		return NULL;
	}
	p = xmalloc(sizeof(*p));
	p->dl = dl;
	p->desc = d;
	p->name = xstrdup_printf("%s/%s", type, name);
	p->path = xstrdup(path);
	return p;
}

plugin_handle_t *plugin_load(const char *spec, const char *plugin_dir,
			     char *err, size_t errlen)
{
	plugin_handle_t *p = NULL;
	char *type = NULL, *name = NULL, *dirs = NULL, *path = NULL;

	if (parse_spec(spec, &type, &name) < 0) {
		snprintf(err, errlen, "invalid plugin name \"%s\"",
			 spec ? spec : "(null)");
		goto out;
	}
	dirs = plugin_search_path(plugin_dir);
	path = find_file(dirs, type, name);
	if (!path) {
		snprintf(err, errlen, "plugin %s (%s_%s.so) not found in %s",
			 spec, type, name, dirs ? dirs : "(no directory)");
		goto out;
	}
	p = open_file(path, type, name, err, errlen);
	if (p)
		debug3("plugin %s loaded from %s", p->name, p->path);
out:
	xfree(type);
	xfree(name);
	xfree(dirs);
	xfree(path);
	return p;
}

const void *plugin_ops(const plugin_handle_t *p)
{
	return p ? p->desc->ops : NULL;
}

const struct sluice_plugin *plugin_desc(const plugin_handle_t *p)
{
	return p ? p->desc : NULL;
}

const char *plugin_path(const plugin_handle_t *p)
{
	return p ? p->path : NULL;
}

const char *plugin_name(const plugin_handle_t *p)
{
	return p ? p->name : NULL;
}

void plugin_unload(plugin_handle_t *p)
{
	if (!p)
		return;
	dlclose(p->dl);
	xfree(p->name);
	xfree(p->path);
	xfree(p);
}
