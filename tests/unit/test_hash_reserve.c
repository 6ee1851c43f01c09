/* test_hash_reserve — HASH_RESERVE (common/hash_reserve.h): a uthash
 * table given its buckets up front keeps every item findable and does
 * not grow again while it is filled to what was reserved. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "common/hash_reserve.h"

typedef struct {
	uint32_t       id;
	UT_hash_handle hh;
} item_t;

static void test_buckets(void **st)
{
	(void) st;
	assert_int_equal(hash_reserve_buckets(0), 32);
	assert_int_equal(hash_reserve_buckets(32), 32);
	assert_int_equal(hash_reserve_buckets(33), 64);
	assert_int_equal(hash_reserve_buckets(1000000), 1u << 20);
	assert_int_equal(hash_reserve_buckets((size_t) 1 << 40), 1u << 26);
}

static void test_reserve_then_fill(void **st)
{
	enum { N = 100000 };
	item_t *items = calloc(N, sizeof(*items)), *head = NULL, *f;
	unsigned buckets;

	(void) st;
	HASH_RESERVE(hh, head, N);              /* empty: nothing to do */
	assert_null(head);
	for (uint32_t i = 0; i < N; i++) {
		items[i].id = i * 7 + 1;
		HASH_ADD(hh, head, id, sizeof(uint32_t), &items[i]);
		if (!i) {
			HASH_RESERVE(hh, head, N);
			buckets = head->hh.tbl->num_buckets;
			assert_int_equal(buckets, hash_reserve_buckets(N));
		}
	}
	assert_int_equal(HASH_COUNT(head), N);
	assert_int_equal(head->hh.tbl->num_buckets, buckets);   /* no regrow */
	for (uint32_t i = 0; i < N; i++) {
		uint32_t id = i * 7 + 1;

		HASH_FIND(hh, head, &id, sizeof(uint32_t), f);
		assert_ptr_equal(f, &items[i]);
	}
	f = NULL;
	{
		uint32_t id = 2;   /* 2 != i*7+1 for any i */

		HASH_FIND(hh, head, &id, sizeof(uint32_t), f);
	}
	assert_null(f);
	HASH_RESERVE(hh, head, 10);             /* never shrinks */
	assert_int_equal(head->hh.tbl->num_buckets, buckets);
	HASH_CLEAR(hh, head);
	free(items);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_reserve_then_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
