/* srun.h — srun's modules: options (srun_opt.c), task layout
 * (srun_layout.c), the allocation it may create (cli_alloc.h), launching
 * the tasks and the I/O with every node (srun_io.c). */
#ifndef SLUICE_CLI_SRUN_H
#define SLUICE_CLI_SRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli_opt.h"
#include "common/msg_types.h"

typedef struct {
	bool      label;          /* -l */
	bool      unbuffered;     /* -u */
	bool      exact;
	bool      overlap;
	int       kill_bad_exit;  /* -K: 1 or 0; -1: KillOnBadExit */
	int       wait_sec;       /* -W, 0 = no limit; -1: WaitTime */
	char     *prolog;         /* --prolog, --epilog; NULL: SrunProlog, */
	char     *epilog;         /* SrunEpilog; "none": none */
	uint16_t  relative;       /* -r, NO_VAL16 */
	uint16_t  dist;           /* enum step_dist, 0 = not given */
	uint16_t  plane;
	char     *dist_str;       /* as given, for SLURM_DISTRIBUTION */
	char     *mpi;
	uint32_t  jobid;          /* --jobid, 0 = none */
	bool      het;
	char     *het_group;      /* --het-group as given */
	bool      mpi_no_combine; /* --mpi-combine=no */
	char     *cpu_bind;       /* --cpu-bind (checked), --task-prolog, */
	char     *task_prolog;    /* --task-epilog: for slurmstepd */
	char     *task_epilog;
	bool      multi_prog;     /* the command is a --multi-prog file */
	bool      pty;            /* --pty */
	bool      preserve_env;   /* -E: the tasks keep the job's
				   * SLURM_NTASKS/SLURM_NNODES */
	bool      debugger_test;  /* --debugger-test: tasks stay stopped at
				   * their exec; srun prints where they are */
	uint16_t  resv_ports;     /* --resv-ports[=count]: NO_VAL16 not
				   * given, 0 none, else the count */
	bool      bcast;          /* --bcast[=dest] */
	char     *bcast_dest;     /* NULL: slurm_bcast_J.S_node in cwd */
	char     *bcast_exclude;  /* --bcast-exclude */
	uint16_t  compress;       /* --compress[=lib]: BCAST_COMPRESS_* */
	bool      send_libs;      /* --send-libs[=yes|no] */
	bool      compress_set;   /* --compress / --send-libs given: */
	bool      send_libs_set;  /* BcastParameters does not apply */
	char     *bcast_dir;      /* BcastParameters DestDir=, or NULL */
} srun_opts_t;

/* Install srun's own options into o (o->extra_*, ctx = so). */
void srun_opt_setup(cli_job_opts_t *o, srun_opts_t *so);
/* srun's own input variables (SLURM_LABELIO, SLURM_DISTRIBUTION, ...);
 * read before the command line, which overrides them. */
int  srun_opt_parse_env(cli_job_opts_t *o, char *const *envp);

/* Options the config gives a default (KillOnBadExit, WaitTime,
 * SrunProlog, SrunEpilog), where the command line and environment gave
 * none. */
struct slurm_conf;
void srun_opt_conf_defaults(srun_opts_t *so, const struct slurm_conf *c);
/* SrunProlog/SrunEpilog: run path (NULL, "" or "none": nothing) with the
 * step's command line as its arguments, env plus SLURM_SCRIPT_CONTEXT
 * (prolog_srun, epilog_srun); its wait() status, 0 when skipped (a path
 * srun may not execute is skipped, as Slurm), -1 if it could not run. */
int  srun_script_run(const char *path, const char *context,
		     char *const *argv, char *const *env);

/* Global task ids per node, as Slurm lays them out: block, cyclic or
 * plane (of plane_size).  counts[n] tasks on node n; out[n] gets an
 * xmalloc'd array of counts[n] ids.  */
void srun_layout(uint16_t dist, uint16_t plane_size, const uint32_t *counts,
		 uint32_t nodes, uint32_t **out);
/* Comma-separated counts "2,2,1" -> array; -1 if malformed. */
int  srun_parse_counts(const char *s, uint32_t n, uint32_t *out);

/* srun --bcast (srun_bcast.c): copy the executable exe (searched in
 * PATH) to the nodes of job_id.step_id before the launch.  *dest gets
 * the path the nodes run (xmalloc'd; with *per_node the node's name
 * follows it), and with --send-libs *libdir the directory of its
 * libraries (else NULL).  0, or -1 with the error printed. */
int  srun_bcast(const srun_opts_t *so, const char *exe, const char *work_dir,
		uint32_t job_id, uint32_t step_id, char **dest, bool *per_node,
		char **libdir);

/* A het step's component, as the I/O loop sees it: its srun options
 * (-l, -K, -W apply per component, as Slurm's) and where its output
 * goes (its own -o/-e). */
typedef struct {
	const srun_opts_t *so;
	int        out_fd;
	int        err_fd;
} srun_comp_io_t;

/* What the I/O loop needs. */
typedef struct {
	const srun_opts_t *so;
	uint32_t   job_id;
	uint32_t   step_id;
	uint32_t   node_cnt;
	char     **node_names;
	uint32_t   num_tasks;
	uint32_t  *task_node;     /* node index of each task */
	int        listen_fd;
	char      *io_key;
	int        in_task;       /* -1 = all, -2 = none, else the task */
	int        out_fd;        /* where stdout goes (1 or a file) */
	int        err_fd;
	const char *executable;   /* the command as given (--debugger-test) */
	/* a het step (srun_het.c): one I/O key per component, whose nodes
	 * are key_node_off[k] .. key_node_off[k + 1] - 1 of node_names;
	 * key_cnt 0: io_key alone */
	uint32_t   key_cnt;
	char     **keys;
	uint32_t  *key_node_off;
	const srun_comp_io_t *key_io;   /* per key, or NULL: so, out_fd, ... */
	bool       kill_now;      /* SIGKILL every node as it connects (a
				   * launch failed: reap what started) */
} srun_step_t;

/* Catch srun's signals from now on (queued until srun_io_run). */
void srun_io_signals_init(void);
/* SIGINT or SIGTERM caught so far (0 = none). */
int  srun_io_stop_signal(void);
/* Serve the step until every node is done; returns srun's exit code. */
int  srun_io_run(srun_step_t *s);

#endif
