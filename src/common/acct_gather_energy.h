/* acct_gather_energy.h — AcctGatherEnergyType: where a node's energy
 * comes from.
 *
 * Built in: acct_gather_energy/none (the default: no counters, every
 * energy figure 0, the controller does not ask the nodes) and
 * acct_gather_energy/rapl (common/rapl.h); others are
 * acct_gather_energy_<name>.so in PluginDir.  Callers:
 *   slurmd      opens the counters once at start (energy_rapl.h) and
 *               polls them at every REQUEST_ACCT_GATHER_UPDATE and every
 *               AcctGatherNodeFreq seconds, on its event loop;
 *   slurmstepd  opens them when a step starts and polls them every
 *               JobAcctGatherFrequency energy=N seconds and at the end,
 *               on the step's event loop (step_energy.h);
 *   slurmctld   only asks acct_gather_energy_gathers() before it sends a
 *               node an energy request (on its loop; no op is called).
 * Every op runs on a daemon's event loop: it must return within a few
 * milliseconds (read a counter; never wait for a device).
 */
#ifndef SLUICE_ACCT_GATHER_ENERGY_H
#define SLUICE_ACCT_GATHER_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/conf.h"
#include "common/plugin_ctx.h"

#define ACCT_GATHER_ENERGY_OPS_VERSION 1

typedef struct {
	/* The node's counters, or NULL with *why (xmalloc'd) saying what is
	 * missing.  NULL op: the plugin gathers nothing (none). */
	void       *(*open)(char **why);
	/* Read the counters now: 0, or -1 (the totals stay as they were). */
	int         (*poll)(void *h);
	/* Microjoules since open; watts between the last two polls. */
	uint64_t    (*total_uj)(const void *h);
	uint32_t    (*current_watts)(const void *h);
	/* What is read, for the log ("/sys/.../energy_uj ..."). */
	const char *(*describe)(const void *h);
	void        (*close)(void *h);
} acct_gather_energy_ops_t;

extern const plugin_type_t acct_gather_energy_type;

/* The ops of c's AcctGatherEnergyType (the context is kept while the
 * value stays the same: plugin_cache.h), or NULL with err. */
const acct_gather_energy_ops_t *acct_gather_energy_ops(const slurm_conf_t *c,
							char *err,
							size_t errlen);
/* Does c's plugin gather anything (an open op)?  false when the name
 * does not resolve (logged once). */
bool acct_gather_energy_gathers(const slurm_conf_t *c);

#endif
