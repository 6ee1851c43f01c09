/* cli_filter_syslog.c — CliFilterPlugins=syslog: each submission's
 * options and the SLURM_* / SPANK_* environment, as one JSON line to
 * syslog (ident "slurm/cli_filter/syslog", facility user, level info)
 * once the job exists.  Also the options' JSON for every filter.
 */
#include <string.h>
#include <syslog.h>

#include <json-c/json.h>

#include "cli/cli_filter_builtin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

extern char **environ;

char *cli_filter_options_json(cli_filter_options_t *o)
{
	json_object *j = json_object_new_object();
	const char *name, *v;
	char *out;

	for (size_t i = 0; (name = o->name_at(o, i)); i++)
		if ((v = o->get(o, name)))
			json_object_object_add(j, name,
					       json_object_new_string(v));
	out = xstrdup(json_object_to_json_string_ext(j,
						     JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return out;
}

static char *env_json(void)
{
	json_object *j = json_object_new_object();
	char *out;

	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char *k;

		if (!eq || (strncmp(*e, "SLURM_", 6) &&
			    strncmp(*e, "SPANK_", 6)))
			continue;
		k = xstrndup(*e, (size_t) (eq - *e));
		json_object_object_add(j, k, json_object_new_string(eq + 1));
		xfree(k);
	}
	out = xstrdup(json_object_to_json_string_ext(j,
						     JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return out;
}

static void sl_post_submit(cli_filter_options_t *o, int offset,
			   uint32_t job_id, uint32_t step_id)
{
	char *opts = cli_filter_options_json(o), *env = env_json();

	openlog("slurm/cli_filter/syslog", 0, LOG_USER);
	syslog(LOG_INFO, "post_submit: { \"jobid\":%u,\"stepid\":%u,"
	       "\"options\":%s,\"env\":%s}", job_id, step_id, opts, env);
	closelog();
	xfree(opts);
	xfree(env);
}

static const cli_filter_ops_t sl_ops = { .post_submit = sl_post_submit };
const struct sluice_plugin cli_filter_syslog_plugin = {
	.type = "cli_filter", .name = "syslog",
	.abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = CLI_FILTER_OPS_VERSION, .ops = &sl_ops,
};
