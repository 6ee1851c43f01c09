/* test_hostlist.c — hostlist expressions: malformed input first, then
 * expansion, compression, sorting, de-duplication and scale.  Expected
 * outputs were checked against Slurm's `scontrol show hostnames/hostlist/
 * hostlistsorted`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "common/hostlist.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_malformed(void **state)
{
	static const struct {
		const char *expr, *err;
	} cases[] = {
		{ "n[", "Invalid hostlist: n[" },
		{ "n[1-2", "Invalid hostlist: n[1-2" },
		{ "n]", "Invalid hostlist: n]" },
		{ "n1],n2", "Invalid hostlist: n1]" },
		{ "n[[1-2]]", "Invalid hostlist: n[[1-2]]" },
		{ "n[3-1]", "Invalid range: `3-1'" },
		{ "n[a-b]", "Invalid range: `a-b'" },
		{ "n[1-2x]", "Invalid range: `1-2x'" },
		{ "n[-1]", "Invalid range: `-1'" },
		{ "n[1-]", "Invalid range: `1-'" },
		{ "n[1-2-3]", "Invalid range: `1-2-3'" },
		{ "n[1-3:2]", "Invalid range: `1-3:2'" },	/* no steps */
		{ "n[]", "Invalid range: `'" },
		{ "n[1-3,]", "Invalid range: `'" },
		{ "n[,1]", "Invalid range: `'" },
		{ "n[1,,2]", "Invalid range: `'" },
		{ "n[1 2]", "Invalid range: `1 2'" },
		{ "n[1234567890123456789]", "Invalid range: `1234567890123456789'" },
		{ "n[0-99999999]", "Too many hosts in range `0-99999999'" },
		{ "n[0-1048576]", "Too many hosts in range `0-1048576'" },
		{ "a[0-2000]b[0-2000]", "Too many hosts in hostlist `a[0-2000]b[0-2000]'" },
		{ "ok1,bad[2-1],ok3", "Invalid range: `2-1'" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		char err[128] = "";
		hostlist_t *hl = hostlist_parse(cases[i].expr, err, sizeof(err));

		if (hl)
			fail_msg("accepted \"%s\"", cases[i].expr);
		if (strcmp(err, cases[i].err))
			fail_msg("\"%s\": err \"%s\", want \"%s\"",
				 cases[i].expr, err, cases[i].err);
	}
	assert_null(hostlist_parse(NULL, NULL, 0));
}

static void test_push_failure_leaves_list(void **state)
{
	hostlist_t *hl = hostlist_parse("a1,a2", NULL, 0);
	char err[64];
	char *s;

	assert_int_equal(hostlist_push(hl, "b1,b[2-3],c[5-4]", err, sizeof(err)), -1);
	assert_int_equal(hostlist_count(hl), 2);
	s = hostlist_ranged(hl);
	assert_string_equal(s, "a[1-2]");
	xfree(s);
	assert_int_equal(hostlist_push(hl, "b[1-2]", err, sizeof(err)), 0);
	assert_int_equal(hostlist_count(hl), 4);
	hostlist_destroy(hl);
}

