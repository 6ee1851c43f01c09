/* net.h — connections: blocking RPC clients and a libevent server.
 *
 * Clients (commands, slurmd, stepd, controller worker threads) use the
 * blocking calls with timeouts.  Daemons serve requests with net_server on
 * their event loop: the handler runs on the loop thread with an
 * authenticated, unpacked message and answers with net_reply*() now or
 * later (e.g. after the journal is on disk).  The connection is freed once
 * the reply is flushed, or when the peer goes away.  The server half
 * (net_server.c) is not in libslurmfull but in the static library
 * slurmserver, which the daemons link: the commands need no libevent.
 */
#ifndef SLUICE_NET_H
#define SLUICE_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "common/msg.h"

struct event_base;

/* ---- client ---- */

/* Connected socket fd or -1 (errno set). */
int net_connect_tcp(const char *host, uint16_t port, int timeout_ms);
int net_connect_unix(const char *path);
/* Send req and wait for one reply.  Returns 0 (resp filled; caller
 * msg_free()s it) or a slurm_err_t such as
 * SLURM_COMMUNICATIONS_CONNECTION_ERROR or SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT. */
int net_rpc(const char *host, uint16_t port, uint16_t type, const void *req,
	    slurm_msg_t *resp, int timeout_ms);
/* On a unix socket both sides are who the kernel says (MSG_FLAG_PEER, no
 * MUNGE); a reply from anyone but root or our own uid is refused. */
int net_rpc_unix(const char *path, uint16_t type, const void *req,
		 slurm_msg_t *resp, int timeout_ms);
/* Sessions (msg.h) for this process's net_rpc_session calls (to
 * slurmctld, which runs as SlurmUser, the uid the session key is sealed
 * to).  NET_SESSIONS_KEEP (slurmrestd): each thread keeps one connection
 * per daemon open, opened with one keyed MUNGE credential and then MAC'd,
 * instead of a connection and two MUNGE credentials per request; a
 * connection the daemon closed (restart, idle) is replaced before the
 * next request, and a request refused before the daemon read it is sent
 * once more on a new one.  NET_SESSIONS_ONE (the commands): a session of
 * one request, closed after its reply: the reply is MAC'd under the key
 * the request sealed instead of carrying a MUNGE credential of its own
 * (one munged round trip less at each end), and no idle connection is
 * left on slurmctld.  Neither for a thread with an auth/jwt token set (its
 * messages stay one-shot, as that user), nor when the AuthType cannot
 * seal a key (auth/slurm; slurmrestd logs it once).  Set once at start. */
typedef enum {
	NET_SESSIONS_OFF = 0,
	NET_SESSIONS_ONE,
	NET_SESSIONS_KEEP,
} net_sessions_t;
void net_rpc_sessions(net_sessions_t mode);
/* net_rpc, in the thread's session with host:port when sessions are on
 * and usable (above). */
int  net_rpc_session(const char *host, uint16_t port, uint16_t type,
		     const void *req, slurm_msg_t *resp, int timeout_ms);
/* For requests answered by RESPONSE_SLURM_RC: returns the transport error,
 * or 0 with the remote return code in *rc. */
int net_rpc_rc(const char *host, uint16_t port, uint16_t type, const void *req,
	       int *rc, int timeout_ms);

/* ---- server ---- */

typedef struct net_server net_server_t;
typedef struct net_conn net_conn_t;
/* Called on the loop thread; msg is owned by the connection (freed after
 * the reply).  Must eventually call net_reply() or net_reply_rc(). */
typedef void (*net_handler_f)(net_conn_t *conn, slurm_msg_t *msg, void *arg);

/* Listening socket on addr:port (addr NULL = any); port 0 picks one.
 * Returns fd or -1. */
