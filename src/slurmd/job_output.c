/* job_output.c — reading a job's output as its user (job_output.h). */
#define _GNU_SOURCE     /* pipe2, setresuid, setresgid, getgrouplist */
#include "slurmd/job_output.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define MAX_GROUPS 1024

/* What the child writes first, then len bytes. */
typedef struct {
	int32_t  err;           /* errno, 0 = read */
	int32_t  not_regular;   /* the path is no regular file */
	uint64_t size;
	uint64_t offset;
	uint32_t len;
} read_hdr_t;

typedef struct {
	net_conn_t   *conn;
	struct event *ev;
	int           fd;
	pid_t         pid;
	uint32_t      job_id;
	char         *path;
	char         *node;
	uint8_t      *buf;      /* header, then the bytes */
	size_t        got;
	size_t        cap;
} pending_t;

/* ---- the child: after fork, as the user ---- */

static void _write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		c += w;
		n -= (size_t) w;
	}
}

static int _become(uid_t uid, gid_t gid, const gid_t *groups, int ngroups)
{
	if (geteuid() != 0)
		return geteuid() == uid ? 0 : -1;  /* checked by the parent */
	if (setgroups((size_t) ngroups, groups) < 0 ||
	    setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
		return -1;
	/* no way back */
	if (uid != 0 && (setuid(0) == 0 || geteuid() != uid))
		return -1;
	return 0;
}

static void _child(int fd, const job_output_read_msg_t *q, const gid_t *groups,
		   int ngroups, uint8_t *buf)
{
	read_hdr_t h = { 0 };
	struct stat st, fst;
	uint64_t off;
	size_t n = 0;
	int in;

	if (_become(q->uid, q->gid, groups, ngroups) < 0) {
		h.err = EPERM;
		goto out;
	}
	/* stat first: no open of a FIFO or a device */
	if (stat(q->path, &st) < 0) {
		h.err = errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		h.not_regular = 1;
		h.err = EINVAL;
		goto out;
	}
	in = open(q->path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (in < 0) {
		h.err = errno;
		goto out;
	}
	if (fstat(in, &fst) < 0 || !S_ISREG(fst.st_mode) ||
	    fst.st_ino != st.st_ino || fst.st_dev != st.st_dev) {
		h.not_regular = 1;
		h.err = EINVAL;
		goto out;
	}
	h.size = (uint64_t) fst.st_size;
	if (q->offset == NO_VAL64)
		off = h.size > q->bytes ? h.size - q->bytes : 0;
	else
		off = q->offset < h.size ? q->offset : h.size;
	while (n < q->bytes) {
		ssize_t r = pread(in, buf + n, q->bytes - n, (off_t) (off + n));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			h.err = errno;
			n = 0;
			break;
		}
		if (r == 0)
			break;
		n += (size_t) r;
	}
	h.offset = off;
	h.len = (uint32_t) n;
out:
	_write_all(fd, &h, sizeof(h));
	if (h.len)
		_write_all(fd, buf, h.len);
	_exit(0);
}

/* ---- the parent: on the loop ---- */

static void _finish(pending_t *p)
{
	read_hdr_t h;
	job_output_msg_t m = { 0 };

	if (p->got < sizeof(h)) {
		net_reply_rcf(p->conn, SLURM_ERROR, "slurmd on %s could not read "
			   "%s for job %u", p->node, p->path, p->job_id);
		return;
	}
	memcpy(&h, p->buf, sizeof(h));
	if (h.err) {
		if (h.not_regular)
			net_reply_rcf(p->conn, h.err, "%s (job %u, node %s) is not "
				   "a regular file", p->path, p->job_id,
				   p->node);
		else
			net_reply_rcf(p->conn, h.err, "%s (job %u, node %s): %s",
				   p->path, p->job_id, p->node,
				   strerror(h.err));
		return;
	}
	if (h.len > JOB_OUTPUT_MAX || p->got != sizeof(h) + h.len) {
		net_reply_rcf(p->conn, SLURM_ERROR, "slurmd on %s: short read of "
			   "%s for job %u", p->node, p->path, p->job_id);
		return;
	}
	m.job_id = p->job_id;
	m.path = p->path;
	m.node_name = p->node;
	m.file_size = h.size;
	m.offset = h.offset;
	m.len = h.len;
	m.data = (char *) p->buf + sizeof(h);
	net_reply(p->conn, RESPONSE_JOB_OUTPUT, &m);
}

static void _pending_free(pending_t *p)
{
	if (p->ev)
		event_free(p->ev);
	if (p->fd >= 0)
		close(p->fd);
	xfree(p->path);
	xfree(p->node);
	xfree(p->buf);
	xfree(p);
}

static void _on_pipe(evutil_socket_t fd, short what, void *arg)
{
	pending_t *p = arg;
	ssize_t r;

	if (what & EV_TIMEOUT) {
		error("job output of JobId=%u: reading %s took too long, "
		      "killed pid %d", p->job_id, p->path, (int) p->pid);
		kill(p->pid, SIGKILL);
		net_reply_rcf(p->conn, ETIMEDOUT, "%s (job %u, node %s): %s",
			   p->path, p->job_id, p->node, strerror(ETIMEDOUT));
		_pending_free(p);
		return;
	}
	for (;;) {
		if (p->got == p->cap) {         /* more than a child may send */
			kill(p->pid, SIGKILL);
			r = 0;
			break;
		}
		r = read(fd, p->buf + p->got, p->cap - p->got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;                 /* more later */
		if (r <= 0)
			break;
		p->got += (size_t) r;
	}
	_finish(p);        /* EOF: the child is done (the reaper waits for it) */
	_pending_free(p);
}

/* The request alone: 0, or -1 with a reply sent. */
static int _check(net_conn_t *conn, const job_output_read_msg_t *q)
{
	if (!q->path || q->path[0] != '/') {
		net_reply_rcf(conn, EINVAL, "job output path must be absolute");
		return -1;
	}
	if (!q->bytes || q->bytes > JOB_OUTPUT_MAX) {
		net_reply_rcf(conn, EINVAL, "bytes must be 1 to %u",
			   JOB_OUTPUT_MAX);
		return -1;
	}
	if (geteuid() != 0 && q->uid != geteuid()) {
		net_reply_rcf(conn, EPERM, "slurmd runs as uid %u and cannot "
			   "read as uid %u", (unsigned) geteuid(),
			   (unsigned) q->uid);
		return -1;
	}
	return 0;
}

/* The user's supplementary groups, looked up here (the child makes no
 * NSS calls after fork).  Count, at least 1 (gid). */
static int _groups(uid_t uid, gid_t gid, gid_t *groups, int max)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	int n = max;

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) || !res ||
	    getgrouplist(res->pw_name, gid, groups, &n) < 0 || n < 1) {
		groups[0] = gid;
		return 1;
	}
	return n;
}

