/* api_probe.c — a build-time check (never loaded): the SPANK API as
 * well-known public plugins use it (NVIDIA pyxis, HPC2N private-tmpdir,
 * IBM's spank-plugins skeleton) compiles with -Werror against
 * <slurm/spank.h> and <slurm/slurm.h>. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

SPANK_PLUGIN(api-probe, 1);

static char value[256];

static int cb(int val, const char *optarg, int remote)
{
	if (optarg)
		strncpy(value, optarg, sizeof(value) - 1);
	return val + remote;
}

struct spank_option spank_opts[] = {
	{ "probe-image", "[USER@][REGISTRY#]IMAGE[:TAG]|PATH",
	  "[probe] an option with an argument", 1, 0, cb },
	{ "probe-flag", NULL, "[probe] a flag", 0, 1,
	  (spank_opt_cb_f) cb },
	SPANK_OPTIONS_TABLE_END
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();

	(void) ac;
	(void) av;
	for (int i = 0; spank_opts[i].name != NULL; ++i) {
		spank_err_t rc = spank_option_register(sp, &spank_opts[i]);

		if (rc != ESPANK_SUCCESS)
			slurm_error("probe: couldn't register option %s: %s",
				    spank_opts[i].name, spank_strerror(rc));
	}
	if (ctx == S_CTX_ERROR || ctx == S_CTX_SLURMD ||
	    ctx == S_CTX_JOB_SCRIPT)
		slurm_debug("%s %d", plugin_name,
			    spank_symbol_supported("slurm_spank_task_init"));
	return 0;
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
	uid_t uid;
	gid_t gid;
	uint32_t jobid, stepid, ntasks, restart;
	char **env = NULL, buf[PATH_MAX], **argv;
	int argc, status;

	(void) ac;
	(void) av;
	spank_get_item(sp, S_JOB_UID, &uid);
	spank_get_item(sp, S_JOB_GID, &gid);
	spank_get_item(sp, S_JOB_ID, &jobid);
	spank_get_item(sp, S_JOB_STEPID, &stepid);
	spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &ntasks);
	spank_get_item(sp, S_SLURM_RESTART_COUNT, &restart);
	spank_get_item(sp, S_JOB_ENV, &env);
	spank_get_item(sp, S_JOB_ARGV, &argc, &argv);
	spank_get_item(sp, S_TASK_EXIT_STATUS, &status);
	if (stepid == SLURM_BATCH_SCRIPT || stepid == SLURM_EXTERN_CONT ||
	    jobid == NO_VAL)
		slurm_info("probe: special step");
	if (spank_getenv(sp, "PWD", buf, sizeof(buf)) == ESPANK_ENV_NOEXIST ||
	    spank_getenv(sp, "X", NULL, 0) == ESPANK_NOSPACE)
		spank_setenv(sp, "K", "V", 1);
	spank_unsetenv(sp, "K");
	slurm_spank_log("probe: %s", "importing docker image ...");
	slurm_verbose("probe: %m");
	return spank_remote(sp) ? 0 : -1;
}
