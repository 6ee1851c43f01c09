/* cli_env.h — the environment a job takes with it (--export).
 *
 * spec NULL or "ALL": the whole environment.  "NONE": only the SLURM_*
 * variables.  "NIL": nothing.  "ALL,A=b": everything, with A set to b.
 * "A,B=c": the SLURM_* variables, A with its current value, B=c.
 */
#ifndef SLUICE_CLI_ENV_H
#define SLUICE_CLI_ENV_H

/* NULL-terminated "K=V" array; free with xstrarray_free(). */
char **cli_env_export(const char *spec, char *const *envp);
/* Set (replace or append) name=value in a NULL-terminated array; returns
 * the new array. */
char **cli_env_set(char **env, const char *name, const char *value);
/* sbatch --export-file: the "NAME=value" definitions read from spec (a
 * file name, or a number 3 and up: a descriptor open for reading), split
 * at NUL bytes, or at newlines if the content has none, set in env
 * (replacing what it had).  NULL with *env untouched and Slurm's message
 * printed if spec cannot be read. */
char **cli_env_merge_file(char **env, const char *spec);
/* PropagateResourceLimits: SLURM_RLIMIT_* of this process's limits that
 * --propagate (propagate, NULL if not given) or else the config names
 * (rlimits.h).  NULL after Slurm's message if either names no limit. */
struct slurm_conf;
char **cli_env_rlimits(char **env, const char *propagate,
		       const struct slurm_conf *conf);
/* Value of name in env, or NULL. */
const char *cli_env_get(char *const *env, const char *name);

#endif
