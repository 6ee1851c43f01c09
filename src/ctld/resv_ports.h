/* resv_ports.h — MpiParams=ports=low-high: the ports reserved for steps
 * on each node (srun --resv-ports, or every step when MpiParams names a
 * range), as Slurm's port manager: a step gets the same ports on each of
 * its nodes, the lowest free on all of them, released when it ends.
 * Not saved: a restarted controller hands out ports from the start.
 */
#ifndef SLUICE_CTLD_RESV_PORTS_H
#define SLUICE_CTLD_RESV_PORTS_H

#include <stdbool.h>
#include <stdint.h>

/* The range from MpiParams (checked when slurm.conf loaded); reserved
 * ports stay reserved across a reconfigure. */
void resv_ports_config(const char *mpi_params);
bool resv_ports_configured(void);
/* cnt ports free on every one of nodes[0..n): 0 with *ports (xmalloc'd,
 * cnt of them) and *range ("12000-12003", xmalloc'd); or
 * ESLURM_PORTS_INVALID (no range, or more than it holds) or
 * ESLURM_PORTS_BUSY (try again when a step ends). */
int  resv_ports_take(char *const *nodes, uint32_t n, uint16_t cnt,
		     uint16_t **ports, char **range);
void resv_ports_release(char *const *nodes, uint32_t n,
			const uint16_t *ports, uint16_t cnt);
/* How many of them are taken on node (tests, scontrol). */
uint32_t resv_ports_used(const char *node);

#endif
