/* test_fairtree.c — the Fair Tree algorithm on synthetic trees: LevelFS
 * per sibling set, ranks by the depth-first walk, ties (users, a user
 * and an account, merged accounts), zero usage, zero shares and
 * Fairshare=parent. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ctld/fairtree.c"

#define P FAIRTREE_SHARES_PARENT
#define EPS 1e-9

/* One line of a tree: name, parent name ("" = root), user?, shares,
 * own usage (an account's usage is summed from below). */
typedef struct {
	const char *name;
	const char *parent;
	bool        user;
	uint32_t    shares;
	double      own;
} spec_t;

static ft_node_t tree[32];
static size_t ntree;

static int find(const spec_t *s, size_t n, const char *name, bool acct)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].name, name) && (!acct || !s[i].user))
			return (int)i;
	return -1;
}

static void build(const spec_t *s, size_t n)
{
	memset(tree, 0, sizeof(tree));
	ntree = n;
	for (size_t i = 0; i < n; i++) {
		tree[i].name = s[i].name;
		tree[i].user = s[i].user;
		tree[i].shares = s[i].shares;
		tree[i].parent = s[i].parent[0] ?
			find(s, n, s[i].parent, true) : -1;
	}
	for (size_t i = 0; i < n; i++)
		for (int p = (int)i; p >= 0; p = tree[p].parent)
			tree[p].usage += s[i].own;
	fairtree_calc(tree, ntree);
}

static const ft_node_t *node(const char *name, bool user)
{
	for (size_t i = 0; i < ntree; i++)
		if (!strcmp(tree[i].name, name) && tree[i].user == user)
			return &tree[i];
	fail_msg("no %s", name);
	return NULL;
}

static double fs(const char *user)
{
	return node(user, true)->factor;
}

static void test_basic_order(void **state)
{
	static const spec_t s[] = {
		{ "root", "", false, 1, 0 },
		{ "root", "root", true, 1, 0 },
		{ "x", "root", false, 1, 0 },
		{ "y", "root", false, 1, 0 },
		{ "x1", "x", true, 1, 80 },
		{ "x2", "x", true, 1, 0 },
		{ "y1", "y", true, 1, 20 },
		{ "y2", "y", true, 1, 0 },
	};

	build(s, sizeof(s) / sizeof(s[0]));
	/* LevelFS among root's children: S = 1/3 each */
	assert_true(isinf(node("root", true)->level_fs));
	assert_true(fabs(node("x", false)->norm_shares - 1.0 / 3) < EPS);
	assert_true(fabs(node("x", false)->eff_usage - 0.8) < EPS);
	assert_true(fabs(node("x", false)->level_fs - (1.0 / 3) / 0.8) <
		    EPS);
	assert_true(fabs(node("y", false)->level_fs - (1.0 / 3) / 0.2) <
		    EPS);
	/* within y: S = 0.5, y1 used all of y's usage */
	assert_true(fabs(node("y1", true)->eff_usage - 1.0) < EPS);
	assert_true(fabs(node("y1", true)->level_fs - 0.5) < EPS);
	/* every user of y (the less used account) above every user of x */
	assert_true(fabs(fs("root") - 5.0 / 5) < EPS);
	assert_true(fabs(fs("y2") - 4.0 / 5) < EPS);
	assert_true(fabs(fs("y1") - 3.0 / 5) < EPS);
	assert_true(fabs(fs("x2") - 2.0 / 5) < EPS);
	assert_true(fabs(fs("x1") - 1.0 / 5) < EPS);
	/* the root: NormShares 0, EffectvUsage 1, no LevelFS or factor */
	assert_true(node("root", false)->norm_shares == 0);
	assert_true(node("root", false)->eff_usage == 1.0);
	assert_true(isnan(node("root", false)->level_fs));
	assert_true(isnan(node("x", false)->factor));
}

static void test_zero_usage_all_tied(void **state)
{
	static const spec_t s[] = {
		{ "root", "", false, 1, 0 },
		{ "a", "root", false, 3, 0 },
		{ "b", "root", false, 1, 0 },
		{ "a1", "a", true, 1, 0 },
		{ "a2", "a", true, 5, 0 },
		{ "b1", "b", true, 1, 0 },
	};

	build(s, sizeof(s) / sizeof(s[0]));
	for (size_t i = 0; i < ntree; i++) {
		if (tree[i].parent >= 0)
			assert_true(isinf(tree[i].level_fs));
		if (tree[i].user)
			assert_true(tree[i].factor == 1.0);
	}
	assert_true(fabs(node("a", false)->norm_shares - 0.75) < EPS);
	assert_true(fabs(node("a2", true)->norm_shares - 5.0 / 6) < EPS);
	assert_true(node("a2", true)->eff_usage == 0);
}

