/* test_spank.c — plugstack.conf parsing, option env names, and an empty
 * stack (the SPANK host without plugins). */
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

#include "common/spank.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Lines that are not plugins are logged and skipped, as in Slurm: the
 * rest of the file still counts. */
static void test_conf_bad_lines_skipped(void **state)
{
	static const char *const bad[] = {
		"bogus /x.so\n",
		"\n\nrequired\n",
		"optional\n",
		"include\n",
		"include a b\n",
		"REQUIRE /b.so\n",
		"required /a\0.so\n",
	};
	static const char with_nul[] = "required /first.so\nrequired /a\0.so\n"
				       "optional /last.so\n";
	char err[256];
	spank_conf_t c;

	for (size_t i = 0; i < N(bad); i++) {
		char *text = xstrdup_printf("required /first.so\n%s"
					    "optional /last.so\n", bad[i]);
		size_t len = strlen(text);

		if (i == N(bad) - 1) {   /* the NUL case */
			xfree(text);
			text = xmalloc(sizeof(with_nul));
			memcpy(text, with_nul, sizeof(with_nul));
			len = sizeof(with_nul) - 1;
		}
		err[0] = '\0';
		assert_int_equal(spank_conf_parse_text(text, len, "p.conf",
						       "/pd", &c, err,
						       sizeof(err)), 0);
		if (i == N(bad) - 1) {
			/* the line is cut at the NUL: "required /a" */
			assert_int_equal(c.cnt, 3);
		} else {
			assert_int_equal(c.cnt, 2);
			assert_string_equal(c.ent[1].path, "/last.so");
			assert_int_equal(c.ent[1].line, 3 + (i == 1 ? 2 : 0));
		}
		assert_string_equal(c.ent[0].path, "/first.so");
		spank_conf_free(&c);
		xfree(text);
	}
}

static void test_conf_good(void **state)
{
	const char *text =
		"# site plugins\n"
		"\n"
		"required /usr/lib/a.so arg1 arg2  # trailing comment\n"
		"  optional\trel/b.so\n"
		"Required /c.so x=1\n"
		"include /nonexistent-dir-h10/*.conf\n";
	char err[256] = "";
	spank_conf_t c;

	assert_int_equal(spank_conf_parse_text(text, strlen(text), "p.conf",
					       "/pd1:/pd2", &c, err,
					       sizeof(err)), 0);
	assert_int_equal(c.cnt, 3);
	assert_true(c.ent[0].required);
	assert_string_equal(c.ent[0].path, "/usr/lib/a.so");
	assert_int_equal(c.ent[0].argc, 2);
	assert_string_equal(c.ent[0].argv[0], "arg1");
	assert_string_equal(c.ent[0].argv[1], "arg2");
	assert_null(c.ent[0].argv[2]);
	assert_int_equal(c.ent[0].line, 3);
	assert_false(c.ent[1].required);
	/* not found in PluginDir: the first directory */
	assert_string_equal(c.ent[1].path, "/pd1/rel/b.so");
	assert_int_equal(c.ent[1].argc, 0);
	assert_non_null(c.ent[1].argv);
	assert_null(c.ent[1].argv[0]);
	assert_true(c.ent[2].required);
	assert_string_equal(c.ent[2].argv[0], "x=1");
	spank_conf_free(&c);
	assert_int_equal(c.cnt, 0);
}

