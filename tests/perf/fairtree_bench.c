/* fairtree_bench — CPU time of one Fair Tree computation (fairtree_calc)
 * on synthetic association trees: ACCOUNTS accounts under root, each
 * with USERS users (and one level of sub-accounts with the same number of
 * users), random usage with some ties and unused users.
 *
 *     fairtree_bench [ACCOUNTS [USERS [ROUNDS]]]     (default 50 40 20)
 *
 * Prints "associations: N", "users: N" and "fairtree_calc: X ms (median
 * of ROUNDS)".  The controller computes it at most once per second, when
 * usage or the associations changed. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ctld/fairtree.h"
#include "common/xmalloc.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int accts = argc > 1 ? atoi(argv[1]) : 50;
	int users = argc > 2 ? atoi(argv[2]) : 40;
	int rounds = argc > 3 ? atoi(argv[3]) : 20;
	size_t cap = 1 + (size_t)accts * 2 * (1 + users), n = 0, nusers = 0;
	ft_node_t *t = xcalloc(cap, sizeof(*t)), *work;
	double *ms = xcalloc((size_t)rounds + 1, sizeof(double));

	srand(42);
	t[n++] = (ft_node_t){ .parent = -1, .shares = 1, .name = "root" };
	for (int a = 0; a < accts; a++) {
		int acct = (int)n;

		t[n++] = (ft_node_t){ .parent = 0, .shares = 1 + rand() % 10,
				      .name = "a" };
		for (int s = 0; s < 2; s++) {
			int parent = acct;

			if (s) {
				parent = (int)n;
				t[n++] = (ft_node_t){ .parent = acct,
						      .shares = 1,
						      .name = "s" };
			}
			for (int u = 0; u < users; u++, nusers++)
				t[n++] = (ft_node_t){
					.parent = parent, .user = true,
					.shares = 1 + rand() % 3,
					.usage = rand() % 4 ? rand() % 1000 :
						0,
					.name = "u" };
		}
	}
	/* usage of accounts: everything below */
	for (size_t i = 1; i < n; i++)
		if (t[i].user)
			for (int p = t[i].parent; p >= 0; p = t[p].parent)
				t[p].usage += t[i].usage;
	work = xcalloc(n, sizeof(*t));
	for (int r = 0; r < rounds; r++) {
		double t0;

		for (size_t i = 0; i < n; i++)
			work[i] = t[i];
		t0 = now_ms();
		fairtree_calc(work, n);
		ms[r] = now_ms() - t0;
	}
	qsort(ms, (size_t)rounds, sizeof(double), cmp_d);
	printf("associations: %zu\nusers: %zu\n", n, nusers);
	printf("fairtree_calc: %.3f ms (median of %d)\n", ms[rounds / 2],
	       rounds);
	xfree(t);
	xfree(work);
	xfree(ms);
	return 0;
}
