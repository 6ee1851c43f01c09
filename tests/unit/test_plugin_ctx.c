/* test_plugin_ctx.c — plugin_ctx.h: built-in vs dlopen resolution, lists,
 * unknown names, type/ABI/ops-version mismatches, init that fails. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/plugin_ctx.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define T_OPS_VERSION 3

typedef struct {
	int (*answer)(void);
} t_ops_t;

static int answer_a(void) { return 1; }
static int answer_b(void) { return 2; }
static const t_ops_t ops_a = { answer_a }, ops_b = { answer_b };

static int init_calls, fini_calls;
static char order[16];

static int init_ok(char *err, size_t errlen)
{
	(void) err;
	(void) errlen;
	init_calls++;
	strcat(order, "i");
	return 0;
}

static int init_fails(char *err, size_t errlen)
{
	snprintf(err, errlen, "the key file is missing");
	return -1;
}

static void fini_count(void)
{
	fini_calls++;
	strcat(order, "f");
}

static const struct sluice_plugin plug_a = {
	.type = "t", .name = "a", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = T_OPS_VERSION, .ops = &ops_a,
	.init = init_ok, .fini = fini_count,
};
static const struct sluice_plugin plug_b = {
	.type = "t", .name = "b", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = T_OPS_VERSION, .ops = &ops_b,
	.init = init_ok, .fini = fini_count,
};
static const struct sluice_plugin plug_bad = {
	.type = "t", .name = "bad", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = T_OPS_VERSION, .ops = &ops_b, .init = init_fails,
};
static const struct sluice_plugin *const builtins[] = {
	&plug_a, &plug_b, &plug_bad, NULL
};
static const plugin_type_t one = {
	.type = "t", .key = "TType", .ops_version = T_OPS_VERSION,
	.builtins = builtins,
};
static const plugin_type_t many = {
	.type = "t", .key = "TPlugins", .ops_version = T_OPS_VERSION,
	.list = true, .builtins = builtins,
};

static char tmpdir[64];

static int group_setup(void **state)
{
	(void) state;
	strcpy(tmpdir, "/tmp/sluice-plugctx-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	char *cmd = xstrdup_printf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	(void) state;
	xfree(cmd);
	return rc == 0 ? 0 : -1;
}

/* Builds tmpdir/<file>.so exporting a descriptor; false without a
 * compiler (the test is then skipped). */
static bool build_so(const char *file, const char *type, const char *name,
		     unsigned abi, unsigned ops_version)
{
	char *src = xstrdup_printf("%s/%s.c", tmpdir, file);
	char *so = xstrdup_printf("%s/%s.so", tmpdir, file);
	char *cmd = xstrdup_printf("cc -shared -fPIC -I'%s' -o '%s' '%s' "
				   "2>/dev/null", SLUICE_SRC_DIR, so, src);
	FILE *f = fopen(src, "w");
	bool ok;

	assert_non_null(f);
	fprintf(f, "#include \"common/plugin.h\"\n"
		   "static int seven(void) { return 7; }\n"
		   "static const struct { int (*answer)(void); } ops = "
		   "{ seven };\n"
		   "const struct sluice_plugin sluice_plugin = {\n"
		   " .type = \"%s\", .name = \"%s\", .abi_version = %uu,\n"
		   " .ops_version = %uu, .ops = &ops };\n",
		type, name, abi, ops_version);
	fclose(f);
	ok = system(cmd) == 0;
	xfree(cmd);
	xfree(src);
	xfree(so);
	return ok;
}

static void test_builtin(void **state)
{
	char err[512] = "";
	plugin_ctx_t *c = plugin_ctx_create(&one, "t/a", "/nonexistent",
					    NULL, err, sizeof(err));

	(void) state;
	assert_non_null(c);
	assert_int_equal(plugin_ctx_count(c), 1);
	assert_ptr_equal(plugin_ctx_ops(c, 0), &ops_a);
	assert_true(plugin_ctx_builtin(c, 0));
	assert_string_equal(plugin_ctx_name(c, 0), "t/a");
	assert_string_equal(plugin_ctx_short_name(c, 0), "a");
	assert_null(plugin_ctx_ops(c, 1));
	plugin_ctx_destroy(c);
	/* a bare name is the same plugin */
	c = plugin_ctx_create(&one, " b ", NULL, NULL, err, sizeof(err));
	assert_non_null(c);
	assert_ptr_equal(plugin_ctx_ops(c, 0), &ops_b);
	plugin_ctx_destroy(c);
}