int  net_listen_tcp(const char *addr, uint16_t port);
int  net_listen_unix(const char *path, int mode);
/* CommunicationParameters keepalivetime=, keepaliveinterval=,
 * keepaliveprobes= (seconds, probes; -1: unset): TCP keepalive on every
 * connection made or accepted from now on (time -1: none, the
 * default). */
void net_set_keepalive(int time, int intvl, int probes);
void net_keepalive(int fd);
/* Port a listening fd is bound to. */
uint16_t net_local_port(int fd);
/* A peer as net_conn_peer() gives it ("10.1.2.3:4567", "[::1]:4567") ->
 * the address alone, xmalloc'd; NULL when there is no ":port". */
char *net_peer_host(const char *peer);

net_server_t *net_server_create(struct event_base *base, int listen_fd,
				net_handler_f handler, void *arg, int timeout_ms);
void          net_server_destroy(net_server_t *s);
/* Stop accepting (the listening socket stays open: new clients wait in
 * its backlog), e.g. before a daemon re-executes itself on the same
 * socket; net_server_owing() is how many connections still wait for a
 * reply to be made, signed or flushed; net_server_fd() is the socket. */
void          net_server_pause(net_server_t *s);
unsigned      net_server_owing(const net_server_t *s);
int           net_server_fd(const net_server_t *s);
/* Close the listening socket (after taking the connections already
 * queued on it): new clients are refused at connect, and retry, while
 * those accepted are still answered.  For a daemon that is stopping. */
void          net_server_stop_accepting(net_server_t *s);
/* Threads that check and sign the server's messages (default 4), before
 * its first request: a slurmstepd answers a handful in its life, and
 * starting 4 threads was a measurable part of a short job's cost.  0:
 * none, the loop thread checks and signs (a batch slurmstepd, whose loop
 * has nothing else to keep moving). */
void          net_server_set_workers(net_server_t *s, int n);

/* A connection without a socket, for a daemon handing a request to its
 * own handler: the handler's reply (or drop: type 0, data NULL) goes to
 * f on the replying thread, then the connection is freed. */
typedef void (*net_capture_f)(uint16_t type, const void *data, void *arg);
net_conn_t *net_conn_capture(net_capture_f f, void *arg);

void        net_reply(net_conn_t *c, uint16_t type, const void *data);
void        net_reply_rc(net_conn_t *c, int rc);
/* net_reply_rc with a text for the user (return_code_msg_t msg). */
void        net_reply_rcf(net_conn_t *c, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A reply that must wait (for the journal's fdatasync) signed meanwhile:
 * packed now, signed on a worker, sent only at net_reply_release().
 * net_reply_release_rc() throws it away and answers rc instead.  false
 * when that cannot be done here (a capture connection, a body that does
 * not pack): answer with net_reply() later as usual. */
bool        net_reply_prepare(net_conn_t *c, uint16_t type, const void *data);
/* The same for a reply whose last part is made off the loop: on the
 * credential worker, finish(data) runs first (signing credentials the
 * reply carries), then the body is packed and data freed with free_fn.
 * finish returns 0, or a slurm_err_t answered instead.  When it returns
 * true it owns data. */
typedef int  (*net_finish_f)(void *data);
typedef void (*net_free_f)(void *data);
bool        net_reply_prepare_finish(net_conn_t *c, uint16_t type, void *data,
				     net_finish_f finish, net_free_f free_fn);
void        net_reply_release(net_conn_t *c);
void        net_reply_release_rc(net_conn_t *c, int rc);
/* Reply with a body the caller packed (takes body): for large answers
 * packed straight from the caller's records. */
void        net_reply_body(net_conn_t *c, uint16_t type, buf_t *body);
/* Close without answering (bad peer). */
void        net_conn_drop(net_conn_t *c);
const char *net_conn_peer(const net_conn_t *c);
/* The protocol version of c's request: a body packed by the caller for
 * net_reply_body() is packed at it (buf_set_proto). */
uint16_t    net_conn_version(const net_conn_t *c);

#endif
