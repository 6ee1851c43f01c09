/* fuzz_oci_conf.c — arbitrary text as oci.conf.  A parse either fails
 * with "o.conf..." and returns nothing, or succeeds with RunTimeRun set
 * (or RunTimeCreate and RunTimeStart, not both ways) and MountSpoolDir
 * absolute.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/oci_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";
	oci_conf_t c;

	if (size > 65536)
		return 0;
	if (oci_conf_parse_text((const char *) data, size, "o.conf", &c, err,
				sizeof(err)) < 0) {
		if (strncmp(err, "o.conf", 6) || c.rt_run || c.rt_create ||
		    c.notes)
			abort();
		return 0;
	}
	if (!c.rt_run == !(c.rt_create && c.rt_start) ||
	    (c.rt_run && (c.rt_create || c.rt_start)) ||
	    !c.mount_spool_dir || c.mount_spool_dir[0] != '/')
		abort();
	oci_conf_free(&c);
	return 0;
}
