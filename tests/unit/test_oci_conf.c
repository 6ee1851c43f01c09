/* test_oci_conf.c — oci.conf: bad lines name file:line, the rules between
 * keys name the file; a good file sets what it says.  Bundle paths with
 * ".." are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/oci_conf.h"

#define RUN "RunTimeRun=\"crun run --bundle %b %n.%u.%j.%s.%t\"\n"

static int parse(const char *text, oci_conf_t *c, char *err, size_t len)
{
	return oci_conf_parse_text(text, strlen(text), "oci.conf", c, err,
				   len);
}

static void test_bad(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{ RUN "OCIPattern=x\n",
		  "oci.conf:2: Parsing error at unrecognized key: OCIPattern" },
		{ "# c\n" RUN "RunTimeKill\n",
		  "oci.conf:3: Parsing error at unrecognized key: RunTimeKill" },
		{ RUN "RunTimeQuery=\"crun state\n",
		  "oci.conf:2: RunTimeQuery: unbalanced quotes" },
		{ RUN "RunTimeDelete=\n", "oci.conf:2: RunTimeDelete: no value" },
		{ RUN "CreateEnvFile=maybe\n",
		  "oci.conf:2: CreateEnvFile=maybe: null, newline or disabled expected" },
		{ RUN "EnvExclude=^(FOO\n",
		  "oci.conf:2: EnvExclude=^(FOO: not a valid regular expression" },
		{ RUN "EnvExclude=R+++++++++++++++\n",
		  "oci.conf:2: EnvExclude=R+++++++++++++++: repeated quantifier" },
		{ RUN "RunTimeEnvExclude=(a{300}){300}\n",
		  "oci.conf:2: RunTimeEnvExclude=(a{300}){300}: repetition bound over 255" },
		{ RUN "DisableHooks=prestart,launch\n",
		  "oci.conf:2: DisableHooks=prestart,launch: unknown hook type launch" },
		{ RUN "MountSpoolDir=run/slurm\n",
		  "oci.conf:2: MountSpoolDir=run/slurm: an absolute path expected" },
		{ "RunTimeQuery=\"crun state %n\"\n",
		  "oci.conf: RunTimeRun, or RunTimeCreate and RunTimeStart, must be set" },
		{ "RunTimeCreate=\"crun create\"\n",
		  "oci.conf: RunTimeRun, or RunTimeCreate and RunTimeStart, must be set" },
		{ RUN "RunTimeCreate=\"crun create\"\n",
		  "oci.conf: RunTimeRun is mutually exclusive with RunTimeCreate and RunTimeStart" },
		{ RUN "IgnoreFileConfigJson=true\n",
		  "oci.conf: IgnoreFileConfigJson=true is not supported: Sluice runs the bundle's config.json" },
	};
	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		oci_conf_t c;
		char err[256] = "";

		assert_int_equal(parse(cases[i].text, &c, err, sizeof(err)), -1);
		if (strcmp(err, cases[i].want))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err,
				 cases[i].want);
		assert_null(c.rt_run);
	}
}

static void test_good(void **state)
{
	const char *text =
		"# crun, as the containers guide shows\n"
		"RunTimeQuery=\"crun --rootless=true state %n.%u.%j.%s.%t\"\n"
		"runtimekill = \"crun kill -a %n.%u.%j.%s.%t\"  # case, blanks\n"
		"RunTimeDelete=\"crun delete --force %n.%u.%j.%s.%t\"\n"
		RUN
		"EnvExclude=\"^(SLURM_CONF|SLURM_CONF_SERVER)=\"\n"
		"CreateEnvFile=newline\n"
		"DisableHooks=prestart,poststop\n"
		"SrunArgs=--mpi=none\nSrunArgs=-v\n";
	oci_conf_t c;
	char err[256] = "";

	(void) state;
	assert_int_equal(parse(text, &c, err, sizeof(err)), 0);
	assert_string_equal(c.rt_run, "crun run --bundle %b %n.%u.%j.%s.%t");
	assert_string_equal(c.rt_kill, "crun kill -a %n.%u.%j.%s.%t");
	assert_string_equal(c.env_exclude, "^(SLURM_CONF|SLURM_CONF_SERVER)=");
	assert_int_equal(c.create_env_file, OCI_ENV_FILE_NEWLINE);
	assert_string_equal(c.mount_spool_dir, OCI_DEFAULT_MOUNT_SPOOL);
	assert_string_equal(c.srun_args, "--mpi=none\n-v");
	assert_non_null(strstr(c.notes, "oci.conf:10: SrunArgs has no effect"));
	oci_conf_free(&c);
}

/* The runc/crun pair of the containers guide, in place of RunTimeRun. */
static void test_create_start(void **state)
{
	const char *text =
		"RunTimeQuery=\"crun state %n.%u.%j.%s.%t\"\n"
		"RunTimeCreate=\"crun create --bundle %b %n.%u.%j.%s.%t\"\n"
		"RunTimeStart=\"crun start %n.%u.%j.%s.%t\"\n";
	oci_conf_t c;
	char err[256] = "";

	(void) state;
	assert_int_equal(parse(text, &c, err, sizeof(err)), 0);
	assert_null(c.rt_run);
	assert_string_equal(c.rt_create, "crun create --bundle %b %n.%u.%j.%s.%t");
	assert_string_equal(c.rt_start, "crun start %n.%u.%j.%s.%t");
	oci_conf_free(&c);
}

static void test_bundle_paths(void **state)
{
	static const char *const bad[] = {
		"bundle", "/a/../etc", "/a/..", "../x", "/a/b\n",
	};
	char why[128];

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(oci_bundle_path_check(bad[i], why,
						       sizeof(why)), -1);
	assert_int_equal(oci_bundle_path_check("/srv/b..x/..y", why,
					       sizeof(why)), 0);
	assert_int_equal(oci_bundle_path_check("/srv/bundle", why,
					       sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_create_start),
		cmocka_unit_test(test_bundle_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
