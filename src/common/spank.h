/* spank.h — the SPANK host: plugstack.conf, loading site plugins, running
 * their callbacks in one context, and their options.
 *
 * A program makes one stack for its context (sbatch, salloc:
 * S_CTX_ALLOCATOR; srun: S_CTX_LOCAL; slurmstepd: S_CTX_REMOTE), runs the
 * callbacks in Slurm's order with
 * spank_stack_call(), and destroys it.  Plugins call back through the
 * functions of <slurm/spank.h>, which read what the host described in
 * spank_job_t / spank_task_t.  A stack with no plugstack.conf is empty and
 * every call on it succeeds, so callers need no special case.
 *
 * Option values travel between contexts in the environment as
 * _SLURM_SPANK_OPTION_<plugin>_<option> (characters other than letters and
 * digits become '_'); in a job's environment with a SLURM_SPANK_ prefix.
 */
#ifndef SLUICE_COMMON_SPANK_H
#define SLUICE_COMMON_SPANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "slurm/spank.h"

/* ---- plugstack.conf -------------------------------------------------- */

typedef struct {
	bool   required;
	char  *path;     /* absolute (relative ones resolved in PluginDir) */
	char **argv;     /* NULL-terminated: the words after the path */
	int    argc;
	char  *file;     /* where it was written, for messages */
	int    line;
} spank_conf_entry_t;

typedef struct {
	spank_conf_entry_t *ent;
	size_t              cnt;
} spank_conf_t;

/* Parse text as plugstack.conf named fname ("include" globs nest, up to a
 * depth limit).  plugin_dir is PluginDir (colon-separated, NULL: built-in
 * path).  0, or -1 with "file:line: message" in err and c left empty. */
int  spank_conf_parse_text(const char *text, size_t len, const char *fname,
			   const char *plugin_dir, spank_conf_t *c,
			   char *err, size_t errlen);
/* The same for a file; a missing file is an empty config. */
int  spank_conf_parse_file(const char *path, const char *plugin_dir,
			   spank_conf_t *c, char *err, size_t errlen);
void spank_conf_free(spank_conf_t *c);

/* ---- what the host tells plugins ------------------------------------- */

/* The job (remote context); NULL fields / zero counts are "not known". */
typedef struct {
	uint32_t  uid, gid;
	uint32_t  job_id, step_id;
	uint32_t  nnodes, node_id;
	uint32_t  local_task_count, total_task_count;
	uint16_t  ncpus;
	uint32_t  cpus_per_task;
	uint64_t  alloc_mem;          /* MB */
	char     *alloc_cores;        /* "0-3" */
	uint32_t  restart_count;
	uint32_t  array_job_id, array_task_id;
	const uint32_t *gtids;        /* global id of each local task, or
				       * NULL: local id = global id */
	char    **argv;               /* the job's command, NULL-terminated */
	char   ***env;                /* the job's environment (spank_*env) */
	gid_t    *gids;
	int       ngids;
} spank_job_t;

/* One task (remote context, task callbacks). */
typedef struct {
	int       local_id;
	uint32_t  global_id;
	pid_t     pid;
	int       exit_status;        /* wait status, in task_exit */
	char   ***env;                /* the task's environment */
	char   ***argv;               /* the task's command (prepend) */
} spank_task_t;

typedef enum {
	SPANK_CB_INIT = 0,
	SPANK_CB_JOB_PROLOG,
	SPANK_CB_INIT_POST_OPT,
	SPANK_CB_LOCAL_USER_INIT,
	SPANK_CB_USER_INIT,
	SPANK_CB_TASK_INIT_PRIVILEGED,
	SPANK_CB_TASK_INIT,
	SPANK_CB_TASK_POST_FORK,
	SPANK_CB_TASK_EXIT,
	SPANK_CB_JOB_EPILOG,
	SPANK_CB_SLURMD_EXIT,
	SPANK_CB_EXIT,
	SPANK_CB_COUNT
} spank_cb_t;

/* ---- the stack ------------------------------------------------------- */

typedef struct spank_stack spank_stack_t;

/* Load the plugins of conf_path (NULL or missing: none).  A required
 * plugin that cannot be loaded is an error: NULL, after logging why.
 * job may be NULL (allocator); it must outlive the stack. */
spank_stack_t *spank_stack_create(spank_context_t ctx, const char *conf_path,
				  const char *plugin_dir, spank_job_t *job);
void   spank_stack_destroy(spank_stack_t *s);
/* The job became known (srun's local context, once its step exists:
 * local_user_init on sees the job items Slurm gives there). */
void   spank_stack_set_job(spank_stack_t *s, spank_job_t *job);
size_t spank_stack_plugin_count(const spank_stack_t *s);

/* Run one callback in every plugin, in plugstack.conf order.  0, or -1
 * when a required plugin's callback failed (logged with Slurm's text);
 * optional plugins' failures are logged and ignored.  task: for the
 * task_* callbacks.  *init_failure (if not NULL) gets the failing
 * plugin's slurm_spank_init_failure_mode, or 0. */
int spank_stack_call(spank_stack_t *s, spank_cb_t cb, spank_task_t *task,
		     int *init_failure);

/* ---- options --------------------------------------------------------- */

size_t      spank_stack_option_count(const spank_stack_t *s);
const char *spank_stack_option_name(const spank_stack_t *s, size_t i);
int         spank_stack_option_has_arg(const spank_stack_t *s, size_t i);
/* The option was given (src: higher sources win, as cli_src_t): runs its
 * callback.  0, or -1 after "Invalid --name argument: arg". */
int  spank_stack_option_apply(spank_stack_t *s, size_t i, const char *arg,
			      int src);
/* Options given in env as _SLURM_SPANK_OPTION_* or
 * SLURM_SPANK__SLURM_SPANK_OPTION_*: applied with source src.  0 or -1. */
int  spank_stack_options_from_env(spank_stack_t *s, char *const *env, int src);
/* Add SLURM_SPANK__SLURM_SPANK_OPTION_<p>_<o>=<arg> for every given
 * option, and SLURM_SPANK_<var> for job-control variables; returns env. */
char **spank_stack_job_env(const spank_stack_t *s, char **env);
/* "Options provided by plugins:" block for --help (nothing if none). */
void spank_stack_print_options(const spank_stack_t *s, FILE *fp,
			       int left_pad, int width);

/* The option's env name: "_SLURM_SPANK_OPTION_<plugin>_<name>" with
 * non-alphanumerics as '_'.  Caller frees. */
char *spank_option_env_name(const char *plugin, const char *name);

#endif
