/* static_spank.c — a second test plugin in the older style: a static
 * spank_options[] table (no spank_option_register), an option without an
 * argument and one with an optional argument, a long option name, and the
 * result read with spank_option_getopt() rather than in the callback.
 *
 * task_init sets STATIC_SPANK_FLAG=1 when --static-flag was given and
 * STATIC_SPANK_LEVEL=<arg or "default"> for --static-level[=N].
 */
#include <string.h>

#include <slurm/spank.h>

SPANK_PLUGIN(static-spank, 1);

static int seen_cb(int val, const char *optarg, int remote)
{
	return 0;
}

struct spank_option spank_options[] = {
	{ "static-flag", NULL, "Set STATIC_SPANK_FLAG in the task", 0, 1,
	  seen_cb },
	{ "static-level", "N", "Optional level for the task", 2, 2, seen_cb },
	{ "static-option-with-a-rather-long-name", "VALUE",
	  "A long option name, printed on its own line in --help, its usage "
	  "wrapped over more than one line of the help text", 1, 3, seen_cb },
	SPANK_OPTIONS_TABLE_END
};

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	char *arg = NULL;

	if (!spank_remote(sp) || !spank_symbol_supported("spank_setenv"))
		return -1;
	if (spank_option_getopt(sp, &spank_options[0], &arg) == ESPANK_SUCCESS)
		spank_setenv(sp, "STATIC_SPANK_FLAG", "1", 1);
	arg = NULL;
	if (spank_option_getopt(sp, &spank_options[1], &arg) == ESPANK_SUCCESS)
		spank_setenv(sp, "STATIC_SPANK_LEVEL", arg ? arg : "default",
			     1);
	return 0;
}
