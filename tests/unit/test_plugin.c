/* test_plugin.c — plugin.h loading and checks, and auth.h over
 * auth/munge against a private munged. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "munge_fixture.h"

#include "common/auth.h"
#include "common/plugin.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static char tmpdir[64];

static char *tmp_path(const char *name)
{
	return xstrdup_printf("%s/%s", tmpdir, name);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	size_t n;
	int rc = (in && out) ? 0 : -1;

	while (!rc && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return rc;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int group_setup(void **state)
{
	strcpy(tmpdir, "/tmp/sluice-plugin-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	char *cmd = xstrdup_printf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	xfree(cmd);
	return rc == 0 ? 0 : -1;
}

/* ---- bad plugins first ---- */

static void test_bad_specs(void **state)
{
	const char *bad[] = { NULL, "", "auth", "/munge", "auth/", "auth/a/b",
			      "auth/../x" };
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_null(plugin_load(bad[i], tmpdir, err, sizeof(err)));
		assert_non_null(strstr(err, "invalid plugin name"));
	}
}

static void test_not_found(void **state)
{
	char err[512];

	assert_null(plugin_load("auth/nosuch", "/nonexistent:/also/not", err,
				sizeof(err)));
	assert_non_null(strstr(err, "auth_nosuch.so"));
	assert_non_null(strstr(err, "not found"));
}

static void test_not_a_library(void **state)
{
	char err[512], *p = tmp_path("auth_junk.so");

	assert_int_equal(write_file(p, "not an ELF file\n"), 0);
	assert_null(plugin_load("auth/junk", tmpdir, err, sizeof(err)));
	assert_non_null(strstr(err, p));
	xfree(p);
}

static void test_wrong_name(void **state)
{
	char err[512], *p = tmp_path("auth_other.so");

	assert_int_equal(copy_file(SLUICE_BUILD_PLUGINDIR "/auth_munge.so", p), 0);
	assert_null(plugin_load("auth/other", tmpdir, err, sizeof(err)));
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "auth/munge"));
	xfree(p);
}

/* A plugin for another ABI, built here if a compiler is at hand. */
static void test_wrong_abi(void **state)
{
	char err[512], *src = tmp_path("abi.c"), *so = tmp_path("auth_oldabi.so");
	char *cmd = xstrdup_printf("cc -shared -fPIC -o '%s' '%s' 2>/dev/null",
				   so, src);
	int built;

	write_file(src, "static const int ops;\n"
			"const struct { const char *t, *n; unsigned abi;"
			" unsigned opsv; const void *ops; } sluice_plugin ="
			" { \"auth\", \"oldabi\", 0x18080000u, 1, &ops };\n");
	built = system(cmd) == 0;
	xfree(cmd);
	xfree(src);
	if (!built) {
		xfree(so);
		skip();
	}
	assert_null(plugin_load("auth/oldabi", tmpdir, err, sizeof(err)));
	assert_non_null(strstr(err, so));
	assert_non_null(strstr(err, "ABI"));
	xfree(so);
}

static void test_auth_type_unknown(void **state)
{
	assert_int_equal(auth_init("auth/none", NULL, NULL),
			 SLURM_PLUGIN_NAME_INVALID);
	assert_int_equal(auth_init("auth/jwt", NULL, NULL),
			 SLURM_PLUGIN_NAME_INVALID);
}

static void test_auth_not_initialised(void **state)
{
	uint8_t digest[AUTH_DIGEST_LEN] = { 0 };
	char *cred = NULL;
	uint32_t len;
	const char *why;
	uid_t uid;
	gid_t gid;

	assert_int_not_equal(auth_create(digest, &cred, &len), 0);
	assert_null(cred);
	assert_int_not_equal(auth_verify("x", 1, digest, &uid, &gid, &why), 0);
	assert_non_null(why);
}

/* ---- good plugins ---- */

static void test_load_builtin_path(void **state)
{
	char err[512] = "";
	plugin_handle_t *p = plugin_load("auth/munge", NULL, err, sizeof(err));

	assert_non_null(p);
	assert_string_equal(plugin_name(p), "auth/munge");
	assert_non_null(plugin_ops(p));
	plugin_unload(p);
	plugin_unload(NULL);
}

