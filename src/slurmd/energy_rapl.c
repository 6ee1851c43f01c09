/* energy_rapl.c — acct_gather_energy/rapl's presence check
 * (energy_rapl.h). */
#define _GNU_SOURCE
#include "slurmd/energy_rapl.h"

#include <string.h>

#include "common/log.h"
#include "common/rapl.h"
#include "common/xmalloc.h"

void energy_rapl_check(const slurm_conf_t *conf)
{
	const char *type = conf->acct_gather_energy_type;
	char *why = NULL;
	rapl_t *r;

	if (!type || strcmp(type, "acct_gather_energy/rapl"))
		return;
	if (!(r = rapl_open(&why))) {
		info("acct_gather_energy/rapl: %s; ConsumedEnergy stays 0",
		     why);
		xfree(why);
		return;
	}
	info("acct_gather_energy/rapl: reading %s", rapl_paths(r));
	rapl_close(r);
}
