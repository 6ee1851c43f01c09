/* cli_filter_builtin.h — the cli_filter plugins built into the commands
 * (rows of cli_filter.c's built-ins).
 *
 *   user_defaults  ~/.slurm/defaults: lines "[<command>:][<cluster>:]
 *                  <option> = <value>" (one prefix is the cluster; command
 *                  is salloc, sbatch, srun or *; cluster is ClusterName
 *                  or *), each a default below every other source
 *   syslog         each submitted job's options, as JSON, to syslog
 */
#ifndef SLUICE_CLI_FILTER_BUILTIN_H
#define SLUICE_CLI_FILTER_BUILTIN_H

#include <stddef.h>

#include "cli/cli_filter.h"
#include "common/plugin.h"

extern const struct sluice_plugin cli_filter_user_defaults_plugin;
extern const struct sluice_plugin cli_filter_syslog_plugin;

/* One line of a defaults file for command and cluster: 1 and *key,
 * *value (pointers into line, which is changed) when it applies, 0 when
 * it does not (blank, comment, no '=', another command or cluster), -1
 * when its command is unknown (err set). */
int cli_filter_defaults_line(char *line, const char *command,
			     const char *cluster, char **key, char **value,
			     char *err, size_t errlen);

/* {"option":"value",...} of every option set (caller frees). */
char *cli_filter_options_json(cli_filter_options_t *o);

#endif
