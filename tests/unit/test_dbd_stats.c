/* test_dbd_stats.c — slurmdbd's RPC statistics (sacctmgr show stats):
 * counts and times per type and user, roll-up cycles, the table, and a
 * clear that starts again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "dbd/dbd_stats.c"

/* The row of kind (and id, for type/user rows); NULL if none. */
static char **find(const table_resp_msg_t *r, const char *kind,
		   const char *id)
{
	size_t ncols = xstrarray_len(r->cols);
	size_t rows = xstrarray_len(r->cells) / ncols;

	for (size_t i = 0; i < rows; i++) {
		char **row = r->cells + i * ncols;

		if (!strcmp(row[0], kind) && (!id || !strcmp(row[2], id)))
			return row;
	}
	return NULL;
}

static void table(table_resp_msg_t *r)
{
	memset(r, 0, sizeof(*r));
	dbd_stats_table(r);
	assert_int_equal(xstrarray_len(r->cols), 8);
	assert_string_equal(r->cols[0], "kind");
	assert_int_equal(xstrarray_len(r->cells) % 8, 0);
}

static void free_table(table_resp_msg_t *r)
{
	xstrarray_free(r->cols);
	xstrarray_free(r->cells);
}

static void test_empty_then_counts(void **st)
{
	table_resp_msg_t r;
	char **row;
	time_t before = time(NULL);

	dbd_stats_clear();
	table(&r);
	row = find(&r, "since", NULL);
	assert_non_null(row);
	assert_true(strtoll(row[7], NULL, 10) >= before);
	assert_null(find(&r, "rollup", NULL));      /* none ran */
	assert_null(find(&r, "type", NULL));
	free_table(&r);

	dbd_stats_rpc(REQUEST_DBD_ACCT, 0, 100);
	dbd_stats_rpc(REQUEST_DBD_ACCT, 1001, 300);
	dbd_stats_rpc(REQUEST_PING, 1001, 5);
	dbd_stats_rollup(40);
	dbd_stats_rollup(20);
	table(&r);
	row = find(&r, "type", "7001");
	assert_non_null(row);
	assert_string_equal(row[1], "REQUEST_DBD_ACCT");
	assert_string_equal(row[3], "2");             /* count */
	assert_string_equal(row[4], "400");           /* total usec */
	row = find(&r, "user", "1001");
	assert_non_null(row);
	assert_string_equal(row[3], "2");
	assert_string_equal(row[4], "305");
	row = find(&r, "user", "0");
	assert_string_equal(row[3], "1");
	row = find(&r, "rollup", NULL);
	assert_non_null(row);
	assert_string_equal(row[3], "2");             /* cycles */
	assert_string_equal(row[4], "60");            /* total */
	assert_string_equal(row[5], "40");            /* max */
	assert_string_equal(row[6], "20");            /* last */
	free_table(&r);

	/* clear: nothing left but a new "since" */
	dbd_stats_clear();
	table(&r);
	assert_null(find(&r, "type", NULL));
	assert_null(find(&r, "user", NULL));
	assert_null(find(&r, "rollup", NULL));
	assert_non_null(find(&r, "since", NULL));
	free_table(&r);
	dbd_stats_fini();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_then_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
