/* test_jwt.c — auth/jwt tokens (jwt.c) and tokens on the wire (msg.c):
 * a token made here verifies and names its user; each way a token can be
 * bad is refused with its own reason (malformed, alg none or another
 * algorithm, bad signature, expired, issued in the future, no sun, unknown
 * user); the key file is refused when group or other may read it, when
 * it is missing or owned by someone else; AuthAltParameters options; a
 * message with a token decodes as its user only where tokens are
 * accepted, and the reply's MAC only matches the token that was sent.
 * Bad inputs first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "common/jwt.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static const char KEY[] = "0123456789abcdef0123456789abcdef";
#define NOW ((time_t)1800000000)

/* ---- hand-made tokens ---- */

static char *b64url(const void *data, size_t n)
{
	char *out = xmalloc(n / 3 * 4 + 8);
	int len = EVP_EncodeBlock((unsigned char *)out, data, (int)n);

	while (len > 0 && out[len - 1] == '=')
		len--;
	out[len] = '\0';
	for (int i = 0; i < len; i++)
		out[i] = out[i] == '+' ? '-' : out[i] == '/' ? '_' : out[i];
	return out;
}

/* header.payload.signature with md (NULL: no signature, alg none). */
static char *make_token(const char *header, const char *payload,
			const char *key, const EVP_MD *md)
{
	char *h = b64url(header, strlen(header));
	char *p = b64url(payload, strlen(payload));
	char *signing = xstrdup_printf("%s.%s", h, p), *sig, *tok;
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;

	if (md)
		HMAC(md, key, (int)strlen(key), (unsigned char *)signing,
		     strlen(signing), mac, &maclen);
	sig = b64url(mac, maclen);
	tok = xstrdup_printf("%s.%s", signing, sig);
	xfree(h);
	xfree(p);
	xfree(signing);
	xfree(sig);
	return tok;
}

static char *claims(long iat, long exp, const char *sun)
{
	return sun ? xstrdup_printf("{\"iat\":%ld,\"exp\":%ld,\"sun\":\"%s\"}",
				    iat, exp, sun)
		   : xstrdup_printf("{\"iat\":%ld,\"exp\":%ld}", iat, exp);
}

#define HS256 "{\"alg\":\"HS256\",\"typ\":\"JWT\"}"

static const char *verify_why(const char *tok)
{
	char user[64];
	const char *why = NULL;

	if (jwt_verify(tok, strlen(tok), NOW, user, sizeof(user), &why) == 0)
		return NULL;
	assert_non_null(why);
	return why;
}

static int setup(void **state)
{
	jwt_key_set(KEY, strlen(KEY));
	return 0;
}

/* ---- bad tokens ---- */

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "abc", "a.b", "a.b.c.d", "e30.e30", "!!!.e30.abc",
		"e30.e30.abc", /* {} header: no alg */
		"WzFd.e30.abc", /* [1] header: not an object */
	};
	char *p = claims(NOW, NOW + 60, "root");
	char *h = b64url(HS256, strlen(HS256));
	char *tok;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_non_null(strstr(verify_why(bad[i]), "malformed"));
	/* payload not JSON */
	tok = xstrdup_printf("%s.bm90IGpzb24.abc", h);
	assert_non_null(strstr(verify_why(tok), "payload"));
	xfree(tok);
	/* a signature with a character outside base64url */
	tok = make_token(HS256, p, KEY, EVP_sha256());
	xstrcat(&tok, "*");
	assert_non_null(strstr(verify_why(tok), "malformed"));
	xfree(tok);
	/* an embedded NUL */
	{
		char nul[] = "e30\0e30.e30";
		const char *why = NULL;
		char user[16];

		assert_int_equal(jwt_verify(nul, sizeof(nul) - 1, NOW, user,
					    sizeof(user), &why), -1);
		assert_non_null(strstr(why, "malformed"));
	}
	xfree(h);
	xfree(p);
}

