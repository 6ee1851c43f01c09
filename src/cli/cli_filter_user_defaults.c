/* cli_filter_user_defaults.c — CliFilterPlugins=user_defaults: the
 * user's own defaults in ~/.slurm/defaults (see cli_filter_builtin.h for
 * the line format).  A line of an unknown command is an error (printed;
 * the rest still apply); a value the option refuses prints the option's
 * error and is skipped; an option the command does not take is skipped
 * (noted with -v).  As in Slurm, "#" starts a comment only at the start
 * of a line.
 */
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_filter_builtin.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define UD_FILE ".slurm/defaults"

static struct {
	char *cluster;
} ud;

static bool ud_is_command(const char *s)
{
	return !strcmp(s, "salloc") || !strcmp(s, "sbatch") ||
	       !strcmp(s, "srun") || !strcmp(s, "*");
}

int cli_filter_defaults_line(char *line, const char *command,
			     const char *cluster, char **key, char **value,
			     char *err, size_t errlen)
{
	char *eq, *parts[3], *k;
	size_t n = 0;

	line = xstrtrim(line);
	if (!*line || *line == '#' || !(eq = strchr(line, '=')))
		return 0;
	*eq = '\0';
	*value = xstrtrim(eq + 1);
	k = xstrtrim(line);
	for (;;) {
		char *colon = strchr(k, ':');

		if (colon)
			*colon = '\0';
		if (n == 3)
			return 0;       /* more than two prefixes */
		parts[n++] = xstrtrim(k);
		if (!colon)
			break;
		k = colon + 1;
	}
	/* option; cluster:option; command:cluster:option */
	if (n == 3 && !ud_is_command(parts[0])) {
		snprintf(err, errlen, "Unknown command \"%s\"", parts[0]);
		return -1;
	}
	if (n == 3 && strcmp(parts[0], "*") && strcmp(parts[0], command))
		return 0;
	if (n >= 2) {
		const char *c = parts[n - 2];

		if (strcmp(c, "*") && (!cluster || strcmp(c, cluster)))
			return 0;
	}
	*key = xstrtrim(parts[n - 1]);
	return **key ? 1 : 0;
}

static char *ud_path(void)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (getpwuid_r(getuid(), &pw, buf, sizeof(buf), &res) || !res ||
	    !res->pw_dir) {
		error("Failed to lookup user homedir to load slurm defaults.");
		return NULL;
	}
	return xstrdup_printf("%s/%s", res->pw_dir, UD_FILE);
}

static int ud_init(const slurm_conf_t *conf, char *err, size_t errlen)
{
	ud.cluster = xstrdup(conf->cluster_name);
	return 0;
}

static void ud_fini(void)
{
	xfree(ud.cluster);
}

static int ud_setup(cli_filter_options_t *o, bool early)
{
	char *path = ud_path(), line[4096];
	FILE *f;
	int lineno = 0;

	if (!path)
		return 0;
	f = fopen(path, "r");
	xfree(path);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *key, *value, err[256];
		int rc = cli_filter_defaults_line(line, o->command, ud.cluster,
						  &key, &value, err,
						  sizeof(err));

		lineno++;
		if (rc < 0)
			error("%s in ~/%s, line %d", err, UD_FILE, lineno);
		if (rc <= 0)
			continue;
		if (o->set(o, key, value) == 1)
			verbose("~/%s, line %d: %s takes no option \"%s\": "
				"ignored", UD_FILE, lineno, o->command, key);
	}
	fclose(f);
	return 0;
}

static const cli_filter_ops_t ud_ops = {
	.init = ud_init, .fini = ud_fini, .setup_defaults = ud_setup,
};
const struct sluice_plugin cli_filter_user_defaults_plugin = {
	.type = "cli_filter", .name = "user_defaults",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = CLI_FILTER_OPS_VERSION, .ops = &ud_ops,
};
