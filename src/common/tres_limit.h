/* tres_limit.h — TRES limit strings as sacctmgr takes them
 * (GrpTRES=cpu=8,mem=16G,node=2,gres/gpu=1).
 *
 * tres_limit_canon() checks one and returns it in the one form slurmdbd
 * stores and sacctmgr prints: known TRES in Slurm's order (cpu, mem,
 * energy, node, billing, fs/disk, vmem, pages, then gres/... and
 * license/... by name), memory with a unit ("16G", "1500M"), a value of
 * -1 dropping that TRES.  tres_limit_get() reads cpu, mem (MB) and node
 * back for the controller.
 */
#ifndef SLUICE_TRES_LIMIT_H
#define SLUICE_TRES_LIMIT_H

#include <stddef.h>
#include <stdint.h>

/* Canonical form of s (caller frees; "" when every TRES was dropped), or
 * NULL with "Invalid TRES ..." in err. */
char *tres_limit_canon(const char *s, char *err, size_t errlen);
/* cpu, mem (MB), node of a canonical string into out[0..2];
 * UINT64_MAX where not set. */
void  tres_limit_get(const char *canon, uint64_t out[3]);

#endif
