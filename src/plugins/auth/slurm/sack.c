/* sack.c — auth/slurm's local token service and its client
 * (auth_slurm.h).
 *
 * Commands run by users cannot read the key.  slurmd (root, has the key)
 * listens on a unix socket (AuthInfo socket=, default
 * /run/slurm/sack.socket, mode 0666) and, for each connection, makes a
 * token for the uid and gid the kernel reports for the peer
 * (SO_PEERCRED) — never for an id the client names — or checks one for
 * it.  One request per connection:
 *
 *   make:  "SAKC" digest[32]                 -> u32 rc, u32 len, token
 *   check: "SAKV" digest[32] u32 len token   -> u32 rc, u32 uid, u32 gid,
 *                                               u32 len, why
 *
 * (big-endian).  The service is one thread; a client has 1 s to send its
 * request, so a stuck client delays others by at most that.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#include "auth_slurm.h"

#define CLIENT_TIMEOUT_MS 10000
#define SERVER_TIMEOUT_MS 1000

static struct {
	int       fd;
	char     *path;
	pthread_t thread;
	int       running;
	pid_t     owner;        /* a forked child does not stop the service */
} sv = { .fd = -1 };

/* ---- framing ---- */

static void _put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static uint32_t _get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Exactly n bytes within timeout_ms overall; 0 or -1. */
static int _read_full(int fd, void *buf, size_t n, int timeout_ms)
{
	uint8_t *p = buf;

	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -1;
		r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= r;
	}
	return 0;
}

static int _write_full(int fd, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t r = send(fd, p, n, MSG_NOSIGNAL);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= r;
	}
	return 0;
}

/* ---- the service ---- */

static void _serve_make(int fd, const struct ucred *cr, const uint8_t *digest)
{
	char tok[TOKEN_MAX_LEN + 1];
	uint8_t hdr[8];
	uint32_t rc = token_make(cr->uid, cr->gid, digest, tok, sizeof(tok));
	uint32_t len = rc ? 0 : (uint32_t)strlen(tok);

	_put32(hdr, rc);
	_put32(hdr + 4, len);
	if (_write_full(fd, hdr, sizeof(hdr)) == 0 && len)
		_write_full(fd, tok, len);
}

static void _serve_check(int fd, const struct ucred *cr, const uint8_t *digest)
{
	uint8_t n[4], out[16];
	char tok[TOKEN_MAX_LEN];
	const char *why = NULL;
	uid_t uid = 0;
	gid_t gid = 0;
	uint32_t len, rc, wlen;

	if (_read_full(fd, n, 4, SERVER_TIMEOUT_MS) < 0 ||
	    (len = _get32(n)) > TOKEN_MAX_LEN ||
	    _read_full(fd, tok, len, SERVER_TIMEOUT_MS) < 0) {
		debug("auth/slurm: bad check request from pid %d uid %u",
		      (int)cr->pid, (unsigned)cr->uid);
		return;
	}
	rc = token_check(tok, len, digest, &uid, &gid, &why);
	wlen = why ? (uint32_t)strlen(why) : 0;
	_put32(out, rc);
	_put32(out + 4, uid);
	_put32(out + 8, gid);
	_put32(out + 12, wlen);
	if (_write_full(fd, out, sizeof(out)) == 0 && wlen)
		_write_full(fd, why, wlen);
}

static void _serve_one(int fd)
{
	uint8_t req[4 + AUTH_DIGEST_LEN];
	struct ucred cr;
	socklen_t crl = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crl) < 0 ||
	    crl != sizeof(cr)) {
		error("auth/slurm: SO_PEERCRED: %m");
		return;
	}
	if (_read_full(fd, req, sizeof(req), SERVER_TIMEOUT_MS) < 0)
		return;
	if (!memcmp(req, "SAKC", 4))
		_serve_make(fd, &cr, req + 4);
	else if (!memcmp(req, "SAKV", 4))
		_serve_check(fd, &cr, req + 4);
	else
		error("auth/slurm: unknown request on %s from pid %d uid %u",
		      sv.path, (int)cr.pid, (unsigned)cr.uid);
}

static void *_serve_loop(void *arg)
{
	(void)arg;
	for (;;) {
		int c = accept4(sv.fd, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED ||
			    errno == EMFILE || errno == ENFILE) {
				if (errno == EMFILE || errno == ENFILE)
					usleep(10000);
				continue;
			}
			break;          /* sack_stop() shut the socket */
		}
		_serve_one(c);
		close(c);
	}
	return NULL;
}

static int _unix_addr(const char *path, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(a->sun_path))
		return -1;
	strcpy(a->sun_path, path);
	return 0;
}

