/* cli_scontrol_debug.c — scontrol setdebug LEVEL and setdebugflags
 * [+|-]NAME[,NAME...]: change the running controller's log level or
 * DebugFlags (administrators only) until the next reconfigure.  Words,
 * errors and exit codes are Slurm's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "slurm/slurm_errno.h"

/* "too few/many arguments for keyword:setdebug"; 0 when argc is 1. */
static int check_argc(int argc, const char *kw, bool quiet)
{
	if (argc == 1)
		return 0;
	if (!quiet)
		fprintf(stderr, "too %s arguments for keyword:%s\n",
			argc < 1 ? "few" : "many", kw);
	return 1;
}

static int send_rc(uint16_t type, void *req, const char *what, bool quiet)
{
	int rc = 0, err = cli_ctld_rpc_rc(type, req, &rc);

	if (!err && !rc)
		return 0;
	if (!quiet)
		fprintf(stderr, "%s error: %s\n", what,
			err ? cli_comm_strerror(err) : slurm_strerror(rc));
	return 1;
}

/* A level name, or a number read as Slurm's scontrol reads it (strtoul:
 * "+1" is 1; a negative number wraps and the controller takes the most
 * verbose level).  -1: not a level. */
static int parse_level(const char *s, uint32_t *level)
{
	char *end = NULL;
	unsigned long v;
	int l;

	for (l = LOG_LEVEL_QUIET; l <= LOG_LEVEL_DEBUG5; l++)
		if (!strcasecmp(s, log_level_to_string((log_level_t) l))) {
			*level = (uint32_t) l;
			return 0;
		}
	v = strtoul(s, &end, 10);
	if (!*s || *end || ((int) v > LOG_LEVEL_DEBUG5))
		return -1;
	*level = (uint32_t) v;
	return 0;
}

int scontrol_setdebug(const char *kw, int argc, char **argv, bool quiet)
{
	set_debug_level_msg_t m = { 0 };

	if (check_argc(argc, kw, quiet))
		return 1;
	if (parse_level(argv[0], &m.debug_level) < 0) {
		if (!quiet)
			fprintf(stderr, "invalid debug level: %s\n", argv[0]);
		return 1;
	}
	return send_rc(REQUEST_SET_DEBUG_LEVEL, &m, "slurm_set_debug_level",
		       quiet);
}

int scontrol_setdebugflags(const char *kw, int argc, char **argv, bool quiet)
{
	set_debug_flags_msg_t m = { 0 };
	const char *arg;
	char bad[128] = "";
	uint64_t mask;

	if (check_argc(argc, kw, quiet))
		return 1;
	arg = argv[0];
	if ((arg[0] != '+' && arg[0] != '-') || !arg[1]) {
		if (!quiet) {
			fprintf(stderr, "invalid debug flag: %s\n", arg);
			fprintf(stderr, "Usage: setdebugflags [+|-]NAME\n");
		}
		return 1;
	}
	if (debug_flags_parse(arg + 1, &mask, bad, sizeof(bad)) < 0) {
		error("Invalid DebugFlag: %s", bad);
		if (!quiet)
			fprintf(stderr, "invalid debug flag: %s\n", arg);
		return 1;
	}
	if (arg[0] == '+')
		m.debug_flags_plus = mask;
	else
		m.debug_flags_minus = mask;
	return send_rc(REQUEST_SET_DEBUG_FLAGS, &m, "slurm_set_debug_flags",
		       quiet);
}