static void test_list_in_order(void **state)
{
	char err[512] = "";
	plugin_ctx_t *c = plugin_ctx_create(&many, "t/b,a", NULL, NULL, err,
					    sizeof(err));

	(void) state;
	assert_non_null(c);
	assert_int_equal(plugin_ctx_count(c), 2);
	assert_int_equal(((const t_ops_t *)plugin_ctx_ops(c, 0))->answer(), 2);
	assert_int_equal(((const t_ops_t *)plugin_ctx_ops(c, 1))->answer(), 1);
	assert_string_equal(plugin_ctx_names(c), "t/b,t/a");
	order[0] = '\0';
	fini_calls = 0;
	assert_int_equal(plugin_ctx_init(c, err, sizeof(err)), 0);
	plugin_ctx_destroy(c);
	assert_string_equal(order, "iiff");
	assert_int_equal(fini_calls, 2);
}

static void test_one_only(void **state)
{
	char err[512] = "";

	(void) state;
	assert_null(plugin_ctx_create(&one, "t/a,t/b", NULL, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "TType takes one plugin"));
	assert_null(plugin_ctx_create(&many, "a,t/a", NULL, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "t/a is listed twice"));
}

static void test_empty(void **state)
{
	char err[64] = "";
	plugin_ctx_t *c = plugin_ctx_create(&many, " , ", NULL, NULL, err,
					    sizeof(err));

	(void) state;
	assert_non_null(c);
	assert_int_equal(plugin_ctx_count(c), 0);
	assert_string_equal(plugin_ctx_names(c), "");
	assert_int_equal(plugin_ctx_init(c, err, sizeof(err)), 0);
	plugin_ctx_destroy(c);
	plugin_ctx_destroy(NULL);
	assert_int_equal(plugin_ctx_count(NULL), 0);
}

static void test_unknown(void **state)
{
	char err[1024] = "";

	(void) state;
	assert_null(plugin_ctx_create(&one, "t/zzz", tmpdir,
				      "/etc/slurm/slurm.conf:12", err,
				      sizeof(err)));
	assert_non_null(strstr(err, "/etc/slurm/slurm.conf:12: TType"));
	assert_non_null(strstr(err, "cannot create t context for t/zzz"));
	assert_non_null(strstr(err, "t_zzz.so"));
	assert_int_equal(plugin_ctx_check(&one, "t/zzz", tmpdir, NULL, err,
					  sizeof(err)), -1);
	assert_int_equal(plugin_ctx_check(&one, "t/a", tmpdir, NULL, err,
					  sizeof(err)), 0);
	/* another type's name, and names that are paths */
	assert_null(plugin_ctx_create(&one, "u/a", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "cannot create t context for u/a"));
	assert_non_null(strstr(err, "not a t plugin"));
	assert_null(plugin_ctx_create(&one, "t/../a", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "invalid plugin name"));
	assert_null(plugin_ctx_create(&one, "t/", tmpdir, NULL, err,
				      sizeof(err)));
	/* one bad name fails a whole list: nothing stays loaded */
	init_calls = 0;
	assert_null(plugin_ctx_create(&many, "a,zzz", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "t/zzz"));
	assert_int_equal(init_calls, 0);
}

