/* net.c — blocking RPC clients, listening sockets (see net.h).  The request
 * server is net_server.c, built into the daemons only, so that libslurmfull
 * (and with it every command) does not need libevent.
 */
#define _GNU_SOURCE     /* POLLRDHUP */
#include "common/net.h"
#include "common/net_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "common/auth.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* ---- addresses ---- */

void net_sockaddr_str(const struct sockaddr *sa, char *out, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(out, len, "%s:%u", host, ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(out, len, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else if (sa->sa_family == AF_UNIX) {
		snprintf(out, len, "unix");
	} else {
		snprintf(out, len, "unknown");
	}
}

static struct {
	int time, intvl, probes;
} keepalive = { -1, -1, -1 };

void net_set_keepalive(int time, int intvl, int probes)
{
	keepalive.time = time;
	keepalive.intvl = intvl;
	keepalive.probes = probes;
}

void net_keepalive(int fd)
{
	int one = 1;

	if (keepalive.time < 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)) < 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &keepalive.time,
		       sizeof(int)) < 0 ||
	    (keepalive.intvl >= 0 &&
	     setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &keepalive.intvl,
			sizeof(int)) < 0) ||
	    (keepalive.probes >= 0 &&
	     setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &keepalive.probes,
			sizeof(int)) < 0))
		debug("keepalive on fd %d: %s", fd, strerror(errno));
}

void net_set_nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int net_set_blocking(int fd, bool blocking)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	fl = blocking ? fl & ~O_NONBLOCK : fl | O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl);
}

/* ---- client ---- */

/* Non-blocking connect bounded by timeout_ms (<= 0: no bound). */
static int connect_one(const struct addrinfo *ai, int timeout_ms)
{
	int fd, err = 0, n;
	socklen_t el = sizeof(err);
	struct pollfd p;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    ai->ai_protocol);
	if (fd < 0)
		return -1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		goto connected;
	if (errno != EINPROGRESS)
		goto fail;
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	do {
		n = poll(&p, 1, timeout_ms > 0 ? timeout_ms : -1);
	} while (n < 0 && errno == EINTR);
	if (n == 0) {
		errno = ETIMEDOUT;
		goto fail;
	}
	if (n < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
		goto fail;
	if (err) {
		errno = err;
		goto fail;
	}
connected:
	net_set_nodelay(fd);
	net_keepalive(fd);
	net_set_blocking(fd, true);
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

int net_connect_tcp(const char *host, uint16_t port, int timeout_ms)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char service[8];
	int fd = -1, rc;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host ? host : "localhost", service, &hints, &res);
	if (rc) {
		debug("cannot resolve %s: %s", host ? host : "localhost",
		      gai_strerror(rc));
		errno = EHOSTUNREACH;
		return -1;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next)
		fd = connect_one(ai, timeout_ms);
	freeaddrinfo(res);
	return fd;
}

