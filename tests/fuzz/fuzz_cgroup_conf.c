/* fuzz_cgroup_conf.c — arbitrary text as cgroup.conf.  A parse either
 * fails with "c.conf:LINE: ..." and leaves the defaults, or succeeds with
 * values inside their ranges.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/cgroup_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	cgroup_conf_t c;

	if (size > 65536)
		return 0;
	if (cgroup_conf_parse_text((const char *) data, size, "c.conf", &c,
				   err, sizeof(err)) < 0) {
		if (strncmp(err, "c.conf:", 7) || c.constrain_ram ||
		    c.constrain_cores || c.allowed_ram != 100.0 ||
		    !c.mountpoint || strcmp(c.mountpoint, "/sys/fs/cgroup"))
			abort();
		cgroup_conf_free(&c);
		return 0;
	}
	if (!c.mountpoint || c.mountpoint[0] != '/' ||
	    c.allowed_ram < 0 || c.allowed_ram > 100 ||
	    c.max_ram_percent < 0 || c.max_ram_percent > 100 ||
	    c.allowed_swap < 0 || c.swappiness > 100 ||
	    c.plugin > CGROUP_PLUGIN_V2)
		abort();
	cgroup_conf_free(&c);
	return 0;
}
