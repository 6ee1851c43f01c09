/* test_job_container_conf.c — job_container.conf: bad lines name
 * file:line and give nothing; NodeName lines override for their nodes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/job_container_conf.h"
#include "common/xmalloc.h"

static int parse(const char *text, const char *node, jc_conf_t *c,
		 char *err, size_t len)
{
	return jc_conf_parse_text(text, strlen(text), "jc.conf", node, c, err,
				  len);
}

static void test_bad(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{ "BasePath=/var/jc\nNoSuchKey=1\n",
		  "jc.conf:2: Parsing error at unrecognized key: NoSuchKey" },
		{ "BasePath=/var/jc Bogus\n",
		  "jc.conf:1: Parsing error at unrecognized key: Bogus" },
		{ "BasePath=var/jc\n",
		  "jc.conf:1: BasePath=var/jc: an absolute path without \"..\" expected" },
		{ "BasePath=/var/../etc\n",
		  "jc.conf:1: BasePath=/var/../etc: an absolute path without \"..\" expected" },
		{ "BasePath=\n", "jc.conf:1: BasePath: no value" },
		{ "AutoBasePath=maybe\n",
		  "jc.conf:1: AutoBasePath=maybe: true or false expected" },
		{ "Dirs=/tmp,tmp2\n",
		  "jc.conf:1: Dirs=/tmp,tmp2: tmp2 is not an absolute path below / without \"..\"" },
		{ "Dirs=/tmp,/tmp/\n", "jc.conf:1: Dirs=/tmp,/tmp/: /tmp given twice" },
		{ "Dirs=/\n",
		  "jc.conf:1: Dirs=/: / is not an absolute path below / without \"..\"" },
		{ "Dirs=,\n",
		  "jc.conf:1: Dirs=,: a comma-separated list of paths expected" },
		{ "CloneNSScript_Wait=soon\n",
		  "jc.conf:1: CloneNSScript_Wait=soon: seconds (0-86400) expected" },
		/* a line for other nodes is checked too */
		{ "BasePath=/a\nNodeName=n9 Shared=perhaps\n",
		  "jc.conf:2: Shared=perhaps: true or false expected" },
		{ "NodeName=n[1-\n", "jc.conf:1: NodeName=n[1-: " },
		{ "NodeName=n1 NodeName=n2 BasePath=/a\n",
		  "jc.conf:1: NodeName given twice" },
		{ "BasePath=/tmp\n", "jc.conf: BasePath=/tmp is also in Dirs" },
	};
	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		jc_conf_t c;
		char err[256] = "";

		assert_int_equal(parse(cases[i].text, "n1", &c, err,
				       sizeof(err)), -1);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err,
				 cases[i].want);
		assert_null(c.base_path);
		assert_int_equal(c.dir_cnt, 0);
	}
}

static void test_defaults(void **state)
{
	jc_conf_t c;
	char err[256] = "";

	(void) state;
	assert_int_equal(parse("# tmpfs\nBasePath=/var/jc  # c\n", "n1", &c,
			       err, sizeof(err)), 0);
	assert_string_equal(c.base_path, "/var/jc");
	assert_true(jc_conf_active(&c));
	assert_false(c.auto_base_path);
	assert_false(c.shared);
	assert_int_equal(c.dir_cnt, 2);
	assert_string_equal(c.dirs[0], "/tmp");
	assert_string_equal(c.dirs[1], "/dev/shm");
	assert_int_equal(c.clone_script_wait, 10);
	assert_int_equal(c.clone_epilog_wait, 10);
	jc_conf_free(&c);
	/* no BasePath: off */
	assert_int_equal(parse("Shared=true\n", "n1", &c, err, sizeof(err)),
			 0);
	assert_false(jc_conf_active(&c));
	jc_conf_free(&c);
}

static void test_node_lines(void **state)
{
	const char *text =
		"AutoBasePath=true\n"
		"BasePath=/var/nvme/all dirs=/tmp,/var/tmp\n"
		"NodeName=big[1-2] basepath=/var/nvme/big InitScript=/etc/i.sh\n"
		"NodeName=gpu1 BasePath=none\n";
	jc_conf_t c;
	char err[256] = "", *bp;

	(void) state;
	assert_int_equal(parse(text, "big2", &c, err, sizeof(err)), 0);
	assert_string_equal(c.base_path, "/var/nvme/big");
	assert_string_equal(c.init_script, "/etc/i.sh");
	assert_true(c.auto_base_path);
	assert_int_equal(c.dir_cnt, 2);
	assert_string_equal(c.dirs[1], "/var/tmp");
	jc_conf_free(&c);
	assert_int_equal(parse(text, "n7", &c, err, sizeof(err)), 0);
	assert_string_equal(c.base_path, "/var/nvme/all");
	assert_null(c.init_script);
	jc_conf_free(&c);
	assert_int_equal(parse(text, "gpu1", &c, err, sizeof(err)), 0);
	assert_false(jc_conf_active(&c));
	jc_conf_free(&c);
	/* %n: the node's own directory */
	assert_int_equal(parse("BasePath=/b/%n/x\n", "n3", &c, err,
			       sizeof(err)), 0);
	bp = jc_conf_base_path(&c, "n3");
	assert_string_equal(bp, "/b/n3/x");
	xfree(bp);
	jc_conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_node_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
