/* fuzz_format.c — the -o and -O format parsers over every record table,
 * then a header and a row rendered with the parsed columns. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../src/cli/cli_fields.c"
#include "../../src/cli/cli_fields_job.c"
#include "../../src/cli/cli_format.c"
#include "../../src/cli/cli_output.c"
#include "common/log.h"

static void render(cli_format_t *fmt)
{
	job_info_t j;
	cli_ctx_t ctx = { .now = 1795351559 };
	const void *rec = &j;
	char *s;

	memset(&j, 0, sizeof(j));
	j.job_id = 42;
	j.name = (char *)"fuzz";
	j.time_limit = INFINITE32;
	j.cpus_per_task = NO_VAL16;
	cli_output_fit(fmt, &rec, 1, &ctx);
	s = cli_output_header(fmt);
	xfree(s);
	s = cli_output_line(fmt, &j, &ctx);
	xfree(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	char *spec = xstrndup((const char *)data, size);
	cli_format_t fmt;

	if (!init) {
		log_options_t o = { .stderr_level = LOG_LEVEL_QUIET };

		log_init("fuzz_format", o, NULL);
		init = 1;
	}
	if (size && data[0] & 1)
		cli_format_parse_long(&fmt, spec + 1, cli_job_fields, "job");
	else
		cli_format_parse(&fmt, spec, cli_job_fields, "job");
	render(&fmt);
	cli_format_free(&fmt);
	xfree(spec);
	return 0;
}