/* expression -> hosts (space separated) -> hostlist_ranged() */
static const struct {
	const char *expr, *hosts, *ranged;
} good[] = {
	{ "", "", "" },
	{ "n1", "n1", "n1" },
	{ "n1,n2,n3,n5", "n1 n2 n3 n5", "n[1-3,5]" },
	{ "n3,n1,n2", "n3 n1 n2", "n[3,1-2]" },
	{ "n1,,n2", "n1 n2", "n[1-2]" },
	{ " n1 n2\tn3\n", "n1 n2 n3", "n[1-3]" },
	{ "n[0-5] n6", "n0 n1 n2 n3 n4 n5 n6", "n[0-6]" },
	{ "n[1-3,5]", "n1 n2 n3 n5", "n[1-3,5]" },
	{ "n[01-03,07]", "n01 n02 n03 n07", "n[01-03,07]" },
	{ "lx[0001-0003,0005]", "lx0001 lx0002 lx0003 lx0005", "lx[0001-0003,0005]" },
	{ "n[8-10]", "n8 n9 n10", "n[8-10]" },
	{ "n[09-11]", "n09 n10 n11", "n[09-11]" },
	{ "n[098-101]", "n098 n099 n100 n101", "n[098-101]" },
	{ "n[001-2]", "n001 n002", "n[001-002]" },
	{ "n[1-002]", "n1 n2", "n[1-2]" },
	{ "n1,n01,n001", "n1 n01 n001", "n[1,01,001]" },
	{ "n9,n10,n11", "n9 n10 n11", "n[9-11]" },
	{ "n099,n100", "n099 n100", "n[099-100]" },
	{ "n01,n02,n3", "n01 n02 n3", "n[01-02,3]" },
	{ "n01,n1,n02,n2", "n01 n1 n02 n2", "n[01,1,02,2]" },
	{ "n[01-02],n[1-2]", "n01 n02 n1 n2", "n[01-02,1-2]" },
	{ "n[9-11],n012", "n9 n10 n11 n012", "n[9-11,012]" },
	{ "n00,n0", "n00 n0", "n[00,0]" },
	{ "n1,n1,n2", "n1 n1 n2", "n[1,1-2]" },
	{ "n[1-3],n[2-4]", "n1 n2 n3 n2 n3 n4", "n[1-3,2-4]" },
	{ "x10,x9", "x10 x9", "x[10,9]" },
	{ "1,3,4,5", "1 3 4 5", "[1,3-5]" },
	{ "[1,3-5]", "1 3 4 5", "[1,3-5]" },
	{ "foo,bar,n1", "foo bar n1", "foo,bar,n1" },
	{ "h,h", "h h", "h,h" },
	{ "a10b,a11b", "a10b a11b", "a10b,a11b" },
	{ "n-1,n-2", "n-1 n-2", "n-[1-2]" },
	{ "x[1]", "x1", "x1" },
	{ "a1b3,a1b4,a2b3,a2b4", "a1b3 a1b4 a2b3 a2b4", "a1b[3-4],a2b[3-4]" },
	{ "a[1-2]b[3-4]", "a1b3 a1b4 a2b3 a2b4", "a1b[3-4],a2b[3-4]" },
	{ "r[1-2]n[01-02]", "r1n01 r1n02 r2n01 r2n02", "r1n[01-02],r2n[01-02]" },
	{ "n[1-2][3-4]", "n13 n14 n23 n24", "n1[3-4],n2[3-4]" },
	{ "n[1-2][3-4],n25", "n13 n14 n23 n24 n25", "n1[3-4],n2[3-4],n25" },
	{ "n1[2-3],n14", "n12 n13 n14", "n1[2-3],n14" },
	{ "n12,n1[3-4]", "n12 n13 n14", "n12,n1[3-4]" },
	{ "n1[09-10]", "n109 n110", "n1[09-10]" },
	{ "n[1-2]-ib", "n1-ib n2-ib", "n1-ib,n2-ib" },
	{ "r[1-2]n[1-2]x", "r1n1x r1n2x r2n1x r2n2x", "r1n1x,r1n2x,r2n1x,r2n2x" },
	/* three or more groups: the last turns fastest, then the first,
	 * then the second...  (Slurm 22.05's scontrol show hostnames) */
	{ "row[0,1]_rack[2-3]_blade[4,5]",
	  "row0_rack2_blade4 row0_rack2_blade5 row1_rack2_blade4 "
	  "row1_rack2_blade5 row0_rack3_blade4 row0_rack3_blade5 "
	  "row1_rack3_blade4 row1_rack3_blade5",
	  "row0_rack2_blade[4-5],row1_rack2_blade[4-5],"
	  "row0_rack3_blade[4-5],row1_rack3_blade[4-5]" },
	{ "a[1-3]b[4-5]c[6-7]",
	  "a1b4c6 a1b4c7 a2b4c6 a2b4c7 a3b4c6 a3b4c7 "
	  "a1b5c6 a1b5c7 a2b5c6 a2b5c7 a3b5c6 a3b5c7",
	  "a1b4c[6-7],a2b4c[6-7],a3b4c[6-7],a1b5c[6-7],a2b5c[6-7],a3b5c[6-7]" },
	{ "a[1-2]b[3-4]c[5-6]d[7-8]",
	  "a1b3c5d7 a1b3c5d8 a2b3c5d7 a2b3c5d8 a1b4c5d7 a1b4c5d8 a2b4c5d7 "
	  "a2b4c5d8 a1b3c6d7 a1b3c6d8 a2b3c6d7 a2b3c6d8 a1b4c6d7 a1b4c6d8 "
	  "a2b4c6d7 a2b4c6d8",
	  "a1b3c5d[7-8],a2b3c5d[7-8],a1b4c5d[7-8],a2b4c5d[7-8],"
	  "a1b3c6d[7-8],a2b3c6d[7-8],a1b4c6d[7-8],a2b4c6d[7-8]" },
};

