/* test_net.c — net.h: a server on a libevent loop in a thread, driven by
 * the blocking clients and by raw sockets that misbehave. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "munge_fixture.h"

#include "common/auth.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define SERVER_TIMEOUT_MS 1000

static bool have_munge;
static struct event_base *base;
static net_server_t *server, *userver, *hserver, *pserver;
static pthread_t loop_thread;
static uint16_t port, hport, pport;
static char usock[128];
static int handled;                 /* handler calls (atomic) */
static int bad_uid;                 /* requests with the wrong uid */
static int bad_prepare;             /* net_reply_prepare refused */
static net_conn_t *held;            /* a request left unanswered */
static net_conn_t *prepared;        /* a prepared reply never released */
static config_info_msg_t big_conf;

/* ---- the server side (loop thread) ---- */

static void reply_later_cb(evutil_socket_t fd, short what, void *arg)
{
	net_reply_rc(arg, 0);
}

static void reply_held_cb(evutil_socket_t fd, short what, void *arg)
{
	net_conn_t *c = held;

	held = NULL;
	net_reply_rc(c, 0);     /* the client is long gone: discarded */
	__atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
}

/* The server goes away while its handler still holds a request. */
static void destroy_then_reply_cb(evutil_socket_t fd, short what, void *arg)
{
	net_conn_t *c = held;

	held = NULL;
	net_server_destroy(hserver);
	hserver = NULL;
	net_reply_rc(c, 0);
	__atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
}

/* Prepared replies (net_reply_prepare) released later, as the
 * controller's commit does once the journal is on disk. */
static void release_later_cb(evutil_socket_t fd, short what, void *arg)
{
	net_reply_release(arg);
}

static void release_rc_later_cb(evutil_socket_t fd, short what, void *arg)
{
	net_reply_release_rc(arg, ESLURM_WRITING_TO_FILE);
}

static void release_prepared_cb(evutil_socket_t fd, short what, void *arg)
{
	net_conn_t *c = prepared;

	prepared = NULL;
	net_reply_release(c);   /* the client is long gone: discarded */
	__atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
}

static void destroy_then_release_cb(evutil_socket_t fd, short what, void *arg)
{
	net_conn_t *c = prepared;

	prepared = NULL;
	net_server_destroy(pserver);
	pserver = NULL;
	net_reply_release(c);
	__atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
}

/* No cmocka asserts off the main thread: count, the tests check. */
static void prepare_or_count(bool ok)
{
	if (!ok)
		__atomic_add_fetch(&bad_prepare, 1, __ATOMIC_SEQ_CST);
}

/* The reply's last part, made on a credential worker. */
static int finish_fails;            /* test -> finish (atomic) */
static int finish_off_loop;         /* finish ran off the loop thread */

static int finish_rc(void *data)
{
	return_code_msg_t *r = data;

	if (!pthread_equal(pthread_self(), loop_thread))
		__atomic_add_fetch(&finish_off_loop, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&finish_fails, __ATOMIC_SEQ_CST))
		return ESLURM_INVALID_JOB_CREDENTIAL;
	r->rc = ESLURM_JOB_PENDING;     /* what only the finish knows */
	return 0;
}

