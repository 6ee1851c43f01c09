/* fuzz_debug_params.c — libFuzzer harness for DebugFlags,
 * CommunicationParameters, JobAcctGatherParams and MpiParams values
 * (debug_flags.h, comm_params.h), and the round trip of a flag list. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/comm_params.h"
#include "common/debug_flags.h"
#include "common/xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *names;
	char err[256], bad[64];
	uint64_t mask = 0, again = 0;
	comm_params_t cp;
	uint16_t lo, hi;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (debug_flags_parse(s, &mask, bad, sizeof(bad)) == 0) {
		names = debug_flags_string(mask);
		/* what is printed parses back to the same flags */
		if (debug_flags_parse(names, &again, bad, sizeof(bad)) < 0 ||
		    again != mask)
			abort();
		xfree(names);
	}
	err[0] = '\0';
	if (comm_params_parse(s, &cp, err, sizeof(err)) < 0 && !err[0])
		abort();               /* a refusal always says why */
	(void) jag_params_parse(s);
	err[0] = '\0';
	if (mpi_params_ports(s, &lo, &hi, err, sizeof(err)) == 0 && lo > hi)
		abort();
	free(s);
	return 0;
}