static void test_wrong_algorithm(void **state)
{
	char *p = claims(NOW, NOW + 60, "root");
	char *none = make_token("{\"alg\":\"none\",\"typ\":\"JWT\"}", p, KEY,
				NULL);
	char *hs384 = make_token("{\"alg\":\"HS384\",\"typ\":\"JWT\"}", p, KEY,
				 EVP_sha384());

	assert_non_null(strstr(verify_why(none), "wrong algorithm"));
	assert_non_null(strstr(verify_why(none), "none"));
	assert_non_null(strstr(verify_why(hs384), "wrong algorithm"));
	xfree(none);
	xfree(hs384);
	xfree(p);
}

static void test_bad_signature(void **state)
{
	char *p = claims(NOW, NOW + 60, "root");
	char *other = make_token(HS256, p, "another key of thirty-two bytes!",
				 EVP_sha256());
	char *good = make_token(HS256, p, KEY, EVP_sha256());
	char *flipped = xstrdup(good);
	size_t n = strlen(flipped);

	assert_null(verify_why(good));
	flipped[n - 2] = flipped[n - 2] == 'A' ? 'B' : 'A';
	assert_string_equal(verify_why(other), "bad signature");
	assert_string_equal(verify_why(flipped), "bad signature");
	/* the payload changed after signing */
	{
		char *p2 = claims(NOW, NOW + 60, "mallory");
		char *b = b64url(p2, strlen(p2));
		char *dot1 = strchr(good, '.'), *dot2 = strchr(dot1 + 1, '.');
		char *forged = xstrdup_printf("%.*s.%s%s", (int)(dot1 - good),
					      good, b, dot2);

		assert_string_equal(verify_why(forged), "bad signature");
		xfree(forged);
		xfree(b);
		xfree(p2);
	}
	xfree(other);
	xfree(good);
	xfree(flipped);
	xfree(p);
}

