/* cli_scontrol_reboot.c — scontrol reboot and cancel_reboot
 * (cli_scontrol.h), as Slurm's: the controller reboots each node with
 * slurm.conf's RebootProgram once it has no jobs. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static int next_state_value(const char *val, uint32_t *out)
{
	if (val && !strcasecmp(val, "RESUME")) {
		*out = NODE_RESUME;
		return 0;
	}
	if (val && !strcasecmp(val, "DOWN")) {
		*out = NODE_STATE_DOWN;
		return 0;
	}
	fprintf(stderr, "Invalid state: %s\n", val ? val : "");
	fprintf(stderr, "Valid states: DOWN, RESUME\n");
	return -1;
}

/* reboot [ASAP] [nextstate={RESUME|DOWN}] [reason=<text>] {ALL|<nodes>} */
int scontrol_reboot(int argc, char **argv)
{
	reboot_msg_t m = { 0 };
	const char *prog;
	int err, rc = 0;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcasecmp(a, "ASAP")) {
			m.flags |= REBOOT_FLAGS_ASAP;
		} else if (!strncasecmp(a, "nextstate=", 10)) {
			if (next_state_value(a + 10, &m.next_state) < 0)
				return 1;
		} else if (!strncasecmp(a, "reason=", 7)) {
			m.reason = (char *) a + 7;
		} else if (m.node_list) {
			fprintf(stderr, "too many arguments for keyword:reboot\n");
			return 1;
		} else {
			m.node_list = (char *) a;
		}
	}
	if (!m.node_list) {
		fprintf(stderr, "Missing node list. Specify ALL|<NodeList>\n");
		return 1;
	}
	prog = conf_get(cli_conf(), "RebootProgram");
	if (!prog || !*prog || !strcmp(prog, "(null)")) {
		error("RebootProgram isn't defined");
		err = 0;
		rc = SLURM_ERROR;
	} else {
		err = cli_ctld_rpc_rc(REQUEST_REBOOT_NODES, &m, &rc);
	}
	if (err || rc) {
		fprintf(stderr, "scontrol_reboot_nodes error: %s\n",
			err ? cli_comm_strerror(err) : slurm_strerror(rc));
		return 1;
	}
	return 0;
}

/* cancel_reboot <nodes>: update State=CANCEL_REBOOT. */
int scontrol_cancel_reboot(int argc, char **argv, bool quiet)
{
	node_update_msg_t u = {
		.node_state = NODE_STATE_REBOOT_CANCEL, .weight = NO_VAL32,
		.reason_uid = NO_VAL32,
	};
	int err, rc = 0;

	if (argc < 1) {
		fprintf(stderr, "missing argument for keyword:cancel_reboot\n");
		return 1;
	}
	if (argc > 1) {
		fprintf(stderr, "too many arguments for keyword:cancel_reboot\n");
		return 1;
	}
	u.node_names = argv[0];
	err = cli_ctld_rpc_rc(REQUEST_UPDATE_NODE, &u, &rc);
	if (err || rc) {
		if (!quiet)
			fprintf(stderr, "slurm_update error: %s\n",
				err ? cli_comm_strerror(err) :
				slurm_strerror(rc));
		return 1;
	}
	return 0;
}
