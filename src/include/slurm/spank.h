/* spank.h — the SPANK plugin API (Slurm Plug-in Architecture for Node and
 * job Kontrol), as Slurm 25.05 offers it to site plugins.
 *
 * A plugin is a shared object listed in plugstack.conf.  It says who it is
 * with SPANK_PLUGIN(name, version), defines any of the slurm_spank_*
 * callbacks below, and calls the spank_* functions, which the host program
 * (sbatch, slurmstepd, ...) provides from libslurmfull.  Names, types,
 * enumeration orders and values match Slurm's so that existing plugins
 * build unchanged; see doc/spank.md for what Sluice runs where.
 */
#ifndef SPANK_H
#define SPANK_H

#include <stdint.h>
#include <sys/types.h>

#include <slurm/slurm_errno.h>
#include <slurm/slurm_version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- handle and callback type ------------------------------------- */

typedef struct spank_handle *spank_t;

/* Every slurm_spank_* callback: ac/argv are the arguments written after
 * the plugin's path in plugstack.conf.  Return 0, or a negative value /
 * ESPANK_* code on failure. */
typedef int (spank_f)(spank_t spank, int ac, char *argv[]);

/* Callbacks, by where they run:
 *
 *   init                  all contexts, after the plugin is loaded
 *   job_prolog            job_script (Prolog), as root
 *   init_post_opt         local, allocator, remote: options are known
 *   local_user_init       local (srun), before the step is created
 *   user_init             remote, as the user, before tasks start
 *   task_init_privileged  remote, in each task, still privileged
 *   task_init             remote, in each task, as the user, before exec
 *   task_post_fork        remote, in slurmstepd after each task's fork
 *   task_exit             remote, in slurmstepd as each task ends
 *   job_epilog            job_script (Epilog), as root
 *   slurmd_exit           slurmd, as it exits
 *   exit                  all contexts, before the plugin is unloaded
 */
extern spank_f slurm_spank_init;
extern spank_f slurm_spank_job_prolog;
extern spank_f slurm_spank_init_post_opt;
extern spank_f slurm_spank_local_user_init;
extern spank_f slurm_spank_user_init;
extern spank_f slurm_spank_task_init_privileged;
extern spank_f slurm_spank_task_init;
extern spank_f slurm_spank_task_post_fork;
extern spank_f slurm_spank_task_exit;
extern spank_f slurm_spank_job_epilog;
extern spank_f slurm_spank_slurmd_exit;
extern spank_f slurm_spank_exit;

/* ---- items (spank_get_item) ---------------------------------------- *
 * The order is part of the ABI.  The trailing comment gives the variadic
 * arguments each item takes. */
enum spank_item {
	S_JOB_UID,                /* uid_t * */
	S_JOB_GID,                /* gid_t * */
	S_JOB_ID,                 /* uint32_t * */
	S_JOB_STEPID,             /* uint32_t * */
	S_JOB_NNODES,             /* uint32_t * */
	S_JOB_NODEID,             /* uint32_t * */
	S_JOB_LOCAL_TASK_COUNT,   /* uint32_t * */
	S_JOB_TOTAL_TASK_COUNT,   /* uint32_t * */
	S_JOB_NCPUS,              /* uint16_t * */
	S_JOB_ARGV,               /* int *argc, char ***argv */
	S_JOB_ENV,                /* char ***env */
	S_TASK_ID,                /* int * (local task id) */
	S_TASK_GLOBAL_ID,         /* uint32_t * */
	S_TASK_EXIT_STATUS,       /* int * (wait status) */
	S_TASK_PID,               /* pid_t * */
	S_JOB_PID_TO_GLOBAL_ID,   /* pid_t, uint32_t * */
	S_JOB_PID_TO_LOCAL_ID,    /* pid_t, uint32_t * */
	S_JOB_LOCAL_TO_GLOBAL_ID, /* uint32_t, uint32_t * */
	S_JOB_GLOBAL_TO_LOCAL_ID, /* uint32_t, uint32_t * */
	S_JOB_SUPPLEMENTARY_GIDS, /* gid_t **, int * */
	S_SLURM_VERSION,          /* char ** */
	S_SLURM_VERSION_MAJOR,    /* char ** */
	S_SLURM_VERSION_MINOR,    /* char ** */
	S_SLURM_VERSION_MICRO,    /* char ** */
	S_STEP_CPUS_PER_TASK,     /* uint32_t * */
	S_JOB_ALLOC_CORES,        /* char ** (cpu list, "0-3") */
	S_JOB_ALLOC_MEM,          /* uint64_t * (MB) */
	S_STEP_ALLOC_CORES,       /* char ** */
	S_STEP_ALLOC_MEM,         /* uint64_t * (MB) */
	S_SLURM_RESTART_COUNT,    /* uint32_t * */
	S_JOB_ARRAY_ID,           /* uint32_t * */
	S_JOB_ARRAY_TASK_ID,      /* uint32_t * */
};
typedef enum spank_item spank_item_t;

