/* test_fields.c — fields.h: table-driven pack/unpack/free/copy. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/fields.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

typedef struct {
	uint8_t   u8;
	uint16_t  u16;
	uint32_t  u32;
	uint64_t  u64;
	bool      flag;
	double    load;
	time_t    when;
	char     *name;
	char     *empty;
	char     *null_str;
	char    **list;
	bitmap_t *nodes;
	uint32_t  not_in_table;
} rec_t;

static const field_desc_t rec_fields[] = {
	FIELD(rec_t, u8, FT_U8),
	FIELD(rec_t, u16, FT_U16),
	FIELD(rec_t, u32, FT_U32),
	FIELD(rec_t, u64, FT_U64),
	FIELD(rec_t, flag, FT_BOOL),
	FIELD(rec_t, load, FT_DOUBLE),
	FIELD(rec_t, when, FT_TIME),
	FIELD(rec_t, name, FT_STR),
	FIELD(rec_t, empty, FT_STR),
	FIELD(rec_t, null_str, FT_STR),
	FIELD(rec_t, list, FT_STRLIST),
	FIELD(rec_t, nodes, FT_BITMAP),
	FIELD_END,
};

static void rec_fill(rec_t *r)
{
	memset(r, 0, sizeof(*r));
	r->u8 = 200;
	r->u16 = 60000;
	r->u32 = 4000000000u;
	r->u64 = 1ULL << 60;
	r->flag = true;
	r->load = 0.125;
	r->when = 1763889415;
	r->name = xstrdup("node[01-04]");
	r->empty = xstrdup("");
	r->list = xcalloc(3, sizeof(char *));
	r->list[0] = xstrdup("PATH=/bin");
	r->list[1] = xstrdup("HOME=/root");
	r->nodes = bitmap_create(130);
	bitmap_set(r->nodes, 3);
	bitmap_set(r->nodes, 129);
	r->not_in_table = 99;
}

static void rec_check(const rec_t *r)
{
	assert_int_equal(r->u8, 200);
	assert_int_equal(r->u16, 60000);
	assert_int_equal(r->u32, 4000000000u);
	assert_true(r->u64 == 1ULL << 60);
	assert_true(r->flag);
	assert_true(r->load == 0.125);
	assert_int_equal(r->when, 1763889415);
	assert_string_equal(r->name, "node[01-04]");
	assert_string_equal(r->empty, "");
	assert_null(r->null_str);
	assert_string_equal(r->list[0], "PATH=/bin");
	assert_string_equal(r->list[1], "HOME=/root");
	assert_null(r->list[2]);
	assert_int_equal(bitmap_size(r->nodes), 130);
	assert_int_equal(bitmap_count(r->nodes), 2);
	assert_true(bitmap_test(r->nodes, 129));
}

/* Truncated input at every length fails, frees what it set, and leaves
 * the buffer's cursor where it was. */
static void test_truncated(void **state)
{
	rec_t in, out;
	buf_t *b = buf_create(0);

	rec_fill(&in);
	fields_pack(b, rec_fields, &in);
	for (size_t cut = 0; cut < buf_len(b); cut++) {
		buf_t *v = buf_view(buf_data(b), cut);

		memset(&out, 0, sizeof(out));
		assert_int_equal(fields_unpack(v, rec_fields, &out), -1);
		assert_int_equal(buf_offset(v), 0);
		assert_null(out.name);
		assert_null(out.empty);
		assert_null(out.list);
		assert_null(out.nodes);
		buf_destroy(v);
	}
	fields_free(rec_fields, &in);
	buf_destroy(b);
}

/* A failure must not free fields the call never reached. */
static void test_failure_leaves_rest(void **state)
{
	uint8_t raw[] = { 1, 0, 2 };   /* u8 ok, u16 ok, then nothing */
	buf_t *b = buf_from_copy(raw, sizeof(raw));
	char keep[] = "caller's";
	rec_t out;

	memset(&out, 0, sizeof(out));
	out.name = keep;               /* not owned: must survive */
	assert_int_equal(fields_unpack(b, rec_fields, &out), -1);
	assert_ptr_equal(out.name, keep);
	buf_destroy(b);
}

