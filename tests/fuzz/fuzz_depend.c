/* fuzz_depend.c — arbitrary text into the dependency parser (both the
 * user form and the saved form with states).  What parses must print and
 * parse back to the same list.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/depend.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void check(const char *s, bool with_state)
{
	depend_list_t l, back;
	char err[128], *out;

	if (depend_parse(s, with_state, &l, err, sizeof(err)) < 0) {
		if (l.cnt || l.e || !err[0])
			abort();
		return;
	}
	out = depend_string(&l);
	if (out) {
		if (depend_parse(out, true, &back, err, sizeof(err)) < 0 ||
		    back.cnt != l.cnt || back.any != l.any ||
		    memcmp(back.e, l.e, l.cnt * sizeof(depend_t)))
			abort();
		depend_list_free(&back);
	} else if (l.cnt) {
		abort();
	}
	xfree(out);
	depend_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xstrndup((const char *) data, size);

	check(s, false);
	check(s, true);
	xfree(s);
	return 0;
}
