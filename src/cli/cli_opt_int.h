/* cli_opt_int.h — the option table's row type, shared by cli_opt.c (the
 * parsers) and cli_opt_set.c (the table and its setters).  Private to
 * the option parser.
 */
#ifndef SLUICE_CLI_OPT_INT_H
#define SLUICE_CLI_OPT_INT_H

#include <stddef.h>

#include "cli/cli_opt.h"

/* Options that set the same thing share an id, so precedence between
 * sources works across them (--mem vs --mem-per-cpu, --requeue vs
 * --no-requeue, --exclusive vs --oversubscribe). */
enum cli_opt_id {
	OPT_ACCOUNT = 1, OPT_ARRAY, OPT_CLUSTERS, OPT_NTASKS_PER_GPU, OPT_BEGIN, OPT_CHDIR, OPT_COMMENT,
	OPT_CONSTRAINT, OPT_CONTAINER, OPT_CONTIGUOUS, OPT_SPREAD_JOB, OPT_OVERCOMMIT, OPT_CHECKPOINT, OPT_CPUS_PER_GPU,
	OPT_CPUS_PER_TASK, OPT_CORES_PER_SOCKET, OPT_DEADLINE, OPT_DEPENDENCY,
	OPT_ERROR, OPT_EXCLUDE, OPT_EXPORT, OPT_GET_USER_ENV, OPT_GID,
	OPT_GPUS, OPT_GPUS_PER_NODE, OPT_GPUS_PER_TASK, OPT_GRES, OPT_HELP,
	OPT_HOLD, OPT_IGNORE_PBS, OPT_IMMEDIATE, OPT_INPUT, OPT_JOB_NAME,
	OPT_KILL_INV_DEP, OPT_LICENSES, OPT_MAIL_TYPE, OPT_MAIL_USER, OPT_MEM,
	OPT_MEM_PER_GPU, OPT_MINCPUS, OPT_NICE, OPT_NO_KILL, OPT_NODELIST,
	OPT_NODES, OPT_NTASKS, OPT_NTASKS_PER_CORE, OPT_NTASKS_PER_NODE,
	OPT_OPEN_MODE, OPT_OUTPUT, OPT_PARSABLE, OPT_PARTITION, OPT_PRIORITY,
	OPT_PROPAGATE, OPT_QOS, OPT_QUIET, OPT_REQUEUE, OPT_RESERVATION,
	OPT_SHARED, OPT_SIGNAL, OPT_SOCKETS_PER_NODE, OPT_TEST_ONLY,
	OPT_THREADS_PER_CORE, OPT_TIME, OPT_TIME_MIN, OPT_TMP, OPT_UID,
	OPT_USAGE, OPT_VERBOSE, OPT_VERSION, OPT_WAIT, OPT_WCKEY, OPT_WRAP, OPT_EXPORT_FILE, OPT_IGNORED,
	OPT_REFUSED, OPT_DISTRIBUTION, OPT_SPEC, OPT_HINT, OPT_PROFILE,
	OPT_SWITCHES, OPT_SEGMENT,
	OPT_ACCTG_FREQ, OPT_X11, OPT_GPU_BIND,
	OPT_ID_END
};

typedef struct cli_opt_def cli_opt_def_t;
typedef int (*cli_opt_set_f)(cli_job_opts_t *o, const char *arg,
			     const cli_opt_def_t *d);

struct cli_opt_def {
	const char   *name;       /* long name, no dashes */
	int           short_opt;  /* 0 = none */
	int           has_arg;    /* getopt's no_/required_/optional_argument */
	int           id;         /* enum cli_opt_id */
	unsigned      cmds;       /* cli_cmd_t mask */
	const char   *env[3];     /* input variable for sbatch, salloc, srun
				   * ("A|B": the first one set) */
	cli_opt_set_f set;
	size_t        off;        /* string fields: offsetof(job_desc_t, f) */
	const char   *why;        /* OPT_IGNORED (warned: has no effect) and
				   * OPT_REFUSED (an error): why; else NULL,
				   * the option acts as Slurm's */
};

extern const cli_opt_def_t cli_opt_table[];
extern const size_t cli_opt_table_len;

/* Apply one row's value from src unless a higher source set it: 0, or
 * -1 after the setter printed the error (cli_opt.c). */
int  cli_opt_apply(cli_job_opts_t *o, const cli_opt_def_t *d,
		   const char *arg, cli_src_t src);
/* Remember the value as given (cli_opt_raw.c). */
void cli_opt_raw_note(cli_job_opts_t *o, const cli_opt_def_t *d,
		      const char *arg);

#endif
