/* spank_int.h — the SPANK host's private structures, shared by spank.c
 * (the stack) and spank_api.c (the functions plugins call).  Not for
 * other modules: they use common/spank.h.
 */
#ifndef SLUICE_COMMON_SPANK_INT_H
#define SLUICE_COMMON_SPANK_INT_H

#include "common/spank.h"

#define SPANK_HANDLE_MAGIC 0x5350414eu   /* "SPAN" */

typedef struct {
	char   *name;          /* plugin_name: names its options */
	char   *path;
	const char *file;      /* basename of path: names it in messages */
	bool    required;
	void   *dl;
	int     argc;
	char  **argv;
	spank_f *cb[SPANK_CB_COUNT];
	int    *failure_mode;  /* slurm_spank_init_failure_mode, if defined */
} spank_plugin_t;

typedef struct {
	struct spank_option opt;   /* our copy: strings owned */
	size_t  plugin;            /* index into plugins */
	bool    given;
	int     src;               /* source that gave it (cli_src_t) */
	char   *arg;               /* its argument, or NULL */
} spank_opt_t;

struct spank_stack {
	spank_context_t ctx;
	spank_job_t    *job;
	spank_plugin_t *plugins;
	size_t          nplugins;
	spank_opt_t    *opts;
	size_t          nopts;
	char          **jc_env;    /* job control variables, "K=V" */
};

struct spank_handle {
	uint32_t        magic;
	spank_stack_t  *stack;
	size_t          plugin;    /* plugin being called */
	spank_cb_t      cb;        /* callback being run */
	spank_task_t   *task;      /* task callbacks only */
};

/* Add an option for plugin p (spank_option_register, spank_options[]). */
int spank_stack_add_option(spank_stack_t *s, size_t p,
			   const struct spank_option *opt);
/* The stack the process runs (for spank_context(), logging). */
spank_stack_t *spank_current(void);

#endif