static void test_load_dir_list(void **state)
{
	char err[512] = "", *p = tmp_path("auth_munge.so");
	char *dirs = xstrdup_printf("/nonexistent:%s", tmpdir);
	plugin_handle_t *h;

	assert_int_equal(copy_file(SLUICE_BUILD_PLUGINDIR "/auth_munge.so", p), 0);
	h = plugin_load("auth/munge", dirs, err, sizeof(err));
	assert_non_null(h);
	plugin_unload(h);
	setenv("SLUICE_PLUGIN_DIR", tmpdir, 1);
	h = plugin_load("auth/munge", NULL, err, sizeof(err));
	assert_non_null(h);
	plugin_unload(h);
	unsetenv("SLUICE_PLUGIN_DIR");
	xfree(p);
	xfree(dirs);
}

/* ---- auth/munge through auth.h ---- */

static void test_auth_munge(void **state)
{
	const char *sock = munge_fixture_start();
	uint8_t digest[AUTH_DIGEST_LEN], other[AUTH_DIGEST_LEN];
	char *info, *cred = NULL, *bad;
	const char *why = NULL;
	uint32_t len = 0;
	uid_t uid = 12345;
	gid_t gid = 12345;

	if (!sock) {
		munge_fixture_stop();
		skip();
	}
	for (int i = 0; i < AUTH_DIGEST_LEN; i++) {
		digest[i] = (uint8_t)i;
		other[i] = (uint8_t)(i + 1);
	}
	assert_int_equal(auth_init("auth/munge", "ttl=x", NULL),
			 SLURM_ERROR);
	info = xstrdup_printf("ttl=60, socket=%s,use_client_ids", sock);
	assert_int_equal(auth_init("auth/munge", info, NULL), 0);
	assert_int_equal(auth_init("auth/munge", info, NULL), 0);   /* again */
	assert_int_equal(auth_init("auth/other", NULL, NULL),
			 ESLURM_INVALID_AUTHTYPE_CHANGE);

	assert_int_equal(auth_create(digest, &cred, &len), 0);
	assert_non_null(cred);
	assert_int_equal(len, strlen(cred));

	/* wrong digest, then the right one, then replayed */
	assert_int_equal(auth_verify(cred, len, other, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	assert_string_equal(why, "payload mismatch");
	xfree(cred);
	assert_int_equal(auth_create(digest, &cred, &len), 0);
	assert_int_equal(auth_verify(cred, len, digest, &uid, &gid, &why), 0);
	assert_int_equal(uid, getuid());
	assert_int_equal(gid, getgid());
	assert_int_equal(auth_verify(cred, len, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	assert_string_equal(why, "credential replayed");

	/* garbage, a truncated credential, an embedded NUL, nothing */
	assert_int_equal(auth_verify("MUNGE:garbage:", 14, digest, &uid, &gid,
				     &why), ESLURM_AUTH_CRED_INVALID);
	assert_non_null(why);
	assert_int_equal(auth_verify(cred, len / 2, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	bad = xstrdup(cred);
	bad[5] = '\0';
	assert_int_equal(auth_verify(bad, len, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	assert_int_equal(auth_verify(NULL, 0, digest, &uid, &gid, &why),
			 ESLURM_AUTH_CRED_INVALID);
	xfree(bad);
	xfree(cred);
	xfree(info);
	auth_fini();
	auth_fini();
	munge_fixture_stop();
}

static void test_auth_munge_no_daemon(void **state)
{
	uint8_t digest[AUTH_DIGEST_LEN] = { 0 };
	char *cred = NULL;
	uint32_t len = 0;

	assert_int_equal(auth_init("auth/munge", "socket=/nonexistent/sock",
				   NULL), 0);
	assert_int_equal(auth_create(digest, &cred, &len),
			 SLURM_PROTOCOL_AUTHENTICATION_ERROR);
	assert_null(cred);
	auth_fini();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_not_a_library),
		cmocka_unit_test(test_wrong_name),
		cmocka_unit_test(test_wrong_abi),
		cmocka_unit_test(test_auth_type_unknown),
		cmocka_unit_test(test_auth_not_initialised),
		cmocka_unit_test(test_load_builtin_path),
		cmocka_unit_test(test_load_dir_list),
		cmocka_unit_test(test_auth_munge),
		cmocka_unit_test(test_auth_munge_no_daemon),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
