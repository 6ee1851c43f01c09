/* fuzz_sacct_format.c — the accounting-style table engine (cli_table.h:
 * "JobID,State%20,JobName%-30", names by unique prefix, widths) over
 * sacct's table, then the header and a job row and a step row printed as
 * the table, -p and -P print them (records from slurmdbd may leave
 * strings NULL), and the job row as --json shows it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../src/cli/cli_jv.c"
#include "../../src/cli/cli_fields.c"
#include "../../src/cli/cli_sacct_fields.c"
#include "../../src/cli/cli_sacct_json.c"
#include "../../src/cli/cli_table.c"
#include "common/log.h"

static void render(cli_table_t *t)
{
	static const cli_table_opt_t opts[] = {
		{ 0 }, { .parsable = 1 }, { .parsable = 2, .delim = "," },
		{ .no_mark = true },
	};
	FILE *out = fopen("/dev/null", "w");
	acct_job_rec_t j;
	acct_step_rec_t st;
	sacct_row_t rows[2];

	memset(&j, 0, sizeof(j));
	memset(&st, 0, sizeof(st));
	j.job_id = 42;
	j.array_task_id = NO_VAL32;
	j.name = (char *)"fuzz";
	j.account = (char *)"acct";
	j.partition = (char *)"debug";
	j.nodes = (char *)"n[1-2]";
	j.num_nodes = 2;
	j.num_cpus = 4;
	j.tres_alloc = (char *)"1=4,2=1000,4=2";
	j.req_mem = NO_VAL64;
	j.requid = NO_VAL32;
	j.state = 3;
	j.submit = 1795351000;
	j.start = 1795351100;
	j.end = 1795351559;
	j.time_limit = INFINITE32;
	st.job_id = 42;
	st.step_id = 0;
	st.start = 1795351200;
	st.requid = NO_VAL32;
	st.max_rss_kb = 3072;
	rows[0] = (sacct_row_t){ .job = &j, .now = 1795351600,
				 .steps_cpu_usec = 1500000, .steps = &st,
				 .nsteps = 1 };
	rows[1] = (sacct_row_t){ .job = &j, .step = &st, .now = 1795351600 };
	for (size_t k = 0; out && k < sizeof(opts) / sizeof(opts[0]); k++) {
		cli_table_header(out, t, &opts[k]);
		for (size_t r = 0; r < 2; r++)
			cli_table_row(out, t, &opts[k], &rows[r], NULL);
	}
	if (out)
		fclose(out);
	json_object_put(sacct_json_row(&rows[0]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	char *spec = xstrndup((const char *)data, size);
	cli_table_t t;
	char *bad = NULL;

	if (!init) {
		log_options_t o = { .stderr_level = LOG_LEVEL_QUIET };

		log_init("fuzz_sacct_format", o, NULL);
		init = 1;
	}
	if (cli_table_parse(&t, CLI_TABLE(sacct_fields), NULL, spec,
			    &bad) == 0) {
		if (bad || (t.cnt && !t.cols))
			__builtin_trap();
		for (size_t i = 0; i < t.cnt; i++)
			if (!t.cols[i].field || t.cols[i].width > 4096 ||
			    t.cols[i].width < -4096)
				__builtin_trap();
		render(&t);
	} else if (!bad || t.cols || t.cnt) {
		__builtin_trap();       /* refused: the bad name, nothing else */
	}
	cli_table_free(&t);
	xfree(bad);
	xfree(spec);
	return 0;
}
