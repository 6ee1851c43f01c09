/* energy_rapl.c — acct_gather_energy/rapl's presence check
 * (energy_rapl.h). */
#define _GNU_SOURCE
#include "slurmd/energy_rapl.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define POWERCAP_DIR "/sys/class/powercap"

void energy_rapl_check(const slurm_conf_t *conf)
{
	const char *type = conf->acct_gather_energy_type;
	DIR *d;
	struct dirent *de;
	char *found = NULL;
	int e;

	if (!type || strcmp(type, "acct_gather_energy/rapl"))
		return;
	d = opendir(POWERCAP_DIR);
	e = errno;
	while (d && (de = readdir(d))) {
		char *p;

		/* packages: intel-rapl:0, intel-rapl:1 (not their subzones) */
		if (strncmp(de->d_name, "intel-rapl:", 11) ||
		    strchr(de->d_name + 11, ':'))
			continue;
		p = xstrdup_printf(POWERCAP_DIR "/%s/energy_uj", de->d_name);
		if (access(p, R_OK) == 0)
			xstrfmtcat(&found, "%s%s", found ? " " : "", p);
		xfree(p);
	}
	if (d)
		closedir(d);
	if (!found)
		info("acct_gather_energy/rapl: no RAPL energy counters under "
		     POWERCAP_DIR " (%s); ConsumedEnergy stays 0",
		     d ? "no readable intel-rapl:N/energy_uj" : strerror(e));
	else
		info("acct_gather_energy/rapl: counters %s found, but energy "
		     "is not accounted yet; ConsumedEnergy stays 0", found);
	xfree(found);
}