static void prepare_handler(net_conn_t *c, uint16_t type)
{
	struct timeval tv = { 0, 50000 };
	return_code_msg_t r = { .rc = ESLURM_INVALID_JOB_ID };

	switch (type) {
	case REQUEST_CONTROL:          /* released before it is signed */
		prepare_or_count(net_reply_prepare(c, RESPONSE_SLURM_RC, &r));
		net_reply_release(c);
		break;
	case REQUEST_TAKEOVER:         /* a large body, released 50 ms on */
		prepare_or_count(net_reply_prepare(c, RESPONSE_BUILD_INFO,
					      &big_conf));
		event_base_once(base, -1, EV_TIMEOUT, release_later_cb, c, &tv);
		break;
	case REQUEST_CONTROL_STATUS:   /* replaced by an error, 50 ms on */
		prepare_or_count(net_reply_prepare(c, RESPONSE_BUILD_INFO,
					      &big_conf));
		event_base_once(base, -1, EV_TIMEOUT, release_rc_later_cb, c,
				&tv);
		break;
	case REQUEST_HEALTH_CHECK:     /* replaced before it is signed */
		prepare_or_count(net_reply_prepare(c, RESPONSE_SLURM_RC, &r));
		net_reply_release_rc(c, ESLURM_WRITING_TO_FILE);
		break;
	case ACCOUNTING_UPDATE_MSG: {           /* finished off the loop */
		return_code_msg_t *r2 = xmalloc(sizeof(*r2));

		prepare_or_count(net_reply_prepare_finish(c, RESPONSE_SLURM_RC,
							  r2, finish_rc, xfree_ptr));
		event_base_once(base, -1, EV_TIMEOUT, release_later_cb, c, &tv);
		break;
	}
	case REQUEST_ACCT_GATHER_UPDATE:        /* never released in time */
		prepare_or_count(net_reply_prepare(c, RESPONSE_SLURM_RC, &r));
		prepared = c;
		break;
	}
}

static void handler(net_conn_t *c, slurm_msg_t *msg, void *arg)
{
	struct timeval tv = { 0, 50000 };

	__atomic_add_fetch(&handled, 1, __ATOMIC_SEQ_CST);
	if (msg->auth_uid != getuid())   /* no cmocka asserts off the main thread */
		__atomic_add_fetch(&bad_uid, 1, __ATOMIC_SEQ_CST);
	switch (msg->type) {
	case REQUEST_PING:
		net_reply_rc(c, 0);
		break;
	case REQUEST_RECONFIGURE:          /* answered from a timer */
		event_base_once(base, -1, EV_TIMEOUT, reply_later_cb, c, &tv);
		break;
	case REQUEST_SHUTDOWN:             /* never answered in time */
		held = c;
		break;
	case REQUEST_NODE_REGISTRATION_STATUS:
		net_conn_drop(c);
		break;
	case REQUEST_BUILD_INFO:
		net_reply(c, RESPONSE_BUILD_INFO, &big_conf);
		break;
	case REQUEST_CONTROL:
	case REQUEST_TAKEOVER:
	case REQUEST_CONTROL_STATUS:
	case REQUEST_HEALTH_CHECK:
	case REQUEST_ACCT_GATHER_UPDATE:
	case ACCOUNTING_UPDATE_MSG:
		prepare_handler(c, msg->type);
		break;
	default:
		net_reply_rc(c, ESLURM_ACCESS_DENIED);
		break;
	}
}

static void *loop_main(void *arg)
{
	event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY);
	return NULL;
}

static void make_big_conf(void)
{
	enum { N = 5000 };

	big_conf.cnt = N;
	big_conf.keys = xcalloc(N + 1, sizeof(char *));
	big_conf.values = xcalloc(N + 1, sizeof(char *));
	for (int i = 0; i < N; i++) {
		big_conf.keys[i] = xstrdup_printf("Key%d", i);
		big_conf.values[i] = xstrdup_printf("%0200d", i);
	}
}

