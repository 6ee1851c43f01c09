/* test_msg.c — msg.h framing and authentication against a private munged:
 * bad messages first (garbage, oversized, altered, moved, replayed), then
 * round trips through encode/decode and over a socket. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "munge_fixture.h"
#include "slurm_key_fixture.h"

#include "common/auth.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* ---- helpers ---- */

typedef struct {
	uint8_t      raw[MSG_HEADER_LEN];
	msg_header_t h;
	uint8_t     *cred;
	uint8_t     *body;
	uint8_t     *all;
	size_t       len;
} wire_t;

/* Split an encoded message back into its parts. */
static void wire_split(buf_t *b, wire_t *w)
{
	memset(w, 0, sizeof(*w));
	w->all = buf_steal(b, &w->len);
	buf_destroy(b);
	memcpy(w->raw, w->all, MSG_HEADER_LEN);
	assert_int_equal(msg_header_parse(w->raw, &w->h), 0);
	assert_int_equal(w->len, MSG_HEADER_LEN + w->h.cred_len + w->h.body_len);
	w->cred = w->all + MSG_HEADER_LEN;
	w->body = w->cred + w->h.cred_len;
}

static void wire_encode(uint16_t type, const void *data, wire_t *w)
{
	buf_t *b = NULL;

	assert_int_equal(msg_encode(type, data, &b), 0);
	assert_non_null(b);
	wire_split(b, w);
}

static int wire_decode(wire_t *w, slurm_msg_t *m)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->peer, "test-peer");
	return msg_decode(w->raw, &w->h, w->cred, w->body, m);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8; p[1] = v;
}

/* The digest as msg.c documents it: header with cred_len zeroed + body. */
static void test_digest(const uint8_t raw[MSG_HEADER_LEN], const uint8_t *body,
			uint32_t len, uint8_t out[AUTH_DIGEST_LEN])
{
	uint8_t hdr[MSG_HEADER_LEN];
	unsigned int n;
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	memcpy(hdr, raw, MSG_HEADER_LEN);
	memset(hdr + 10, 0, 4);
	EVP_DigestInit_ex(c, EVP_sha256(), NULL);
	EVP_DigestUpdate(c, hdr, MSG_HEADER_LEN);
	EVP_DigestUpdate(c, body, len);
	EVP_DigestFinal_ex(c, out, &n);
	EVP_MD_CTX_free(c);
}

static const return_code_msg_t rc_hello = { 42, "hello" };

/* ---- bad headers ---- */

static void test_garbage_header(void **state)
{
	uint8_t raw[MSG_HEADER_LEN];
	msg_header_t h;
	wire_t w;

	memset(raw, 0xa5, sizeof(raw));
	assert_int_equal(msg_header_parse(raw, &h), SLURM_PROTOCOL_VERSION_ERROR);
	memset(raw, 0, sizeof(raw));
	assert_int_equal(msg_header_parse(raw, &h), SLURM_PROTOCOL_VERSION_ERROR);

	NEED_MUNGE();
	wire_encode(REQUEST_PING, NULL, &w);
	memcpy(raw, w.raw, sizeof(raw));
	put_be16(raw + 4, 0x2311);                  /* too old a protocol */
	assert_int_equal(msg_header_parse(raw, &h), SLURM_PROTOCOL_VERSION_ERROR);
	put_be16(raw + 4, 0x2611);                  /* too new */
	assert_int_equal(msg_header_parse(raw, &h), SLURM_PROTOCOL_VERSION_ERROR);
	memcpy(raw, w.raw, sizeof(raw));
	put_be16(raw + 6, 7);                       /* no such type */
	assert_int_equal(msg_header_parse(raw, &h), SLURM_UNEXPECTED_MSG_ERROR);
	memcpy(raw, w.raw, sizeof(raw));
	put_be32(raw + 10, MSG_MAX_CRED_LEN + 1);
	assert_int_equal(msg_header_parse(raw, &h),
			 SLURM_PROTOCOL_INSANE_MSG_LENGTH);
	memcpy(raw, w.raw, sizeof(raw));
	put_be32(raw + 14, MSG_MAX_BODY_LEN + 1);
	assert_int_equal(msg_header_parse(raw, &h),
			 SLURM_PROTOCOL_INSANE_MSG_LENGTH);
	put_be32(raw + 14, UINT32_MAX);
	assert_int_equal(msg_header_parse(raw, &h),
			 SLURM_PROTOCOL_INSANE_MSG_LENGTH);
	xfree(w.all);
}

