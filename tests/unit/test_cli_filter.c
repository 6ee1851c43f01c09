/* test_cli_filter.c — cli_filter/user_defaults' lines of
 * ~/.slurm/defaults ("[<command>:][<cluster>:]<option> = <value>"):
 * lines that do not apply and bad ones first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../../src/cli/cli_filter_user_defaults.c"

typedef struct {
	const char *line;
	int         rc;
	const char *key, *value;   /* when rc is 1 */
} line_case_t;

static void test_lines(void **state)
{
	static const line_case_t cases[] = {
		{ "oracle:sbatch:partition = p2", -1, NULL, NULL },
		{ "", 0, NULL, NULL },
		{ "   ", 0, NULL, NULL },
		{ "# time = 10", 0, NULL, NULL },
		{ "partition p2", 0, NULL, NULL },
		{ "sbatch:partition = p2", 0, NULL, NULL },   /* cluster sbatch */
		{ "srun:*:partition = p2", 0, NULL, NULL },
		{ "a:b:c:partition = p2", 0, NULL, NULL },
		{ " = p2", 0, NULL, NULL },
		{ "partition = p2", 1, "partition", "p2" },
		{ "  time   =   1:00:00  \n", 1, "time", "1:00:00" },
		{ "partition = p2 # not a comment", 1, "partition",
		  "p2 # not a comment" },
		{ "c1:time = 5", 1, "time", "5" },
		{ "*:time = 5", 1, "time", "5" },
		{ "sbatch:c1:time = 5", 1, "time", "5" },
		{ "*:*:time = 5", 1, "time", "5" },
		{ "sbatch : c1 : time=5", 1, "time", "5" },
		{ "comment = a=b", 1, "comment", "a=b" },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char line[256], err[256] = "", *key = NULL, *value = NULL;
		int rc;

		strcpy(line, cases[i].line);
		rc = cli_filter_defaults_line(line, "sbatch", "c1", &key,
					      &value, err, sizeof(err));
		if (rc != cases[i].rc)
			fail_msg("\"%s\": %d, want %d", cases[i].line, rc,
				 cases[i].rc);
		if (rc == 1) {
			assert_string_equal(key, cases[i].key);
			assert_string_equal(value, cases[i].value);
		}
		if (rc < 0)
			assert_string_equal(err, "Unknown command \"oracle\"");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