static int group_setup(void **state)
{
	const char *sock = munge_fixture_start();
	char *info;
	int fd, ufd;

	if (!sock)
		return 0;
	info = xstrdup_printf("socket=%s", sock);
	have_munge = auth_init("auth/munge", info, NULL) == 0;
	xfree(info);
	if (!have_munge)
		return -1;
	make_big_conf();
	evthread_use_pthreads();
	base = event_base_new();
	fd = net_listen_tcp("127.0.0.1", 0);
	assert_true(fd >= 0);
	port = net_local_port(fd);
	assert_true(port > 0);
	server = net_server_create(base, fd, handler, NULL, SERVER_TIMEOUT_MS);
	snprintf(usock, sizeof(usock), "%s/test.sock", munge_fixture_dir);
	ufd = net_listen_unix(usock, 0600);
	assert_true(ufd >= 0);
	userver = net_server_create(base, ufd, handler, NULL, SERVER_TIMEOUT_MS);
	assert_non_null(server);
	assert_non_null(userver);
	fd = net_listen_tcp("127.0.0.1", 0);
	hport = net_local_port(fd);
	hserver = net_server_create(base, fd, handler, NULL, SERVER_TIMEOUT_MS);
	assert_non_null(hserver);
	fd = net_listen_tcp("127.0.0.1", 0);
	pport = net_local_port(fd);
	pserver = net_server_create(base, fd, handler, NULL, SERVER_TIMEOUT_MS);
	assert_non_null(pserver);
	return pthread_create(&loop_thread, NULL, loop_main, NULL);
}

static void stop_cb(evutil_socket_t fd, short what, void *arg)
{
	net_server_destroy(server);
	net_server_destroy(userver);
	net_server_destroy(hserver);
	net_server_destroy(pserver);
	event_base_loopbreak(base);
}

static int group_teardown(void **state)
{
	if (base) {
		event_base_once(base, -1, EV_TIMEOUT, stop_cb, NULL,
				&(struct timeval){ 0, 0 });
		pthread_join(loop_thread, NULL);
		event_base_free(base);
	}
	for (uint32_t i = 0; i < big_conf.cnt; i++) {
		xfree(big_conf.keys[i]);
		xfree(big_conf.values[i]);
	}
	xfree(big_conf.keys);
	xfree(big_conf.values);
	auth_fini();
	munge_fixture_stop();
	return 0;
}

#define NEED_MUNGE() do { if (!have_munge) skip(); } while (0)

/* ---- client-side helpers ---- */

static int handled_now(void)
{
	return __atomic_load_n(&handled, __ATOMIC_SEQ_CST);
}

static int raw_connect(void)
{
	int fd = net_connect_tcp("127.0.0.1", port, 1000);

	assert_true(fd >= 0);
	return fd;
}

/* Read whatever comes until EOF or timeout; bytes read, -1 on timeout. */
static int read_to_eof(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[4096];
	int total = 0;
	ssize_t n;

	for (;;) {
		if (poll(&p, 1, timeout_ms) <= 0)
			return -1;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0)
			return total;
		total += (int)n;
	}
}

/* Up to 2 s for the loop thread to set *flag. */
static void wait_flag(int *flag)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	for (int i = 0; i < 100 && !__atomic_load_n(flag, __ATOMIC_SEQ_CST); i++)
		nanosleep(&ts, NULL);
	assert_true(__atomic_load_n(flag, __ATOMIC_SEQ_CST));
}

/* ---- misbehaving peers first ---- */

static void test_garbage_dropped(void **state)
{
	int before, fd;

	NEED_MUNGE();
	before = handled_now();
	fd = raw_connect();
	assert_int_equal(write(fd, "GET / HTTP/1.0\r\n\r\n", 18), 18);
	assert_int_equal(read_to_eof(fd, 2000), 0);   /* closed, no answer */
	close(fd);
	assert_int_equal(handled_now(), before);
}

/* A newer peer is answered at our version (it retries at it), with
 * what to upgrade. */
static void test_wrong_version_answered(void **state)
{
	uint8_t raw[MSG_HEADER_LEN] = { 0x53, 0x4c, 0x55, 0x43, 0x26, 0x11,
					0x03, 0xf0 };   /* REQUEST_PING, v26.11 */
	slurm_msg_t m;
	int fd;

	NEED_MUNGE();
	fd = raw_connect();
	assert_int_equal(write(fd, raw, sizeof(raw)), sizeof(raw));
	assert_int_equal(msg_recv_fd(fd, &m, 2000), 0);
	assert_int_equal(m.type, RESPONSE_SLURM_RC);
	assert_int_equal(m.version, MSG_PROTOCOL_VERSION);
	assert_int_equal(((return_code_msg_t *)m.data)->rc,
			 SLURM_PROTOCOL_VERSION_ERROR);
	assert_non_null(strstr(((return_code_msg_t *)m.data)->msg,
			       "speaks protocol version 26.11, newer"));
	msg_free(&m);
	close(fd);
}

