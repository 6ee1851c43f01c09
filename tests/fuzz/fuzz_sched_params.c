/* fuzz_sched_params.c — SchedulerParameters parsing.
 * Input: the parameters (first line only; corpus files may hold a second
 * line from when the scheduler type was parsed here too); a parse either
 * fails or yields values in the documented ranges. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/ctld/sched_params.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1), *nl, err[256];
	sched_params_t p;

	memcpy(in, data, size);
	in[size] = '\0';
	nl = strchr(in, '\n');
	if (nl)
		*nl = '\0';
	if (sched_params_parse(*in ? in : NULL, 10, &p, err,
			       sizeof(err)) == 0) {
		if (p.bf_window < 1 || p.bf_resolution < 1 ||
		    p.bf_max_job_test < 1 || p.bf_interval < 1)
			abort();
	}
	free(in);
	return 0;
}
