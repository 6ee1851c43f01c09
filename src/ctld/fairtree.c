/* fairtree.c — the Fair Tree fair-share algorithm (fairtree.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "ctld/fairtree.h"

#define FT_MAX_DEPTH 64

typedef struct {
	ft_node_t *n;
	size_t     cnt;
	size_t    *kid_start;     /* children of i: kids[kid_start[i] ..] */
	size_t    *kids;
	uint32_t   users;
	uint32_t   rank, next;    /* ranking walk */
} ft_t;

static bool is_parent_acct(const ft_node_t *x)
{
	return !x->user && x->shares == FAIRTREE_SHARES_PARENT &&
	       x->parent >= 0;
}

/* The nearest association above i that has shares of its own. */
static int fs_parent(const ft_t *t, size_t i)
{
	int p = t->n[i].parent, guard = 0;

	while (p >= 0 && is_parent_acct(&t->n[p]) && guard++ < FT_MAX_DEPTH)
		p = t->n[p].parent;
	return p;
}

/* Sum of the shares of i's children, those of a Fairshare=parent
 * account counted as its children's (a Fairshare=parent user adds 0). */
static double level_shares(const ft_t *t, size_t i, int depth)
{
	double sum = 0;

	if (depth > FT_MAX_DEPTH)
		return 0;
	for (size_t k = t->kid_start[i]; k < t->kid_start[i + 1]; k++) {
		const ft_node_t *c = &t->n[t->kids[k]];

		if (c->shares != FAIRTREE_SHARES_PARENT)
			sum += c->shares;
		else if (!c->user)
			sum += level_shares(t, t->kids[k], depth + 1);
	}
	return sum;
}

static void build_children(ft_t *t)
{
	size_t *fill;

	t->kid_start = xcalloc(t->cnt + 2, sizeof(size_t));
	t->kids = xcalloc(t->cnt + 1, sizeof(size_t));
	for (size_t i = 0; i < t->cnt; i++)
		if (t->n[i].parent >= 0 && (size_t)t->n[i].parent < t->cnt)
			t->kid_start[t->n[i].parent + 1]++;
	for (size_t i = 0; i < t->cnt; i++)
		t->kid_start[i + 1] += t->kid_start[i];
	fill = xcalloc(t->cnt + 1, sizeof(size_t));
	memcpy(fill, t->kid_start, t->cnt * sizeof(size_t));
	for (size_t i = 0; i < t->cnt; i++)
		if (t->n[i].parent >= 0 && (size_t)t->n[i].parent < t->cnt)
			t->kids[fill[t->n[i].parent]++] = i;
	xfree(fill);
}

/* S, U and LevelFS of every association. */
static void level_values(ft_t *t)
{
	double *ls = xcalloc(t->cnt + 1, sizeof(double));

	for (size_t i = 0; i < t->cnt; i++)
		ls[i] = level_shares(t, i, 0);
	for (size_t i = 0; i < t->cnt; i++) {
		ft_node_t *x = &t->n[i];
		int p;

		x->factor = NAN;
		x->rank = 0;
		if (x->user)
			t->users++;
		if (x->parent < 0) {
			x->norm_shares = 0;
			x->eff_usage = 1.0;
			x->level_fs = NAN;
			continue;
		}
		if (x->shares == FAIRTREE_SHARES_PARENT)
			continue;
		p = fs_parent(t, i);
		x->norm_shares = p >= 0 && ls[p] > 0 ?
			(double)x->shares / ls[p] : 0;
		x->eff_usage = p >= 0 && t->n[p].usage > 0 ?
			x->usage / t->n[p].usage : 0;
		if (x->norm_shares <= 0)
			x->level_fs = 0;
		else if (x->eff_usage <= 0)
			x->level_fs = INFINITY;
		else
			x->level_fs = x->norm_shares / x->eff_usage;
	}
	/* Fairshare=parent: the values of the nearest one with shares */
	for (size_t i = 0; i < t->cnt; i++) {
		ft_node_t *x = &t->n[i];
		int p = (int)i, guard = 0;

		if (x->parent < 0 || x->shares != FAIRTREE_SHARES_PARENT)
			continue;
		while (p >= 0 && t->n[p].parent >= 0 &&
		       t->n[p].shares == FAIRTREE_SHARES_PARENT &&
		       guard++ < FT_MAX_DEPTH)
			p = t->n[p].parent;
		if (p < 0 || (size_t)p == i) {
			x->norm_shares = x->eff_usage = x->level_fs = 0;
			continue;
		}
		x->norm_shares = t->n[p].norm_shares;
		x->eff_usage = t->n[p].eff_usage;
		x->level_fs = t->n[p].parent < 0 ? 0 : t->n[p].level_fs;
	}
	xfree(ls);
}

/* Append the children of i to *set (those of a Fairshare=parent account
 * in its place). */
static void add_kids(const ft_t *t, size_t i, size_t **set, size_t *n,
		     int depth)
{
	if (depth > FT_MAX_DEPTH)
		return;
	for (size_t k = t->kid_start[i]; k < t->kid_start[i + 1]; k++) {
		size_t c = t->kids[k];

		if (is_parent_acct(&t->n[c])) {
			add_kids(t, c, set, n, depth + 1);
			continue;
		}
		*set = xrealloc(*set, (*n + 1) * sizeof(size_t));
		(*set)[(*n)++] = c;
	}
}

static const ft_node_t *sort_base;

/* LevelFS descending; on a tie users first, then by name. */
static int by_level_fs(const void *a, const void *b)
{
	const ft_node_t *x = &sort_base[*(const size_t *)a];
	const ft_node_t *y = &sort_base[*(const size_t *)b];

	if (x->level_fs != y->level_fs)
		return x->level_fs > y->level_fs ? -1 : 1;
	if (x->user != y->user)
		return x->user ? -1 : 1;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static void rank_set(ft_t *t, size_t *set, size_t n, bool tied_in,
		     int depth)
{
	double prev = NAN;

	if (depth > FT_MAX_DEPTH)
		return;
	sort_base = t->n;
	qsort(set, n, sizeof(size_t), by_level_fs);
	for (size_t k = 0; k < n; k++) {
		ft_node_t *x = &t->n[set[k]];
		bool tied = k == 0 ? tied_in : x->level_fs == prev;

		prev = x->level_fs;
		if (x->user) {
			if (!tied)
				t->rank = t->next;
			x->rank = t->rank;
			x->factor = t->users ? (double)t->rank / t->users : 0;
			if (t->next)
				t->next--;
			continue;
		}
		/* this account and the accounts tied with it, merged */
		size_t *merged = NULL, m = 0, end = k;

		add_kids(t, set[k], &merged, &m, 0);
		while (end + 1 < n && !t->n[set[end + 1]].user &&
		       t->n[set[end + 1]].level_fs == x->level_fs)
			add_kids(t, set[++end], &merged, &m, 0);
		if (m)
			rank_set(t, merged, m, tied, depth + 1);
		xfree(merged);
		k = end;
	}
}

void fairtree_calc(ft_node_t *n, size_t cnt)
{
	ft_t t = { .n = n, .cnt = cnt };

	if (!cnt)
		return;
	build_children(&t);
	level_values(&t);
	t.rank = t.next = t.users;
	for (size_t i = 0; i < cnt; i++) {
		size_t *set = NULL, m = 0;

		if (n[i].parent >= 0)
			continue;
		add_kids(&t, i, &set, &m, 0);
		if (m)
			rank_set(&t, set, m, false, 0);
		xfree(set);
	}
	xfree(t.kid_start);
	xfree(t.kids);
}
