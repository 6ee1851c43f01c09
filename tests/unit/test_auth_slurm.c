/* test_auth_slurm.c — AuthType=auth/slurm: what its key file must be,
 * every way a token can be bad (another key, expired, replayed, altered,
 * moved to another message), and the local token service, which makes
 * tokens for the uid the kernel reports for its peer.
 * (Framing, replay and moved credentials through msg.c: test_msg runs
 * all its tests with auth/slurm too.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "common/auth.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static bool have_munge;
#include "slurm_key_fixture.h"

static uint8_t digest[AUTH_DIGEST_LEN], other[AUTH_DIGEST_LEN];

static int init_with(const char *key, const char *extra)
{
	char *info = xstrdup_printf("key=%s,socket=%s%s%s",
				    slurm_key_path(key),
				    slurm_key_path("sack.socket"),
				    extra ? "," : "", extra ? extra : "");
	int rc;

	auth_fini();
	rc = auth_init("auth/slurm", info, NULL);
	xfree(info);
	return rc;
}

static int setup(void **state)
{
	(void)state;
	sha256("message", 7, digest);
	sha256("another", 7, other);
	strcpy(slurm_key_dir, "/tmp/sluice-key-XXXXXX");
	if (!mkdtemp(slurm_key_dir) || chmod(slurm_key_dir, 0711) || slurm_key_write("slurm.key", 1024, 0600) ||
	    slurm_key_write("other.key", 1024, 0600))
		return -1;
	auth_set_context(NULL, 0, 1);
	return 0;
}

static void test_key_file_checked(void **state)
{
	(void)state;
	assert_int_equal(slurm_key_write("open.key", 1024, 0644), 0);
	assert_int_not_equal(init_with("open.key", NULL), 0);
	assert_int_equal(slurm_key_write("group.key", 1024, 0640), 0);
	assert_int_not_equal(init_with("group.key", NULL), 0);
	assert_int_equal(slurm_key_write("short.key", 16, 0600), 0);
	assert_int_not_equal(init_with("short.key", NULL), 0);
	if (geteuid() == 0) {               /* owned by neither root nor us */
		assert_int_equal(slurm_key_write("nobody.key", 1024, 0600), 0);
		assert_int_equal(chown(slurm_key_path("nobody.key"), 65534,
				       65534), 0);
		assert_int_not_equal(init_with("nobody.key", NULL), 0);
	}
	/* a daemon must have the key */
	assert_int_not_equal(init_with("missing.key", NULL), 0);
	assert_int_not_equal(init_with("slurm.key", "ttl=0"), 0);
	assert_int_not_equal(init_with("slurm.key", "ttl=x"), 0);
	assert_int_equal(init_with("slurm.key", NULL), 0);
}