static void test_tied_accounts_merge(void **state)
{
	static const spec_t s[] = {
		{ "root", "", false, 1, 0 },
		{ "a", "root", false, 1, 0 },
		{ "b", "root", false, 1, 0 },
		{ "a1", "a", true, 1, 50 },
		{ "a2", "a", true, 1, 0 },
		{ "b1", "b", true, 1, 0 },
		{ "b2", "b", true, 1, 50 },
	};

	build(s, sizeof(s) / sizeof(s[0]));
	assert_true(node("a", false)->level_fs == node("b", false)->level_fs);
	/* merged: the unused users of both accounts tie above the used */
	assert_true(fs("a2") == 1.0 && fs("b1") == 1.0);
	assert_true(fabs(fs("a1") - 0.5) < EPS && fabs(fs("b2") - 0.5) < EPS);
	assert_int_equal(node("a1", true)->rank, 2);
}

static void test_user_tied_with_account(void **state)
{
	static const spec_t s[] = {
		{ "root", "", false, 1, 0 },
		{ "u", "root", true, 1, 50 },
		{ "a", "root", false, 1, 0 },
		{ "a1", "a", true, 1, 25 },
		{ "a2", "a", true, 1, 25 },
		{ "z", "root", false, 2, 0 },
		{ "z1", "z", true, 1, 0 },
	};

	build(s, sizeof(s) / sizeof(s[0]));
	/* z unused: first; u and a tied (LevelFS 0.5): u shares its rank with
	 * a's best user, and a's users are tied with each other */
	assert_true(fs("z1") == 1.0);
	assert_true(fabs(node("u", true)->level_fs -
			 node("a", false)->level_fs) < EPS);
	assert_true(fabs(fs("u") - 3.0 / 4) < EPS);
	assert_true(fabs(fs("a1") - 3.0 / 4) < EPS);
	assert_true(fabs(fs("a2") - 3.0 / 4) < EPS);
}

static void test_zero_shares_last(void **state)
{
	static const spec_t s[] = {
		{ "root", "", false, 1, 0 },
		{ "a", "root", false, 0, 0 },
		{ "b", "root", false, 1, 0 },
		{ "a1", "a", true, 1, 0 },
		{ "b1", "b", true, 1, 10 },
		{ "b0", "b", true, 0, 0 },
	};

	build(s, sizeof(s) / sizeof(s[0]));
	/* no shares: LevelFS 0 (not infinity although unused) */
	assert_true(node("a", false)->level_fs == 0);
	assert_true(node("b0", true)->level_fs == 0);
	assert_true(node("b0", true)->norm_shares == 0);
	assert_true(fabs(fs("b1") - 3.0 / 3) < EPS);
	assert_true(fabs(fs("b0") - 2.0 / 3) < EPS);
	assert_true(fabs(fs("a1") - 1.0 / 3) < EPS);
}

static void test_fairshare_parent(void **state)
{
	static const spec_t s[] = {
		{ "root", "", false, 1, 0 },
		{ "a", "root", false, 1, 0 },
		{ "c", "root", false, 1, 0 },
		{ "a1", "a", true, 1, 10 },
		{ "p", "a", false, P, 0 },     /* children count under a */
		{ "p1", "p", true, 1, 0 },
		{ "q", "a", true, P, 0 },      /* a's own values */
		{ "c1", "c", true, 1, 30 },
	};

	build(s, sizeof(s) / sizeof(s[0]));
	/* a's level: a1 (1) + p1 (1) + q (0) */
	assert_true(fabs(node("a1", true)->norm_shares - 0.5) < EPS);
	assert_true(fabs(node("p1", true)->norm_shares - 0.5) < EPS);
	assert_true(fabs(node("p1", true)->eff_usage) < EPS);
	assert_true(isinf(node("p1", true)->level_fs));
	/* q and p take a's values */
	assert_true(fabs(node("q", true)->norm_shares - 0.5) < EPS);
	assert_true(fabs(node("q", true)->eff_usage - 0.25) < EPS);
	assert_true(fabs(node("q", true)->level_fs - 2.0) < EPS);
	assert_true(fabs(node("p", false)->norm_shares - 0.5) < EPS);
	/* a (LevelFS 2) before c (2/3): p1, q, a1, then c1 */
	assert_true(fabs(fs("p1") - 4.0 / 4) < EPS);
	assert_true(fabs(fs("q") - 3.0 / 4) < EPS);
	assert_true(fabs(fs("a1") - 2.0 / 4) < EPS);
	assert_true(fabs(fs("c1") - 1.0 / 4) < EPS);
}

static void test_more_usage_lower_factor(void **state)
{
	/* the integration scenario: two users of one account */
	static const spec_t s[] = {
		{ "root", "", false, 1, 0 },
		{ "physics", "root", false, 1, 0 },
		{ "ua", "physics", true, 1, 120 },
		{ "ub", "physics", true, 1, 6 },
	};

	build(s, sizeof(s) / sizeof(s[0]));
	assert_true(node("ub", true)->level_fs > node("ua", true)->level_fs);
	assert_true(fs("ub") == 1.0 && fabs(fs("ua") - 0.5) < EPS);
	/* no users at all, an empty tree */
	build(s, 2);
	fairtree_calc(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_order),
		cmocka_unit_test(test_zero_usage_all_tied),
		cmocka_unit_test(test_tied_accounts_merge),
		cmocka_unit_test(test_user_tied_with_account),
		cmocka_unit_test(test_zero_shares_last),
		cmocka_unit_test(test_fairshare_parent),
		cmocka_unit_test(test_more_usage_lower_factor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
