/* test_msg_session.c — msg.h sessions against a private munged: opening
 * with a keyed credential, MAC'd requests and replies, and every way of
 * riding or forging one refused (forged MAC, altered body, replayed or
 * skipped sequence, wrong key, truncated credential, a reply reflected
 * as a request, another credential or user inside a session, a keyed
 * credential outside one). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <unistd.h>

#include "munge_fixture.h"

#include "common/auth.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

typedef struct {
	uint8_t      raw[MSG_HEADER_LEN];
	msg_header_t h;
	uint8_t     *cred;
	uint8_t     *body;
	uint8_t     *all;
	size_t       len;
} wire_t;

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

static void wire_free(wire_t *w)
{
	xfree(w->all);
}

/* The client's request in session cs (opening it when not open). */
static void client_req(msg_session_t *cs, uint16_t type, const void *data,
		       wire_t *w)
{
	buf_t *b = NULL;

	msg_session_client(cs);
	assert_int_equal(msg_encode(type, data, &b), 0);
	msg_session_client(NULL);
	wire_split(b, w);
}

/* The server's reply in session ss. */
static void server_reply(const msg_session_t *ss, uint16_t type,
			 const void *data, wire_t *w)
{
	buf_t *body = buf_create(64), *pre = NULL;

	assert_int_equal(msg_body_pack(type, data, body), 0);
	assert_int_equal(msg_encode_prefix_session(type, body, ss, &pre), 0);
	packbuf(pre, body);
	buf_destroy(body);
	wire_split(pre, w);
}

static int server_decode(msg_session_t *ss, wire_t *w, slurm_msg_t *m)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->peer, "test-peer");
	return msg_decode_session(w->raw, &w->h, w->cred, w->body, ss, m);
}

static int client_decode(msg_session_t *cs, wire_t *w, slurm_msg_t *m)
{
	int rc;

	memset(m, 0, sizeof(*m));
	strcpy(m->peer, "test-daemon");
	msg_session_client(cs);
	rc = msg_decode(w->raw, &w->h, w->cred, w->body, m);
	msg_session_client(NULL);
	return rc;
}

static const return_code_msg_t rc_hello = { 7, "hello" };

/* A session opened and one exchange done: cs and ss both at seq 1. */
static void open_session(msg_session_t *cs, msg_session_t *ss)
{
	wire_t w;
	slurm_msg_t m;

	memset(cs, 0, sizeof(*cs));
	memset(ss, 0, sizeof(*ss));
	for (int i = 0; i < MSG_SESSION_KEY_LEN; i++)
		cs->key[i] = (uint8_t)(rand() & 0xff);
	client_req(cs, REQUEST_PING, NULL, &w);
	assert_int_equal(w.h.flags, MSG_FLAG_SESSION);
	assert_int_equal(server_decode(ss, &w, &m), 0);
	assert_true(ss->open);
	assert_int_equal(m.auth_uid, geteuid());
	assert_memory_equal(ss->key, cs->key, MSG_SESSION_KEY_LEN);
	msg_free(&m);
	wire_free(&w);

	server_reply(ss, RESPONSE_SLURM_RC, &rc_hello, &w);
	assert_int_equal(w.h.flags, MSG_FLAG_SESSION_MAC);
	assert_int_equal(w.h.cred_len, MSG_SESSION_CRED_LEN);
	assert_int_equal(client_decode(cs, &w, &m), 0);
	assert_int_equal(((return_code_msg_t *)m.data)->rc, 7);
	msg_free(&m);
	wire_free(&w);
	msg_session_advance(cs);
	ss->seq++;
}

static void test_round_trip(void **state)
{
	msg_session_t cs, ss;
	slurm_msg_t m;
	wire_t w;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	for (int i = 0; i < 5; i++) {
		client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w);
		assert_int_equal(w.h.flags, MSG_FLAG_SESSION_MAC);
		assert_int_equal(w.h.cred_len, MSG_SESSION_CRED_LEN);
		assert_int_equal(server_decode(&ss, &w, &m), 0);
		assert_int_equal(m.auth_uid, geteuid());
		assert_string_equal(((return_code_msg_t *)m.data)->msg, "hello");
		msg_free(&m);
		wire_free(&w);
		server_reply(&ss, RESPONSE_SLURM_RC, &rc_hello, &w);
		assert_int_equal(client_decode(&cs, &w, &m), 0);
		msg_free(&m);
		wire_free(&w);
		msg_session_advance(&cs);
		ss.seq++;
	}
	assert_int_equal(cs.seq, 6);
	assert_int_equal(ss.seq, 6);
}

/* Each altered copy of a good request is refused and the session is as
 * it was: the good one still passes afterwards. */
