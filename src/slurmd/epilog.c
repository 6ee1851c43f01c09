/* epilog.c — Epilog for jobs without a stepd here (see epilog.h). */
#include "slurmd/epilog.h"


#include "common/log.h"
#include "common/parse_util.h"
#include "common/prep.h"
#include "common/xmalloc.h"
#include "slurmd/common/script.h"

void epilog_start(slurmd_t *sd, uint32_t job_id, const char *nodes,
		  uint32_t uid, uint32_t gid, const char *user_name)
{
	const char *path = prep_program(sd->conf, PREP_EPILOG);
	script_info_t info = {
		.context = "epilog_slurmd", .job_id = job_id,
		.uid = uid, .gid = gid, .user_name = user_name,
		.nodes = nodes,
		.node_name = sd->node->name,
		.cluster_name = sd->conf->cluster_name,
		.conf_path = sd->conf_path,
	};
	pid_t pid;

	if (!path || !*path) {
		slurmd_epilog_complete(sd, job_id, 0);
		return;
	}
	pid = script_spawn(path, &info);
	if (pid < 0) {
		slurmd_epilog_complete(sd, job_id, 1);
		return;
	}
	sd->epilogs = xrealloc(sd->epilogs,
			       (sd->epilog_cnt + 1) * sizeof(*sd->epilogs));
	sd->epilogs[sd->epilog_cnt].pid = pid;
	sd->epilogs[sd->epilog_cnt].job_id = job_id;
	sd->epilog_cnt++;
}

bool epilog_reaped(slurmd_t *sd, pid_t pid, int status)
{
	for (size_t i = 0; i < sd->epilog_cnt; i++) {
		uint32_t job_id = sd->epilogs[i].job_id;
		int rc;

		if (sd->epilogs[i].pid != pid)
			continue;
		rc = script_exit_rc(status);
		if (rc)
			error("JobId=%u: epilog failed with rc %d", job_id, rc);
		sd->epilogs[i] = sd->epilogs[--sd->epilog_cnt];
		slurmd_epilog_complete(sd, job_id, rc);
		return true;
	}
	return false;
}