static char *make_dir(void)
{
	char tmpl[] = "/tmp/test_spank_XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_conf_include_and_plugindir(void **state)
{
	char *dir = make_dir(), *p, *main_conf, *sub;
	char err[256] = "";
	spank_conf_t c;

	sub = xstrdup_printf("%s/plugstack.conf.d", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	p = xstrdup_printf("%s/b.conf", sub);
	write_file(p, "optional found.so\n");
	xfree(p);
	p = xstrdup_printf("%s/a.conf", sub);
	write_file(p, "required /a.so\n");
	xfree(p);
	p = xstrdup_printf("%s/found.so", dir);
	write_file(p, "");
	xfree(p);
	main_conf = xstrdup_printf("%s/plugstack.conf", dir);
	write_file(main_conf, "required /first.so\n"
		   "include plugstack.conf.d/*.conf\n");
	p = xstrdup_printf("/nowhere:%s", dir);
	assert_int_equal(spank_conf_parse_file(main_conf, p, &c, err,
					       sizeof(err)), 0);
	assert_int_equal(c.cnt, 3);
	assert_string_equal(c.ent[0].path, "/first.so");
	assert_string_equal(c.ent[1].path, "/a.so");     /* glob is sorted */
	xfree(p);
	p = xstrdup_printf("%s/found.so", dir);
	assert_string_equal(c.ent[2].path, p);           /* 2nd PluginDir */
	assert_false(c.ent[2].required);
	xfree(p);
	spank_conf_free(&c);

	/* an include that includes itself stops at the depth limit */
	write_file(main_conf, "include plugstack.conf\n");
	assert_int_equal(spank_conf_parse_file(main_conf, NULL, &c, err,
					       sizeof(err)), -1);
	assert_non_null(strstr(err, "nested too deep"));

	/* a missing file is an empty stack */
	p = xstrdup_printf("%s/none.conf", dir);
	assert_int_equal(spank_conf_parse_file(p, NULL, &c, err,
					       sizeof(err)), 0);
	assert_int_equal(c.cnt, 0);
	xfree(p);
	p = xstrdup_printf("rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	xfree(p);
	xfree(sub);
	xfree(main_conf);
	xfree(dir);
}

static void test_option_env_name(void **state)
{
	static const struct {
		const char *plugin, *opt, *want;
	} cases[] = {
		{ "pyxis", "container-image",
		  "_SLURM_SPANK_OPTION_pyxis_container_image" },
		{ "demo_spank", "demo-opt",
		  "_SLURM_SPANK_OPTION_demo_spank_demo_opt" },
		{ "x.y", "a+b=c", "_SLURM_SPANK_OPTION_x_y_a_b_c" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		char *n = spank_option_env_name(cases[i].plugin, cases[i].opt);

		assert_string_equal(n, cases[i].want);
		xfree(n);
	}
}

static void test_empty_stack(void **state)
{
	spank_stack_t *s = spank_stack_create(S_CTX_ALLOCATOR, NULL, NULL,
					      NULL);
	char **env;

	assert_non_null(s);
	assert_int_equal(spank_stack_plugin_count(s), 0);
	assert_int_equal(spank_stack_call(s, SPANK_CB_INIT, NULL, NULL), 0);
	assert_int_equal(spank_stack_option_count(s), 0);
	assert_int_equal(spank_stack_option_apply(s, 0, "x", 3), -1);
	env = spank_stack_job_env(s, NULL);
	assert_null(env[0]);
	xstrarray_free(env);
	assert_int_equal(spank_context(), S_CTX_ALLOCATOR);
	spank_stack_destroy(s);
	assert_int_equal(spank_context(), S_CTX_ERROR);
	/* NULL stacks are empty stacks */
	assert_int_equal(spank_stack_call(NULL, SPANK_CB_EXIT, NULL, NULL), 0);
	assert_int_equal(spank_stack_option_count(NULL), 0);
}

static void test_api_bad_handles(void **state)
{
	char buf[8];

	assert_int_equal(spank_getenv(NULL, "X", buf, sizeof(buf)),
			 ESPANK_BAD_ARG);
	assert_int_equal(spank_setenv(NULL, "X", "y", 1), ESPANK_BAD_ARG);
	assert_int_equal(spank_get_item(NULL, S_JOB_ID, NULL), ESPANK_BAD_ARG);
	assert_int_equal(spank_remote(NULL), -1);
	assert_int_equal(spank_symbol_supported(NULL), -1);
	assert_int_equal(spank_symbol_supported("slurm_spank_task_init"), 1);
	assert_int_equal(spank_symbol_supported("spank_prepend_task_argv"), 1);
	assert_int_equal(spank_symbol_supported("no_such_thing"), 0);
	assert_string_equal(spank_strerror(ESPANK_ENV_EXISTS),
			    "Environment variable exists");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_bad_lines_skipped),
		cmocka_unit_test(test_conf_good),
		cmocka_unit_test(test_conf_include_and_plugindir),
		cmocka_unit_test(test_option_env_name),
		cmocka_unit_test(test_empty_stack),
		cmocka_unit_test(test_api_bad_handles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
