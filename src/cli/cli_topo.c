/* cli_topo.c — scontrol show topology (cli_topo.h). */
#include <stdio.h>

#include "cli/cli_common.h"
#include "cli/cli_topo.h"
#include "common/msg_types.h"
#include "slurm/slurm_errno.h"

int scontrol_topo_show(const char *name)
{
	info_request_msg_t req = { .name = (char *) name };
	const topo_info_msg_t *m;
	slurm_msg_t resp;
	int rc = cli_ctld_rpc(REQUEST_TOPO_INFO, &req, &resp);

	if (rc || resp.type != RESPONSE_TOPO_INFO) {
		fprintf(stderr, "slurm_load_topo error: %s\n",
			rc ? cli_comm_strerror(rc) :
			slurm_strerror(cli_resp_rc(&resp)));
		if (!rc)
			msg_free(&resp);
		return 1;
	}
	m = resp.data;
	rc = 0;
	if (!m->configured) {
		printf("No topology information available\n");
	} else if (!m->text) {
		fprintf(stderr, "scontrol: error: No switch or block has %s\n",
			name ? name : "");
		rc = 1;
	} else {
		fputs(m->text, stdout);
	}
	msg_free(&resp);
	return rc;
}
