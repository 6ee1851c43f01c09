/* node_health.h — when the nodes run HealthCheckProgram.
 *
 * As Slurm: every HealthCheckInterval seconds the controller sends
 * REQUEST_HEALTH_CHECK to the nodes HealthCheckNodeState selects (ANY,
 * IDLE, ALLOC, MIXED, comma-separated; never a node not responding), all
 * at once, or with CYCLE spread over the interval, a share of them each
 * second.  The slurmd runs the program (slurmd/health.h).
 */
#ifndef SLUICE_CTLD_NODE_HEALTH_H
#define SLUICE_CTLD_NODE_HEALTH_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define HC_NODE_IDLE  0x01
#define HC_NODE_ALLOC 0x02
#define HC_NODE_MIXED 0x04
#define HC_NODE_ANY   0x07
#define HC_NODE_CYCLE 0x10

/* HealthCheckNodeState ("ANY", "IDLE,CYCLE", ...) as *flags; 0, or -1
 * with the first unknown word in err (unknown words are ignored, as
 * Slurm does; none left means ANY). */
int  node_health_parse_state(const char *s, uint32_t *flags, char *err,
			     size_t errlen);
/* Called every second by the controller loop. */
void node_health_tick(time_t now);

#endif
