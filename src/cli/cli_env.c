/* cli_env.c — the environment a job takes with it (--export). */
#include "cli/cli_env.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

static size_t env_name_len(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq ? (size_t)(eq - kv) : strlen(kv);
}

static long env_find(char *const *env, const char *name, size_t n)
{
	for (size_t i = 0; env && env[i]; i++)
		if (env_name_len(env[i]) == n && !strncmp(env[i], name, n))
			return (long)i;
	return -1;
}

const char *cli_env_get(char *const *env, const char *name)
{
	long i = env_find(env, name, strlen(name));

	return i < 0 ? NULL : env[i] + strlen(name) + 1;
}

/* Put "kv" ("K=V") into env, replacing K if present. */
static char **env_put(char **env, const char *kv)
{
	long i = env_find(env, kv, env_name_len(kv));

	if (i < 0)
		return xstrarray_append(env, kv);
	xfree(env[i]);
	env[i] = xstrdup(kv);
	return env;
}

char **cli_env_set(char **env, const char *name, const char *value)
{
	char *kv = xstrdup_printf("%s=%s", name, value ? value : "");

	if (!env)
		env = xcalloc(1, sizeof(char *));
	env = env_put(env, kv);
	xfree(kv);
	return env;
}

static char **env_slurm_only(char *const *envp)
{
	char **env = xcalloc(1, sizeof(char *));

	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], "SLURM_", 6))
			env = xstrarray_append(env, envp[i]);
	return env;
}

/* Add one item of an --export list: "A=b" as given, "A" from envp. */
static char **env_add_item(char **env, const char *item, char *const *envp)
{
	long i;

	if (strchr(item, '='))
		return env_put(env, item);
	i = env_find(envp, item, strlen(item));
	if (i >= 0)
		env = env_put(env, envp[i]);
	return env;
}

char **cli_env_export(const char *spec, char *const *envp)
{
	char **items, **env;
	bool all = false;

	if (!spec || !strcasecmp(spec, "ALL"))
		return envp ? xstrarray_dup(envp) : xcalloc(1, sizeof(char *));
	if (!strcasecmp(spec, "NIL"))
		return xcalloc(1, sizeof(char *));
	items = xstrsplit(spec, ",", NULL);
	for (size_t i = 0; items[i]; i++)
		if (!strcasecmp(items[i], "ALL"))
			all = true;
	if (all && envp)
		env = xstrarray_dup(envp);
	else
		env = env_slurm_only(envp);
	for (size_t i = 0; items[i]; i++) {
		if (!strcasecmp(items[i], "ALL") ||
		    !strcasecmp(items[i], "NONE") ||
		    !strcasecmp(items[i], "NIL"))
			continue;
		env = env_add_item(env, items[i], envp);
	}
	xstrarray_free(items);
	return env;
}