/* An older one is answered at its own version, which it can read. */
static void test_too_old_version_answered_at_its_own(void **state)
{
	uint8_t raw[MSG_HEADER_LEN] = { 0x53, 0x4c, 0x55, 0x43, 0x23, 0x11,
					0x03, 0xf0 };   /* REQUEST_PING, v23.11 */
	uint8_t back[MSG_HEADER_LEN];
	int fd;

	NEED_MUNGE();
	fd = raw_connect();
	assert_int_equal(write(fd, raw, sizeof(raw)), sizeof(raw));
	assert_int_equal(read(fd, back, sizeof(back)), sizeof(back));
	assert_memory_equal(back, raw, 4);              /* magic */
	assert_int_equal(back[4], 0x23);
	assert_int_equal(back[5], 0x11);
	close(fd);
}

/* An older daemon (here a thread speaking 24.11): it refuses our
 * version at its own, and the client sends again at it, and keeps
 * speaking it to that address. */
static int old_fd;
static uint16_t old_seen[3];

static void *old_daemon(void *arg)
{
	for (int i = 0; i < 3; i++) {
		int c = accept(old_fd, NULL, NULL);
		return_code_msg_t r = { 0 };
		uint8_t raw[MSG_HEADER_LEN], rest[8192];
		size_t need, got = 0;

		if (c < 0)
			return NULL;
		if (read(c, raw, sizeof(raw)) != sizeof(raw)) {
			close(c);
			continue;
		}
		need = (size_t)(raw[10] << 24 | raw[11] << 16 | raw[12] << 8 |
				raw[13]) +
		       (size_t)(raw[14] << 24 | raw[15] << 16 | raw[16] << 8 |
				raw[17]);
		while (got < need && got < sizeof(rest)) {
			ssize_t n = read(c, rest + got, sizeof(rest) - got);

			if (n <= 0)
				break;
			got += (size_t)n;
		}
		old_seen[i] = (uint16_t)(raw[4] << 8 | raw[5]);
		if (old_seen[i] != PROTO_24_11) {
			r.rc = SLURM_PROTOCOL_VERSION_ERROR;
			r.msg = "too new for me";
		} else {
			r.rc = 4242;
		}
		msg_send_fd_at(c, RESPONSE_SLURM_RC, &r, PROTO_24_11, false,
			       2000);
		close(c);
	}
	return NULL;
}

static void test_older_daemon_spoken_to_at_its_version(void **state)
{
	pthread_t th;
	uint16_t p;
	int rc = 0;

	NEED_MUNGE();
	old_fd = net_listen_tcp("127.0.0.1", 0);
	assert_true(old_fd >= 0);
	fcntl(old_fd, F_SETFL, fcntl(old_fd, F_GETFL) & ~O_NONBLOCK);
	p = net_local_port(old_fd);
	assert_int_equal(pthread_create(&th, NULL, old_daemon, NULL), 0);
	assert_int_equal(net_rpc_rc("127.0.0.1", p, REQUEST_PING, NULL, &rc,
				    3000), 0);
	assert_int_equal(rc, 4242);
	/* the next request goes at 24.11 straight away */
	assert_int_equal(net_rpc_rc("127.0.0.1", p, REQUEST_PING, NULL, &rc,
				    3000), 0);
	assert_int_equal(rc, 4242);
	pthread_join(th, NULL);
	close(old_fd);
	assert_int_equal(old_seen[0], MSG_PROTOCOL_VERSION);
	assert_int_equal(old_seen[1], PROTO_24_11);
	assert_int_equal(old_seen[2], PROTO_24_11);
}

