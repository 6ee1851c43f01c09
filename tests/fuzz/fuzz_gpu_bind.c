/* fuzz_gpu_bind.c — arbitrary text as --gpu-bind: either Slurm's error
 * with nothing kept, or a binding whose every task gets GPUs of the
 * step's only.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/gpu_bind.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, err[256] = "";
	gpu_bind_t b;

	if (size > 8192)
		return 0;
	s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	if (gpu_bind_parse(s, &b, err, sizeof(err)) < 0) {
		if (strncmp(err, "Invalid --gpu-bind argument", 27) ||
		    b.list || b.cnt)
			abort();
	} else {
		if (b.type > GPU_BIND_MASK || b.cnt > GPU_BIND_MAX_LIST)
			abort();
		if ((b.type == GPU_BIND_MAP || b.type == GPU_BIND_MASK) &&
		    (!b.cnt || !b.list))
			abort();
		for (uint32_t lid = 0; lid < 8; lid++) {
			uint64_t m = gpu_bind_task(&b, 0x0f0f, lid, lid & 1,
						   NULL);

			if (!m || (m & ~(uint64_t) 0x0f0f))
				abort();
		}
		gpu_bind_free(&b);
	}
	xfree(s);
	return 0;
}
