/* plugin_ctx.c — configured names to ops tables (see plugin_ctx.h). */
#include "common/plugin_ctx.h"

#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

typedef struct {
	const struct sluice_plugin *desc;
	plugin_handle_t            *handle;   /* NULL: built in */
	char                       *name;     /* "task/affinity" */
	bool                        inited;
} ctx_item_t;

struct plugin_ctx {
	const plugin_type_t *type;
	ctx_item_t          *items;
	size_t               count;
	char                *names;
};

static const struct sluice_plugin *find_builtin(const plugin_type_t *t,
						const char *name)
{
	for (size_t i = 0; t->builtins && t->builtins[i]; i++)
		if (!strcmp(t->builtins[i]->name, name))
			return t->builtins[i];
	return NULL;
}

/* A name is "type/name" or "name": nothing else, and no path tricks. */
static int bare_name(const plugin_type_t *t, const char *item, char **out,
		     char *why, size_t whylen)
{
	const char *slash = strchr(item, '/');
	const char *name = item;

	if (slash) {
		size_t tl = strlen(t->type);

		if ((size_t)(slash - item) != tl || strncmp(item, t->type, tl)) {
			snprintf(why, whylen, "\"%s\" is not a %s plugin", item,
				 t->type);
			return -1;
		}
		name = slash + 1;
	}
	if (!*name || strchr(name, '/') || strstr(name, "..")) {
		snprintf(why, whylen, "invalid plugin name \"%s\"", item);
		return -1;
	}
	for (const char *p = name; *p; p++) {
		if (!(*p == '_' || *p == '-' || *p == '.' ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9'))) {
			snprintf(why, whylen, "invalid plugin name \"%s\"",
				 item);
			return -1;
		}
	}
	*out = xstrdup(name);
	return 0;
}

int plugin_ctx_check_builtins(const plugin_type_t *t, char *err,
			      size_t errlen)
{
	for (size_t i = 0; t->builtins && t->builtins[i]; i++) {
		const struct sluice_plugin *d = t->builtins[i];
		const char *what = NULL;
		uint32_t have = 0, want = 0;

		if (!d->ops) {
			snprintf(err, errlen, "built-in %s/%s has no ops (a "
				 "build bug)", t->type, d->name);
			return -1;
		}
		if (strcmp(d->type, t->type))
			what = "type";
		else if (d->abi_version != SLUICE_PLUGIN_ABI)
			what = "ABI", have = d->abi_version,
			want = SLUICE_PLUGIN_ABI;
		else if (d->ops_version != t->ops_version)
			what = "ops version", have = d->ops_version,
			want = t->ops_version;
		if (!what)
			continue;
		if (have || want)
			snprintf(err, errlen, *what == 'A' ?
				 "built-in %s/%s has %s %s %#x, this is %#x (a "
				 "build bug: not updated with its header)" :
				 "built-in %s/%s has %s %s %u, this is %u (a "
				 "build bug: not updated with its header)",
				 t->type, d->name, t->type, what, have, want);
		else
			snprintf(err, errlen, "built-in %s/%s is of type %s "
				 "(a build bug)", t->type, d->name, d->type);
		return -1;
	}
	return 0;
}

/* Resolve one bare name into item; -1 with the reason in why. */
static int resolve(const plugin_type_t *t, const char *name,
		   const char *plugin_dir, ctx_item_t *item, char *why,
		   size_t whylen)
{
	const struct sluice_plugin *d = find_builtin(t, name);
	char *spec;

	item->name = xstrdup_printf("%s/%s", t->type, name);
	if (d) {
		item->desc = d;
		return 0;
	}
	if (t->builtin_only) {
		char *have = plugin_ctx_builtin_list(t);

		if (*have)
			snprintf(why, whylen, "not implemented by Sluice "
				 "(which has %s)", have);
		else
			snprintf(why, whylen, "not implemented by Sluice "
				 "(%s must be unset)", t->key);
		xfree(have);
		return -1;
	}
	spec = xstrdup_printf("%s/%s", t->type, name);
	item->handle = plugin_load(spec, plugin_dir, why, whylen);
	xfree(spec);
	if (!item->handle)
		return -1;
	d = plugin_desc(item->handle);
	if (d->ops_version > t->ops_version ||
	    d->ops_version < (t->ops_version_min ? t->ops_version_min :
			      t->ops_version)) {
		if (t->ops_version_min && t->ops_version_min < t->ops_version)
			snprintf(why, whylen,
				 "%s: built for %s ops version %u, this is %u "
				 "(which also serves %u..%u)",
				 plugin_path(item->handle), t->type,
				 d->ops_version, t->ops_version,
				 t->ops_version_min, t->ops_version - 1);
		else
			snprintf(why, whylen,
				 "%s: built for %s ops version %u, this is %u",
				 plugin_path(item->handle), t->type,
				 d->ops_version, t->ops_version);
		return -1;
	}
	item->desc = d;
	return 0;
}

static void unload_items(plugin_ctx_t *ctx)
{
	for (size_t i = ctx->count; i-- > 0;) {
		ctx_item_t *it = &ctx->items[i];

		if (it->inited && it->desc->fini)
			it->desc->fini();
		it->inited = false;
		if (it->handle)
			plugin_unload(it->handle);
		xfree(it->name);
	}
	xfree(ctx->items);
	ctx->count = 0;
}

void plugin_ctx_destroy(plugin_ctx_t *ctx)
{
	if (!ctx)
		return;
	unload_items(ctx);
	xfree(ctx->names);
	xfree(ctx);
}

static bool listed(const plugin_ctx_t *ctx, const char *full)
{
	for (size_t i = 0; i < ctx->count; i++)
		if (!strcmp(ctx->items[i].name, full))
			return true;
	return false;
}

/* Adds one configured item; on failure err holds the whole message. */
static int add_item(plugin_ctx_t *ctx, const char *item,
		    const char *plugin_dir, const char *where, char *err,
		    size_t errlen)
{
	const plugin_type_t *t = ctx->type;
	char why[512] = "", *name = NULL, *full;
	ctx_item_t it = { 0 };
	const char *pre = where ? where : "";
	const char *sep = where ? ": " : "";

	if (bare_name(t, item, &name, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s%s%s=%s: cannot create %s context "
			 "for %s: %s", pre, sep, t->key, item, t->type, item,
			 why);
		return -1;
	}
	full = xstrdup_printf("%s/%s", t->type, name);
	if (listed(ctx, full)) {
		snprintf(err, errlen, "%s%s%s: %s is listed twice", pre, sep,
			 t->key, full);
		xfree(full);
		xfree(name);
		return -1;
	}
	xfree(full);
	if (resolve(t, name, plugin_dir, &it, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s%s%s: cannot create %s context for "
			 "%s: %s", pre, sep, t->key, t->type, it.name, why);
		if (it.handle)
			plugin_unload(it.handle);
		xfree(it.name);
		xfree(name);
		return -1;
	}
	xfree(name);
	ctx->items = xrealloc(ctx->items, (ctx->count + 1) * sizeof(it));
	ctx->items[ctx->count++] = it;
	return 0;
}

plugin_ctx_t *plugin_ctx_create(const plugin_type_t *t, const char *names,
				const char *plugin_dir, const char *where,
				char *err, size_t errlen)
{
	plugin_ctx_t *ctx = xmalloc(sizeof(*ctx));
	char **list, why[400] = "";
	size_t n = 0;

	ctx->type = t;
	/* every built-in of the type, not only the one named: a stale one
	 * fails whichever daemon makes a context of its type first */
	if (plugin_ctx_check_builtins(t, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: cannot create %s context: %s",
			 t->key, t->type, why);
		xfree(ctx);
		return NULL;
	}
	list = xstrsplit(names ? names : "", ",", NULL);
	for (size_t i = 0; list && list[i]; i++) {
		char *item = xstrtrim(list[i]);

		if (!*item)
			continue;
		if (++n > 1 && !t->list) {
			snprintf(err, errlen, "%s%s%s=%s: cannot create %s "
				 "context for %s: %s takes one plugin",
				 where ? where : "", where ? ": " : "", t->key,
				 names, t->type, names, t->key);
			goto fail;
		}
		if (add_item(ctx, item, plugin_dir, where, err, errlen) < 0)
			goto fail;
	}
	xstrarray_free(list);
	for (size_t i = 0; i < ctx->count; i++)
		xstrfmtcat(&ctx->names, "%s%s", i ? "," : "",
			   ctx->items[i].name);
	for (size_t i = 0; i < ctx->count; i++)
		debug2("%s: %s %s", t->key, ctx->items[i].name,
		       ctx->items[i].handle ? plugin_path(ctx->items[i].handle)
					    : "(built in)");
	return ctx;
fail:
	xstrarray_free(list);
	plugin_ctx_destroy(ctx);
	return NULL;
}

int plugin_ctx_init(plugin_ctx_t *ctx, char *err, size_t errlen)
{
	for (size_t i = 0; ctx && i < ctx->count; i++) {
		ctx_item_t *it = &ctx->items[i];
		char why[512] = "";

		if (it->inited || !it->desc->init) {
			it->inited = true;
			continue;
		}
		if (it->desc->init(why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s: cannot create %s context for "
				 "%s: initialisation failed%s%s",
				 ctx->type->key, ctx->type->type, it->name,
				 *why ? ": " : "", why);
			for (size_t k = i; k-- > 0;) {
				if (ctx->items[k].inited &&
				    ctx->items[k].desc->fini)
					ctx->items[k].desc->fini();
				ctx->items[k].inited = false;
			}
			return -1;
		}
		it->inited = true;
	}
	return 0;
}

int plugin_ctx_check(const plugin_type_t *t, const char *names,
		     const char *plugin_dir, const char *where, char *err,
		     size_t errlen)
{
	plugin_ctx_t *ctx = plugin_ctx_create(t, names, plugin_dir, where, err,
					      errlen);

	plugin_ctx_destroy(ctx);
	return ctx ? 0 : -1;
}

size_t plugin_ctx_count(const plugin_ctx_t *ctx)
{
	return ctx ? ctx->count : 0;
}

const void *plugin_ctx_ops(const plugin_ctx_t *ctx, size_t i)
{
	return ctx && i < ctx->count ? ctx->items[i].desc->ops : NULL;
}

const char *plugin_ctx_name(const plugin_ctx_t *ctx, size_t i)
{
	return ctx && i < ctx->count ? ctx->items[i].name : NULL;
}

const char *plugin_ctx_short_name(const plugin_ctx_t *ctx, size_t i)
{
	return ctx && i < ctx->count ? ctx->items[i].desc->name : NULL;
}

uint32_t plugin_ctx_ops_version(const plugin_ctx_t *ctx, size_t i)
{
	return ctx && i < ctx->count ? ctx->items[i].desc->ops_version : 0;
}

bool plugin_ctx_builtin(const plugin_ctx_t *ctx, size_t i)
{
	return ctx && i < ctx->count && !ctx->items[i].handle;
}

const char *plugin_ctx_names(const plugin_ctx_t *ctx)
{
	return ctx && ctx->names ? ctx->names : "";
}

char *plugin_ctx_builtin_list(const plugin_type_t *t)
{
	char *s = NULL;

	for (size_t i = 0; t->builtins && t->builtins[i]; i++)
		xstrfmtcat(&s, "%s%s", i ? ", " : "", t->builtins[i]->name);
	return s ? s : xstrdup("");
}

bool plugin_ctx_replace(plugin_ctx_t **ctx, const plugin_type_t *t,
			const char *names, const char *plugin_dir,
			const char *dflt)
{
	char err[512] = "";
	plugin_ctx_t *n = plugin_ctx_create(t, names, plugin_dir, NULL, err,
					    sizeof(err));

	if (n && *ctx && plugin_ctx_ops(n, 0) == plugin_ctx_ops(*ctx, 0)) {
		plugin_ctx_destroy(n);  /* the same plugin stays as it is */
		return false;
	}
	if (n && plugin_ctx_init(n, err, sizeof(err)) < 0) {
		plugin_ctx_destroy(n);
		n = NULL;
	}
	if (!n) {
		error("%s: keeping %s", err,
		      *ctx ? plugin_ctx_names(*ctx) : dflt);
		return false;
	}
	plugin_ctx_destroy(*ctx);
	*ctx = n;
	return true;
}