int net_connect_unix(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, err;

	if (!path || strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Send on a connected fd and read one reply; closes fd.
 *
 * A reset (ECONNRESET, EPIPE) means the peer closed the connection with
 * our request not all read: it was still in the queue of a listener that
 * closed (a daemon stopping), or the peer gave up reading it.  A peer
 * that read the request and then ended without answering closes with a
 * FIN instead (SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT).  So a reset means
 * the request was not acted on, as when connect fails, and is reported
 * as SLURM_COMMUNICATIONS_CONNECTION_ERROR: callers may send it again. */
static int rpc_fd(int fd, uint16_t type, const void *req, slurm_msg_t *resp,
		  int timeout_ms, bool peer, uint16_t version)
{
	long long start = mono_ms();
	int rc, left;

	memset(resp, 0, sizeof(*resp));
	errno = 0;
	rc = msg_send_fd_at(fd, type, req, version, peer, timeout_ms);
	if (rc == SLURM_SUCCESS) {
		left = timeout_ms;
		if (timeout_ms > 0) {
			left = timeout_ms - (int)(mono_ms() - start);
			if (left < 1)
				left = 1;
		}
		rc = msg_recv_fd(fd, resp, left);
	}
	if (rc != SLURM_SUCCESS && (errno == ECONNRESET || errno == EPIPE)) {
		debug("%s: connection reset before the request was read",
		      msg_type_name(type));
		memset(resp, 0, sizeof(*resp));
		rc = SLURM_COMMUNICATIONS_CONNECTION_ERROR;
	}
	close(fd);
	return rc;
}

/* ---- peers' protocol versions ----
 *
 * A request goes at our version unless the peer is known to be older: a
 * peer that refuses our version answers at its own (msg.h), which we
 * remember here for PEER_TTL_S and retry at once.  The memory expires so
 * that a peer upgraded meanwhile is spoken to at its new version again. */

#define PEER_SLOTS 64
#define PEER_TTL_S 60

static struct {
	char     key[272];      /* "host:port" or a unix socket's path */
	uint16_t version;
	time_t   at;
} peers[PEER_SLOTS];
static pthread_mutex_t peers_lock = PTHREAD_MUTEX_INITIALIZER;

static uint16_t peer_version(const char *key)
{
	time_t now = time(NULL);
	uint16_t v = 0;

	pthread_mutex_lock(&peers_lock);
	for (int i = 0; i < PEER_SLOTS; i++)
		if (peers[i].version && !strcmp(peers[i].key, key) &&
		    now - peers[i].at < PEER_TTL_S)
			v = peers[i].version;
	pthread_mutex_unlock(&peers_lock);
	return v;
}

static void peer_version_set(const char *key, uint16_t v)
{
	time_t now = time(NULL);
	int slot = 0;

	pthread_mutex_lock(&peers_lock);
	for (int i = 0; i < PEER_SLOTS; i++) {
		if (!strcmp(peers[i].key, key)) {
			slot = i;
			break;
		}
		if (peers[i].at < peers[slot].at)
			slot = i;       /* the oldest (or an empty) one */
	}
	snprintf(peers[slot].key, sizeof(peers[slot].key), "%s", key);
	peers[slot].version = v;
	peers[slot].at = now;
	pthread_mutex_unlock(&peers_lock);
}

/* Requests to slurmdbd (the 7000s): as in Slurm, slurmdbd is upgraded
 * before everything that talks to it, so one older than us is refused,
 * never stepped down to (an accounting record of ours it could not read
 * would be lost to it). */
static bool to_slurmdbd(uint16_t type)
{
	return type >= REQUEST_DBD_ACCT && type < RESPONSE_SLURM_RC;
}

/* A reply refusing the version we sent at: the older one the peer
 * speaks, to send again at, or 0 (logged when the peer is too new or too
 * old for us: what to upgrade). */
static uint16_t retry_version(const char *key, uint16_t type,
			      const slurm_msg_t *resp, uint16_t sent)
{
	const return_code_msg_t *r = resp->data;
	char pv[16], own[16];

	if (resp->type != RESPONSE_SLURM_RC || !r ||
	    r->rc != SLURM_PROTOCOL_VERSION_ERROR)
		return 0;
	sent = sent ? sent : PROTO_OWN;
	if (resp->version < sent && to_slurmdbd(type)) {
		error("%s: slurmdbd at %s speaks protocol version %s, older "
		      "than this %s's %s: slurmdbd must be upgraded first "
		      "(slurmdbd, then slurmctld, then the slurmd's, then the "
		      "commands)", msg_type_name(type), key,
		      proto_str(resp->version, pv, sizeof(pv)),
		      program_invocation_short_name,
		      proto_str(sent, own, sizeof(own)));
		return 0;
	}
	if (resp->version < sent && proto_supported(resp->version)) {
		debug("%s: %s speaks protocol version %s: sending at it",
		      msg_type_name(type), key,
		      proto_str(resp->version, pv, sizeof(pv)));
		return resp->version;
	}
	error("%s refused protocol version %s of this %s: %s", key,
	      proto_str(sent, own, sizeof(own)), program_invocation_short_name,
	      r->msg ? r->msg : "upgrade the older of the two");
	return 0;
}

/* ---- sessions ---- */

#define SESS_SLOTS 4            /* daemons a thread keeps a session with */

typedef struct {
	int           fd;       /* -1: none */
	char          host[256];
	uint16_t      port;
	uint16_t      version;  /* the session's protocol version (0: ours) */
	msg_session_t s;
} sess_conn_t;

static net_sessions_t sessions_mode;
static __thread sess_conn_t sess_slots[SESS_SLOTS];
static __thread bool sess_slots_ready;

void net_rpc_sessions(net_sessions_t mode)
{
	sessions_mode = mode;
}

static void sess_close(sess_conn_t *sc)
{
	if (sc->fd >= 0)
		close(sc->fd);
	sc->fd = -1;
	memset(&sc->s, 0, sizeof(sc->s));
}

/* The daemon never speaks first: anything readable on an idle session
 * connection is its end (EOF) or garbage. */
static bool sess_alive(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };

	return poll(&p, 1, 0) == 0;
}

/* The thread's slot for host:port (its connection checked), else the
 * least useful one, emptied. */
static sess_conn_t *sess_slot(const char *host, uint16_t port)
{
	sess_conn_t *free_sc = NULL;

	if (!sess_slots_ready) {
		for (int i = 0; i < SESS_SLOTS; i++)
			sess_slots[i].fd = -1;
		sess_slots_ready = true;
	}
	for (int i = 0; i < SESS_SLOTS; i++) {
		sess_conn_t *sc = &sess_slots[i];

		if (sc->fd >= 0 && sc->port == port &&
		    !strcmp(sc->host, host)) {
			if (!sess_alive(sc->fd)) {
				debug2("session to %s:%u closed by the daemon",
				       host, port);
				sess_close(sc);
			}
			return sc;
		}
		if (sc->fd < 0 && !free_sc)
			free_sc = sc;
	}
	if (!free_sc) {
		free_sc = &sess_slots[SESS_SLOTS - 1];
		sess_close(free_sc);
	}
	snprintf(free_sc->host, sizeof(free_sc->host), "%s", host);
	free_sc->port = port;
	return free_sc;
}

static int sess_open(sess_conn_t *sc, int timeout_ms)
{
	sc->fd = net_connect_tcp(sc->host, sc->port, timeout_ms);
	if (sc->fd < 0) {
		debug("connect to %s:%u: %s", sc->host, sc->port,
		      strerror(errno));
		return errno == ETIMEDOUT ? SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT
					  : SLURM_COMMUNICATIONS_CONNECTION_ERROR;
	}
	memset(&sc->s, 0, sizeof(sc->s));
	{
		char key[272];

		snprintf(key, sizeof(key), "%s:%u", sc->host, sc->port);
		sc->version = peer_version(key);
	}
	if (getrandom(sc->s.key, sizeof(sc->s.key), 0) !=
	    (ssize_t)sizeof(sc->s.key)) {
		error("session key: getrandom: %s", strerror(errno));
		sess_close(sc);
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return SLURM_SUCCESS;
}

/* One request on sc's connection (opened here when it has none). */
static int sess_rpc_once(sess_conn_t *sc, uint16_t type, const void *req,
			 slurm_msg_t *resp, int timeout_ms, bool *reused)
{
	long long start = mono_ms();
	int rc, left = timeout_ms;

	*reused = sc->fd >= 0;
	if (!*reused && (rc = sess_open(sc, timeout_ms)))
		return rc;
	errno = 0;
	msg_session_client(&sc->s);
	rc = msg_send_fd_at(sc->fd, type, req, sc->version, false, timeout_ms);
	if (rc == SLURM_SUCCESS) {
		if (timeout_ms > 0) {
			left = timeout_ms - (int)(mono_ms() - start);
			if (left < 1)
				left = 1;
		}
		rc = msg_recv_fd(sc->fd, resp, left);
	}
	msg_session_client(NULL);
	if (rc == SLURM_SUCCESS && (resp->flags & MSG_FLAG_SESSION_MAC)) {
		msg_session_advance(&sc->s);
		if (sessions_mode == NET_SESSIONS_ONE)
			sess_close(sc);         /* the daemon sees EOF */
		return rc;
	}
	if (rc == SLURM_SUCCESS) {      /* answered, but not in the session */
		debug("%s: %s:%u answered outside the session",
		      msg_type_name(type), sc->host, sc->port);
	} else if (errno == ECONNRESET || errno == EPIPE) {
		debug("%s: session connection reset before the request was read",
		      msg_type_name(type));
		memset(resp, 0, sizeof(*resp));
		rc = SLURM_COMMUNICATIONS_CONNECTION_ERROR;
	}
	sess_close(sc);
	return rc;
}

static int sess_rpc(const char *host, uint16_t port, uint16_t type,
		    const void *req, slurm_msg_t *resp, int timeout_ms)
{
	sess_conn_t *sc = sess_slot(host ? host : "localhost", port);
	bool reused;
	int rc = sess_rpc_once(sc, type, req, resp, timeout_ms, &reused);
	uint16_t v;
	char key[272];

	/* an old connection the daemon dropped without reading the request
	 * (it restarted): the request was not acted on, send it again */
	if (rc == SLURM_COMMUNICATIONS_CONNECTION_ERROR && reused)
		rc = sess_rpc_once(sc, type, req, resp, timeout_ms, &reused);
	snprintf(key, sizeof(key), "%s:%u", sc->host, sc->port);
	/* an older daemon refused the opening: a new session at its version
	 * (sess_open takes it from peer_version) */
	if (rc == SLURM_SUCCESS &&
	    (v = retry_version(key, type, resp, sc->version))) {
		peer_version_set(key, v);
		msg_free(resp);
		rc = sess_rpc_once(sc, type, req, resp, timeout_ms, &reused);
	}
	return rc;
}

static bool sess_usable(void)
{
	static bool warned;

	if (sessions_mode == NET_SESSIONS_OFF || msg_auth_jwt())
		return false;
	if (auth_can_key())
		return true;
	if (!warned && sessions_mode == NET_SESSIONS_KEEP) {
		warned = true;  /* a benign race: at worst logged twice */
		info("the AuthType cannot seal a session key: one connection "
		     "and credential per request");
	}
	return false;
}

int net_rpc_session(const char *host, uint16_t port, uint16_t type,
		    const void *req, slurm_msg_t *resp, int timeout_ms)
{
	if (sess_usable())
		return sess_rpc(host, port, type, req, resp, timeout_ms);
	return net_rpc(host, port, type, req, resp, timeout_ms);
}

static int rpc_tcp(const char *host, uint16_t port, uint16_t type,
		   const void *req, slurm_msg_t *resp, int timeout_ms,
		   uint16_t version)
{
	int fd = net_connect_tcp(host, port, timeout_ms);

	memset(resp, 0, sizeof(*resp));
	if (fd < 0) {
		debug("connect to %s:%u: %s", host ? host : "localhost", port,
		      strerror(errno));
		return errno == ETIMEDOUT ? SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT
					  : SLURM_COMMUNICATIONS_CONNECTION_ERROR;
	}
	return rpc_fd(fd, type, req, resp, timeout_ms, false, version);
}

int net_rpc(const char *host, uint16_t port, uint16_t type, const void *req,
	    slurm_msg_t *resp, int timeout_ms)
{
	char key[272];
	uint16_t v, nv;
	int rc;

	snprintf(key, sizeof(key), "%s:%u", host ? host : "localhost", port);
	v = peer_version(key);
	rc = rpc_tcp(host, port, type, req, resp, timeout_ms, v);
	if (rc == SLURM_SUCCESS && (nv = retry_version(key, type, resp, v))) {
		peer_version_set(key, nv);
		msg_free(resp);
		rc = rpc_tcp(host, port, type, req, resp, timeout_ms, nv);
	}
	return rc;
}

static int rpc_unix(const char *path, uint16_t type, const void *req,
		    slurm_msg_t *resp, int timeout_ms, uint16_t version)
{
	int fd = net_connect_unix(path);

	memset(resp, 0, sizeof(*resp));
	if (fd < 0) {
		debug("connect to %s: %s", path ? path : "(null)",
		      strerror(errno));
		return SLURM_COMMUNICATIONS_CONNECTION_ERROR;
	}
	return rpc_fd(fd, type, req, resp, timeout_ms, true, version);
}

int net_rpc_unix(const char *path, uint16_t type, const void *req,
		 slurm_msg_t *resp, int timeout_ms)
{
	uint16_t v = peer_version(path ? path : ""), nv;
	int rc;

	/* the kernel names both ends: no credential either way; the
	 * answer must come from root or from ourselves.  A slurmstepd
	 * older than its slurmd (upgraded under a running step) answers
	 * at its version, and is spoken to at it. */
	rc = rpc_unix(path, type, req, resp, timeout_ms, v);
	if (rc == SLURM_SUCCESS && resp->auth_uid != 0 &&
	    resp->auth_uid != geteuid()) {
		error("%s: reply from uid %u refused", path,
		      (unsigned) resp->auth_uid);
		msg_free(resp);
		return SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	if (rc == SLURM_SUCCESS &&
	    (nv = retry_version(path ? path : "", type, resp, v))) {
		peer_version_set(path ? path : "", nv);
		msg_free(resp);
		rc = rpc_unix(path, type, req, resp, timeout_ms, nv);
	}
	if (rc == SLURM_SUCCESS && resp->auth_uid != 0 &&
	    resp->auth_uid != geteuid()) {
		error("%s: reply from uid %u refused", path,
		      (unsigned) resp->auth_uid);
		msg_free(resp);
		rc = SLURM_PROTOCOL_AUTHENTICATION_ERROR;
	}
	return rc;
}

int net_rpc_rc(const char *host, uint16_t port, uint16_t type, const void *req,
	       int *rc, int timeout_ms)
{
	slurm_msg_t resp;
	int e = net_rpc(host, port, type, req, &resp, timeout_ms);

	if (e != SLURM_SUCCESS)
		return e;
	if (resp.type != RESPONSE_SLURM_RC || !resp.data) {
		error("%s to %s:%u answered with %s", msg_type_name(type),
		      host ? host : "localhost", port, msg_type_name(resp.type));
		msg_free(&resp);
		return SLURM_UNEXPECTED_MSG_ERROR;
	}
	*rc = ((return_code_msg_t *)resp.data)->rc;
	msg_free(&resp);
	return SLURM_SUCCESS;
}

/* ---- listening sockets ---- */

static int listen_on(const struct sockaddr *sa, socklen_t len)
{
	int one = 1, err;
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -1;
	if (sa->sa_family != AF_UNIX)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, len) < 0 || listen(fd, SOMAXCONN) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

int net_listen_tcp(const char *addr, uint16_t port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	char service[8];
	int fd = -1, rc;

	if (!addr) {
		struct sockaddr_in in = { .sin_family = AF_INET,
					  .sin_port = htons(port),
					  .sin_addr.s_addr = htonl(INADDR_ANY) };

		return listen_on((struct sockaddr *)&in, sizeof(in));
	}
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(addr, service, &hints, &res);
	if (rc) {
		error("cannot resolve listen address %s: %s", addr,
		      gai_strerror(rc));
		errno = EADDRNOTAVAIL;
		return -1;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next)
		fd = listen_on(ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(res);
	return fd;
}

int net_listen_unix(const char *path, int mode)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, err;

	if (!path || strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sun.sun_path, path);
	unlink(path);
	fd = listen_on((struct sockaddr *)&sun, sizeof(sun));
	if (fd < 0)
		return -1;
	if (mode && chmod(path, (mode_t)mode) < 0) {
		err = errno;
		close(fd);
		unlink(path);
		errno = err;
		return -1;
	}
	return fd;
}

char *net_peer_host(const char *peer)
{
	const char *colon = peer ? strrchr(peer, ':') : NULL;

	if (!colon)
		return NULL;
	if (peer[0] == '[' && colon > peer + 1 && colon[-1] == ']')
		return xstrndup(peer + 1, (size_t) (colon - peer - 2));
	return xstrndup(peer, (size_t) (colon - peer));
}

uint16_t net_local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}
