/* bcast.c — sbcast blocks and sgather pieces, as the user (bcast.h). */
#define _GNU_SOURCE     /* pipe2, getgrouplist */
#include "slurmd/bcast.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/bcast_block.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/sha256.h"
#include "common/step_cred.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"
#include "slurmd/bcast_io.h"

#define MAX_GROUPS     1024
#define CRED_CACHE     64
#define CHILD_TIMEOUT  300      /* seconds a child may take */

/* ---- credentials: verified once per node, then remembered ---- */

typedef struct {
	uint8_t  key[SHA256_LEN];     /* of payload and signature */
	time_t   expiry;
	uint32_t job_id, step_id, uid, gid;
} cred_seen_t;

static cred_seen_t seen[CRED_CACHE];

static void _cred_key(const char *payload, const char *sig,
		      uint8_t key[SHA256_LEN])
{
	sha256_t s;

	sha256_init(&s);
	sha256_update(&s, payload, strlen(payload) + 1);
	sha256_update(&s, sig, strlen(sig));
	sha256_final(&s, key);
}

/* The credential (payload, sig) for job.step of uid/gid on this node:
 * 0, or a slurm_err_t with *why. */
static int _cred_check(slurmd_t *sd, const char *payload, const char *sig,
		       uint32_t job_id, uint32_t step_id, uint32_t uid,
		       uint32_t gid, const char **why)
{
	uint8_t key[SHA256_LEN];
	time_t now = time(NULL);
	step_cred_t *c = NULL;
	cred_seen_t *slot = &seen[0];
	int rc;

	*why = NULL;
	if (!payload || !sig) {
		*why = "no credential";
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	_cred_key(payload, sig, key);
	for (int i = 0; i < CRED_CACHE; i++) {
		cred_seen_t *e = &seen[i];

		if (e->expiry >= now && !memcmp(e->key, key, sizeof(key))) {
			if (e->job_id != job_id || e->step_id != step_id ||
			    e->uid != uid || e->gid != gid) {
				*why = "job, step or user differs";
				return ESLURMD_INVALID_JOB_CREDENTIAL;
			}
			return 0;
		}
		if (e->expiry < slot->expiry)
			slot = e;       /* expired or the soonest to */
	}
	rc = step_cred_verify(payload, sig, sd->conf->slurm_user_id,
			      sd->node->name, now, &c, why);
	if (rc)
		return rc;
	if (c->job_id != job_id || c->step_id != step_id || c->uid != uid ||
	    c->gid != gid) {
		*why = "job, step or user differs";
		step_cred_free(c);
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	memcpy(slot->key, key, sizeof(key));
	slot->expiry = c->expiry;
	slot->job_id = job_id;
	slot->step_id = step_id;
	slot->uid = uid;
	slot->gid = gid;
	step_cred_free(c);
	return 0;
}

/* ---- a child as the user, its answer through a pipe ---- */

typedef void (*done_f)(net_conn_t *conn, const uint8_t *buf, size_t len,
		       void *arg);

typedef struct {
	net_conn_t   *conn;
	struct event *ev;
	int           fd;
	pid_t         pid;
	uint8_t      *buf;
	size_t        got, cap;
	done_f        done;
	char         *what;     /* for the log */
} child_t;

static void _child_free(child_t *c)
{
	if (c->ev)
		event_free(c->ev);
	if (c->fd >= 0)
		close(c->fd);
	xfree(c->buf);
	xfree(c->what);
	xfree(c);
}

static void _on_pipe(evutil_socket_t fd, short what, void *arg)
{
	child_t *c = arg;
	ssize_t r;

	if (what & EV_TIMEOUT) {
		error("%s took too long, killed pid %d", c->what, (int) c->pid);
		kill(c->pid, SIGKILL);
		net_reply_rc(c->conn, ETIMEDOUT);
		_child_free(c);
		return;
	}
	for (;;) {
		if (c->got == c->cap) {         /* more than it may send */
			kill(c->pid, SIGKILL);
			break;
		}
		r = read(fd, c->buf + c->got, c->cap - c->got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (r <= 0)
			break;
		c->got += (size_t) r;
	}
	c->done(c->conn, c->buf, c->got, NULL);
	_child_free(c);     /* the SIGCHLD reaper waits for the child */
}

/* The user's supplementary groups, looked up before the fork. */
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

typedef void (*work_f)(int fd, const void *req, const char *path);

/* Fork a child that becomes uid and runs work(fd, req, path); its answer
 * (at most cap bytes) goes to done on the loop. */
static void _spawn(slurmd_t *sd, net_conn_t *conn, uid_t uid, gid_t gid,
		   work_f work, const void *req, const char *path, size_t cap,
		   done_f done, char *what)
{
	gid_t groups[MAX_GROUPS];
	int ngroups = _groups(uid, gid, groups, MAX_GROUPS), pfd[2];
	struct timeval tv = { CHILD_TIMEOUT, 0 };
	child_t *c;
	pid_t pid;

	if (geteuid() != 0 && geteuid() != uid) {
		error("%s: slurmd runs as uid %u, not root", what,
		      (unsigned) geteuid());
		net_reply_rc(conn, EPERM);
		xfree(what);
		return;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		net_reply_rc(conn, errno);
		xfree(what);
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		if (bcast_io_become(uid, gid, groups, ngroups) < 0) {
			bcast_io_hdr_t h = { .err = EPERM };

			if (write(pfd[1], &h, sizeof(h)) < 0)
				_exit(1);
			_exit(0);
		}
		work(pfd[1], req, path);
		_exit(0);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		net_reply_rc(conn, errno);
		xfree(what);
		return;
	}
	c = xmalloc(sizeof(*c));
	c->conn = conn;
	c->fd = pfd[0];
	c->pid = pid;
	c->cap = cap;
	c->buf = xmalloc(cap);
	c->done = done;
	c->what = what;
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	c->ev = event_new(sd->base, c->fd, EV_READ | EV_PERSIST, _on_pipe, c);
	if (!c->ev || event_add(c->ev, &tv) < 0) {
		kill(pid, SIGKILL);
		net_reply_rc(conn, ENOMEM);
		_child_free(c);
	}
}

/* ---- REQUEST_FILE_BCAST ---- */

static void _block_work(int fd, const void *req, const char *path)
{
	bcast_io_hdr_t h = { 0 };

	h.err = bcast_io_write_block(req, path);
	if (write(fd, &h, sizeof(h)) < 0)
		_exit(1);
}

static void _block_done(net_conn_t *conn, const uint8_t *buf, size_t len,
			void *arg)
{
	bcast_io_hdr_t h;

	if (len < sizeof(h)) {
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	memcpy(&h, buf, sizeof(h));
	net_reply_rc(conn, h.err);
}

static bool _privileged(const slurmd_t *sd, uid_t uid)
{
	return uid == 0 || uid == sd->conf->slurm_user_id;
}

void bcast_req_block(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const file_bcast_msg_t *m = msg->data;
	const char *why = NULL;
	char bad[160], *path;
	int k, rc;

	if (!m) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (bcast_block_check(m, bad, sizeof(bad)) < 0) {
		error("sbcast JobId=%u from uid %u at %s: %s", m->job_id,
		      (unsigned) msg->auth_uid, msg->peer, bad);
		net_reply_rc(conn, EINVAL);
		return;
	}
	if (!_privileged(sd, msg->auth_uid) && msg->auth_uid != m->uid) {
		why = "sender is not the credential's user";
		rc = ESLURMD_INVALID_JOB_CREDENTIAL;
	} else if ((k = bcast_block_sig(m, sd->node->name)) < 0) {
		why = "no signature for this node";
		rc = ESLURMD_INVALID_JOB_CREDENTIAL;
	} else {
		rc = _cred_check(sd, m->cred_payload, m->cred_sigs[k],
				 m->job_id, m->step_id, m->uid, m->gid, &why);
	}
	if (rc) {
		error("sbcast JobId=%u: credential refused from uid %u: %s",
		      m->job_id, (unsigned) msg->auth_uid,
		      why ? why : slurm_strerror(rc));
		net_reply_rc(conn, rc);
		return;
	}
	path = (m->flags & BCAST_FLAG_NODE_SUFFIX) ?
	       xstrdup_printf("%s%s", m->fname, sd->node->name) :
	       xstrdup(m->fname);
	if (m->block_no == 1)
		info("sbcast JobId=%u uid=%u: %s (%llu bytes)", m->job_id,
		     m->uid, path, (unsigned long long) m->file_size);
	debug("sbcast JobId=%u: block %u of %s (%u bytes at %llu)", m->job_id,
	      m->block_no, path, m->block_len, (unsigned long long) m->offset);
	_spawn(sd, conn, m->uid, m->gid, _block_work, m, path,
	       sizeof(bcast_io_hdr_t), _block_done,
	       xstrdup_printf("sbcast JobId=%u block %u of %s", m->job_id,
			      m->block_no, path));
	xfree(path);
}

/* ---- REQUEST_FILE_GATHER ---- */

static void _gather_work(int fd, const void *req, const char *path)
{
	bcast_io_gather(fd, req);
}

static void _gather_done(net_conn_t *conn, const uint8_t *buf, size_t len,
			 void *arg)
{
	file_gather_resp_msg_t r = { 0 };
	bcast_io_hdr_t h;
	size_t n = 0;

	if (len < sizeof(h)) {
		net_reply_rc(conn, SLURM_ERROR);
		return;
	}
	memcpy(&h, buf, sizeof(h));
	if (h.err) {
		net_reply_rc(conn, h.err);
		return;
	}
	if (len != sizeof(h) + h.len) {
		net_reply_rc(conn, EIO);
		return;
	}
	r.file_size = h.size;
	r.mode = h.mode;
	r.atime = (time_t) h.atime;
	r.mtime = (time_t) h.mtime;
	r.compress = h.compress;
	r.block_len = h.block_len;
	r.data_len = h.len;
	r.data = (char *) buf + sizeof(h);
	if (h.len && !h.block_len) {          /* a list of paths */
		const char *p = r.data, *end = r.data + h.len;

		r.names = xcalloc(h.len + 1, sizeof(char *));
		while (p < end) {
			r.names[n++] = xstrndup(p, strnlen(p, end - p));
			p += strnlen(p, end - p) + 1;
		}
		r.data = NULL;
		r.data_len = 0;
	}
	net_reply(conn, RESPONSE_FILE_GATHER, &r);
	xstrarray_free(r.names);
}

void bcast_req_gather(slurmd_t *sd, net_conn_t *conn, slurm_msg_t *msg)
{
	const file_gather_msg_t *m = msg->data;
	const char *why = NULL;
	char bad[160];
	size_t cap;
	int rc;

	if (!m) {
		net_reply_rc(conn, SLURM_UNEXPECTED_MSG_ERROR);
		return;
	}
	if (bcast_gather_check(m, bad, sizeof(bad)) < 0) {
		error("sgather JobId=%u from uid %u at %s: %s", m->job_id,
		      (unsigned) msg->auth_uid, msg->peer, bad);
		net_reply_rc(conn, EINVAL);
		return;
	}
	if (!_privileged(sd, msg->auth_uid) && msg->auth_uid != m->uid) {
		why = "sender is not the credential's user";
		rc = ESLURMD_INVALID_JOB_CREDENTIAL;
	} else {
		rc = _cred_check(sd, m->cred_payload, m->cred_sig, m->job_id,
				 m->step_id, m->uid, m->gid, &why);
	}
	if (rc) {
		error("sgather JobId=%u: credential refused from uid %u: %s",
		      m->job_id, (unsigned) msg->auth_uid,
		      why ? why : slurm_strerror(rc));
		net_reply_rc(conn, rc);
		return;
	}
	debug("sgather JobId=%u: %s%s at %llu", m->job_id, m->fname,
	      (m->flags & GATHER_FLAG_LIST) ? " (list)" :
	      (m->flags & GATHER_FLAG_REMOVE) ? " (remove)" : "",
	      (unsigned long long) m->offset);
	cap = sizeof(bcast_io_hdr_t) + ((m->flags & GATHER_FLAG_LIST) ?
		BCAST_LIST_MAX : (size_t) m->max_len + m->max_len / 200 + 64);
	_spawn(sd, conn, m->uid, m->gid, _gather_work, m, m->fname, cap,
	       _gather_done, xstrdup_printf("sgather JobId=%u %s", m->job_id,
					    m->fname));
}
