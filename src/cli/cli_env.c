/* cli_env.c — the environment a job takes with it (--export). */
#include "cli/cli_env.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/conf.h"
#include "common/log.h"
#include "common/rlimits.h"
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

/* A number from 3 up names a descriptor; anything else is a file. */
static int env_file_open(const char *spec)
{
	char *end;
	long fd;

	errno = 0;
	fd = strtol(spec, &end, 10);
	if (*spec && !*end && !errno && fd >= 3 && fd <= 0x7fffffff)
		return dup((int)fd);
	return open(spec, O_RDONLY | O_CLOEXEC);
}

char **cli_env_merge_file(char **env, const char *spec)
{
	int fd = env_file_open(spec);
	char *buf = NULL, *p, *end;
	size_t len = 0, cap = 0;
	ssize_t n;
	char sep;

	if (fd < 0) {
		error("Could not open user environment file %s", spec);
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap + 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n > 0)
			len += (size_t)n;
	} while (n > 0 || (n < 0 && errno == EINTR));
	close(fd);
	if (n < 0) {
		error("Could not read user environment file %s: %m", spec);
		xfree(buf);
		return NULL;
	}
	if (!buf)
		buf = xcalloc(1, 1);
	buf[len] = '\0';
	sep = memchr(buf, '\0', len) ? '\0' : '\n';
	for (p = buf; p < buf + len; p = end + 1) {
		end = memchr(p, sep, (size_t)(buf + len - p));
		if (!end)
			end = buf + len;
		*end = '\0';
		if (strchr(p, '=') && *p != '=')
			env = env_put(env ? env : xcalloc(1, sizeof(char *)), p);
	}
	xfree(buf);
	return env ? env : xcalloc(1, sizeof(char *));
}

char **cli_env_rlimits(char **env, const char *propagate,
		       const struct slurm_conf *conf)
{
	char err[256];
	unsigned mask;

	if (propagate) {
		if (rlimits_parse("--propagate", propagate, &mask, err,
				  sizeof(err)) < 0) {
			error("--propagate=%s is not valid.", propagate);
			return NULL;
		}
		return rlimits_to_env(env, mask, 1, cli_env_set);
	}
	if (rlimits_conf_mask(conf->propagate_rlimits,
			      conf->propagate_rlimits_except, &mask, err,
			      sizeof(err)) < 0) {
		error("%s", err);
		return NULL;
	}
	return rlimits_to_env(env, mask, 0, cli_env_set);
}
