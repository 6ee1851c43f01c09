/* fuzz_license.c — arbitrary text into the license list parsers (the
 * slurm.conf form and a job's -L form).  What parses must print and parse
 * back to the same list; what fails leaves the list empty with an error.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/license.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void same(const lic_list_t *a, const lic_list_t *b)
{
	if (a->cnt != b->cnt || a->any != b->any)
		abort();
	for (size_t i = 0; i < a->cnt; i++)
		if (strcmp(a->items[i].name, b->items[i].name) ||
		    a->items[i].count != b->items[i].count)
			abort();
}

static void check(const char *s, bool conf)
{
	lic_list_t l, back;
	char err[128] = "", *out;
	int rc = conf ? lic_conf_parse(s, &l, err, sizeof(err)) :
		lic_req_parse(s, &l, err, sizeof(err));

	if (rc < 0) {
		if (l.cnt || l.items || !err[0])
			abort();
		return;
	}
	out = lic_list_string(&l);
	if (out) {
		rc = conf ? lic_conf_parse(out, &back, err, sizeof(err)) :
			lic_req_parse(out, &back, err, sizeof(err));
		if (rc < 0)
			abort();
		same(&l, &back);
		lic_list_free(&back);
	} else if (l.cnt) {
		abort();
	}
	xfree(out);
	lic_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xstrndup((const char *) data, size);

	check(s, true);
	check(s, false);
	xfree(s);
	return 0;
}
