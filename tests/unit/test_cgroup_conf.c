/* test_cgroup_conf.c — cgroup.conf: bad lines name file:line and leave
 * the defaults; good files set what they say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/cgroup_conf.h"

static int parse(const char *text, cgroup_conf_t *c, char *err, size_t len)
{
	return cgroup_conf_parse_text(text, strlen(text), "cg.conf", c, err,
				      len);
}

static void test_bad(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{ "ConstrainRAMSpace=maybe\n", "cg.conf:1: ConstrainRAMSpace=maybe: yes or no expected" },
		{ "\n# c\nNoSuchKey=1\n", "cg.conf:3: Parsing error at unrecognized key: NoSuchKey" },
		{ "ConstrainCores\n", "cg.conf:1: Parsing error at unrecognized key: ConstrainCores" },
		{ "AllowedRAMSpace=101\n", "cg.conf:1: AllowedRAMSpace=101: a percentage expected (0-100)" },
		{ "AllowedRAMSpace=-5\n", "cg.conf:1: AllowedRAMSpace=-5: a percentage expected (0-100)" },
		{ "AllowedRAMSpace=\n", "cg.conf:1: AllowedRAMSpace: no value" },
		{ "CgroupMountpoint=sys\n", "cg.conf:1: CgroupMountpoint=sys: an absolute path expected" },
		{ "CgroupPlugin=cgroup/v3\n", "cg.conf:1: CgroupPlugin=cgroup/v3: autodetect, cgroup/v1 or cgroup/v2 expected" },
		{ "MemorySwappiness=200\n", "cg.conf:1: MemorySwappiness=200: 0-100 expected" },
		{ "MinRAMSpace=lots\n", "cg.conf:1: MinRAMSpace=lots: a size in MB expected" },
		{ "ConstrainCores=yes\nConstrainRAMSpace=yes\nAllowedRAMSpace=1e999\n", "cg.conf:3: AllowedRAMSpace=1e999: a percentage expected (0-100)" },
	};
	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cgroup_conf_t c;
		char err[256] = "";

		assert_int_equal(parse(cases[i].text, &c, err, sizeof(err)), -1);
		assert_string_equal(err, cases[i].want);
		/* nothing of the bad file is kept */
		assert_false(c.constrain_cores);
		assert_false(c.constrain_ram);
		assert_true(c.allowed_ram == 100.0);
		cgroup_conf_free(&c);
	}
}

static void test_good(void **state)
{
	cgroup_conf_t c;
	char err[256] = "";
	const char *text =
		"# site cgroup.conf\n"
		"CgroupPlugin=cgroup/v1\n"
		"  constrainCores = YES   # spaces, case\n"
		"ConstrainRAMSpace=yes\n"
		"AllowedRAMSpace=95.5\n"
		"ConstrainSwapSpace=yes\n"
		"AllowedSwapSpace=10%\n"
		"ConstrainDevices=no\n"
		"MinRAMSpace=1G\n"
		"MemorySwappiness=0\n"
		"CgroupMountpoint=/cg\n"
		"ConstrainKmemSpace=no\n"
		"SignalChildrenProcesses=yes\n"
		"EnableControllers=yes\n"
		"SystemdTimeout=2000\n";

	(void) state;
	assert_int_equal(parse(text, &c, err, sizeof(err)), 0);
	assert_int_equal(c.plugin, CGROUP_PLUGIN_V1);
	assert_true(c.constrain_cores);
	assert_true(c.constrain_ram);
	assert_true(c.constrain_swap);
	assert_false(c.constrain_devices);
	assert_true(c.allowed_ram == 95.5);
	assert_true(c.allowed_swap == 10.0);
	assert_int_equal(c.min_ram_mb, 1024);
	assert_int_equal(c.swappiness, 0);
	assert_string_equal(c.mountpoint, "/cg");
	assert_true(c.signal_children);
	assert_true(c.enable_controllers);
	assert_int_equal(c.systemd_timeout, 2000);
	/* what is accepted without effect is said, with file and line */
	assert_string_equal(c.notes,
		"cg.conf:12: ConstrainKmemSpace has no effect: defunct in "
		"Slurm 25.05\n"
		"cg.conf:15: SystemdTimeout has no effect: slurmd makes its "
		"cgroups itself, never through systemd (as with "
		"IgnoreSystemd=yes)");
	cgroup_conf_free(&c);

	assert_int_equal(parse("", &c, err, sizeof(err)), 0);
	assert_string_equal(c.mountpoint, "/sys/fs/cgroup");
	assert_false(c.constrain_ram);
	assert_int_equal(c.swappiness, -1);
	assert_false(c.signal_children);
	assert_null(c.notes);
	cgroup_conf_free(&c);
}

static void test_missing_file(void **state)
{
	cgroup_conf_t c;
	char err[256] = "";

	(void) state;
	assert_int_equal(cgroup_conf_load("/nonexistent/cgroup.conf", &c, err,
					  sizeof(err)), 0);
	assert_false(c.constrain_ram);
	cgroup_conf_free(&c);
}

/* etc/cgroup.conf.example loads and says what its comments say. */
static void test_example(void **state)
{
	const char *dir = getenv("SLUICE_TEST_DATA");
	char path[4096], err[256] = "";
	cgroup_conf_t c;

	(void) state;
	snprintf(path, sizeof(path), "%s/../../../etc/cgroup.conf.example",
		 dir ? dir : "tests/unit/data");
	assert_int_equal(cgroup_conf_load(path, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(c.plugin, CGROUP_PLUGIN_AUTO);
	assert_true(c.constrain_cores);
	assert_true(c.constrain_ram);
	cgroup_conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
