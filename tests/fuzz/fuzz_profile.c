/* fuzz_profile.c — arbitrary text into the --profile and --acctg-freq
 * parsers (common/profile.h; sbatch/srun/salloc arguments, their input
 * environment variables, REST and libslurm job descriptions).  A value
 * that parses has only known bits and prints; one that fails says why;
 * an --acctg-freq that checks gives every type a value in range.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/profile.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1), why[256];
	uint32_t p = 0xdeadbeef;
	static const char *const types[] = { "task", "energy", "network",
					     "filesystem", "bogus" };

	memcpy(s, data, size);
	s[size] = '\0';
	why[0] = '\0';
	if (profile_parse(s, &p, why, sizeof(why)) == 0) {
		if (p & ~(PROFILE_ALL | PROFILE_NONE) || !profile_str(p)[0])
			abort();
	} else if (!why[0]) {
		abort();
	}
	why[0] = '\0';
	if (acctg_freq_check(s, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++) {
			int v = acctg_freq_of(s, types[i], -1);

			if (v < -1 || v > 65535)
				abort();
		}
	} else if (!why[0]) {
		abort();
	}
	xfree(s);
	return 0;
}
