/* fuzz_plugstack.c — arbitrary text as plugstack.conf.  A parse either
 * fails with "file:line: ..." and nothing returned (only too many
 * plugins can do that here; bad lines are skipped), or returns entries
 * whose paths and argument vectors are whole.  Inputs naming "include"
 * are skipped so the harness never globs the machine's files.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/spank.h"
#include "common/xmalloc.h"

static int mentions_include(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + 7 <= size; i++)
		if (!strncasecmp((const char *)data + i, "include", 7))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "";
	spank_conf_t c;

	static int quiet;

	if (!quiet++)   /* "Invalid line. Ignoring." for most inputs */
		log_set_levels(LOG_LEVEL_QUIET, LOG_LEVEL_QUIET);
	if (size > 65536 || mentions_include(data, size))
		return 0;
	if (spank_conf_parse_text((const char *)data, size, "p.conf",
				  "/pd1:/pd2", &c, err, sizeof(err)) < 0) {
		if (strncmp(err, "p.conf:", 7) || c.cnt || c.ent)
			abort();
		return 0;
	}
	for (size_t i = 0; i < c.cnt; i++) {
		const spank_conf_entry_t *e = &c.ent[i];
		int n = 0;

		if (!e->path || e->path[0] != '/' || !e->argv || e->line < 1)
			abort();
		while (e->argv[n])
			n++;
		if (n != e->argc)
			abort();
	}
	spank_conf_free(&c);
	return 0;
}