/* ---- contexts ------------------------------------------------------- */

enum spank_context {
	S_CTX_ERROR,       /* unknown */
	S_CTX_LOCAL,       /* srun */
	S_CTX_REMOTE,      /* slurmstepd */
	S_CTX_ALLOCATOR,   /* sbatch, salloc, scrontab */
	S_CTX_SLURMD,      /* slurmd */
	S_CTX_JOB_SCRIPT,  /* Prolog / Epilog */
};
typedef enum spank_context spank_context_t;

#define HAVE_S_CTX_SLURMD 1
#define HAVE_S_CTX_JOB_SCRIPT 1

/* ---- errors --------------------------------------------------------- */

typedef int spank_err_t;   /* ESPANK_* from <slurm/slurm_errno.h> */

/* ---- plugin identity ------------------------------------------------ */

#define SPANK_PLUGIN(__name, __ver)                                     \
	const char plugin_name[] = #__name;                             \
	const char plugin_type[] = "spank";                             \
	const unsigned int plugin_version = SLURM_VERSION_NUMBER;       \
	const unsigned int spank_plugin_version = __ver;

/* In a plugin: what a failing slurm_spank_init in the remote context
 * does to the job (ESPANK_NODE_FAILURE: drain and requeue;
 * ESPANK_JOB_FAILURE: fail the job). */
extern int slurm_spank_init_failure_mode;

/* ---- options -------------------------------------------------------- */

/* val: the option's val field; optarg: its argument or NULL; remote:
 * nonzero when called in slurmstepd. */
typedef int (*spank_opt_cb_f)(int val, const char *optarg, int remote);

struct spank_option {
	char *name;            /* long option, without "--" */
	char *arginfo;         /* argument name for --help, or NULL */
	char *usage;           /* --help text */
	int has_arg;           /* 0 none, 1 required, 2 optional */
	int val;               /* passed to cb */
	spank_opt_cb_f cb;     /* called when the option is seen */
};

#define SPANK_OPTIONS_TABLE_END { NULL, NULL, NULL, 0, 0, NULL }
#define SPANK_OPTION_MAXLEN 75

/* A plugin may define this table instead of calling
 * spank_option_register(). */
extern struct spank_option spank_options[];

/* ---- functions ------------------------------------------------------ */

/* Register an option; call from slurm_spank_init in the contexts that
 * have options (local, allocator, remote). */
spank_err_t spank_option_register(spank_t spank, struct spank_option *opt);

/* After options are processed: ESPANK_SUCCESS if opt was given (*optarg
 * then points to its argument, or NULL), ESPANK_ERROR if not. */
spank_err_t spank_option_getopt(spank_t spank, struct spank_option *opt,
				char **optarg);

/* Read an item; see enum spank_item for the arguments. */
spank_err_t spank_get_item(spank_t spank, spank_item_t item, ...);

/* The job's (or in a task, the task's) environment. */
spank_err_t spank_getenv(spank_t spank, const char *var, char *buf, int len);
spank_err_t spank_setenv(spank_t spank, const char *var, const char *val,
			 int overwrite);
spank_err_t spank_unsetenv(spank_t spank, const char *var);

/* Variables passed to the Prolog and Epilog (there prefixed SPANK_);
 * local and allocator contexts only. */
spank_err_t spank_job_control_setenv(spank_t spank, const char *var,
				     const char *val, int overwrite);
spank_err_t spank_job_control_getenv(spank_t spank, const char *var,
				     char *buf, int len);
spank_err_t spank_job_control_unsetenv(spank_t spank, const char *var);

/* In task_init (and task_init_privileged): put argv in front of the
 * task's command. */
spank_err_t spank_prepend_task_argv(spank_t spank, int argc,
				    const char *argv[]);

/* 1 in slurmstepd (remote), 0 elsewhere, -1 for a bad handle. */
int spank_remote(spank_t spank);

/* The context the plugin stack runs in. */
spank_context_t spank_context(void);

/* 1 if the host offers the symbol (a callback or a function), else 0;
 * -1 if name is NULL. */
int spank_symbol_supported(const char *symbol);

/* Text for an ESPANK_* code. */
const char *spank_strerror(spank_err_t err);

/* ---- logging -------------------------------------------------------- */

extern void slurm_info(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
extern void slurm_error(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
extern void slurm_verbose(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
extern void slurm_debug(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
extern void slurm_debug2(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
extern void slurm_debug3(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
/* Printed as is, without "plugin: " prefix or level (the user sees it). */
extern void slurm_spank_log(const char *format, ...)
	__attribute__((format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif

#endif