/* ---- bad messages ---- */

static void test_body_altered(void **state)
{
	slurm_msg_t m;
	wire_t w;

	NEED_MUNGE();
	wire_encode(RESPONSE_SLURM_RC, &rc_hello, &w);
	w.body[w.h.body_len - 2] ^= 1;              /* "hello" -> "helmo" */
	assert_int_equal(wire_decode(&w, &m), SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_null(m.data);
	xfree(w.all);
}

static void test_header_altered(void **state)
{
	slurm_msg_t m;
	wire_t w;

	NEED_MUNGE();
	/* same body layout, other type: the credential must not follow */
	wire_encode(REQUEST_SIGNAL_JOB, &(node_signal_msg_t){ .job_id = 7 }, &w);
	put_be16(w.raw + 6, REQUEST_TERMINATE_JOB);
	assert_int_equal(msg_header_parse(w.raw, &w.h), 0);
	assert_int_equal(wire_decode(&w, &m), SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	xfree(w.all);
}

static void test_cred_moved(void **state)
{
	return_code_msg_t other = { 0, "other" };
	slurm_msg_t m;
	wire_t a, b;
	uint8_t *mixed;

	NEED_MUNGE();
	wire_encode(RESPONSE_SLURM_RC, &rc_hello, &a);
	wire_encode(RESPONSE_SLURM_RC, &other, &b);
	/* b's header and body with a's credential */
	mixed = xmalloc(a.h.cred_len + b.h.body_len);
	memcpy(mixed, a.cred, a.h.cred_len);
	memcpy(mixed + a.h.cred_len, b.body, b.h.body_len);
	put_be32(b.raw + 10, a.h.cred_len);
	assert_int_equal(msg_header_parse(b.raw, &b.h), 0);
	memset(&m, 0, sizeof(m));
	assert_int_equal(msg_decode(b.raw, &b.h, mixed, mixed + a.h.cred_len, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_null(m.data);
	xfree(mixed);
	xfree(a.all);
	xfree(b.all);
}

static void test_replayed(void **state)
{
	slurm_msg_t m;
	wire_t w;

	NEED_MUNGE();
	wire_encode(REQUEST_PING, NULL, &w);
	assert_int_equal(wire_decode(&w, &m), 0);
	msg_free(&m);
	assert_int_equal(wire_decode(&w, &m), SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	xfree(w.all);
}

static void test_cred_garbage(void **state)
{
	slurm_msg_t m;
	wire_t w;

	NEED_MUNGE();
	wire_encode(RESPONSE_SLURM_RC, &rc_hello, &w);
	memset(w.cred, 'A', w.h.cred_len);
	assert_int_equal(wire_decode(&w, &m), SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	w.cred[3] = '\0';
	assert_int_equal(wire_decode(&w, &m), SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	put_be32(w.raw + 10, 0);                     /* no credential at all */
	assert_int_equal(msg_header_parse(w.raw, &w.h), 0);
	assert_int_equal(wire_decode(&w, &m), SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	xfree(w.all);
}

/* A correctly signed message whose body does not unpack: refused after
 * authentication, never handed out. */
static void test_signed_bad_body(void **state)
{
	uint8_t body[] = { 0, 0, 0, 1, 0, 0, 0, 9, 'x' };   /* string overruns */
	uint8_t raw[MSG_HEADER_LEN], digest[AUTH_DIGEST_LEN];
	msg_header_t h;
	slurm_msg_t m;
	char *cred = NULL;
	uint32_t cred_len;

	NEED_MUNGE();
	put_be32(raw, MSG_MAGIC);
	put_be16(raw + 4, MSG_PROTOCOL_VERSION);
	put_be16(raw + 6, RESPONSE_SLURM_RC);
	put_be16(raw + 8, 0);
	put_be32(raw + 10, 0);
	put_be32(raw + 14, sizeof(body));
	test_digest(raw, body, sizeof(body), digest);
	assert_int_equal(auth_create(digest, &cred, &cred_len), 0);
	put_be32(raw + 10, cred_len);
	assert_int_equal(msg_header_parse(raw, &h), 0);
	memset(&m, 0, sizeof(m));
	assert_int_equal(msg_decode(raw, &h, (uint8_t *)cred, body, &m),
			 SLURM_COMMUNICATIONS_RECEIVE_ERROR);
	assert_null(m.data);
	xfree(cred);
}

static void test_encode_errors(void **state)
{
	buf_t *b = (buf_t *)1;

	assert_int_equal(msg_encode(7, NULL, &b), SLURM_UNEXPECTED_MSG_ERROR);
	assert_null(b);
	NEED_MUNGE();
	assert_int_not_equal(msg_encode(RESPONSE_SLURM_RC, NULL, &b), 0);
	assert_null(b);
}

/* ---- round trips ---- */

static void test_round_trip(void **state)
{
	job_signal_msg_t sig = { .job_id_str = "123_[1-3]", .job_id = 123,
				 .step_id = 0xfffffffe, .signal = 15,
				 .flags = KILL_FULL_JOB, .cancel = true };
	job_signal_msg_t *out;
	return_code_msg_t *rc;
	slurm_msg_t m;
	wire_t w;

	NEED_MUNGE();
	wire_encode(REQUEST_CANCEL_JOB, &sig, &w);
	assert_int_equal(wire_decode(&w, &m), 0);
	assert_int_equal(m.type, REQUEST_CANCEL_JOB);
	assert_int_equal(m.auth_uid, getuid());
	assert_int_equal(m.auth_gid, getgid());
	assert_string_equal(m.peer, "test-peer");
	out = m.data;
	assert_string_equal(out->job_id_str, "123_[1-3]");
	assert_int_equal(out->step_id, 0xfffffffe);
	assert_int_equal(out->signal, 15);
	assert_true(out->cancel);
	msg_free(&m);
	assert_null(m.data);
	msg_free(&m);
	xfree(w.all);

	wire_encode(RESPONSE_SLURM_RC, &rc_hello, &w);
	assert_int_equal(wire_decode(&w, &m), 0);
	rc = m.data;
	assert_int_equal(rc->rc, 42);
	assert_string_equal(rc->msg, "hello");
	msg_free(&m);
	xfree(w.all);

	wire_encode(REQUEST_PING, NULL, &w);
	assert_int_equal(w.h.body_len, 0);
	assert_int_equal(wire_decode(&w, &m), 0);
	assert_int_equal(m.type, REQUEST_PING);
	assert_null(m.data);
	xfree(w.all);
}

/* MSG_FLAG_PEER: no credential, the sender is the unix socket's peer as
 * the kernel gives it; the same bytes anywhere else are unauthenticated. */
static void test_peer_messages(void **state)
{
	job_signal_msg_t sig = { .job_id_str = "7", .job_id = 7,
				 .step_id = 0xfffffffe, .signal = 9 };
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sin);
	buf_t *b = NULL;
	slurm_msg_t m;
	wire_t w;
	int sv[2], l, c, a;

	(void) state;
	assert_int_equal(msg_encode_peer(REQUEST_CANCEL_JOB, &sig, &b), 0);
	wire_split(b, &w);
	assert_int_equal(w.h.flags, MSG_FLAG_PEER);
	assert_int_equal(w.h.cred_len, 0);
	/* as if it came over TCP: refused */
	assert_int_equal(wire_decode(&w, &m), SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_null(m.data);
	/* the kernel's peer */
	memset(&m, 0, sizeof(m));
	assert_int_equal(msg_decode_peer(w.raw, &w.h, w.body, 1234, 56, &m), 0);
	assert_int_equal(m.auth_uid, 1234);
	assert_int_equal(((job_signal_msg_t *) m.data)->signal, 9);
	msg_free(&m);
	xfree(w.all);

	/* over a unix socket pair: the peer is us */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(msg_send_fd_peer(sv[0], REQUEST_CANCEL_JOB, &sig,
					  1000), 0);
	assert_int_equal(msg_recv_fd(sv[1], &m, 1000), 0);
	assert_int_equal(m.auth_uid, geteuid());
	assert_int_equal(m.auth_gid, getegid());
	assert_int_equal(((job_signal_msg_t *) m.data)->job_id, 7);
	msg_free(&m);
	close(sv[0]);
	close(sv[1]);

	/* over TCP the kernel names nobody: refused */
	l = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(l >= 0);
	assert_int_equal(bind(l, (struct sockaddr *) &sin, sizeof(sin)), 0);
	assert_int_equal(listen(l, 1), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *) &sin, &sl), 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(connect(c, (struct sockaddr *) &sin, sizeof(sin)), 0);
	a = accept(l, NULL, NULL);
	assert_true(a >= 0);
	assert_int_equal(msg_send_fd_peer(c, REQUEST_CANCEL_JOB, &sig, 1000),
			 0);
	assert_int_equal(msg_recv_fd(a, &m, 1000),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_null(m.data);
	close(a);
	close(c);
	close(l);
}

/* ---- over a socket ---- */

static void test_socket_errors(void **state)
{
	int sv[2];
	slurm_msg_t m;
	long long t0;
	struct timespec ts;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
	assert_int_equal(msg_recv_fd(sv[0], &m, 200),
			 SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	assert_true(ts.tv_sec * 1000LL + ts.tv_nsec / 1000000 - t0 >= 190);

	assert_int_equal(write(sv[1], "SLUC", 4), 4);   /* then hang up */
	close(sv[1]);
	assert_int_equal(msg_recv_fd(sv[0], &m, 1000),
			 ESLURM_PROTOCOL_INCOMPLETE_PACKET);
	close(sv[0]);

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	close(sv[1]);
	assert_int_equal(msg_recv_fd(sv[0], &m, 1000),
			 SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT);
	NEED_MUNGE();
	assert_int_equal(msg_send_fd(sv[0], REQUEST_PING, NULL, 1000),
			 SLURM_COMMUNICATIONS_SEND_ERROR);  /* no SIGPIPE */
	close(sv[0]);
}

typedef struct {
	int fd;
	config_info_msg_t *conf;
	int rc;
} sender_t;

static void *sender(void *arg)
{
	sender_t *s = arg;

	s->rc = msg_send_fd(s->fd, RESPONSE_BUILD_INFO, s->conf, 5000);
	return NULL;
}

/* A message far larger than the socket buffer: partial writes. */
static void test_socket_large(void **state)
{
	enum { N = 20000 };
	config_info_msg_t conf = { .cnt = N, .last_update = 1763889415 };
	config_info_msg_t *got;
	sender_t s = { .conf = &conf };
	pthread_t th;
	slurm_msg_t m;
	int sv[2];

	NEED_MUNGE();
	conf.keys = xcalloc(N + 1, sizeof(char *));
	conf.values = xcalloc(N + 1, sizeof(char *));
	for (int i = 0; i < N; i++) {
		conf.keys[i] = xstrdup_printf("Key%05d", i);
		conf.values[i] = xstrdup_printf("value-%d-%0100d", i, 0);
	}
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	s.fd = sv[1];
	pthread_create(&th, NULL, sender, &s);
	assert_int_equal(msg_recv_fd(sv[0], &m, 5000), 0);
	pthread_join(th, NULL);
	assert_int_equal(s.rc, 0);
	assert_int_equal(m.type, RESPONSE_BUILD_INFO);
	assert_string_equal(m.peer, "unix");
	got = m.data;
	assert_int_equal(got->cnt, N);
	assert_string_equal(got->keys[N - 1], conf.keys[N - 1]);
	assert_string_equal(got->values[N - 1], conf.values[N - 1]);
	msg_free(&m);
	for (int i = 0; i < N; i++) {
		xfree(conf.keys[i]);
		xfree(conf.values[i]);
	}
	xfree(conf.keys);
	xfree(conf.values);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_garbage_header),
		cmocka_unit_test(test_body_altered),
		cmocka_unit_test(test_header_altered),
		cmocka_unit_test(test_cred_moved),
		cmocka_unit_test(test_replayed),
		cmocka_unit_test(test_cred_garbage),
		cmocka_unit_test(test_signed_bad_body),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_peer_messages),
		cmocka_unit_test(test_socket_errors),
		cmocka_unit_test(test_socket_large),
	};

	int rc = cmocka_run_group_tests_name("auth/munge", tests,
					     munge_auth_setup,
					     munge_auth_teardown);

	/* the same tests, every one, with auth/slurm's tokens */
	return rc | cmocka_run_group_tests_name("auth/slurm", tests,
						slurm_auth_setup,
						slurm_auth_teardown);
}
