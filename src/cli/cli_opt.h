/* cli_opt.h — the one table of job-request options shared by sbatch (and
 * later srun and salloc).
 *
 * Each row names a long option, its short letter, whether it takes an
 * argument, the input environment variable per command (SBATCH_*,
 * SALLOC_*, SLURM_*) and a setter that checks the value and stores it in
 * the request (cli_job_opts_t.desc) or in the command-side fields.
 *
 * Three sources fill one cli_job_opts_t, with Slurm's precedence:
 * command line > input environment > "#SBATCH" script directives.  Each
 * option remembers which source set it; a lower source never overrides a
 * higher one, so the sources may be read in any order.
 *
 * A setter that rejects a value prints "prog: error: ..." and the parse
 * function returns -1: the caller exits 255 as Slurm does.
 */
#ifndef SLUICE_CLI_OPT_H
#define SLUICE_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job_info.h"

typedef enum {
	CLI_CMD_SBATCH = 0x1,
	CLI_CMD_SALLOC = 0x2,
	CLI_CMD_SRUN   = 0x4,
} cli_cmd_t;

typedef enum {
	CLI_SRC_NONE = 0,
	CLI_SRC_SCRIPT,      /* #SBATCH lines */
	CLI_SRC_ENV,         /* SBATCH_* variables */
	CLI_SRC_ARGV,        /* the command line */
} cli_src_t;

#define CLI_OPT_MAX 128   /* more than the number of option ids */

struct option;
typedef struct cli_job_opts cli_job_opts_t;
/* A command's own options outside the shared table (srun's --label ...):
 * they are matched before the table's.  Their getopt vals must be below
 * 0x100 (a short letter, or 0x80-0xff for long-only ones); cb gets the
 * val and the argument and returns 0 or -1 (error already printed). */
typedef int (*cli_extra_opt_f)(cli_job_opts_t *o, int val, const char *arg);

struct cli_job_opts {
	job_desc_t desc;          /* what goes to the controller */
	cli_cmd_t  cmd;
	const char *prog;         /* "sbatch", for messages */

	int        verbose;       /* -v count */
	int        quiet;         /* -Q count */
	bool       help;
	bool       usage;
	bool       version;
	bool       parsable;
	bool       wait;
	bool       test_only;
	bool       get_user_env;
	bool       kill_on_invalid_dep;
	bool       ignore_pbs;
	bool       uid_set;
	bool       gid_set;
	char      *wrap;          /* --wrap command */
	char      *export_file;   /* --export-file file or descriptor */
	int        immediate;     /* -1, or --immediate[=secs]: 0 = bare */
	char      *propagate;     /* --propagate[=rlimits] */
	char      *gpus;          /* --gpus (tres per job) */
	char      *signal;        /* --signal as given */
	char      *clusters;      /* -M/--clusters as given */
	char      *distribution;  /* -m as given: SLURM_DISTRIBUTION of the
				   * job's steps (sbatch, salloc) */
	uint32_t   ntasks_per_gpu;
	char      *gpu_bind;      /* --gpu-bind as given (checked): the
				   * steps' SLURM_GPU_BIND */
	uint16_t   x11;           /* --x11[=all|first|last]: X11_FORWARD_*
				   * (common/x11_fwd.h), 0 = none */

	struct spank_stack *spank; /* SPANK plugins' options, or NULL */
	bool       quiet_getopt;  /* do not print getopt's messages (fuzzing) */
	cli_src_t  cur_src;       /* source of the option being applied */
	uint8_t    mem_kind_src[3];   /* --mem, --mem-per-cpu, --mem-per-gpu */
	uint8_t    set_by[CLI_OPT_MAX];   /* cli_src_t per option id */

	char     **raw;           /* per table row: the value as given
				   * (cli_opt_raw.c), for cli_filter */

	const struct option *extra_long;  /* NULL-name-terminated, or NULL */
	const char *extra_short;          /* getopt letters of extra_long */
	cli_extra_opt_f extra_cb;
	void      *extra_ctx;             /* for the callback */
};

void cli_opt_init(cli_job_opts_t *o, cli_cmd_t cmd, const char *prog);
void cli_opt_free(cli_job_opts_t *o);

/* Command line: options until the first non-option argument (the script).
 * On success returns 0 and *first_arg = index of the first non-option
 * argument (== argc if none).  Returns -1 after printing the error (an
 * unknown option prints getopt's text and 'Try "prog --help" for more
 * information'). */
