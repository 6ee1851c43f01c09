/* io.c — the batch script's stdio files (see io.h). */
#include "slurmd/stepd/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/fname.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"

enum { OPEN_MODE_APPEND = 1, OPEN_MODE_TRUNCATE = 2 };

/* %N is the machine's short host name, as in Slurm, not the NodeName
 * (they differ when several slurmd share a host). */
static void short_hostname(char *buf, size_t len)
{
	char *dot;

	if (gethostname(buf, len - 1) < 0)
		buf[0] = '\0';
	buf[len - 1] = '\0';
	if ((dot = strchr(buf, '.')))
		*dot = '\0';
}

void io_paths_build(const stepd_t *sd, io_paths_t *p)
{
	const batch_launch_msg_t *j = sd->job;
	char host[256];
	fname_ctx_t c = {
		.job_id = j->job_id,
		.array_job_id = j->array_job_id,
		.array_task_id = j->array_job_id ? j->array_task_id : NO_VAL32,
		.step_id = FNAME_BATCH_STEP,
		.restart_cnt = j->restart_cnt,
		.job_name = j->job_name,
		.user_name = sd->user_name,
		.node_name = host,
	};
	const char *out = j->std_out && *j->std_out ? j->std_out
				: fname_default_batch(j->array_job_id);

	short_hostname(host, sizeof(host));
	if (!host[0])
		snprintf(host, sizeof(host), "%s", sd->node_name);
	memset(p, 0, sizeof(*p));
	p->out = fname_expand(out, &c);
	if (j->std_err && *j->std_err) {
		p->err = fname_expand(j->std_err, &c);
		if (!strcmp(p->err, p->out))
			xfree(p->err);
	}
	p->in = fname_expand(j->std_in && *j->std_in ? j->std_in : "/dev/null",
			     &c);
	p->append = (j->open_mode == OPEN_MODE_APPEND);
}

void io_paths_free(io_paths_t *p)
{
	xfree(p->in);
	xfree(p->out);
	xfree(p->err);
}

int io_open_nowait(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_NONBLOCK | O_NOCTTY, mode);
	int fl;

	if (fd < 0)
		return -1;
	if ((fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int open_onto(const char *path, int flags, int target)
{
	int fd = io_open_nowait(path, flags, 0666);

	if (fd < 0)
		return -1;
	if (fd != target) {
		if (dup2(fd, target) < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		close(fd);
	}
	return 0;
}

int io_open_task(const io_paths_t *p, const char **what)
{
	int wflags = O_WRONLY | O_CREAT | (p->append ? O_APPEND : O_TRUNC);

	*what = "stdin";
	if (open_onto(p->in, O_RDONLY, STDIN_FILENO) < 0)
		return -1;
	*what = "stdout";
	if (open_onto(p->out, wflags, STDOUT_FILENO) < 0)
		return -1;
	*what = "stderr";
	if (!p->err)
		return dup2(STDOUT_FILENO, STDERR_FILENO) < 0 ? -1 : 0;
	return open_onto(p->err, wflags, STDERR_FILENO);
}
