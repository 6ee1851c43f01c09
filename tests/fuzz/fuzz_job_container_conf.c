/* fuzz_job_container_conf.c — arbitrary text as job_container.conf.  A
 * parse either fails with "j.conf..." and returns nothing, or succeeds
 * with absolute Dirs and a BasePath that is absolute or "none".
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/job_container_conf.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "", *bp;
	jc_conf_t c;

	if (size > 65536)
		return 0;
	if (jc_conf_parse_text((const char *) data, size, "j.conf", "n1", &c,
			       err, sizeof(err)) < 0) {
		if (strncmp(err, "j.conf", 6) || c.base_path || c.dir_cnt)
			abort();
		return 0;
	}
	if (!c.dir_cnt || c.dir_cnt > JC_MAX_DIRS)
		abort();
	for (size_t i = 0; i < c.dir_cnt; i++)
		if (c.dirs[i][0] != '/' || strstr(c.dirs[i], "/../"))
			abort();
	if (c.base_path && c.base_path[0] != '/' &&
	    strcasecmp(c.base_path, "none"))
		abort();
	bp = jc_conf_base_path(&c, "n1");
	xfree(bp);
	jc_conf_free(&c);
	return 0;
}
