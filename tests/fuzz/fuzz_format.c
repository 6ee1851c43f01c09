/* fuzz_format.c — the -o and -O format parsers over the job and sinfo
 * tables, then a header and a row rendered with the parsed columns. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../src/cli/cli_jv.c"
#include "../../src/cli/cli_fields.c"
#include "../../src/cli/cli_fields_job.c"
#include "../../src/cli/cli_fields_part.c"
#include "../../src/cli/cli_fields_sinfo.c"
#include "../../src/cli/cli_format.c"
#include "../../src/cli/cli_output.c"
#include "common/log.h"

static void render_sinfo(cli_format_t *fmt)
{
	node_info_t n;
	const node_info_t *nodes[1] = { &n };
	part_info_t p;
	cli_sinfo_row_t row = { .part = &p, .nodes = nodes, .cnt = 1 };
	cli_ctx_t ctx = { .now = 1795351559 };
	const void *rec = &row;
	char *s;

	memset(&n, 0, sizeof(n));
	memset(&p, 0, sizeof(p));
	n.name = (char *)"n1";
	n.node_state = NODE_STATE_IDLE | NODE_STATE_DRAIN;
	n.reason = (char *)"maint";
	p.name = (char *)"debug";
	p.nodes = (char *)"n1";
	p.max_time = INFINITE32;
	cli_output_fit(fmt, &rec, 1, &ctx);
	s = cli_output_header(fmt);
	xfree(s);
	s = cli_output_line(fmt, &row, &ctx);
	xfree(s);
}

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
	if (size && data[0] & 2) {
		if (data[0] & 1)
			cli_format_parse_long(&fmt, spec + 1, cli_sinfo_fields, "node");
		else
			cli_format_parse(&fmt, spec + 1, cli_sinfo_fields, "node");
		render_sinfo(&fmt);
	} else {
		if (size && data[0] & 1)
			cli_format_parse_long(&fmt, spec + 1, cli_job_fields, "job");
		else
			cli_format_parse(&fmt, spec, cli_job_fields, "job");
		render(&fmt);
	}
	cli_format_free(&fmt);
	xfree(spec);
	return 0;
}
