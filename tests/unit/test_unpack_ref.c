/* test_unpack_ref.c — unpacking by reference: strings that point into the
 * received bytes instead of being copied (squeue's RESPONSE_JOB_INFO from
 * msg_recv_fd).  A record unpacked by reference reads the same as a copied
 * one and frees cleanly (the ASan build checks for leaks and double
 * frees); bad strings are refused the same way; the huge-page blocks
 * (xmalloc_big) and the pack buffers built on them behave as plain ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/fields.h"
#include "common/job_info.h"
#include "common/msg_types.h"
#include "common/pack.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* ---- unpackstr_ref: bad strings first ---- */

static void test_str_ref_bad(void **state)
{
	static const struct {
		const char *what;
		uint8_t     bytes[12];
		size_t      len;
	} bad[] = {
		{ "no length", { 0, 0 }, 2 },
		{ "no NUL", { 0, 0, 0, 2, 'a', 'b' }, 6 },
		{ "NUL inside", { 0, 0, 0, 3, 'a', 0, 0 }, 7 },
		{ "past the end", { 0, 0, 0, 9, 'a', 0 }, 6 },
		{ "over the cap", { 0xff, 0xff, 0xff, 0xff, 0 }, 5 },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		buf_t *b = buf_view(bad[i].bytes, bad[i].len);
		char *s = (char *)"x";

		print_message("%s\n", bad[i].what);
		assert_int_equal(unpackstr_ref(b, &s), -1);
		assert_null(s);
		assert_int_equal(buf_offset(b), 0);
		buf_destroy(b);
	}
}

static void test_str_ref_good(void **state)
{
	buf_t *w = buf_create(16), *r;
	char *a, *n, *e;

	packstr(w, "alpha");
	packstr(w, NULL);
	packstr(w, "");
	r = buf_view(buf_data(w), buf_len(w));
	assert_int_equal(unpackstr_ref(r, &a), 0);
	assert_int_equal(unpackstr_ref(r, &n), 0);
	assert_int_equal(unpackstr_ref(r, &e), 0);
	assert_string_equal(a, "alpha");
	assert_ptr_equal(a, (const char *)buf_data(w) + 4);   /* in place */
	assert_null(n);
	assert_string_equal(e, "");
	assert_int_equal(buf_remaining(r), 0);
	buf_destroy(r);
	buf_destroy(w);
}

/* ---- buf_view_in / buf_take_block ---- */

static void test_take_block(void **state)
{
	void *blk = xmalloc_big(32);
	buf_t *b = buf_view_in(blk, 32, &blk), *v = buf_view(blk, 32);
	void *got;

	assert_null(buf_take_block(v));          /* a plain view has none */
	got = buf_take_block(b);
	assert_non_null(got);
	assert_null(blk);                        /* the creator's is gone */
	assert_null(buf_take_block(b));          /* once only */
	buf_destroy(b);                          /* leaves the block alone */
	buf_destroy(v);
	xfree_big(got);
	xfree_big(NULL);
}

/* ---- a field table with every owning type, by reference ---- */

typedef struct {
	uint32_t  id;
	char     *name;
	char    **list;
	bitmap_t *bits;
	char     *none;
} rec_t;

static const field_desc_t rec_fields[] = {
	FIELD(rec_t, id, FT_U32),
	FIELD(rec_t, name, FT_STR),
	FIELD(rec_t, list, FT_STRLIST),
	FIELD(rec_t, bits, FT_BITMAP),
	FIELD(rec_t, none, FT_STR),
	FIELD_END,
};