static void refuse_then_accept(msg_session_t *ss, wire_t *bad, wire_t *good)
{
	msg_session_t before = *ss;
	slurm_msg_t m;

	assert_int_equal(server_decode(ss, bad, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_null(m.data);
	assert_memory_equal(&before, ss, sizeof(before));
	assert_int_equal(server_decode(ss, good, &m), 0);
	msg_free(&m);
}

static void copy_wire(const wire_t *a, wire_t *b)
{
	*b = *a;
	b->all = xmalloc(a->len);
	memcpy(b->all, a->all, a->len);
	b->cred = b->all + MSG_HEADER_LEN;
	b->body = b->cred + a->h.cred_len;
}

static void test_forged_mac(void **state)
{
	msg_session_t cs, ss;
	wire_t w, bad;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w);
	copy_wire(&w, &bad);
	bad.cred[20] ^= 1;                      /* the MAC */
	refuse_then_accept(&ss, &bad, &w);
	wire_free(&bad);
	wire_free(&w);
}

static void test_altered_body(void **state)
{
	msg_session_t cs, ss;
	wire_t w, bad;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w);
	copy_wire(&w, &bad);
	bad.body[bad.h.body_len - 2] ^= 0x20;   /* "hellO" */
	refuse_then_accept(&ss, &bad, &w);
	wire_free(&bad);
	wire_free(&w);
}

static void test_replayed_and_skipped(void **state)
{
	msg_session_t cs, ss, ahead;
	slurm_msg_t m;
	wire_t w1, w2;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w1);
	assert_int_equal(server_decode(&ss, &w1, &m), 0);
	msg_free(&m);
	ss.seq++;                               /* answered */
	msg_session_advance(&cs);
	/* the same request again: refused */
	assert_int_equal(server_decode(&ss, &w1, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	/* one from the future (seq + 1): refused */
	ahead = cs;
	ahead.seq++;
	client_req(&ahead, RESPONSE_SLURM_RC, &rc_hello, &w2);
	assert_int_equal(server_decode(&ss, &w2, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w2);
	/* the right one still passes */
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w2);
	assert_int_equal(server_decode(&ss, &w2, &m), 0);
	msg_free(&m);
	wire_free(&w1);
	wire_free(&w2);
}

static void test_wrong_key(void **state)
{
	msg_session_t cs, ss, other;
	wire_t bad, good;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	other = cs;
	other.key[0] ^= 0x80;
	client_req(&other, RESPONSE_SLURM_RC, &rc_hello, &bad);
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &good);
	refuse_then_accept(&ss, &bad, &good);
	wire_free(&bad);
	wire_free(&good);
}

static void test_truncated(void **state)
{
	msg_session_t cs, ss;
	wire_t w, bad;
	slurm_msg_t m;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w);
	copy_wire(&w, &bad);
	bad.h.cred_len = MSG_SESSION_CRED_LEN - 1;
	bad.raw[13] = MSG_SESSION_CRED_LEN - 1; /* low byte of cred_len */
	bad.body = bad.cred + bad.h.cred_len;
	bad.h.body_len--;                       /* keep the total */
	bad.raw[17]--;
	refuse_then_accept(&ss, &bad, &w);
	/* no credential at all */
	bad.h.cred_len = 0;
	bad.raw[13] = 0;
	bad.body = bad.cred;
	assert_int_equal(server_decode(&ss, &bad, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&bad);
	wire_free(&w);
}

/* Inside a session only the session's MAC speaks: a fresh AuthType
 * credential (which could name another uid) or a second opening is
 * refused, and the session's uid never changes. */
