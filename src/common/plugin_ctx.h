/* plugin_ctx.h — one plugin context per configured plugin type.
 *
 * Every policy point of Sluice is a plugin type with one ops table (its
 * header defines the table and <TYPE>_OPS_VERSION).  A daemon turns a
 * configured value ("select/cons_tres", "task/affinity,task/cgroup",
 * JobSubmitPlugins "lua,require_timelimit") into a context:
 *
 *     static const struct sluice_plugin *const builtins[] = {
 *             &select_cons_tres_plugin, &select_linear_plugin, NULL };
 *     static const plugin_type_t select_type = {
 *             .type = "select", .key = "SelectType",
 *             .ops_version = SELECT_OPS_VERSION, .builtins = builtins };
 *     ctx = plugin_ctx_create(&select_type, conf->select_type,
 *                             conf->plugin_dir, where, err, sizeof(err));
 *
 * Each name of the value (comma-separated when the type takes a list, in
 * order; "type/name" or bare "name") is resolved first against the
 * built-ins compiled into the binary, then as PluginDir/<type>_<name>.so
 * (plugin.h).  A name that resolves nowhere, a .so of another type, ABI or
 * ops version, or a descriptor without ops fails the whole context with
 * Slurm's "cannot create <type> context for <type>/<name>" and the reason;
 * nothing stays loaded.  Nothing outside a context compares a configured
 * plugin name with a string: callers ask the context for ops.
 *
 * Two steps, so that a reconfigure can keep the old context when the new
 * value is wrong: plugin_ctx_create() resolves and checks (no plugin code
 * runs), plugin_ctx_init() calls the descriptors' init hooks in order (one
 * failing finis those before it and fails).  plugin_ctx_destroy() calls
 * fini in reverse order and unloads.  Contexts are made and destroyed on
 * the daemon's main thread; the ops they hand out are read-only after.
 */
#ifndef SLUICE_PLUGIN_CTX_H
#define SLUICE_PLUGIN_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/plugin.h"

typedef struct {
	const char *type;         /* "select" */
	const char *key;          /* "SelectType": named in errors */
	uint32_t    ops_version;  /* what this binary's callers expect */
	/* the oldest ops version still served (0: only ops_version); a
	 * type whose ops take a versioned view (job_submit, site_factor,
	 * jobcomp) calls a plugin with what its version promised, see
	 * plugin_ctx_ops_version() */
	uint32_t    ops_version_min;
	bool        list;         /* value is a comma-separated list */
	/* only the built-ins: no .so is looked for (a type whose ops
	 * Sluice does not call yet, where a loaded plugin would be
	 * silently ignored) */
	bool        builtin_only;
	/* NULL-terminated; may be NULL (dlopen only) */
	const struct sluice_plugin *const *builtins;
} plugin_type_t;

typedef struct plugin_ctx plugin_ctx_t;

/* names NULL or "" gives an empty context (count 0).  where is the file
 * and line the value came from ("/etc/slurm/slurm.conf:12") or NULL; it
 * prefixes err.  Returns NULL with err set on any failure. */
plugin_ctx_t *plugin_ctx_create(const plugin_type_t *t, const char *names,
				const char *plugin_dir, const char *where,
				char *err, size_t errlen);

/* Runs each plugin's init hook in order: 0, or -1 with err set (the
 * context stays valid but not initialised; destroy it). */
int plugin_ctx_init(plugin_ctx_t *ctx, char *err, size_t errlen);

size_t      plugin_ctx_count(const plugin_ctx_t *ctx);
/* i-th plugin's ops table, full name ("task/affinity"), bare name
 * ("affinity"); NULL past the end.  ops of a NULL context are NULL. */
const void *plugin_ctx_ops(const plugin_ctx_t *ctx, size_t i);
const char *plugin_ctx_name(const plugin_ctx_t *ctx, size_t i);
const char *plugin_ctx_short_name(const plugin_ctx_t *ctx, size_t i);
/* The ops version the i-th plugin was built against; 0 past the end. */
uint32_t    plugin_ctx_ops_version(const plugin_ctx_t *ctx, size_t i);
/* true when the i-th plugin was compiled in (not dlopen'd) */
bool        plugin_ctx_builtin(const plugin_ctx_t *ctx, size_t i);
/* "task/affinity,task/cgroup": the resolved names, for logs */
const char *plugin_ctx_names(const plugin_ctx_t *ctx);

void plugin_ctx_destroy(plugin_ctx_t *ctx);

/* A (re)configure of a single-plugin type: make and init a context of
 * names and put it in *ctx in place of the old one, unless names resolve
 * to the plugin *ctx holds already (it stays as it is, not re-inited).
 * On failure the old context stays and "<reason>: keeping <old>" is
 * logged (dflt names the old one when there is none).  true when *ctx
 * changed. */
bool plugin_ctx_replace(plugin_ctx_t **ctx, const plugin_type_t *t,
			const char *names, const char *plugin_dir,
			const char *dflt);

/* Would plugin_ctx_create() succeed?  (It resolves and unloads: no plugin
 * code runs.)  0, or -1 with err set.  A reconfigure checks every type of
 * the new configuration so before it changes anything. */
int plugin_ctx_check(const plugin_type_t *t, const char *names,
		     const char *plugin_dir, const char *where, char *err,
		     size_t errlen);

/* Every built-in of t is of type t, for this ABI and for t's current ops
 * version (a built-in is compiled with its header: anything else is a
 * build bug, which plugin_ctx_create() also refuses).  0, or -1 with err
 * naming the built-in and both versions.  tests/unit/
 * test_plugin_builtins.c runs it over every type. */
int plugin_ctx_check_builtins(const plugin_type_t *t, char *err,
			      size_t errlen);

/* The built-in names of a type, for help texts: "cons_tres, linear". */
char *plugin_ctx_builtin_list(const plugin_type_t *t);

#endif