static void test_fields_ref(void **state)
{
	rec_t in = { .id = 7, .name = "seven" }, cp = { 0 }, rf = { 0 };
	char *list[] = { "a=1", "b", NULL };
	fields_sel_t names = { { 0 } };
	buf_t *w = buf_create(64), *r;
	buf_t *w1 = buf_create(64), *w2 = buf_create(64);

	in.list = list;
	in.bits = bitmap_create(70);
	bitmap_set(in.bits, 69);
	fields_pack(w, rec_fields, &in);

	r = buf_view(buf_data(w), buf_len(w));
	assert_int_equal(fields_unpack_sel(r, rec_fields, &cp, NULL), 0);
	buf_destroy(r);
	r = buf_view(buf_data(w), buf_len(w));
	assert_int_equal(fields_unpack_sel_ref(r, rec_fields, &rf, NULL), 0);
	buf_destroy(r);

	/* reads the same, packs the same */
	assert_int_equal(rf.id, 7);
	assert_string_equal(rf.name, "seven");
	assert_string_equal(rf.list[0], "a=1");
	assert_true(bitmap_test(rf.bits, 69));
	assert_null(rf.none);
	assert_true(rf.name > (char *)buf_data(w) &&
		    rf.name < (char *)buf_data(w) + buf_len(w));
	fields_pack(w1, rec_fields, &cp);
	fields_pack(w2, rec_fields, &rf);
	assert_int_equal(buf_len(w1), buf_len(w2));
	assert_memory_equal(buf_data(w1), buf_data(w2), buf_len(w1));

	/* lists and bitmaps still own memory; a selection of strings only
	 * owns none */
	assert_true(fields_sel_ref_owns(rec_fields, NULL));
	assert_int_equal(fields_sel_add_list(&names, rec_fields, "id,name"), 0);
	assert_false(fields_sel_ref_owns(rec_fields, &names));

	fields_free_sel(rec_fields, &cp, NULL);
	fields_free_sel_ref(rec_fields, &rf, NULL);
	assert_null(rf.name);
	assert_null(rf.list);
	assert_null(rf.bits);

	/* a failure half way leaves nothing owned behind */
	r = buf_view(buf_data(w), buf_len(w) - 3);
	memset(&rf, 0, sizeof(rf));
	assert_int_equal(fields_unpack_sel_ref(r, rec_fields, &rf, NULL), -1);
	assert_int_equal(buf_offset(r), 0);
	assert_null(rf.list);
	assert_null(rf.bits);
	buf_destroy(r);

	bitmap_destroy(in.bits);
	buf_destroy(w);
	buf_destroy(w1);
	buf_destroy(w2);
}

/* ---- RESPONSE_JOB_INFO by reference vs by copy ---- */

#define NJOBS 3000      /* records past 512 KiB: the huge-page path */

static buf_t *job_list_bytes(const fields_sel_t *sel)
{
	job_info_msg_t m = { .last_update = 42, .cnt = NJOBS };
	buf_t *b = buf_create(64);

	if (sel)
		m.fields = *sel;
	m.jobs = xcalloc(NJOBS, sizeof(*m.jobs));
	for (uint32_t i = 0; i < NJOBS; i++) {
		m.jobs[i].job_id = 1000 + i;
		m.jobs[i].job_state = JOB_PENDING;
		m.jobs[i].name = xstrdup_printf("job%u", i);
		m.jobs[i].partition = i % 2 ? xstrdup("debug") : NULL;
		m.jobs[i].comment = xstrdup("");
	}
	assert_int_equal(msg_body_pack(RESPONSE_JOB_INFO, &m, b), 0);
	for (uint32_t i = 0; i < NJOBS; i++)
		job_info_free_members(&m.jobs[i]);
	xfree(m.jobs);
	return b;
}

static void check_job_list(const fields_sel_t *sel)
{
	buf_t *w = job_list_bytes(sel), *r, *p1, *p2;
	job_info_msg_t *cp = NULL, *rf = NULL;
	void *blk = xmalloc_big(buf_len(w));
	char *lo = blk, *hi = lo + buf_len(w);

	memcpy(blk, buf_data(w), buf_len(w));
	r = buf_view(buf_data(w), buf_len(w));
	assert_int_equal(msg_body_unpack(RESPONSE_JOB_INFO, r, (void **)&cp), 0);
	buf_destroy(r);
	assert_null(cp->block);
	r = buf_view_in(blk, buf_len(w), &blk);
	assert_int_equal(msg_body_unpack(RESPONSE_JOB_INFO, r, (void **)&rf), 0);
	buf_destroy(r);
	assert_null(blk);                         /* the message has it */
	assert_ptr_equal(rf->block, lo);

	assert_int_equal(rf->cnt, NJOBS);
	for (uint32_t i = 0; i < NJOBS; i++) {
		const job_info_t *a = &cp->jobs[i], *b = &rf->jobs[i];

		assert_int_equal(a->job_id, b->job_id);
		assert_string_equal(a->name, b->name);
		assert_true(b->name >= lo && b->name < hi);
		assert_true(!a->partition == !b->partition);
		if (a->partition)
			assert_string_equal(a->partition, b->partition);
	}
	p1 = buf_create(64);
	p2 = buf_create(64);
	assert_int_equal(msg_body_pack(RESPONSE_JOB_INFO, cp, p1), 0);
	assert_int_equal(msg_body_pack(RESPONSE_JOB_INFO, rf, p2), 0);
	assert_int_equal(buf_len(p1), buf_len(w));
	assert_int_equal(buf_len(p2), buf_len(w));
	assert_memory_equal(buf_data(p1), buf_data(w), buf_len(w));
	assert_memory_equal(buf_data(p2), buf_data(w), buf_len(w));
	msg_body_free(RESPONSE_JOB_INFO, cp);
	msg_body_free(RESPONSE_JOB_INFO, rf);     /* block and records too */
	buf_destroy(p1);
	buf_destroy(p2);
	buf_destroy(w);
}