static void test_uid_switch(void **state)
{
	msg_session_t cs, ss, again;
	slurm_msg_t m;
	wire_t w;
	buf_t *b = NULL;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	assert_int_equal(msg_encode(REQUEST_PING, NULL, &b), 0);
	wire_split(b, &w);
	assert_int_equal(server_decode(&ss, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
	memset(&again, 0, sizeof(again));
	again.key[0] = 1;
	client_req(&again, REQUEST_PING, NULL, &w);
	assert_int_equal(w.h.flags, MSG_FLAG_SESSION);
	assert_int_equal(server_decode(&ss, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
	assert_memory_equal(ss.key, cs.key, MSG_SESSION_KEY_LEN);
	assert_int_equal(ss.uid, geteuid());
	/* a session message's flags cannot be mixed with others */
	client_req(&cs, REQUEST_PING, NULL, &w);
	w.h.flags |= MSG_FLAG_JWT;
	w.raw[9] |= MSG_FLAG_JWT;
	assert_int_equal(server_decode(&ss, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
}

/* A reply fed back as a request ('R' vs 'Q'), and a session message on a
 * connection without a session: refused. */
static void test_reflected_and_sessionless(void **state)
{
	msg_session_t cs, ss, none;
	slurm_msg_t m;
	wire_t w;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	server_reply(&ss, RESPONSE_SLURM_RC, &rc_hello, &w);
	assert_int_equal(server_decode(&ss, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w);
	memset(&none, 0, sizeof(none));
	assert_int_equal(server_decode(&none, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_false(none.open);
	/* nor by a one-shot server (msg_decode) */
	assert_int_equal(client_decode(NULL, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
}

/* The opening's keyed credential is not a plain one: a one-shot server
 * refuses it, and plain verify refuses a keyed payload. */
static void test_keyed_cred_outside_session(void **state)
{
	msg_session_t cs;
	slurm_msg_t m;
	wire_t w;
	uint8_t digest[32], key[32];
	uid_t uid;
	gid_t gid;
	const char *why;

	(void)state;
	NEED_MUNGE();
	memset(&cs, 0, sizeof(cs));
	cs.key[3] = 9;
	client_req(&cs, REQUEST_PING, NULL, &w);
	assert_int_equal(client_decode(NULL, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	msg_digest_of(w.raw, w.body, w.h.body_len, digest);
	assert_int_not_equal(auth_verify((char *)w.cred, w.h.cred_len, digest,
					 &uid, &gid, &why), 0);
	wire_free(&w);
	/* and a plain credential does not open a session */
	{
		char *cred = NULL;
		uint32_t len = 0;

		assert_int_equal(auth_create(digest, &cred, &len), 0);
		assert_int_not_equal(auth_verify_keyed(cred, len, digest, key,
						       &uid, &gid, &why), 0);
		xfree(cred);
	}
}

/* The client checks replies: another seq, another key, a forged MAC, or
 * a request reflected back are refused. */
static void test_client_checks_reply(void **state)
{
	msg_session_t cs, ss, other;
	slurm_msg_t m;
	wire_t w;

	(void)state;
	NEED_MUNGE();
	open_session(&cs, &ss);
	other = ss;
	other.seq++;
	server_reply(&other, RESPONSE_SLURM_RC, &rc_hello, &w);
	assert_int_equal(client_decode(&cs, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
	other = ss;
	other.key[5] ^= 1;
	server_reply(&other, RESPONSE_SLURM_RC, &rc_hello, &w);
	assert_int_equal(client_decode(&cs, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
	server_reply(&ss, RESPONSE_SLURM_RC, &rc_hello, &w);
	w.cred[39] ^= 4;
	assert_int_equal(client_decode(&cs, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	w.cred[39] ^= 4;
	assert_int_equal(client_decode(&cs, &w, &m), 0);
	msg_free(&m);
	wire_free(&w);
	client_req(&cs, RESPONSE_SLURM_RC, &rc_hello, &w);
	assert_int_equal(client_decode(&cs, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
	/* a session reply where no session was opened */
	server_reply(&ss, RESPONSE_SLURM_RC, &rc_hello, &w);
	assert_int_equal(client_decode(NULL, &w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	wire_free(&w);
}

/* The opening credential is sealed to SlurmUser's uid: a process of
 * another uid cannot read the key out of it (MUNGE refuses to decode). */
static void test_sealed_to_reader(void **state)
{
	uint8_t digest[32] = { 1 }, key[32] = { 2 }, out[32];
	char *cred = NULL;
	uint32_t len = 0;
	uid_t uid;
	gid_t gid;
	const char *why;

	(void)state;
	NEED_MUNGE();
	assert_int_equal(auth_create_keyed(digest, key, geteuid() + 1, &cred,
					   &len), 0);
	assert_int_not_equal(auth_verify_keyed(cred, len, digest, out, &uid,
					       &gid, &why), 0);
	xfree(cred);
	assert_int_equal(auth_create_keyed(digest, key, geteuid(), &cred,
					   &len), 0);
	assert_int_equal(auth_verify_keyed(cred, len, digest, out, &uid,
					   &gid, &why), 0);
	assert_memory_equal(out, key, 32);
	xfree(cred);
}

static int setup(void **state)
{
	auth_set_context(NULL, geteuid(), 0);   /* the reader: ourselves */
	return munge_auth_setup(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_forged_mac),
		cmocka_unit_test(test_altered_body),
		cmocka_unit_test(test_replayed_and_skipped),
		cmocka_unit_test(test_wrong_key),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_uid_switch),
		cmocka_unit_test(test_reflected_and_sessionless),
		cmocka_unit_test(test_keyed_cred_outside_session),
		cmocka_unit_test(test_client_checks_reply),
		cmocka_unit_test(test_sealed_to_reader),
	};

	return cmocka_run_group_tests_name("sessions, auth/munge", tests,
					   setup, munge_auth_teardown);
}
