/* fuzz_multi_prog.c — srun --multi-prog files (multi_prog.c): the check,
 * the task count and every task's argv of whatever a user writes.  A
 * text that passes the check gives every task a program. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/multi_prog.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, err[512];
	uint32_t ntasks;

	if (size < 1)
		return 0;
	ntasks = 1 + data[0] % 16;
	text = xstrndup((const char *) data + 1, size - 1);
	(void) multi_prog_count(text);
	if (multi_prog_check(text, ntasks, "f", err, sizeof(err)) == 0) {
		for (uint32_t t = 0; t < ntasks; t++) {
			char **argv = multi_prog_argv(text, ntasks, t);

			if (!argv || !argv[0])
				abort();
			xstrarray_free(argv);
		}
	}
	xfree(text);
	return 0;
}