void job_output_read(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const job_output_read_msg_t *q = msg->data;
	gid_t groups[MAX_GROUPS];
	int ngroups, pfd[2];
	int tmo_s = sd->conf->message_timeout ?
		    sd->conf->message_timeout / 4 : 2;
	struct timeval tv = { tmo_s > 0 ? tmo_s : 1, 0 };
	pending_t *p;
	pid_t pid;

	if (!q) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (_check(conn, q) < 0)
		return;
	ngroups = _groups(q->uid, q->gid, groups, MAX_GROUPS);
	p = xmalloc(sizeof(*p));
	p->fd = -1;
	p->cap = sizeof(read_hdr_t) + q->bytes;
	p->buf = xmalloc(p->cap);
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		net_reply_rcf(conn, errno, "slurmd: pipe: %s", strerror(errno));
		_pending_free(p);
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		_child(pfd[1], q, groups, ngroups, p->buf);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		net_reply_rcf(conn, errno, "slurmd: fork: %s", strerror(errno));
		_pending_free(p);
		return;
	}
	p->conn = conn;
	p->fd = pfd[0];
	p->pid = pid;
	p->job_id = q->job_id;
	p->path = xstrdup(q->path);
	p->node = xstrdup(sd->node->name);
	fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) | O_NONBLOCK);
	p->ev = event_new(sd->base, p->fd, EV_READ | EV_PERSIST, _on_pipe, p);
	if (!p->ev || event_add(p->ev, &tv) < 0) {
		kill(pid, SIGKILL);
		net_reply_rcf(conn, ENOMEM, "slurmd: cannot watch the reader");
		_pending_free(p);
		return;
	}
	debug("job output of JobId=%u: reading %s as uid %u (pid %d)",
	      q->job_id, q->path, (unsigned) q->uid, (int) pid);
}
