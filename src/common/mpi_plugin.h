/* mpi_plugin.h — MpiDefault and srun --mpi: which PMI the tasks get.
 *
 * Built in: mpi/none (nothing), mpi/pmi2 (a PMI-1/PMI-2 server in
 * slurmstepd on PMI_FD) and mpi/pmix with its versioned name mpi/pmix_v4
 * (an OpenPMIx server in slurmstepd); others are mpi_<name>.so in
 * PluginDir.  srun resolves --mpi (else MpiDefault) once per step before
 * it launches (on its main thread) and sends the ops' launch flags with
 * the tasks; slurmstepd starts the server those flags ask for.  An
 * out-of-tree mpi plugin therefore chooses among the stepd's servers: it
 * cannot bring its own.  No op runs code.
 */
#ifndef SLUICE_MPI_PLUGIN_H
#define SLUICE_MPI_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/plugin_ctx.h"

#define MPI_OPS_VERSION 1

typedef struct {
	/* LAUNCH_PMI, LAUNCH_PMIX (msg_types.h) or 0: the server slurmstepd
	 * runs for the step's tasks; SLURM_MPI_TYPE names the plugin. */
	uint16_t launch_flags;
} mpi_ops_t;

extern const plugin_type_t mpi_type;

/* The launch flags of name ("pmi2", "mpi/pmi2"; NULL or "" is "none"),
 * given by srun's --mpi (option) or MpiDefault: 0 and *flags, or -1 with
 * Slurm's "cannot create mpi context for mpi/<name>" in err. */
int   mpi_plugin_flags(const char *name, bool option, const char *plugin_dir,
		       uint16_t *flags, char *err, size_t errlen);
/* srun --mpi=list: the built-ins and the mpi_*.so of plugin_dir, as
 * Slurm prints them (xmalloc'd). */
char *mpi_plugin_list(const char *plugin_dir);

#endif
