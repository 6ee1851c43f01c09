/* fuzz_cpu_bind.c — arbitrary text as srun --cpu-bind: either an error
 * naming --cpu-bind with nothing kept, or a type with a list that fits.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu_bind.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, err[256] = "";
	cpu_bind_t b;

	if (size > 8192)
		return 0;
	s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	if (cpu_bind_parse(s, &b, err, sizeof(err)) < 0) {
		if (!strstr(err, "--cpu-bind") || b.list || b.cnt)
			abort();
	} else {
		if (b.type > CPU_BIND_MASK || b.cnt > CPU_BIND_MAX_LIST)
			abort();
		if ((b.type == CPU_BIND_MAP || b.type == CPU_BIND_MASK) &&
		    (!b.cnt || !b.list))
			abort();
		cpu_bind_free(&b);
	}
	xfree(s);
	return 0;
}
