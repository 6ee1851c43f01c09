/* reboot.c — RebootProgram (reboot.h). */
#include "slurmd/reboot.h"

#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/script.h"

static pid_t reboot_pid;           /* running, or 0 */

static const char *_program(const slurmd_t *sd)
{
	const char *p = conf_get(sd->conf, "RebootProgram");

	return p && *p && strcmp(p, "(null)") ? p : NULL;
}

void reboot_req(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const char *path = _program(sd);
	script_info_t si = {
		.context = "reboot", .job_id = NO_VAL32,
		.uid = NO_VAL32, .gid = NO_VAL32,
		.node_name = sd->node->name,
		.cluster_name = sd->conf->cluster_name,
		.conf_path = sd->conf_path,
	};
	pid_t pid;

	(void) msg;
	if (!path) {
		error("RebootProgram isn't defined in config");
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	if (access(path, X_OK) < 0) {
		error("Cannot run RebootProgram [%s]: %m", path);
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	if (reboot_pid > 0) {
		info("Node reboot request: RebootProgram already running "
		     "(pid %d)", (int) reboot_pid);
		net_reply_rc(conn, SLURM_SUCCESS);
		return;
	}
	info("Node reboot request being processed");
	pid = script_spawn(path, &si);
	if (pid < 0) {
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	reboot_pid = pid;
	debug("RebootProgram %s started, pid %d", path, (int) pid);
	net_reply_rc(conn, SLURM_SUCCESS);
}

bool reboot_reaped(slurmd_t *sd, pid_t pid, int status)
{
	int rc;

	(void) sd;
	if (!reboot_pid || pid != reboot_pid)
		return false;
	reboot_pid = 0;
	rc = script_exit_rc(status);
	if (rc)
		error("RebootProgram failed: rc:%d", rc);
	else
		info("RebootProgram ended (rc 0), node not rebooted yet");
	return true;
}
