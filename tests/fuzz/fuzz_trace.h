/* fuzz_trace.h — the body of fuzz_trace_swf.c and fuzz_trace_sacct.c:
 * arbitrary text into the trace reader TRACE_READ (defined by the
 * includer), strict and with --skip-bad.
 *
 * A failure names the trace and a line ("fz:N: why") and leaves the
 * trace empty; a success gives every job an id, a user, a CPU or node
 * count, a run time of at least -1 (never ran) and, if it never ran, a
 * cancel delay of at least 0; with --skip-bad every line that is not a
 * job is counted or is a blank, comment, header or step line.
 */
#ifndef SLUICE_FUZZ_TRACE_H
#define SLUICE_FUZZ_TRACE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace.h"

static void _check(const trace_t *t)
{
	for (size_t i = 0; i < t->cnt; i++) {
		const trace_job_t *j = &t->jobs[i];

		if (!j->id || !j->user || (!j->ncpus && !j->nnodes) ||
		    j->runtime < -1 || (j->runtime < 0 && j->cancel_after < 0) ||
		    !j->line)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	trace_opts_t o;
	trace_t t = { 0 };
	char err[512] = "";

	trace_opts_init(&o);
	o.quiet = true;
	if (trace_opts_swf_parts(&o, "1=batch,2=debug", err, sizeof(err)))
		abort();
	if (TRACE_READ((const char *)data, size, "fz", &o, &t, err,
			     sizeof(err)) < 0) {
		if (strncmp(err, "fz:", 3) || t.cnt || t.jobs)
			abort();
	} else {
		_check(&t);
	}
	trace_free(&t);
	o.skip_bad = true;
	if (TRACE_READ((const char *)data, size, "fz", &o, &t, err,
			     sizeof(err)) == 0)
		_check(&t);
	else if (strncmp(err, "fz:", 3) || t.cnt)
		abort();
	trace_free(&t);
	trace_opts_free(&o);
	return 0;
}

#endif