static void test_expand_and_compress(void **state)
{
	for (size_t i = 0; i < N(good); i++) {
		char err[128] = "";
		hostlist_t *hl = hostlist_parse(good[i].expr, err, sizeof(err));
		char *ranged, *der, *want;

		if (!hl)
			fail_msg("rejected \"%s\": %s", good[i].expr, err);
		der = hostlist_deranged(hl);
		want = xstrdup(good[i].hosts);
		for (char *p = want; *p; p++)
			if (*p == ' ')
				*p = ',';
		if (strcmp(der, want))
			fail_msg("\"%s\" -> %s, want %s", good[i].expr, der, want);
		ranged = hostlist_ranged(hl);
		if (strcmp(ranged, good[i].ranged))
			fail_msg("\"%s\" ranged %s, want %s", good[i].expr,
				 ranged, good[i].ranged);
		xfree(der);
		xfree(want);
		xfree(ranged);
		hostlist_destroy(hl);
	}
}

/* Parsing a compressed form gives back the same hosts in the same order. */
static void test_round_trip(void **state)
{
	for (size_t i = 0; i < N(good); i++) {
		hostlist_t *a = hostlist_parse(good[i].expr, NULL, 0);
		char *r = hostlist_ranged(a);
		hostlist_t *b = hostlist_parse(r, NULL, 0);
		char *da = hostlist_deranged(a), *db;

		assert_non_null(b);
		db = hostlist_deranged(b);
		if (strcmp(da, db))
			fail_msg("\"%s\" -> %s -> %s", good[i].expr, r, db);
		xfree(r);
		xfree(da);
		xfree(db);
		hostlist_destroy(a);
		hostlist_destroy(b);
	}
}

