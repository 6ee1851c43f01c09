/* test_rest_ui.c — which /ui paths slurmrestd's web view serves.
 *
 * A scratch directory holds the files; beside it, a secret the paths try
 * to reach: by "..", encoded or not (the server decodes before asking),
 * hidden names, symlinks out of the directory, directories themselves.
 * Then the paths that must work: /ui, /ui/, a nested asset, a symlink that
 * stays inside.  And the Content-Types.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/restd/rest_ui.c"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char top[PATH_MAX], root[PATH_MAX + 8];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX * 2];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	assert_non_null(f = fopen(p, "w"));
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *target, const char *rel)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	char tmpl[] = "/tmp/test_rest_ui.XXXXXX", p[PATH_MAX * 2];

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(realpath(tmpl, top));
	snprintf(root, sizeof(root), "%s/www", top);
	assert_int_equal(mkdir(root, 0755), 0);
	snprintf(p, sizeof(p), "%s/assets", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/sub", root);
	assert_int_equal(mkdir(p, 0755), 0);
	put("secret", "secret\n");
	put("www/index.html", "<!doctype html>\n");
	put("www/.htpasswd", "hidden\n");
	put("www/assets/app-1234.js", "1\n");
	put("www/sub/index.html", "sub\n");
	link_to("../secret", "www/out");
	link_to("/etc/passwd", "www/passwd");
	link_to("..", "www/up");
	link_to("assets/app-1234.js", "www/app.js");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

/* ---- refused ---- */

static const char *const refused[] = {
	NULL,
	"",
	"/",
	"/uix",
	"/ui-x/index.html",
	"ui/index.html",
	"/api/ui/index.html",
	"/ui/..",
	"/ui/../secret",
	"/ui/../www/index.html",
	"/ui/assets/../../secret",
	"/ui/assets/..",
	"/ui/./index.html",
	"/ui/.htpasswd",
	"/ui/assets/.",
	"/ui//etc/passwd",
	"/ui/assets//app-1234.js",
	"/ui/..\\secret",
	"/ui/out",               /* symlink to a file outside */
	"/ui/passwd",            /* symlink to an absolute path outside */
	"/ui/up/secret",         /* through a symlinked directory outside */
	"/ui/assets",            /* a directory without an index */
	"/ui/assets/",
	"/ui/missing.js",
	"/ui/index.html/",
};

static void test_refused(void **state)
{
	char out[PATH_MAX];

	(void)state;
	for (size_t i = 0; i < N(refused); i++) {
		strcpy(out, "untouched");
		if (rest_ui_resolve(root, refused[i], out, sizeof(out)) != -1)
			fail_msg("served %s as %s", refused[i] ? refused[i] :
				 "(null)", out);
		assert_string_equal(out, "untouched");
	}
}

static void test_no_root(void **state)
{
	char out[PATH_MAX];

	(void)state;
	assert_int_equal(rest_ui_resolve(NULL, "/ui/", out, sizeof(out)), -1);
	assert_int_equal(rest_ui_resolve("", "/ui/", out, sizeof(out)), -1);
	/* too small for the answer */
	assert_int_equal(rest_ui_resolve(root, "/ui/", out, 4), -1);
	assert_false(rest_ui_match("/ui/"));    /* off by default */
	assert_int_equal(rest_ui_init(NULL), 0);
	assert_false(rest_ui_match("/ui/"));
	assert_int_equal(rest_ui_init("/nonexistent/dir"), -1);
	assert_false(rest_ui_match("/ui/"));
}

static void test_long_path(void **state)
{
	char out[PATH_MAX], *p = malloc(PATH_MAX * 2);

	(void)state;
	strcpy(p, "/ui/");
	memset(p + 4, 'a', PATH_MAX * 2 - 5);
	p[PATH_MAX * 2 - 1] = '\0';
	assert_int_equal(rest_ui_resolve(root, p, out, sizeof(out)), -1);
	free(p);
}

/* ---- served ---- */

static const struct {
	const char *path, *file;
} served[] = {
	{ "/ui", "www/index.html" },
	{ "/ui/", "www/index.html" },
	{ "/ui/index.html", "www/index.html" },
	{ "/ui/assets/app-1234.js", "www/assets/app-1234.js" },
	{ "/ui/sub/", "www/sub/index.html" },
	{ "/ui/app.js", "www/assets/app-1234.js" },  /* symlink inside */
};

static void test_served(void **state)
{
	char out[PATH_MAX], want[PATH_MAX * 2];

	(void)state;
	for (size_t i = 0; i < N(served); i++) {
		snprintf(want, sizeof(want), "%s/%s", top, served[i].file);
		if (rest_ui_resolve(root, served[i].path, out, sizeof(out)))
			fail_msg("refused %s", served[i].path);
		assert_string_equal(out, want);
	}
}

static void test_match(void **state)
{
	(void)state;
	assert_int_equal(rest_ui_init(root), 0);
	assert_true(rest_ui_match("/ui"));
	assert_true(rest_ui_match("/ui/"));
	assert_true(rest_ui_match("/ui/../x"));     /* then refused: 404 */
	assert_false(rest_ui_match("/uix"));
	assert_false(rest_ui_match("/slurm/v0.0.43/jobs"));
	assert_false(rest_ui_match("/openapi/v3"));
	rest_ui_fini();
	assert_false(rest_ui_match("/ui/"));
}

static void test_content_type(void **state)
{
	static const struct {
		const char *name, *type;
	} t[] = {
		{ "index.html", "text/html; charset=utf-8" },
		{ "a/b/app-1.JS", "text/javascript; charset=utf-8" },
		{ "x.css", "text/css; charset=utf-8" },
		{ "logo.svg", "image/svg+xml" },
		{ "shot.png", "image/png" },
		{ "noext", "application/octet-stream" },
		{ "dir.js/noext", "application/octet-stream" },
		{ "x.exe", "application/octet-stream" },
	};

	(void)state;
	for (size_t i = 0; i < N(t); i++)
		assert_string_equal(rest_ui_content_type(t[i].name), t[i].type);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_root),
		cmocka_unit_test(test_long_path),
		cmocka_unit_test(test_served),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_content_type),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