static void test_good_once(void **state)
{
	char *c = NULL;
	uint32_t len;
	uid_t uid = 99;
	gid_t gid = 99;
	const char *why;

	(void)state;
	assert_int_equal(init_with("slurm.key", NULL), 0);
	assert_int_equal(auth_create(digest, &c, &len), 0);
	assert_int_equal(strlen(c), len);
	assert_int_equal(auth_verify(c, len, digest, &uid, &gid, &why), 0);
	assert_int_equal(uid, geteuid());
	assert_int_equal(gid, getegid());
	/* a second use */
	assert_int_equal(auth_verify(c, len, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	assert_string_equal(why, "credential replayed");
	xfree(c);
}

static void test_bad_tokens(void **state)
{
	char *c = NULL, *t;
	uint32_t len;
	uid_t uid;
	gid_t gid;
	const char *why;

	(void)state;
	assert_int_equal(init_with("slurm.key", NULL), 0);
	assert_int_equal(auth_create(digest, &c, &len), 0);
	/* for another message */
	assert_int_equal(auth_verify(c, len, other, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	/* another uid written in */
	t = xstrdup(c);
	t[4] = t[4] == '1' ? '2' : '1';
	assert_int_equal(auth_verify(t, len, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	xfree(t);
	/* truncated, padded, garbage */
	assert_int_not_equal(auth_verify(c, len - 1, digest, &uid, &gid, &why), 0);
	t = xstrdup_printf("%s0", c);
	assert_int_not_equal(auth_verify(t, len + 1, digest, &uid, &gid, &why), 0);
	xfree(t);
	assert_int_not_equal(auth_verify("sl1.0.0.9.x", 11, digest, &uid, &gid, &why), 0);
	assert_int_not_equal(auth_verify("sl1.", 4, digest, &uid, &gid, &why), 0);
	/* numbers past INT64_MAX are refused, not overflowed (UBSan) */
	t = xstrdup("sl1.99999999999999999999.1.1.1.x");
	assert_int_not_equal(auth_verify(t, (uint32_t)strlen(t), digest, &uid,
					 &gid, &why), 0);
	xfree(t);
	/* made with another key */
	assert_int_equal(init_with("other.key", NULL), 0);
	assert_int_equal(auth_verify(c, len, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	/* and with the right one it was good all along */
	assert_int_equal(init_with("slurm.key", NULL), 0);
	assert_int_equal(auth_verify(c, len, digest, &uid, &gid, &why), 0);
	xfree(c);
}

static void test_expired(void **state)
{
	char *c = NULL;
	uint32_t len;
	uid_t uid;
	gid_t gid;
	const char *why;

	(void)state;
	assert_int_equal(init_with("slurm.key", "ttl=1"), 0);
	assert_int_equal(auth_create(digest, &c, &len), 0);
	sleep(3);
	assert_int_equal(auth_verify(c, len, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	assert_string_equal(why, "credential expired");
	xfree(c);
}

/* A child without the key (as nobody when we are root) gets a token from
 * the service and has the service check ours. */
static void test_token_service(void **state)
{
	int ready[2], res[2];
	char buf[512] = "", *c = NULL;
	uint32_t len;
	uid_t uid, want = geteuid() == 0 ? 65534 : geteuid();
	gid_t gid;
	const char *why;
	ssize_t n;
	pid_t p;
	int st;

	(void)state;
	auth_fini();
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(res), 0);
	p = fork();
	assert_true(p >= 0);
	if (p == 0) {
		char *tok = NULL, line[400] = "";
		uint32_t tl;
		uid_t vu = 0;
		gid_t vg = 0;
		const char *w;
		int vr;

		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(2);
		if (read(ready[0], line, 300) <= 0)
			_exit(3);
		auth_set_context(NULL, 0, 0);       /* a command */
		if (init_with("missing.key", NULL))
			_exit(4);
		if (auth_create(digest, &tok, &tl))
			_exit(5);
		vr = auth_verify(line, (uint32_t)strlen(line), other, &vu, &vg, &w);
		snprintf(buf, sizeof(buf), "%s %d %u %s", tok, vr, (unsigned)vu, vr ? w : "");
		if (write(res[1], buf, strlen(buf)) < 0)
			_exit(6);
		_exit(0);
	}
	assert_int_equal(init_with("slurm.key", NULL), 0);
	assert_int_equal(auth_serve(), 0);
	assert_int_equal(auth_create(other, &c, &len), 0);
	assert_int_equal(write(ready[1], c, len), (ssize_t)len);
	close(ready[1]);
	close(res[1]);
	n = read(res[0], buf, sizeof(buf) - 1);
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_true(n > 0);
	buf[n] = '\0';
	{
		char tok[300];
		int vr;
		unsigned vu;

		assert_int_equal(sscanf(buf, "%299s %d %u", tok, &vr, &vu), 3);
		/* the service checked our token for the child */
		assert_int_equal(vr, 0);
		assert_int_equal(vu, geteuid());
		/* the child's token says who the child is */
		assert_int_equal(auth_verify(tok, (uint32_t)strlen(tok), digest,
					     &uid, &gid, &why), 0);
		assert_int_equal(uid, want);
	}
	/* the service (this process) checked our token once: a second use
	 * is a replay */
	assert_int_equal(auth_verify(c, len, other, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	assert_string_equal(why, "credential replayed");
	xfree(c);
	close(ready[0]);
	close(res[0]);
}

/* A command with neither the key nor a service: a clear failure. */
static void test_no_service(void **state)
{
	char *c = NULL;
	uint32_t len;

	(void)state;
	auth_fini();
	auth_set_context(NULL, 0, 0);
	assert_int_equal(init_with("missing.key", NULL), 0);
	assert_int_not_equal(auth_create(digest, &c, &len), 0);
	assert_null(c);
	auth_set_context(NULL, 0, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_file_checked),
		cmocka_unit_test(test_good_once),
		cmocka_unit_test(test_bad_tokens),
		cmocka_unit_test(test_expired),
		cmocka_unit_test(test_token_service),
		cmocka_unit_test(test_no_service),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, setup, slurm_auth_teardown);
}
