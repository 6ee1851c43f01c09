/* fuzz_rapl.c — arbitrary bytes as a powercap sysfs value (energy_uj,
 * max_energy_range_uj): refused, or the decimal number they spell.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rapl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t v = 12345, prev;
	char back[32];

	if (rapl_parse_value((const char *) data, size, &v) < 0) {
		if (v != 12345)
			abort();
		return 0;
	}
	/* accepted: digits (and one newline) that print back the same */
	snprintf(back, sizeof(back), "%llu", (unsigned long long) v);
	if (size && data[size - 1] == '\n')
		size--;
	while (size > 1 && data[0] == '0') {
		data++;
		size--;
	}
	if (strlen(back) != size || memcmp(back, data, size))
		abort();
	prev = v / 2;
	if (rapl_delta(prev, v, 0) != v - prev)
		abort();
	return 0;
}
