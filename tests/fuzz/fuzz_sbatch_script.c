/* fuzz_sbatch_script.c — libFuzzer harness for the "#SBATCH" directive
 * parser, its split into hetjob components ("#SBATCH hetjob") and the
 * #PBS/#BSUB translation after it: any script text must
 * parse or fail cleanly, never crash or leak.  The parser's sources are compiled in (the commands' static
 * library is not linked into harnesses).
 */
#include <stddef.h>
#include <stdint.h>

#include "../../src/cli/cli_env.c"
#include "../../src/cli/cli_opt.c"
#include "../../src/cli/cli_opt_help.c"
#include "../../src/cli/cli_opt_raw.c"
#include "../../src/cli/cli_opt_set.c"
#include "../../src/cli/cli_opt_wrpr.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	cli_job_opts_t o;
	char **args;

	if (!init) {
		log_set_levels(LOG_LEVEL_QUIET, LOG_LEVEL_QUIET);
		init = true;
	}
	cli_opt_init(&o, CLI_CMD_SBATCH, "sbatch");
	o.quiet_getopt = true;
	if (cli_opt_parse_script(&o, (const char *)data, size, "#SBATCH") == 0)
		cli_opt_parse_wrapper(&o, (const char *)data, size);
	cli_opt_free(&o);

	args = cli_opt_split_directive((const char *)data, size);
	xstrarray_free(args);

	/* hetjob sections, each parsed as a component's directives */
	{
		size_t n;
		char **secs = cli_opt_het_sections((const char *)data, size,
						   &n);

		for (size_t k = 0; k < n; k++) {
			cli_opt_init(&o, CLI_CMD_SBATCH, "sbatch");
			o.quiet_getopt = true;
			cli_opt_parse_script(&o, secs[k], strlen(secs[k]),
					     "#SBATCH");
			cli_opt_free(&o);
		}
		xstrarray_free(secs);
	}
	return 0;
}