static void test_dlopen(void **state)
{
	char err[1024] = "";
	plugin_ctx_t *c;

	(void) state;
	if (!build_so("t_ext", "t", "ext", SLUICE_PLUGIN_ABI, T_OPS_VERSION))
		skip();
	c = plugin_ctx_create(&many, "a,t/ext", tmpdir, NULL, err,
			      sizeof(err));
	assert_non_null(c);
	assert_int_equal(plugin_ctx_count(c), 2);
	assert_true(plugin_ctx_builtin(c, 0));
	assert_false(plugin_ctx_builtin(c, 1));
	assert_int_equal(((const t_ops_t *)plugin_ctx_ops(c, 1))->answer(), 7);
	plugin_ctx_destroy(c);
}

/* builtin_only: a .so of the right type, ABI and ops version is still
 * refused (the daemon would never call it). */
static void test_builtin_only(void **state)
{
	static const plugin_type_t fixed = {
		.type = "t", .key = "TFixed", .ops_version = T_OPS_VERSION,
		.builtins = builtins, .builtin_only = true,
	};
	static const plugin_type_t nothing = {
		.type = "t", .key = "TNone", .ops_version = T_OPS_VERSION,
		.builtin_only = true,
	};
	char err[1024] = "";
	plugin_ctx_t *c;

	(void) state;
	if (!build_so("t_ext", "t", "ext", SLUICE_PLUGIN_ABI, T_OPS_VERSION))
		skip();
	assert_null(plugin_ctx_create(&fixed, "t/ext", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "cannot create t context for t/ext"));
	assert_non_null(strstr(err, "not implemented by Sluice (which has "
				    "a, b, bad)"));
	assert_null(plugin_ctx_create(&nothing, "ext", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "(TNone must be unset)"));
	c = plugin_ctx_create(&fixed, "t/a", tmpdir, NULL, err, sizeof(err));
	assert_non_null(c);
	assert_true(plugin_ctx_builtin(c, 0));
	plugin_ctx_destroy(c);
	c = plugin_ctx_create(&nothing, "", tmpdir, NULL, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(plugin_ctx_count(c), 0);
	plugin_ctx_destroy(c);
}

static void test_dlopen_mismatch(void **state)
{
	char err[1024] = "";

	(void) state;
	if (!build_so("t_oldops", "t", "oldops", SLUICE_PLUGIN_ABI,
		      T_OPS_VERSION - 1) ||
	    !build_so("t_oldabi", "t", "oldabi", SLUICE_PLUGIN_ABI - 1,
		      T_OPS_VERSION) ||
	    !build_so("t_other", "u", "other", SLUICE_PLUGIN_ABI,
		      T_OPS_VERSION))
		skip();
	assert_null(plugin_ctx_create(&one, "t/oldops", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "cannot create t context for t/oldops"));
	assert_non_null(strstr(err, "ops version 2, this is 3"));
	assert_null(plugin_ctx_create(&one, "t/oldabi", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "cannot create t context for t/oldabi"));
	assert_non_null(strstr(err, "ABI"));
	assert_null(plugin_ctx_create(&one, "t/other", tmpdir, NULL, err,
				      sizeof(err)));
	assert_non_null(strstr(err, "calls itself u/other"));
}

static void test_init_fails(void **state)
{
	char err[1024] = "";
	plugin_ctx_t *c = plugin_ctx_create(&many, "a,bad,b", NULL, NULL, err,
					    sizeof(err));

	(void) state;
	assert_non_null(c);
	order[0] = '\0';
	assert_int_equal(plugin_ctx_init(c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot create t context for t/bad"));
	assert_non_null(strstr(err, "the key file is missing"));
	/* a was initialised and is finished again; b never started */
	assert_string_equal(order, "if");
	plugin_ctx_destroy(c);
	assert_string_equal(order, "if");
}

static void test_builtin_list(void **state)
{
	char *s = plugin_ctx_builtin_list(&one);

	(void) state;
	assert_string_equal(s, "a, b, bad");
	xfree(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin),
		cmocka_unit_test(test_list_in_order),
		cmocka_unit_test(test_one_only),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_dlopen),
		cmocka_unit_test(test_builtin_only),
		cmocka_unit_test(test_dlopen_mismatch),
		cmocka_unit_test(test_init_fails),
		cmocka_unit_test(test_builtin_list),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