static void test_claims(void **state)
{
	struct {
		char       *payload;
		const char *why;
	} t[] = {
		{ claims(NOW - 100, NOW - 1, "root"), "expired" },
		{ claims(NOW - 100, NOW, "root"), "expired" },
		{ claims(NOW + 3600, NOW + 7200, "root"), "future" },
		{ claims(NOW, NOW + 60, NULL), "no sun" },
		{ xstrdup_printf("{\"iat\":%ld,\"sun\":\"root\"}", (long)NOW),
		  "no exp" },
		{ xstrdup_printf("{\"exp\":%ld,\"sun\":\"root\"}",
				 (long)NOW + 60), "no iat" },
		{ xstrdup_printf("{\"iat\":%ld,\"exp\":\"later\",\"sun\":"
				 "\"root\"}", (long)NOW), "exp is not" },
		{ xstrdup_printf("{\"iat\":%ld,\"exp\":%ld,\"sun\":7}",
				 (long)NOW, (long)NOW + 60), "no sun" },
		{ xstrdup_printf("{\"iat\":%ld,\"exp\":%ld,\"sun\":\"\"}",
				 (long)NOW, (long)NOW + 60), "no sun" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *tok = make_token(HS256, t[i].payload, KEY, EVP_sha256());
		const char *why = verify_why(tok);

		if (!strstr(why, t[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, why,
				 t[i].why);
		xfree(tok);
		xfree(t[i].payload);
	}
}

static void test_unknown_user(void **state)
{
	char *p = claims(time(NULL), time(NULL) + 60, "no-such-user-sluice");
	char *tok = make_token(HS256, p, KEY, EVP_sha256());
	const char *why = NULL;
	uid_t uid = 7;
	gid_t gid = 7;

	assert_int_equal(jwt_verify_cred(tok, strlen(tok), &uid, &gid, &why),
			 -1);
	assert_non_null(strstr(why, "unknown user"));
	assert_int_equal(uid, 7);
	xfree(tok);
	xfree(p);
}

static void test_no_key(void **state)
{
	char user[16];
	const char *why = NULL;

	jwt_key_clear();
	assert_null(jwt_create("root", NOW, 60));
	assert_int_equal(jwt_verify("a.b.c", 5, NOW, user, sizeof(user),
				    &why), -1);
	assert_int_equal(jwt_key_set(NULL, 0), -1);
	setup(state);
}

/* ---- good tokens ---- */

static void test_roundtrip(void **state)
{
	char *tok = jwt_create("root", NOW, 1800);
	char user[64];
	const char *why = NULL;
	uid_t uid = 7;
	gid_t gid = 7;

	assert_non_null(tok);
	assert_int_equal(jwt_verify(tok, strlen(tok), NOW, user, sizeof(user),
				    &why), 0);
	assert_null(why);
	assert_string_equal(user, "root");
	/* a clock a little behind the maker's still takes it */
	assert_int_equal(jwt_verify(tok, strlen(tok), NOW - JWT_IAT_SKEW,
				    user, sizeof(user), &why), 0);
	/* and it lasts lifespan seconds */
	assert_int_equal(jwt_verify(tok, strlen(tok), NOW + 1799, user,
				    sizeof(user), &why), 0);
	assert_int_equal(jwt_verify(tok, strlen(tok), NOW + 1800, user,
				    sizeof(user), &why), -1);
	assert_non_null(strstr(why, "expired"));
	/* a user name longer than the caller's buffer is refused */
	assert_int_equal(jwt_verify(tok, strlen(tok), NOW, user, 4, &why), -1);
	xfree(tok);

	tok = jwt_create("root", time(NULL), 60);
	assert_int_equal(jwt_verify_cred(tok, strlen(tok), &uid, &gid, &why),
			 0);
	assert_int_equal(uid, 0);
	assert_int_equal(gid, 0);
	xfree(tok);
	assert_null(jwt_create("", NOW, 60));
	assert_null(jwt_create("root", NOW, 0));
}

/* "<token> <user>": root's token may act as anyone, another's only as
 * its own user. */
static void test_act_as(void **state)
{
	char *root = jwt_create("root", time(NULL), 60);
	char *nobody = jwt_create("nobody", time(NULL), 60);
	const char *why = NULL;
	uid_t uid = 7;
	gid_t gid = 7;
	char *cred;

	cred = xstrdup_printf("%s nobody", root);
	assert_int_equal(jwt_verify_cred(cred, strlen(cred), &uid, &gid, &why),
			 0);
	assert_int_not_equal(uid, 0);
	xfree(cred);
	cred = xstrdup_printf("%s root", nobody);
	assert_int_equal(jwt_verify_cred(cred, strlen(cred), &uid, &gid, &why),
			 -1);
	assert_non_null(strstr(why, "may not act as"));
	xfree(cred);
	cred = xstrdup_printf("%s nobody", nobody);
	assert_int_equal(jwt_verify_cred(cred, strlen(cred), &uid, &gid, &why),
			 0);
	xfree(cred);
	cred = xstrdup_printf("%s no-such-user-sluice", root);
	assert_int_equal(jwt_verify_cred(cred, strlen(cred), &uid, &gid, &why),
			 -1);
	assert_non_null(strstr(why, "unknown user"));
	xfree(cred);
	cred = xstrdup_printf("%s ", root);
	assert_int_equal(jwt_verify_cred(cred, strlen(cred), &uid, &gid, &why),
			 -1);
	assert_non_null(strstr(why, "malformed"));
	xfree(cred);
	cred = xstrdup_printf("%s a b", root);
	assert_int_equal(jwt_verify_cred(cred, strlen(cred), &uid, &gid, &why),
			 -1);
	xfree(cred);
	/* the thread's credential carries the user after the token */
	msg_auth_jwt_set_as(root, "nobody");
	cred = xstrdup_printf("%s nobody", root);
	assert_string_equal(msg_auth_jwt(), cred);
	msg_auth_jwt_clear();
	xfree(cred);
	xfree(root);
	xfree(nobody);
}

/* A token from another maker (no typ, other claims) is taken. */
static void test_foreign_token(void **state)
{
	char *p = xstrdup_printf("{\"sun\":\"root\",\"iat\":%ld,\"exp\":%ld,"
				 "\"aud\":\"x\"}", (long)NOW, (long)NOW + 5);
	char *tok = make_token("{\"typ\":\"JWT\",\"alg\":\"HS256\"}", p, KEY,
			       EVP_sha256());

	assert_null(verify_why(tok));
	xfree(tok);
	xfree(p);
}

/* ---- configuration ---- */

static void test_params(void **state)
{
	static const char *const bad[] = {
		"jwt_key=relative/path", "max_token_lifespan=0",
		"max_token_lifespan=x", "max_token_lifespan=-5",
		"jwks=/etc/slurm/jwks.json", "userclaimfield=name", "bogus",
	};
	jwt_params_t p;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(jwt_params_parse(bad[i], &p, err,
						  sizeof(err)), -1);
		assert_true(err[0]);
		jwt_params_free(&p);
	}
	assert_int_equal(jwt_params_parse("jwt_key=/k,max_token_lifespan=60,"
					  "disable_token_creation", &p, err,
					  sizeof(err)), 0);
	assert_string_equal(p.jwt_key, "/k");
	assert_int_equal(p.max_token_lifespan, 60);
	assert_true(p.disable_token_creation);
	jwt_params_free(&p);
	assert_int_equal(jwt_params_parse(NULL, &p, err, sizeof(err)), 0);
	assert_null(p.jwt_key);

	assert_int_equal(jwt_alt_types(NULL, err, sizeof(err)), 0);
	assert_int_equal(jwt_alt_types("auth/jwt", err, sizeof(err)), 1);
	assert_int_equal(jwt_alt_types("auth/jwt,auth/x", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "auth/x"));
}

static void write_key(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, KEY, strlen(KEY)), (ssize_t)strlen(KEY));
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_key_file(void **state)
{
	char dir[] = "/tmp/test_jwt.XXXXXX", path[128], err[512];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/jwt_hs256.key", dir);
	/* missing */
	assert_int_equal(jwt_key_load(path, getuid(), err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	/* group or other may read or write it */
	write_key(path, 0640);
	assert_int_equal(jwt_key_load(path, getuid(), err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "group or other"));
	write_key(path, 0602);
	assert_int_equal(jwt_key_load(path, getuid(), err, sizeof(err)), -1);
	/* owned by someone who is neither root nor SlurmUser */
	write_key(path, 0600);
	if (getuid() == 0 && chown(path, 12345, 12345) == 0) {
		assert_int_equal(jwt_key_load(path, 54321, err, sizeof(err)),
				 -1);
		assert_non_null(strstr(err, "owned by uid 12345"));
		assert_int_equal(jwt_key_load(path, 12345, err, sizeof(err)),
				 0);
	}
	/* right: the setup through AuthAltTypes/AuthAltParameters */
	assert_int_equal(chown(path, getuid(), getgid()), 0);
	write_key(path, 0400);
	assert_int_equal(jwt_setup(NULL, NULL, dir, getuid(), err,
				   sizeof(err)), 1);
	assert_int_equal(jwt_setup("auth/jwt", NULL, NULL, getuid(), err,
				   sizeof(err)), -1);
	assert_int_equal(jwt_setup("auth/jwt", "jwt_key=/nonexistent/k", dir,
				   getuid(), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/k"));
	assert_false(jwt_enabled());
	assert_int_equal(jwt_setup("auth/jwt", "max_token_lifespan=99", dir,
				   getuid(), err, sizeof(err)), 0);
	assert_true(jwt_enabled());
	assert_int_equal(jwt_params()->max_token_lifespan, 99);
	unlink(path);
	rmdir(dir);
}

/* ---- on the wire ---- */

typedef struct {
	uint8_t      raw[MSG_HEADER_LEN];
	msg_header_t h;
	uint8_t     *all;
} wire_t;

static void wire_split(buf_t *b, wire_t *w)
{
	size_t len;

	w->all = buf_steal(b, &len);
	buf_destroy(b);
	memcpy(w->raw, w->all, MSG_HEADER_LEN);
	assert_int_equal(msg_header_parse(w->raw, &w->h), 0);
}

static int wire_decode(wire_t *w, slurm_msg_t *m)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->peer, "test-peer");
	return msg_decode(w->raw, &w->h, w->all + MSG_HEADER_LEN,
			  w->all + MSG_HEADER_LEN + w->h.cred_len, m);
}

static void test_wire(void **state)
{
	top_job_msg_t req = { .job_id_str = "12" };
	return_code_msg_t rc = { .rc = 0 };
	char *tok = jwt_create("root", time(NULL), 60);
	slurm_msg_t m;
	buf_t *b = NULL, *body;
	wire_t w;

	/* a token on the thread goes out as the credential */
	msg_auth_jwt_set(tok);
	assert_string_equal(msg_auth_jwt(), tok);
	assert_int_equal(msg_encode(REQUEST_TOP_JOB, &req, &b), 0);
	wire_split(b, &w);
	assert_true(w.h.flags & MSG_FLAG_JWT);
	assert_int_equal(w.h.cred_len, strlen(tok));
	/* where tokens are not accepted: refused */
	msg_auth_jwt_accept(NULL);
	assert_int_equal(wire_decode(&w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	/* where they are: the token's user */
	msg_auth_jwt_accept(jwt_verify_cred);
	assert_int_equal(wire_decode(&w, &m), 0);
	assert_int_equal(m.auth_uid, 0);
	assert_string_equal(((top_job_msg_t *)m.data)->job_id_str, "12");
	msg_free(&m);
	free(w.all);

	/* the reply: a MAC keyed with the token, checked with it */
	body = buf_create(64);
	assert_int_equal(msg_body_pack(RESPONSE_SLURM_RC, &rc, body), 0);
	assert_int_equal(msg_encode_prefix_jwt_reply(RESPONSE_SLURM_RC, body,
						     tok, strlen(tok), &b), 0);
	packbuf(b, body);
	wire_split(b, &w);
	assert_true(w.h.flags & MSG_FLAG_JWT_REPLY);
	assert_int_equal(wire_decode(&w, &m), 0);
	msg_free(&m);
	/* another token: no match */
	msg_auth_jwt_set("x.y.z");
	assert_int_equal(wire_decode(&w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	/* no token sent: a token reply is refused */
	msg_auth_jwt_clear();
	assert_null(msg_auth_jwt());
	assert_int_equal(wire_decode(&w, &m),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	/* the process token applies to threads without their own */
	msg_auth_jwt_set_process(tok);
	assert_int_equal(wire_decode(&w, &m), 0);
	msg_free(&m);
	msg_auth_jwt_set_process(NULL);
	free(w.all);
	buf_destroy(body);
	xfree(tok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_malformed, setup),
		cmocka_unit_test_setup(test_wrong_algorithm, setup),
		cmocka_unit_test_setup(test_bad_signature, setup),
		cmocka_unit_test_setup(test_claims, setup),
		cmocka_unit_test_setup(test_unknown_user, setup),
		cmocka_unit_test_setup(test_no_key, setup),
		cmocka_unit_test_setup(test_roundtrip, setup),
		cmocka_unit_test_setup(test_foreign_token, setup),
		cmocka_unit_test_setup(test_act_as, setup),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_key_file),
		cmocka_unit_test_setup(test_wire, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
