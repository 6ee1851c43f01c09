/* srun_layout.c — which global task ids run on which node (srun.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/srun.h"
#include "common/xmalloc.h"

void srun_layout(uint16_t dist, uint16_t plane_size, const uint32_t *counts,
		 uint32_t nodes, uint32_t **out)
{
	uint32_t *have = xcalloc(nodes + 1, sizeof(uint32_t));
	uint32_t total = 0, id = 0, n;

	for (n = 0; n < nodes; n++) {
		out[n] = xcalloc(counts[n] + 1, sizeof(uint32_t));
		total += counts[n];
	}
	if (dist == STEP_DIST_CYCLIC || (dist == STEP_DIST_PLANE && plane_size)) {
		uint32_t block = dist == STEP_DIST_CYCLIC ? 1 : plane_size;

		while (id < total) {
			for (n = 0; n < nodes && id < total; n++)
				for (uint32_t b = 0; b < block &&
				     have[n] < counts[n]; b++)
					out[n][have[n]++] = id++;
		}
	} else {
		for (n = 0; n < nodes; n++)
			for (uint32_t k = 0; k < counts[n]; k++)
				out[n][k] = id++;
	}
	xfree(have);
}

int srun_parse_counts(const char *s, uint32_t n, uint32_t *out)
{
	const char *p = s;

	for (uint32_t i = 0; i < n; i++) {
		char *end;
		unsigned long v;

		if (!p || !*p)
			return -1;
		v = strtoul(p, &end, 10);
		if (end == p || v > 65535 || (*end && *end != ','))
			return -1;
		out[i] = (uint32_t) v;
		p = *end ? end + 1 : end;
	}
	return *p ? -1 : 0;
}
