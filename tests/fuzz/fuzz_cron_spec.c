/* fuzz_cron_spec.c — arbitrary text into cron_spec_parse() (scrontab's
 * time fields, parsed again by the controller from a request).
 *
 * A failure must say why and leave the spec as it was; a spec that
 * parses has at least one value in every field, its rest points inside
 * the input, and its next start (if any) is a whole minute after the
 * time asked about, and the next after that is later still.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cron_spec.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const time_t after = 1796300400;   /* 2026-12-03 */
	char *line = xstrndup((const char *)data, size);
	cron_spec_t c, was;
	const char *rest = NULL;
	char err[256] = "";
	time_t n, n2;

	memset(&was, 0xa5, sizeof(was));
	c = was;
	if (cron_spec_parse(line, &c, &rest, err, sizeof(err)) < 0) {
		if (!err[0] || memcmp(&c, &was, sizeof(c)))
			abort();
		xfree(line);
		return 0;
	}
	if (!c.minute || !c.hour || !c.dom || !c.month || !c.dow ||
	    (c.minute >> 60) || (c.hour >> 24) || (c.dom & 1) ||
	    (c.month & 1) || (c.month >> 13) ||
	    (c.dow >> 7))
		abort();
	if (!rest || rest < line || rest > line + strlen(line))
		abort();
	n = cron_spec_next(&c, after);
	if (n) {
		if (n <= after || n % 60)
			abort();
		n2 = cron_spec_next(&c, n);
		if (n2 && n2 <= n)
			abort();
	}
	xfree(line);
	return 0;
}
