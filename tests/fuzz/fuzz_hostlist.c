/* fuzz_hostlist.c — arbitrary text into hostlist_parse().
 *
 * Whatever parses must compress and parse back to the same hosts in the
 * same order, and sort/uniq/compress must hold up on it; a mismatch aborts.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 * (so libslurmfull's hostlist.c is instrumented too).  Run with
 * -max_len=256: one expression may expand to HOSTLIST_MAX_HOSTS hosts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hostlist.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void check_round_trip(const hostlist_t *hl, const char *expr)
{
	char err[256];
	char *ranged = hostlist_ranged(hl);
	hostlist_t *again = hostlist_parse(ranged, err, sizeof(err));
	char *a, *b;

	if (!again) {
		fprintf(stderr, "\"%s\" -> \"%s\" does not parse: %s\n", expr,
			ranged, err);
		abort();
	}
	a = hostlist_deranged(hl);
	b = hostlist_deranged(again);
	if (strcmp(a, b)) {
		fprintf(stderr, "\"%s\" -> \"%s\" -> different hosts\n", expr,
			ranged);
		abort();
	}
	xfree(a);
	xfree(b);
	xfree(ranged);
	hostlist_destroy(again);
}

static void check_uniq(hostlist_t *hl)
{
	size_t n;

	hostlist_uniq(hl);
	n = hostlist_count(hl);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(hostlist_nth(hl, i - 1), hostlist_nth(hl, i)))
			abort();
	/* hostlist_find() is a scan: check it on at most ~64 names spread
	 * over the list, or a list of 100,000 names takes hours. */
	for (size_t i = 0; i < n; i += n / 64 + 1)
		if (hostlist_find(hl, hostlist_nth(hl, i)) != (long)i)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *expr = xstrndup((const char *)data, size);
	char err[256];
	hostlist_t *hl = hostlist_parse(expr, err, sizeof(err));

	if (hl) {
		hostlist_t *copy;

		check_round_trip(hl, expr);
		copy = hostlist_copy(hl);
		hostlist_sort(copy);
		check_round_trip(copy, expr);
		check_uniq(copy);
		check_round_trip(copy, expr);
		hostlist_destroy(copy);
		hostlist_destroy(hl);
	} else if (!err[0]) {
		abort();		/* every failure explains itself */
	}
	xfree(expr);
	return 0;
}
