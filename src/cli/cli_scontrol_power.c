/* cli_scontrol_power.c — scontrol power {up|down} [asap|force]
 * {ALL|<nodes>} [reason=<text>] (cli_scontrol.h), as Slurm's: the
 * controller runs ResumeProgram or SuspendProgram for the nodes. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "slurm/slurm_errno.h"

static int power_usage(const char *what)
{
	fprintf(stderr, "%s\n", what);
	fprintf(stderr, "Usage: power {up|down} [asap|force] "
		"{ALL|<NodeList>} [Reason=<reason>]\n");
	return 1;
}

int scontrol_power(int argc, char **argv, bool quiet)
{
	power_msg_t m = { 0 };
	int err, rc = 0, i = 0;

	if (argc < 1)
		return power_usage("missing argument for keyword:power");
	if (!strcasecmp(argv[0], "up"))
		m.flags = POWER_FLAGS_UP;
	else if (!strcasecmp(argv[0], "down"))
		m.flags = POWER_FLAGS_DOWN;
	else
		return power_usage("Invalid power state: expected up or down");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if ((m.flags & POWER_FLAGS_DOWN) && !strcasecmp(a, "asap") &&
		    !m.node_list) {
			m.flags |= POWER_FLAGS_ASAP;
		} else if ((m.flags & POWER_FLAGS_DOWN) &&
			   !strcasecmp(a, "force") && !m.node_list) {
			m.flags |= POWER_FLAGS_FORCE;
		} else if (!strncasecmp(a, "reason=", 7)) {
			m.reason = (char *) a + 7;
		} else if (m.node_list) {
			return power_usage("too many arguments for keyword:power");
		} else {
			m.node_list = (char *) a;
		}
	}
	if ((m.flags & POWER_FLAGS_ASAP) && (m.flags & POWER_FLAGS_FORCE))
		return power_usage("asap and force are exclusive");
	if (!m.node_list)
		return power_usage("Missing node list. Specify ALL|<NodeList>");
	err = cli_ctld_rpc_rc(REQUEST_POWER_NODES, &m, &rc);
	if (err || rc) {
		if (!quiet)
			fprintf(stderr, "slurm_update error: %s\n",
				err ? cli_comm_strerror(err) :
				slurm_strerror(rc));
		return 1;
	}
	return 0;
}