static void test_replay_refused(void **state)
{
	buf_t *b = NULL;
	slurm_msg_t m;
	int before, fd, rc[2];

	NEED_MUNGE();
	before = handled_now();
	assert_int_equal(msg_encode(REQUEST_PING, NULL, &b), 0);
	for (int i = 0; i < 2; i++) {
		fd = raw_connect();
		assert_int_equal(write(fd, buf_data(b), buf_len(b)),
				 (ssize_t)buf_len(b));
		assert_int_equal(msg_recv_fd(fd, &m, 2000), 0);
		assert_int_equal(m.type, RESPONSE_SLURM_RC);
		rc[i] = ((return_code_msg_t *)m.data)->rc;
		msg_free(&m);
		close(fd);
	}
	assert_int_equal(rc[0], 0);
	assert_int_equal(rc[1], SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_int_equal(handled_now(), before + 1);
	buf_destroy(b);
}

static void test_tampered_refused(void **state)
{
	return_code_msg_t r = { 0, "abc" };
	buf_t *b = NULL;
	uint8_t *p;
	size_t len;
	slurm_msg_t m;
	int before, fd;

	NEED_MUNGE();
	before = handled_now();
	assert_int_equal(msg_encode(RESPONSE_SLURM_RC, &r, &b), 0);
	p = buf_steal(b, &len);
	p[len - 2] = 'x';
	fd = raw_connect();
	assert_int_equal(write(fd, p, len), (ssize_t)len);
	assert_int_equal(msg_recv_fd(fd, &m, 2000), 0);
	assert_int_equal(((return_code_msg_t *)m.data)->rc,
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	msg_free(&m);
	close(fd);
	assert_int_equal(handled_now(), before);
	xfree(p);
	buf_destroy(b);
}

/* A client that connects and says nothing is cut off after the server's
 * timeout, and does not stall others meanwhile. */
static void test_idle_client(void **state)
{
	int fd, rc = -1;
	struct timespec t0, t1;

	NEED_MUNGE();
	fd = raw_connect();
	assert_int_equal(write(fd, "SLUC", 4), 4);   /* a partial header */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(net_rpc_rc("127.0.0.1", port, REQUEST_PING, NULL, &rc,
				    2000), 0);
	assert_int_equal(rc, 0);
	assert_int_equal(read_to_eof(fd, 3 * SERVER_TIMEOUT_MS), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true((t1.tv_sec - t0.tv_sec) * 1000 +
		    (t1.tv_nsec - t0.tv_nsec) / 1000000 >= SERVER_TIMEOUT_MS - 100);
	close(fd);
}

static void test_connect_refused(void **state)
{
	int fd = net_listen_tcp("127.0.0.1", 0), rc = 7;
	uint16_t dead_port = net_local_port(fd);

	close(fd);
	assert_int_equal(net_rpc_rc("127.0.0.1", dead_port, REQUEST_PING, NULL,
				    &rc, 1000),
			 SLURM_COMMUNICATIONS_CONNECTION_ERROR);
	assert_int_equal(rc, 7);
	assert_int_equal(net_rpc_unix("/nonexistent/sock", REQUEST_PING, NULL,
				      &(slurm_msg_t){ 0 }, 1000),
			 SLURM_COMMUNICATIONS_CONNECTION_ERROR);
}

/* A listener that never accepts: the kernel queues our connection and
 * request, then the listener closes (a daemon stopping).  The reset means
 * nobody read the request: reported as a connect failure, which callers
 * may send again (cli_common.c). */
static void *close_after_200ms(void *arg)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	close(*(int *)arg);
	return NULL;
}

static void test_queued_request_reset_is_not_delivered(void **state)
{
	int lfd = net_listen_tcp("127.0.0.1", 0), rc = 7;
	uint16_t p = net_local_port(lfd);
	pthread_t th;

	NEED_MUNGE();
	pthread_create(&th, NULL, close_after_200ms, &lfd);
	assert_int_equal(net_rpc_rc("127.0.0.1", p, REQUEST_PING, NULL, &rc,
				    5000),
			 SLURM_COMMUNICATIONS_CONNECTION_ERROR);
	assert_int_equal(rc, 7);
	pthread_join(th, NULL);
}

/* The peer read the whole request and closed without answering (it may
 * have acted on it): not a connect failure, never sent again. */
static void *read_then_close(void *arg)
{
	int lfd = *(int *)arg, fd = accept(lfd, NULL, NULL);
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	poll(&pf, 1, 5000);              /* the request comes (signing it */
	read_to_eof(fd, 300);            /* takes a while), all of it */
	close(fd);
	close(lfd);
	return NULL;
}

static void test_read_then_closed_is_delivered(void **state)
{
	int lfd = net_listen_tcp("127.0.0.1", 0), rc = 7, err;
	uint16_t p = net_local_port(lfd);
	pthread_t th;

	NEED_MUNGE();
	pthread_create(&th, NULL, read_then_close, &lfd);
	err = net_rpc_rc("127.0.0.1", p, REQUEST_PING, NULL, &rc, 5000);
	assert_int_not_equal(err, 0);
	assert_int_not_equal(err, SLURM_COMMUNICATIONS_CONNECTION_ERROR);
	pthread_join(th, NULL);
}

/* A server that stopped accepting refuses new clients at connect. */
static void test_stop_accepting(void **state)
{
	struct event_base *b = event_base_new();
	int lfd = net_listen_tcp("127.0.0.1", 0), rc = 7;
	uint16_t p = net_local_port(lfd);
	net_server_t *s = net_server_create(b, lfd, handler, NULL,
					    SERVER_TIMEOUT_MS);

	assert_non_null(s);
	net_server_stop_accepting(s);
	net_server_stop_accepting(s);            /* twice: harmless */
	assert_int_equal(net_rpc_rc("127.0.0.1", p, REQUEST_PING, NULL, &rc,
				    1000),
			 SLURM_COMMUNICATIONS_CONNECTION_ERROR);
	net_server_destroy(s);
	event_base_free(b);
}

/* ---- requests ---- */

static void test_ping(void **state)
{
	int rc = -1;

	NEED_MUNGE();
	assert_int_equal(net_rpc_rc("127.0.0.1", port, REQUEST_PING, NULL, &rc,
				    2000), 0);
	assert_int_equal(rc, 0);
	rc = -1;
	assert_int_equal(net_rpc_rc("localhost", port, REQUEST_PING, NULL, &rc,
				    2000), 0);
	assert_int_equal(rc, 0);
}

static void test_unix_ping(void **state)
{
	slurm_msg_t m;

	NEED_MUNGE();
	assert_int_equal(net_rpc_unix(usock, REQUEST_PING, NULL, &m, 2000), 0);
	assert_int_equal(m.type, RESPONSE_SLURM_RC);
	assert_int_equal(((return_code_msg_t *)m.data)->rc, 0);
	msg_free(&m);
}

static void test_other_rc(void **state)
{
	job_hold_msg_t h = { .job_id_str = "12", .hold = true };
	int rc = 0;

	NEED_MUNGE();
	assert_int_equal(net_rpc_rc("127.0.0.1", port, REQUEST_JOB_HOLD, &h,
				    &rc, 2000), 0);
	assert_int_equal(rc, ESLURM_ACCESS_DENIED);
	assert_int_equal(__atomic_load_n(&bad_uid, __ATOMIC_SEQ_CST), 0);
}

static void test_deferred_reply(void **state)
{
	int rc = -1;

	NEED_MUNGE();
	assert_int_equal(net_rpc_rc("127.0.0.1", port, REQUEST_RECONFIGURE,
				    NULL, &rc, 2000), 0);
	assert_int_equal(rc, 0);
}

/* The server never answers: the client times out; the handler's late
 * reply to the vanished client is discarded safely. */
static void test_timeout_then_late_reply(void **state)
{
	shutdown_msg_t s = { .options = 1 };
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int rc = -1, done = 0;

	NEED_MUNGE();
	assert_int_equal(net_rpc_rc("127.0.0.1", port, REQUEST_SHUTDOWN, &s, &rc,
				    300), SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT);
	nanosleep(&ts, NULL);      /* let the server see the hang-up */
	event_base_once(base, -1, EV_TIMEOUT, reply_held_cb, &done,
			&(struct timeval){ 0, 0 });
	wait_flag(&done);
	assert_int_equal(net_rpc_rc("127.0.0.1", port, REQUEST_PING, NULL, &rc,
				    2000), 0);
}

static void test_destroy_while_held(void **state)
{
	shutdown_msg_t s = { 0 };
	int rc = -1, done = 0;

	NEED_MUNGE();
	assert_int_equal(net_rpc_rc("127.0.0.1", hport, REQUEST_SHUTDOWN, &s,
				    &rc, 300), SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT);
	event_base_once(base, -1, EV_TIMEOUT, destroy_then_reply_cb, &done,
			&(struct timeval){ 0, 0 });
	wait_flag(&done);
	assert_int_equal(net_rpc_rc("127.0.0.1", hport, REQUEST_PING, NULL, &rc,
				    1000), SLURM_COMMUNICATIONS_CONNECTION_ERROR);
}

static void test_dropped(void **state)
{
	int rc = -1;

	NEED_MUNGE();
	assert_int_equal(net_rpc_rc("127.0.0.1", port,
				    REQUEST_NODE_REGISTRATION_STATUS, NULL, &rc,
				    2000), SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT);
}

static void test_large_reply(void **state)
{
	config_info_msg_t *c;
	slurm_msg_t m;

	NEED_MUNGE();
	assert_int_equal(net_rpc("127.0.0.1", port, REQUEST_BUILD_INFO, NULL,
				 &m, 5000), 0);
	assert_int_equal(m.type, RESPONSE_BUILD_INFO);
	c = m.data;
	assert_int_equal(c->cnt, big_conf.cnt);
	assert_string_equal(c->values[c->cnt - 1], big_conf.values[c->cnt - 1]);
	msg_free(&m);
}

static void *pinger(void *arg)
{
	int *fails = arg, rc;

	for (int i = 0; i < 25; i++) {
		rc = -1;
		if (net_rpc_rc("127.0.0.1", port, REQUEST_PING, NULL, &rc,
			       5000) || rc)
			__atomic_add_fetch(fails, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static void test_concurrent(void **state)
{
	pthread_t th[8];
	int fails = 0;

	NEED_MUNGE();
	for (int i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, pinger, &fails);
	for (int i = 0; i < 8; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(fails, 0);
}

/* One request to the TCP server; its RESPONSE_SLURM_RC must be want. */
static void expect_rc(uint16_t type, int want)
{
	int rc = -1;

	assert_int_equal(net_rpc_rc("127.0.0.1", port, type, NULL, &rc, 2000),
			 0);
	assert_int_equal(rc, want);
}

/* A reply signed while the work it waits for goes on, sent at release:
 * the client gets it whole, whether the release comes before the
 * signing is done or after. */
static void test_prepared_reply_released(void **state)
{
	config_info_msg_t *c;
	slurm_msg_t m;

	NEED_MUNGE();
	expect_rc(REQUEST_CONTROL, ESLURM_INVALID_JOB_ID);
	assert_int_equal(net_rpc("127.0.0.1", port, REQUEST_TAKEOVER, NULL,
				 &m, 5000), 0);
	assert_int_equal(m.type, RESPONSE_BUILD_INFO);
	c = m.data;
	assert_int_equal(c->cnt, big_conf.cnt);
	assert_string_equal(c->values[c->cnt - 1], big_conf.values[c->cnt - 1]);
	msg_free(&m);
	assert_int_equal(__atomic_load_n(&bad_prepare, __ATOMIC_SEQ_CST), 0);
}

/* Released with an error instead (the journal write failed): the client
 * gets the error, never the prepared reply. */
static void test_prepared_reply_replaced(void **state)
{
	NEED_MUNGE();
	expect_rc(REQUEST_HEALTH_CHECK, ESLURM_WRITING_TO_FILE);
	expect_rc(REQUEST_CONTROL_STATUS, ESLURM_WRITING_TO_FILE);
	assert_int_equal(__atomic_load_n(&bad_prepare, __ATOMIC_SEQ_CST), 0);
}

/* Finished on a worker: the client gets what the finish made, or the
 * error it returned. */
static void test_prepared_reply_finished_off_the_loop(void **state)
{
	NEED_MUNGE();
	expect_rc(ACCOUNTING_UPDATE_MSG, ESLURM_JOB_PENDING);
	__atomic_store_n(&finish_fails, 1, __ATOMIC_SEQ_CST);
	expect_rc(ACCOUNTING_UPDATE_MSG, ESLURM_INVALID_JOB_CREDENTIAL);
	__atomic_store_n(&finish_fails, 0, __ATOMIC_SEQ_CST);
	assert_int_equal(__atomic_load_n(&finish_off_loop, __ATOMIC_SEQ_CST), 2);
	assert_int_equal(__atomic_load_n(&bad_prepare, __ATOMIC_SEQ_CST), 0);
}

/* The client gives up before the release; the server gives up (is
 * destroyed) before the release: both releases are safe. */
static void test_prepared_reply_outlived(void **state)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int rc = -1, done = 0;

	NEED_MUNGE();
	assert_int_equal(net_rpc_rc("127.0.0.1", port,
				    REQUEST_ACCT_GATHER_UPDATE, NULL, &rc, 300),
			 SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT);
	nanosleep(&ts, NULL);      /* let the server see the hang-up */
	event_base_once(base, -1, EV_TIMEOUT, release_prepared_cb, &done,
			&(struct timeval){ 0, 0 });
	wait_flag(&done);
	assert_int_equal(net_rpc_rc("127.0.0.1", port, REQUEST_PING, NULL, &rc,
				    2000), 0);

	done = 0;
	assert_int_equal(net_rpc_rc("127.0.0.1", pport,
				    REQUEST_ACCT_GATHER_UPDATE, NULL, &rc, 300),
			 SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT);
	event_base_once(base, -1, EV_TIMEOUT, destroy_then_release_cb, &done,
			&(struct timeval){ 0, 0 });
	wait_flag(&done);
	assert_int_equal(net_rpc_rc("127.0.0.1", pport, REQUEST_PING, NULL, &rc,
				    1000), SLURM_COMMUNICATIONS_CONNECTION_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_garbage_dropped),
		cmocka_unit_test(test_wrong_version_answered),
		cmocka_unit_test(test_too_old_version_answered_at_its_own),
		cmocka_unit_test(test_older_daemon_spoken_to_at_its_version),
		cmocka_unit_test(test_replay_refused),
		cmocka_unit_test(test_tampered_refused),
		cmocka_unit_test(test_idle_client),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_queued_request_reset_is_not_delivered),
		cmocka_unit_test(test_read_then_closed_is_delivered),
		cmocka_unit_test(test_stop_accepting),
		cmocka_unit_test(test_ping),
		cmocka_unit_test(test_unix_ping),
		cmocka_unit_test(test_other_rc),
		cmocka_unit_test(test_deferred_reply),
		cmocka_unit_test(test_timeout_then_late_reply),
		cmocka_unit_test(test_destroy_while_held),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_large_reply),
		cmocka_unit_test(test_concurrent),
		cmocka_unit_test(test_prepared_reply_released),
		cmocka_unit_test(test_prepared_reply_replaced),
		cmocka_unit_test(test_prepared_reply_finished_off_the_loop),
		cmocka_unit_test(test_prepared_reply_outlived),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