static void test_job_list_ref_all(void **state)
{
	check_job_list(NULL);
}

static void test_job_list_ref_sel(void **state)
{
	fields_sel_t sel = { { 0 } };

	assert_int_equal(fields_sel_add_list(&sel, job_info_fields,
					     "job_id,job_state,name,partition"),
			 0);
	check_job_list(&sel);
}

/* A body that breaks off, or has bytes left over, after the unpacker took
 * the block: the message is refused and everything freed once. */
static void test_job_list_ref_bad(void **state)
{
	buf_t *w = job_list_bytes(NULL);
	size_t cuts[] = { buf_len(w) - 1, buf_len(w) / 2, 30 };

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		void *blk = xmalloc_big(buf_len(w));
		job_info_msg_t *m = (job_info_msg_t *)&blk;   /* poison */
		buf_t *r;

		memcpy(blk, buf_data(w), buf_len(w));
		r = buf_view_in(blk, cuts[i], &blk);
		assert_int_equal(msg_body_unpack(RESPONSE_JOB_INFO, r,
						 (void **)&m), -1);
		assert_null(m);
		buf_destroy(r);
		xfree_big(blk);        /* NULL if the unpacker took (and freed) it */
	}
	{
		void *blk = xmalloc_big(buf_len(w) + 2);
		job_info_msg_t *m = NULL;
		buf_t *r;

		memcpy(blk, buf_data(w), buf_len(w));
		r = buf_view_in(blk, buf_len(w) + 2, &blk);   /* trailing bytes */
		assert_int_equal(msg_body_unpack(RESPONSE_JOB_INFO, r,
						 (void **)&m), -1);
		assert_null(m);
		assert_null(blk);
		buf_destroy(r);
	}
	buf_destroy(w);
}

/* ---- huge-page blocks and big pack buffers ---- */

static void test_xmalloc_big(void **state)
{
	size_t sizes[] = { 1, 4096, (size_t)512 << 10, (size_t)3 << 20 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint8_t *p = xmalloc_big(sizes[i]);
		size_t n = xsize_big(p);

		assert_true(n >= sizes[i]);
		for (size_t k = 0; k < n; k += 4096)
			assert_int_equal(p[k], 0);
		assert_int_equal(p[n - 1], 0);
		memset(p, 0xa5, n);
		xfree_big(p);
	}
}

static void test_big_pack_buffer(void **state)
{
	size_t n = (size_t)3 << 20, len;
	buf_t *b = buf_create((size_t)600 << 10);
	uint8_t *stolen;

	for (size_t i = 0; i < n / 4; i++)        /* grows past its block */
		pack32(b, (uint32_t)i);
	assert_int_equal(buf_len(b), n);
	assert_int_equal(buf_data(b)[n - 1], (uint8_t)(n / 4 - 1));
	stolen = buf_steal(b, &len);              /* plain xmalloc'd bytes */
	assert_int_equal(len, n);
	assert_int_equal(stolen[7], 1);
	xfree(stolen);
	buf_destroy(b);

	b = buf_create((size_t)1 << 20);
	packstr(b, "big");
	buf_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_str_ref_bad),
		cmocka_unit_test(test_str_ref_good),
		cmocka_unit_test(test_take_block),
		cmocka_unit_test(test_fields_ref),
		cmocka_unit_test(test_job_list_ref_all),
		cmocka_unit_test(test_job_list_ref_sel),
		cmocka_unit_test(test_job_list_ref_bad),
		cmocka_unit_test(test_xmalloc_big),
		cmocka_unit_test(test_big_pack_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
