/* cli_scontrol_node.c — scontrol create NodeName=... and scontrol delete
 * NodeName=... (dynamic nodes; cli_scontrol.h). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

bool scontrol_is_node_entity(const char *word)
{
	return xstrcaseprefix(word, "nodename=") ||
	       !strcasecmp(word, "node") || !strcasecmp(word, "nodename");
}

/* "node" / "nodename" before the specification: skipped. */
static int _skip_entity(int argc, char **argv)
{
	return argc > 1 && !strchr(argv[0], '=') ? 1 : 0;
}

int scontrol_node_create(int argc, char **argv)
{
	int skip = _skip_entity(argc, argv), rc = 0, err;
	dyn_node_msg_t m = { 0 };
	char *line = NULL;

	for (int i = skip; i < argc; i++)
		xstrfmtcat(&line, "%s%s", line ? " " : "", argv[i]);
	if (!line || !xstrcaseprefix(line, "nodename=")) {
		fprintf(stderr, "scontrol: error: Invalid creation entity: "
			"%s\n", line ? line : "");
		xfree(line);
		return 1;
	}
	m.node_line = line;
	err = cli_ctld_rpc_rc(REQUEST_CREATE_NODE, &m, &rc);
	xfree(line);
	if (!err && !rc)
		return 0;
	fprintf(stderr, "Error creating node(s): %s\n",
		err ? cli_comm_strerror(err) : slurm_strerror(rc));
	return 1;
}

int scontrol_node_delete(int argc, char **argv)
{
	const char *eq = strchr(argv[0], '=');
	dyn_node_msg_t m = { 0 };
	int rc = 0, err;

	m.node_line = (char *) (eq ? eq + 1 : argc > 1 ? argv[1] : "");
	err = cli_ctld_rpc_rc(REQUEST_DELETE_NODE, &m, &rc);
	if (!err && !rc)
		return 0;
	fprintf(stderr, "Error deleting node(s): %s\n",
		err ? cli_comm_strerror(err) : slurm_strerror(rc));
	return 1;
}