static void test_sort_uniq(void **state)
{
	static const struct {
		const char *expr, *sorted, *uniq;
	} cases[] = {
		{ "n3,n1,n2", "n[1-3]", "n[1-3]" },
		{ "n1,n1,n2", "n[1,1-2]", "n[1-2]" },
		{ "n01,n02,n3", "n[3,01-02]", "n[3,01-02]" },
		{ "n10,n9,n099,n100,n1,n01", "n[1,9,01,10,099-100]", "n[1,9,01,10,099-100]" },
		{ "b1,a2,a1,c", "a[1-2],b1,c", "a[1-2],b1,c" },
		{ "n,n1,m", "m,n,n1", "m,n,n1" },
		{ "n12,n1[3-4],n11", "n[11-12],n1[3-4]", "n[11-12],n1[3-4]" },
		{ "x10,x9,x02,x1,x001", "x[1,9,02,10,001]", "x[1,9,02,10,001]" },
		{ "n[5-1000],n[1-10]", NULL, "n[1-1000]" },
		{ "c,b,a,b,c,a", "a,a,b,b,c,c", "a,b,c" },
		{ "n12,n1[2-3],n11,n12", NULL, "n[11-12],n13" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		hostlist_t *hl = hostlist_parse(cases[i].expr, NULL, 0);
		char *s;

		hostlist_sort(hl);
		s = hostlist_ranged(hl);
		if (cases[i].sorted && strcmp(s, cases[i].sorted))
			fail_msg("sort \"%s\" -> %s", cases[i].expr, s);
		xfree(s);
		hostlist_uniq(hl);
		s = hostlist_ranged(hl);
		if (strcmp(s, cases[i].uniq))
			fail_msg("uniq \"%s\" -> %s", cases[i].expr, s);
		xfree(s);
		hostlist_destroy(hl);
	}
}

static void test_api(void **state)
{
	hostlist_t *hl = hostlist_create();
	hostlist_t *c;
	char *s;

	assert_int_equal(hostlist_count(hl), 0);
	assert_null(hostlist_nth(hl, 0));
	s = hostlist_ranged(hl);
	assert_string_equal(s, "");
	xfree(s);
	hostlist_push_host(hl, "n2");
	hostlist_push_host(hl, "n3");
	assert_int_equal(hostlist_push(hl, "n[4-5]", NULL, 0), 0);
	hostlist_push_host(hl, "n1");
	assert_int_equal(hostlist_find(hl, "n4"), 2);
	assert_int_equal(hostlist_find(hl, "n9"), -1);
	assert_string_equal(hostlist_nth(hl, 4), "n1");
	c = hostlist_copy(hl);
	assert_true(hostlist_delete_host(hl, "n3"));
	assert_false(hostlist_delete_host(hl, "n3"));
	s = hostlist_ranged(hl);
	assert_string_equal(s, "n[2,4-5,1]");
	xfree(s);
	s = hostlist_ranged(c);
	assert_string_equal(s, "n[2-5,1]");
	xfree(s);
	hostlist_destroy(c);
	hostlist_destroy(hl);
	hostlist_destroy(NULL);

	s = hostlist_compress_expr("n1,n2,n3", NULL, 0);
	assert_string_equal(s, "n[1-3]");
	xfree(s);
	assert_null(hostlist_compress_expr("n[", NULL, 0));
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 100k hosts: parse, compress, sort, uniq stay well under a second each
 * (quadratic code would take minutes). */
static void test_large(void **state)
{
	double t0 = now_sec();
	hostlist_t *hl = hostlist_parse("n[000000-099999]", NULL, 0);
	char *s;

	assert_non_null(hl);
	assert_int_equal(hostlist_count(hl), 100000);
	assert_string_equal(hostlist_nth(hl, 99999), "n099999");
	s = hostlist_ranged(hl);
	assert_string_equal(s, "n[000000-099999]");
	xfree(s);
	assert_int_equal(hostlist_push(hl, "n[000000-099999:2]", NULL, 0), -1);
	/* reverse order, every other host duplicated */
	for (long i = 99999; i >= 0; i -= 2) {
		char name[32];

		snprintf(name, sizeof(name), "n%06ld", i);
		hostlist_push_host(hl, name);
	}
	hostlist_uniq(hl);
	assert_int_equal(hostlist_count(hl), 100000);
	s = hostlist_ranged(hl);
	assert_string_equal(s, "n[000000-099999]");
	xfree(s);
	hostlist_destroy(hl);

	hl = hostlist_parse("n[0-1048575]", NULL, 0);	/* exactly the cap */
	assert_non_null(hl);
	assert_int_equal(hostlist_count(hl), HOSTLIST_MAX_HOSTS);
	hostlist_destroy(hl);
	if (now_sec() - t0 > 20)
		fail_msg("large lists took %.1f s", now_sec() - t0);
}

/* A bounded parse refuses past max before building names, across items. */
static void test_parse_max(void **state)
{
	char err[128];
	hostlist_t *hl = hostlist_parse_max("n[1-4],m1", 5, err, sizeof(err));

	(void)state;
	assert_non_null(hl);
	assert_int_equal(hostlist_count(hl), 5);
	hostlist_destroy(hl);
	assert_null(hostlist_parse_max("n[1-4],m[1-2]", 5, err, sizeof(err)));
	assert_string_equal(err, "Too many hosts in hostlist `m[1-2]'");
	assert_null(hostlist_parse_max("n[1-4],m1,x", 5, err, sizeof(err)));
	assert_string_equal(err, "Too many hosts in hostlist `x'");
	assert_null(hostlist_parse_max("a[1-1000][1-1000]", 2048, err,
				       sizeof(err)));
	/* a max above the global cap is the global cap */
	assert_null(hostlist_parse_max("n[0-1048576]", (size_t)-1, err,
				       sizeof(err)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_push_failure_leaves_list),
		cmocka_unit_test(test_expand_and_compress),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_sort_uniq),
		cmocka_unit_test(test_api),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_parse_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
