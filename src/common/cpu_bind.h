/* cpu_bind.h — srun --cpu-bind values, as Slurm 22.05 spells them:
 * comma-separated words, one binding type plus verbose|quiet:
 *   none|no  cores  threads  sockets  ldoms  rank
 *   map_cpu:<id>[,<id>...]   mask_cpu:<hex>[,<hex>...]
 * (a list after map_cpu:/mask_cpu: runs to the end of the value; ids are
 * decimal or 0x-hex, masks hex with or without 0x).  srun checks the
 * value, slurmstepd (task/affinity) acts on it.
 */
#ifndef SLUICE_CPU_BIND_H
#define SLUICE_CPU_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	CPU_BIND_DEFAULT = 0,   /* nothing given */
	CPU_BIND_NONE,
	CPU_BIND_CORES,
	CPU_BIND_THREADS,
	CPU_BIND_SOCKETS,       /* ldoms too */
	CPU_BIND_RANK,
	CPU_BIND_MAP,
	CPU_BIND_MASK,
} cpu_bind_type_t;

#define CPU_BIND_MAX_LIST 1024

typedef struct {
	cpu_bind_type_t type;
	bool            verbose;
	uint32_t        cnt;      /* map_cpu ids / mask_cpu masks */
	uint64_t       *list;     /* masks cover CPUs 0-63 */
	char           *list_text; /* the list as written (map/mask) */
} cpu_bind_t;

/* 0, or -1 with Slurm's message in err ("unrecognized --cpu-bind
 * argument \"x\""); out is left empty then. */
int  cpu_bind_parse(const char *s, cpu_bind_t *out, char *err, size_t errlen);
void cpu_bind_free(cpu_bind_t *b);

#endif