int  cli_opt_parse_argv(cli_job_opts_t *o, int argc, char **argv,
			int *first_arg);
/* The exit status for the option error just reported, as Slurm's
 * sbatch, srun and salloc give it: 1 for a malformed number, else 255. */
int  cli_opt_err_exit(void);
/* Slurm's error for a malformed number ('Invalid numeric value "x" for
 * --name.'); the exit status becomes 1.  Returns -1. */
int  cli_opt_bad_number(const char *arg, const char *name);
/* -m/--distribution's grammar: block|cyclic|arbitrary|plane=N|*, then up
 * to two of block|cyclic|fcyclic|* after ':', then ,Pack or ,NoPack. */
bool cli_dist_valid(const char *arg);
/* Input environment variables (envp NULL-terminated, "K=V").  A bad
 * value is refused as the option's would be (Slurm's commands stop with
 * the option's error: exit with cli_opt_err_exit()); 0 or -1. */
int  cli_opt_parse_env(cli_job_opts_t *o, char *const *envp);
/* "#SBATCH" lines of the script's leading comment block (prefix is
 * "#SBATCH").  0 or -1. */
int  cli_opt_parse_script(cli_job_opts_t *o, const char *script, size_t len,
			  const char *prefix);

/* -M/--clusters of srun and salloc (cli_clusters.c): the cluster
 * (of several, where the job starts first) that gets the requests from
 * now on; -1 with Slurm's errors printed.  mine is unused. */
int  cli_opt_check_clusters(const cli_job_opts_t *o, const char *mine);
/* The same for a one-cluster command's -M (scontrol, sprio, sshare,
 * sdiag, strigger): several clusters are refused.  0 for NULL. */
int  cli_check_clusters(const char *list, const char *mine);

/* Checks across options once every source was read (Slurm's warnings,
 * e.g. fewer tasks than nodes lowers the node count).  0 or -1. */
int  cli_opt_validate(cli_job_opts_t *o);
/* --begin after --deadline: "Incompatible begin and deadline time
 * specification" (srun calls it alone; cli_opt_validate calls it). */
int  cli_opt_check_times(const cli_job_opts_t *o);

/* sbatch: the script's "#SBATCH" lines (of its leading comment block),
 * one text per heterogeneous job component: "#SBATCH hetjob" (or the
 * older "#SBATCH packjob") starts the next.  *n (>= 1) texts, each for
 * cli_opt_parse_script; a NULL-terminated array (xstrarray_free). */
char **cli_opt_het_sections(const char *script, size_t len, size_t *n);
/* sbatch, salloc: what heterogeneous job component d takes from the one
 * before it (prev) unless it sets it (Slurm's hetjob guide's list). */
void   cli_opt_het_propagate(job_desc_t *d, const job_desc_t *prev);

/* Split one directive's text into arguments (quotes removed, an unquoted
 * '#' word ends the line).  Returns a NULL-terminated array (xstrarray_free). */
char **cli_opt_split_directive(const char *text, size_t len);

/* sbatch: the script's #PBS (else #BSUB) directives as the sbatch options
 * they stand for, over its #SBATCH lines, unless --ignore-pbs
 * (cli_opt_wrpr.c).  0, or -1 after an error message. */
int  cli_opt_parse_wrapper(cli_job_opts_t *o, const char *script, size_t len);

/* Parse a signal name ("TERM", "SIGUSR1", "9"); -1 if unknown. */
int  cli_opt_signal_from_string(const char *s);

/* The options by long name, as cli_filter plugins see them
 * (cli_opt_raw.c): the value of an option as it was given ("set" for a
 * flag), or NULL when no source set it. */
const char *cli_opt_raw_get(const cli_job_opts_t *o, const char *name);
/* Set an option by long name from src, through its setter.  0; 1 when
 * this command has no such option; -1 after the setter's error. */
int  cli_opt_set_named(cli_job_opts_t *o, const char *name, const char *arg,
		       cli_src_t src);
/* i-th long option name this command takes, NULL past the end. */
const char *cli_opt_name_at(const cli_job_opts_t *o, size_t i);
void cli_opt_raw_free(cli_job_opts_t *o);

/* sbatch --help / --usage text. */
/* Where option name (long name, "gres") was set from; CLI_SRC_NONE if
 * not set or unknown. */
cli_src_t cli_opt_source(const cli_job_opts_t *o, const char *name);
void cli_opt_print_help(const cli_job_opts_t *o);
void cli_opt_print_usage(const cli_job_opts_t *o);

#endif
