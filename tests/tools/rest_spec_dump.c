/* rest_spec_dump: prints the OpenAPI document rest_spec.c builds for every
 * operation of the compiled-in references, served or not (slurmrestd's
 * /openapi/v3 has only the served ones), so the tests can validate the
 * conversion of operations before they get a handler.  Not installed.
 *
 *   rest_spec_dump [40|41|42|43]     one version (default: all four)
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/xmalloc.h"
#include "restd/rest_spec.h"

static bool every_op(int ver, const char *tmpl, const char *method)
{
	(void)ver;
	(void)tmpl;
	(void)method;
	return true;
}

int main(int argc, char **argv)
{
	unsigned mask = (1u << (REST_VER_MAX - REST_VER_MIN + 1)) - 1;
	char *text;

	if (argc > 1) {
		int v = atoi(argv[1]);

		if (v < REST_VER_MIN || v > REST_VER_MAX) {
			fprintf(stderr, "rest_spec_dump: no version %s\n",
				argv[1]);
			return 1;
		}
		mask = 1u << (v - REST_VER_MIN);
	}
	if (rest_spec_init() < 0)
		return 1;
	text = rest_spec_openapi(mask, every_op);
	puts(text);
	xfree(text);
	rest_spec_fini();
	return 0;
}