static void test_round_trip(void **state)
{
	rec_t in, out;
	buf_t *b = buf_create(0);

	rec_fill(&in);
	fields_pack(b, rec_fields, &in);
	memset(&out, 0, sizeof(out));
	assert_int_equal(fields_unpack(b, rec_fields, &out), 0);
	assert_int_equal(buf_remaining(b), 0);
	rec_check(&out);
	assert_int_equal(out.not_in_table, 0);
	fields_free(rec_fields, &out);
	assert_null(out.name);
	assert_null(out.list);
	assert_null(out.nodes);
	fields_free(rec_fields, &in);
	buf_destroy(b);
}

static void test_copy(void **state)
{
	rec_t in, out;

	rec_fill(&in);
	memset(&out, 0, sizeof(out));
	fields_copy(rec_fields, &out, &in);
	fields_free(rec_fields, &in);   /* the copy owns its own memory */
	rec_check(&out);
	fields_free(rec_fields, &out);
	fields_free(rec_fields, NULL);
}

static void test_empty_record(void **state)
{
	rec_t in, out, cp;
	buf_t *b = buf_create(0);

	memset(&in, 0, sizeof(in));
	memset(&out, 0xff, sizeof(out));
	memset(&cp, 0, sizeof(cp));
	fields_pack(b, rec_fields, &in);
	memset(&out, 0, sizeof(out));
	assert_int_equal(fields_unpack(b, rec_fields, &out), 0);
	assert_null(out.name);
	assert_null(out.list);
	assert_null(out.nodes);
	fields_copy(rec_fields, &cp, &in);
	assert_null(cp.list);
	fields_free(rec_fields, &out);
	fields_free(rec_fields, &cp);
	buf_destroy(b);
}

/* What fields_plan_pack writes is what fields_pack_sel writes, for every
 * choice of rec_fields and for a table longer than a choice can name. */
static bool same_bytes(const field_desc_t *f, const void *rec,
		       const fields_sel_t *s)
{
	buf_t *a = buf_create(64), *b = buf_create(64);
	fields_plan_t plan;
	bool same;

	fields_pack_sel(a, f, rec, s);
	fields_plan_init(&plan, f, s);
	fields_plan_prefetch(&plan, rec);
	fields_plan_prefetch_strs(&plan, rec);
	fields_plan_pack(b, &plan, rec);
	same = buf_len(a) == buf_len(b) &&
	       !memcmp(buf_data(a), buf_data(b), buf_len(a));
	buf_destroy(a);
	buf_destroy(b);
	return same;
}

#define LONG_FIELDS (FIELDS_SEL_MAX + 5)

static void test_plan_packs_as_sel(void **state)
{
	static field_desc_t long_fields[LONG_FIELDS + 1];
	static char names[LONG_FIELDS][8];
	uint8_t bytes[LONG_FIELDS];
	fields_sel_t s;
	rec_t r;

	rec_fill(&r);
	assert_true(same_bytes(rec_fields, &r, NULL));
	for (uint32_t mask = 0; mask < (1u << 12); mask++) {
		memset(&s, 0, sizeof(s));
		s.w[0] = mask;
		assert_true(same_bytes(rec_fields, &r, &s));
	}
	fields_free(rec_fields, &r);

	for (size_t i = 0; i < LONG_FIELDS; i++) {
		snprintf(names[i], sizeof(names[i]), "b%zu", i);
		long_fields[i] = (field_desc_t){ names[i], FT_U8, i };
		bytes[i] = (uint8_t)i;
	}
	assert_true(same_bytes(long_fields, bytes, NULL));
	memset(&s, 0, sizeof(s));
	s.w[0] = 0x5;
	s.w[1] = (uint64_t)1 << 63;
	assert_true(same_bytes(long_fields, bytes, &s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_failure_leaves_rest),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_empty_record),
		cmocka_unit_test(test_plan_packs_as_sel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
