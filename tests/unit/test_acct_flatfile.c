/* test_acct_flatfile.c — the association flat file "sacctmgr load"
 * reads: what a good file turns into, and the line and reason of each
 * kind of bad file; an operation through ff_encode/ff_decode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/acct_flatfile.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static char *joined(char **list)
{
	char *out = xstrdup("");

	for (size_t i = 0; list && list[i]; i++)
		xstrfmtcat(&out, "%s%s", i ? "|" : "", list[i]);
	return out;
}

static void assert_list(char **list, const char *want)
{
	char *got = joined(list);

	assert_string_equal(got, want);
	xfree(got);
}

static void test_good_file(void **state)
{
	static const char text[] =
		"# a comment\n"
		"Cluster - 'Tux':Fairshare=1:QOS='normal'  # trailing\r\n"
		"\n"
		"Parent - 'root'\n"
		"User - 'root':DefaultAccount='root':AdminLevel='Administrator'"
		":Fairshare=1\n"
		"Account - \"Phys\":Description='a: b # c':Organization=sci:"
		"GrpNodes=3:MaxCPUsPerJob=2:MaxWall='1-02:03:04':Fairshare=parent\n"
		"Parent - 'phys'\n"
		"User - alice:Coordinator='phys,root':MaxTRES=mem=1024,cpu=2:"
		"QOS='Normal,high'";
	ff_file_t f;
	unsigned line = 99;
	char err[256];

	if (ff_parse(text, strlen(text), &f, &line, err, sizeof(err)))
		fail_msg("line %u: %s", line, err);
	assert_int_equal(f.n, 4);
	assert_int_equal(f.e[0].kind, FF_CLUSTER);
	assert_string_equal(f.e[0].name, "tux");
	assert_list(f.e[0].assoc_set, "fairshare=1|qos=normal");
	assert_int_equal(f.e[1].kind, FF_USER);
	assert_int_equal(f.e[1].line, 5);
	assert_string_equal(f.e[1].parent, "root");
	assert_list(f.e[1].entity_set,
		    "defaultaccount=root|adminlevel=Administrator");
	assert_int_equal(f.e[2].kind, FF_ACCOUNT);
	assert_string_equal(f.e[2].name, "phys");
	assert_list(f.e[2].entity_set,
		    "description=a: b # c|organization=sci");
	assert_list(f.e[2].assoc_set, "grptres=node=3|maxtres=cpu=2|"
		    "maxwall=1-02:03:04|fairshare=parent");
	assert_string_equal(f.e[3].parent, "phys");
	assert_list(f.e[3].coords, "phys|root");
	assert_list(f.e[3].assoc_set, "maxtres=cpu=2,mem=1G|"
		    "qos=normal,high");
	ff_free(&f);
}

static void bad(const char *text, unsigned want_line, const char *want)
{
	ff_file_t f;
	unsigned line = 99;
	char err[256];

	if (ff_parse(text, strlen(text), &f, &line, err, sizeof(err)) == 0)
		fail_msg("accepted: %s", text);
	assert_int_equal(line, want_line);
	if (!strstr(err, want))
		fail_msg("\"%s\" does not say \"%s\"", err, want);
	assert_int_equal(f.n, 0);
}

static void test_bad_files(void **state)
{
	bad("Parent - 'root'\nAccount - 'a'\n", 1, "'Cluster - $NAME'");
	bad("Cluster - 'c'\nAccount - 'a':Bogus=3\n", 2,
	    "Unknown option: Bogus=3");
	bad("Cluster - 'c'\nAccount 'a'\n", 2, "Bad format");
	bad("Cluster - 'c'\nAccount - 'a':MaxJobs=many\n", 2,
	    "Bad value for MaxJobs");
	bad("Cluster - 'c'\nAccount - 'a':MaxWall=soon\n", 2,
	    "Bad value for MaxWall");
	bad("Cluster - 'c'\nAccount - 'a':GrpTRES=cpu=x\n", 2,
	    "Bad value for GrpTRES");
	bad("Cluster - 'c'\nUser - 'u':AdminLevel=Boss\n", 2,
	    "Unknown AdminLevel: Boss");
	bad("Cluster - 'c'\nUser - 'u':Description='x'\n", 2,
	    "Unknown option: Description=x");
	bad("Cluster - 'c'\nParent - 'p'\nUser - 'u'\n", 2,
	    "Parent 'p' is not an account defined above");
	bad("Cluster - 'c'\nAccount - 'a'\nAccount - 'A'\n", 3,
	    "Account 'a' is defined twice");
	bad("Cluster - 'c'\nAccount - 'root'\n", 2, "defined twice");
	bad("Cluster - 'c'\nUser - 'u'\nUser - 'u'\n", 3,
	    "User 'u' is given twice under 'root'");
	bad("Cluster - 'c'\nCluster - 'd'\n", 2, "Only one Cluster");
	bad("Cluster - 'c'\nAccount - 'a':Description='open\n", 2,
	    "Unterminated quote");
	bad("Cluster - 'c'\nAccount - 'a b'\n", 2, "Bad name");
	bad("Cluster - 'c'\nAccount - 'a':Fairshare=1:Fairshare=2\n", 2,
	    "Fairshare given twice");
	bad("Cluster - 'c'\nWidget - 'a'\n", 2, "Unknown line type");
	bad("Cluster - 'c'\nParent - 'root':Fairshare=1\n", 2,
	    "takes no options");
	bad("Cluster - 'c'\nUser - 'u':QOS='a,,b'\n", 2, "Bad value for QOS");
	bad("# nothing\n\n", 0, "No cluster given");
	{
		static const char nul[] = "Cluster - 'c'\nAccount - 'a\0'\n";

		ff_file_t f;
		unsigned line;
		char err[256];

		assert_int_equal(ff_parse(nul, sizeof(nul) - 1, &f, &line,
					  err, sizeof(err)), -1);
		assert_int_equal(line, 2);
	}
}

static void test_encode_decode(void **state)
{
	char *names[] = { "alice", NULL };
	char *where[] = { "user=", "cluster=c", NULL };
	char *set[] = { "description=a: b", "fairshare=parent", NULL };
	dbd_acct_msg_t m = { .op = DBD_OP_MODIFY, .entity = DBD_ENT_ASSOC,
			     .names = names, .where = where, .set = set }, b;
	unsigned line = 0;
	char *s = ff_encode(17, &m);

	assert_int_equal(ff_decode(s, &line, &b), 0);
	assert_int_equal(line, 17);
	assert_int_equal(b.op, DBD_OP_MODIFY);
	assert_int_equal(b.entity, DBD_ENT_ASSOC);
	assert_list(b.names, "alice");
	assert_list(b.where, "user=|cluster=c");
	assert_list(b.set, "description=a: b|fairshare=parent");
	xstrarray_free(b.names);
	xstrarray_free(b.where);
	xstrarray_free(b.set);
	xfree(s);
	assert_int_equal(ff_decode("x", &line, &b), -1);
	assert_int_equal(ff_decode("1 2 3\x1fqbad", &line, &b), -1);
	assert_int_equal(ff_decode(NULL, &line, &b), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_encode_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
