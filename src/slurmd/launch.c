/* launch.c — start a batch job's slurmstepd (see launch.h). */
#define _GNU_SOURCE
#include "slurmd/launch.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fd.h"
#include "common/log.h"
#include "common/pack.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/common/spool.h"
#include "slurmd/stepd_spawn.h"

/* <spool>/jobNNNNN owned by the user, with slurm_script (mode 0500).
 * Created by root inside root's spool dir; handed over only once written. */
static int make_job_dir(slurmd_t *sd, const batch_launch_msg_t *m)
{
	char *dir = spool_job_dir(sd->spool_dir, m->job_id);
	char *script = spool_script_path(sd->spool_dir, m->job_id);
	int fd = -1, rc = ESLURMD_CREATE_BATCH_DIR_ERROR;

	spool_remove_tree(dir);
	if (mkdir(dir, 0700) < 0) {
		error("JobId=%u: mkdir %s: %m", m->job_id, dir);
		goto out;
	}
	fd = open(script, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0500);
	if (fd < 0 || fd_write_all(fd, m->script, strlen(m->script)) < 0 ||
	    fchown(fd, m->uid, m->gid) < 0 || fchmod(fd, 0500) < 0) {
		error("JobId=%u: writing %s: %m", m->job_id, script);
		goto out;
	}
	if (chown(dir, m->uid, m->gid) < 0) {
		error("JobId=%u: chown %s: %m", m->job_id, dir);
		goto out;
	}
	rc = SLURM_SUCCESS;
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		spool_remove_tree(dir);
	xfree(dir);
	xfree(script);
	return rc;
}

static int send_launch_msg(int fd, uint16_t type, const void *m)
{
	buf_t *b = buf_create(4096);
	uint32_t len;
	int rc = -1;

	if (msg_body_pack(type, m, b) < 0)
		goto out;
	len = htonl((uint32_t) buf_len(b));
	if (fd_write_all(fd, &len, sizeof(len)) < 0 ||
	    fd_write_all(fd, buf_data(b), buf_len(b)) < 0)
		goto out;
	rc = 0;
out:
	buf_destroy(b);
	return rc;
}

/* The stepd's verdict, or an error if it died or said nothing in time. */
static int read_verdict(int fd, uint32_t job_id, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int32_t rc;
	ssize_t n;

	for (;;) {
		int r = poll(&p, 1, timeout_ms);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			error("JobId=%u: slurmstepd did not report in time",
			      job_id);
			return SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT;
		}
		break;
	}
	do {
		n = read(fd, &rc, sizeof(rc));
	} while (n < 0 && errno == EINTR);
	if (n != sizeof(rc)) {
		error("JobId=%u: slurmstepd exited before starting the job",
		      job_id);
		return ESLURMD_EXECVE_FAILED;
	}
	return rc;
}

int launch_run_stepd(slurmd_t *sd, uint16_t type, const void *m,
		     uint32_t job_id)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	int timeout = (sd->conf->message_timeout ? sd->conf->message_timeout
						 : 10) * 500;
	pid_t pid;
	int rc = ESLURMD_EXECVE_FAILED;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		error("JobId=%u: pipe: %m", job_id);
		goto out;
	}
	if (stepd_spawn(sd, in[0], out[1],
			type == REQUEST_BATCH_JOB_LAUNCH ? NULL :
			type == REQUEST_LAUNCH_PROLOG ? "-x" : "-s", &pid) < 0)
		goto out;
	debug("JobId=%u: slurmstepd pid %d", job_id, (int) pid);
	close(in[0]);
	close(out[1]);
	in[0] = out[1] = -1;
	if (send_launch_msg(in[1], type, m) < 0)
		error("JobId=%u: sending launch to slurmstepd: %m", job_id);
	close(in[1]);
	in[1] = -1;
	rc = read_verdict(out[0], job_id, timeout);
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	return rc;
}

static slurmd_run_t *_find_run(slurmd_t *sd, uint32_t job_id)
{
	for (size_t i = 0; i < SLURMD_RUNS; i++)
		if (sd->runs[i].job_id == job_id)
			return &sd->runs[i];
	return NULL;
}

static void _note_run(slurmd_t *sd, const batch_launch_msg_t *m)
{
	slurmd_run_t *r = _find_run(sd, m->job_id);

	if (!r) {
		r = &sd->runs[sd->run_next];
		sd->run_next = (sd->run_next + 1) % SLURMD_RUNS;
	}
	r->job_id = m->job_id;
	r->start_time = m->start_time;
	r->restart_cnt = m->restart_cnt;
	r->ended = false;
}

void launch_ended(slurmd_t *sd, uint32_t job_id)
{
	slurmd_run_t *r = _find_run(sd, job_id);

	if (r)
		r->ended = true;
}

int launch_batch(slurmd_t *sd, const batch_launch_msg_t *m)
{
	const slurmd_run_t *run;
	char *sock = spool_step_socket(sd->spool_dir, sd->node->name,
				       m->job_id);
	int rc;

	if (!m->job_id || !m->script) {
		rc = SLURM_UNEXPECTED_MSG_ERROR;
		goto out;
	}
	if (spool_step_alive(sock)) {
		info("JobId=%u: already running here, launch ignored",
		     m->job_id);
		rc = SLURM_SUCCESS;
		goto out;
	}
	run = _find_run(sd, m->job_id);
	if (run && run->ended && run->start_time == m->start_time &&
	    run->restart_cnt == m->restart_cnt) {
		info("JobId=%u: this run already ended here, launch ignored",
		     m->job_id);
		rc = SLURM_SUCCESS;
		goto out;
	}
	unlink(sock);
	info("Launching batch job %u for UID %u", m->job_id, m->uid);
	rc = make_job_dir(sd, m);
	if (rc)
		goto out;
	rc = launch_run_stepd(sd, REQUEST_BATCH_JOB_LAUNCH, m, m->job_id);
	if (!rc)
		_note_run(sd, m);
	if (rc) {
		char *dir = spool_job_dir(sd->spool_dir, m->job_id);

		spool_remove_tree(dir);
		xfree(dir);
	}
out:
	xfree(sock);
	return rc;
}
