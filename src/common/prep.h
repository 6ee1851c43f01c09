/* prep.h — PrEpPlugins: what runs around a job (Slurm's prep plugins).
 *
 * Built in: prep/script (Slurm 25.05's default), which runs the programs
 * slurm.conf names: Prolog and Epilog on the nodes (slurmd and
 * slurmstepd, PrologFlags as usual), PrologSlurmctld and EpilogSlurmctld
 * in the controller.  A PrEpPlugins value that does not list it (e.g. only
 * a site's prep_x.so) runs none of those programs, as in Slurm.  Others
 * are prep_<name>.so in PluginDir.
 *
 * The op only names a program: the daemons run it as they run every
 * script (environment, user, timeouts, the controller's script helper
 * process), so it is called on their event loops and must not block or
 * run anything itself.  Where several plugins name a program for the
 * same event, the first in PrEpPlugins order is run.
 */
#ifndef SLUICE_PREP_H
#define SLUICE_PREP_H

#include <stddef.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

#define PREP_OPS_VERSION 1

typedef enum {
	PREP_PROLOG,              /* on each node, before the job's first step */
	PREP_EPILOG,              /* on each node, after the job */
	PREP_PROLOG_SLURMCTLD,    /* in the controller, at allocation */
	PREP_EPILOG_SLURMCTLD,    /* in the controller, at the end */
} prep_event_t;

typedef struct {
	/* The program to run for ev under conf, or NULL (nothing to run).
	 * conf is the daemon's current configuration. */
	const char *(*program)(const slurm_conf_t *conf, prep_event_t ev);
} prep_ops_t;

extern const plugin_type_t prep_type;

/* The program to run for ev: the first plugin of c's PrEpPlugins that
 * names one; NULL when none does or the value does not resolve (logged
 * once; the daemons refuse such a value at start and reconfigure). */
const char *prep_program(const slurm_conf_t *c, prep_event_t ev);

#endif
