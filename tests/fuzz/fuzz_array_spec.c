/* fuzz_array_spec.c — arbitrary text into array_spec_parse() (sbatch
 * --array, scancel/squeue/scontrol task lists).
 *
 * A spec that parses must print to a form that parses back to the same
 * set and throttle, and every id of the set must be "contained" by that
 * form; a failure must say why.  Run with -max_len=64 (MaxArraySize is
 * kept small so one input cannot allocate much).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array_spec.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void check_round_trip(const bitmap_t *b, uint32_t thr, const char *spec)
{
	char err[256];
	uint32_t thr2 = 0;
	char *s = array_spec_format(b, thr);
	bitmap_t *again = array_spec_parse(s, 100001, &thr2, err, sizeof(err));

	if (!again || thr2 != thr || bitmap_count(again) != bitmap_count(b)) {
		fprintf(stderr, "\"%s\" -> \"%s\" does not parse back\n", spec, s);
		abort();
	}
	/* Every id is in the parsed-back set; array_spec_contains() (a
	 * parse per call) is checked on at most ~64 ids spread over the set,
	 * or a 5,000-id set takes minutes under ASan, and on ~4 when the
	 * form is long ("1,4-43438:5" prints as 8,688 ids: 106 s a unit). */
	size_t n = bitmap_count(b), k = 0;
	size_t every = n / (strlen(s) > 4096 ? 4 : 64) + 1;

	for (long i = bitmap_first_set(b); i >= 0;
	     i = bitmap_next_set(b, (size_t)i + 1), k++)
		if (!bitmap_test(again, (size_t)i) ||
		    (k % every == 0 && !array_spec_contains(s, (uint32_t)i)))
			abort();
	bitmap_destroy(again);
	xfree(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = xstrndup((const char *)data, size);
	char err[256] = "";
	uint32_t thr = 0;
	bitmap_t *b = array_spec_parse(spec, 100001, &thr, err, sizeof(err));

	if (b) {
		array_spec_stats_t st;

		array_spec_stats(b, &st);
		if (!st.count || st.min > st.max || !st.step)
			abort();
		check_round_trip(b, thr, spec);
		bitmap_destroy(b);
	} else if (!err[0]) {
		abort();
	}
	(void)array_spec_contains(spec, 7);
	xfree(spec);
	return 0;
}