/* Someone answers on path already (another slurmd on this host). */
static int _in_use(const struct sockaddr_un *a)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return 0;
	r = connect(fd, (const struct sockaddr *)a, sizeof(*a)) == 0;
	close(fd);
	return r;
}

int sack_serve(const char *path)
{
	struct sockaddr_un a;
	mode_t old;
	int fd;

	if (sv.running)
		return SLURM_SUCCESS;
	if (_unix_addr(path, &a) < 0) {
		error("auth/slurm: socket path too long: %s", path);
		return SLURM_ERROR;
	}
	if (_in_use(&a)) {
		info("auth/slurm: a token service already answers on %s", path);
		return SLURM_SUCCESS;
	}
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return SLURM_ERROR;
	old = umask(0111);              /* srw-rw-rw-: every user connects */
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 512) < 0) {
		umask(old);
		error("auth/slurm: cannot listen on %s: %m", path);
		close(fd);
		return SLURM_ERROR;
	}
	umask(old);
	sv.fd = fd;
	sv.path = xstrdup(path);
	if (pthread_create(&sv.thread, NULL, _serve_loop, NULL)) {
		close(fd);
		unlink(path);
		xfree(sv.path);
		sv.fd = -1;
		return SLURM_ERROR;
	}
	sv.running = 1;
	sv.owner = getpid();
	info("auth/slurm: token service on %s", path);
	return SLURM_SUCCESS;
}

void sack_stop(void)
{
	if (!sv.running)
		return;
	if (sv.owner != getpid()) {
		close(sv.fd);
		sv.running = 0;
		return;
	}
	shutdown(sv.fd, SHUT_RDWR);
	pthread_join(sv.thread, NULL);
	close(sv.fd);
	unlink(sv.path);
	xfree(sv.path);
	sv.fd = -1;
	sv.running = 0;
}

/* ---- the client ---- */

static int _connect(const char *path)
{
	struct sockaddr_un a;
	int fd;

	if (_unix_addr(path, &a) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int sack_create(const char *path, const uint8_t digest[AUTH_DIGEST_LEN],
		char **cred, uint32_t *len)
{
	uint8_t req[4 + AUTH_DIGEST_LEN], hdr[8];
	int fd = _connect(path), rc = SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	uint32_t n;

	if (fd < 0) {
		error("auth/slurm: cannot reach the token service on %s (%m): "
		      "is slurmd running on this host?", path);
		return rc;
	}
	memcpy(req, "SAKC", 4);
	memcpy(req + 4, digest, AUTH_DIGEST_LEN);
	if (_write_full(fd, req, sizeof(req)) < 0 ||
	    _read_full(fd, hdr, sizeof(hdr), CLIENT_TIMEOUT_MS) < 0 ||
	    _get32(hdr) != 0 || (n = _get32(hdr + 4)) == 0 ||
	    n > TOKEN_MAX_LEN) {
		error("auth/slurm: the token service on %s made no token", path);
		goto out;
	}
	*cred = xmalloc(n + 1);
	if (_read_full(fd, *cred, n, CLIENT_TIMEOUT_MS) < 0) {
		xfree(*cred);
		goto out;
	}
	*len = n;
	rc = SLURM_SUCCESS;
out:
	close(fd);
	return rc;
}

int sack_verify(const char *path, const char *cred, uint32_t len,
		const uint8_t digest[AUTH_DIGEST_LEN], uid_t *uid, gid_t *gid,
		const char **why)
{
	static __thread char whybuf[128];
	uint8_t req[4 + AUTH_DIGEST_LEN + 4], out[16];
	int fd, rc = SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	uint32_t wlen;

	if (len > TOKEN_MAX_LEN) {
		*why = "malformed credential";
		return ESLURM_AUTH_CRED_INVALID;
	}
	if ((fd = _connect(path)) < 0) {
		*why = "cannot reach the local token service";
		return rc;
	}
	memcpy(req, "SAKV", 4);
	memcpy(req + 4, digest, AUTH_DIGEST_LEN);
	_put32(req + 4 + AUTH_DIGEST_LEN, len);
	*why = "no answer from the local token service";
	if (_write_full(fd, req, sizeof(req)) < 0 ||
	    _write_full(fd, cred, len) < 0 ||
	    _read_full(fd, out, sizeof(out), CLIENT_TIMEOUT_MS) < 0)
		goto out;
	wlen = _get32(out + 12);
	if (wlen >= sizeof(whybuf) ||
	    _read_full(fd, whybuf, wlen, CLIENT_TIMEOUT_MS) < 0)
		goto out;
	whybuf[wlen] = '\0';
	rc = (int)_get32(out);
	*why = rc ? whybuf : NULL;
	if (!rc) {
		*uid = _get32(out + 4);
		*gid = _get32(out + 8);
	}
out:
	close(fd);
	return rc;
}
