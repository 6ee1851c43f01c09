/* srun_int.h — what srun.c, srun_launch.c and srun_het.c share: srun's
 * state for one step (or one component of a het step) and the steps of
 * creating and launching it. */
#ifndef SLUICE_CLI_SRUN_INT_H
#define SLUICE_CLI_SRUN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli_opt.h"
#include "cli/cli_x11.h"
#include "cli/srun.h"
#include "common/msg_types.h"

typedef struct {
	cli_job_opts_t o;
	srun_opts_t    so;
	char         **argv;       /* the command */
	uint32_t       job_id;
	bool           own_alloc;
	char          *my_addr;    /* what the nodes connect back to */
	int            listen_fd;
	uint16_t       port;
	char          *mp_text;    /* --multi-prog file's text */
	uint16_t       mpi_flags;  /* the mpi plugin's LAUNCH_PMI* */
	char          *bcast_dest; /* --bcast: the copy the nodes run */
	bool           bcast_per_node; /* ... with the node's name after */
	char          *bcast_libdir;   /* --send-libs: its libraries */
	cli_x11_t      x11;        /* --x11 (or salloc's): the relay */
	/* one component of a het step (srun_het.c); het_total 0: none */
	uint32_t       het_group;  /* its group in the het allocation */
	uint32_t       want_step_id; /* NO_VAL32, or the first one's id */
	uint32_t       het_total;  /* tasks of every component */
	uint32_t       task_off;   /* its first task's global id */
	uint32_t       node_off;   /* its first node's index in the step */
	const char    *het_mapping; /* PMI_process_mapping of the whole */
	const char    *het_io_key; /* its key (srun knows the component) */
	const char    *het_pmi_id; /* the PMI job id all components share */
} srun_t;

/* srun.c */
/* srun's options for one component (main: the first, with SPANK and
 * --help); the index of its command (or of ':' or argc) in argv. */
int    srun_parse_opts(srun_t *r, int argc, char **argv, char **envp,
		       bool main);
/* r->argv: argv[first] up to a ':'; the index of that ':' (or argc). */
int    srun_take_command(srun_t *r, int argc, char **argv, int first);
job_step_create_response_msg_t *srun_create(srun_t *r);
char **srun_step_env(srun_t *r, const job_step_create_response_msg_t *s,
		     const uint32_t *counts);
/* SrunProlog and the local SPANK plugins before the launch (-1: the
 * step must not run); SrunEpilog after it. */
int    srun_pre_launch(srun_t *r, const job_step_create_response_msg_t *s,
		       char ***env);
void   srun_post_run(srun_t *r, char **env);
void   srun_abort_step(const job_step_create_response_msg_t *s);
/* What a component holds (not r itself). */
void   srun_free(srun_t *r);

/* srun_launch.c */
void   srun_say_layout(const job_step_create_response_msg_t *s);
bool   srun_per_task(const char *pat);
int    srun_local_out(srun_t *r, const char *pat, uint32_t step_id,
		      int dflt);
/* PMI_process_mapping of ntasks tasks, task_node[t] the node of t. */
char  *srun_pmi_mapping(const uint32_t *task_node, uint32_t ntasks);
/* Node of each of s's tasks (counts[n] on node n, laid out by r's -m):
 * task_node[r->task_off + t] = r->node_off + node. */
void   srun_task_nodes(const srun_t *r,
		       const job_step_create_response_msg_t *s,
		       const uint32_t *counts, uint32_t *task_node);
/* Send s's REQUEST_LAUNCH_TASKS to its nodes; st->task_node is filled
 * (allocated when r is not a het step component).  0 or the first
 * node's error (printed). */
int    srun_launch(srun_t *r, job_step_create_response_msg_t *s,
		   srun_step_t *st, char **env);

/* srun_het.c */
/* srun's environment as het group g sees it: each SLURM_X_HET_GROUP_<g>
 * is also SLURM_X (xstrarray_free). */
char **srun_het_group_env(uint32_t g);
/* The components of a het step: argv[colon] is the first ':' of
 * "srun A : B" (else colon is 0 and groups[0..ngroups) are
 * --het-group's); *comps[0] is r (parsed already), the others are read
 * from argv with their group's environment.  Exits on bad input. */
void   srun_het_parse(srun_t *r, int argc, char **argv, int colon,
		      const uint32_t *groups, size_t ngroups,
		      srun_t ***comps, size_t *n);
/* One step over the components c[0..n) of the het allocation srun runs
 * in; srun's exit code. */
int    srun_het_run(srun_t **c, size_t n);

#endif
