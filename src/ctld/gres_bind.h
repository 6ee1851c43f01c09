/* gres_bind.h — GPUs and the cores they are bound to (gres.conf Cores=).
 *
 * slurmd registers its gres.conf GPUs with their Cores= (gres.h,
 * gres_conf_cores_msg); the controller binds the node's layout with
 * them (each entry goes to the next GPU index of its type), shows the
 * binding as scontrol does (Gres=gpu:a100:2(S:0-1)), and selection with
 * --gres-flags=enforce-binding takes a job's CPUs on a node only among
 * the cores bound to the GPUs it takes there (select.c).  Core c of the
 * node is CPU ids c*threads .. c*threads+threads-1; socket s holds cores
 * s*cores .. s*cores+cores-1 (slurm.conf's numbering).  Pure functions.
 */
#ifndef SLUICE_CTLD_GRES_BIND_H
#define SLUICE_CTLD_GRES_BIND_H

#include <stddef.h>
#include <stdint.h>

#include "common/bitmap.h"
#include "ctld/gres_sel.h"

typedef struct {
	uint16_t cpus;         /* CPU ids of the node */
	uint16_t sockets;
	uint16_t cores;        /* per socket */
	uint16_t threads;      /* per core */
} gres_bind_shape_t;

/* Bind l's GPUs as a registration says (msg NULL or "" unbinds them).
 * 0, or -1 with err (malformed, more GPUs of a type than Gres= has, a
 * core past the node's); l is unchanged on failure. */
int       gres_bind_set(gres_layout_t *l, const char *msg,
			const gres_bind_shape_t *sh, char *err,
			size_t errlen);
/* Gres= as scontrol show node prints it once GPUs are bound
 * ("gpu:a100:2(S:0-1),nic:1"), xmalloc'd; NULL if none is bound. */
char     *gres_bind_show(const gres_layout_t *l);
/* The CPU ids the GPUs of mask are bound to (a new bitmap of cpus
 * bits); NULL when one of them is bound to every core. */
bitmap_t *gres_bind_cpus(const gres_layout_t *l, uint64_t mask,
			 uint16_t cpus);
/* The GPUs of free, best first for a bound job: most CPUs not in used
 * (NULL = none used) among their cores, then lowest index.  Writes the
 * indexes to out[64]; returns how many. */
size_t    gres_bind_order(const gres_layout_t *l, uint64_t free,
			  const bitmap_t *used, uint8_t *out);

#endif
