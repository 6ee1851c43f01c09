/* test_pack.c — pack.h: bad input first, then round trips. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/pack.h"
#include "common/xmalloc.h"

/* ---- helpers ---- */

static buf_t *bytes(const uint8_t *p, size_t n)
{
	return buf_from_copy(p, n);
}

/* A record holding one of everything, for truncation tests. */
static void pack_everything(buf_t *b)
{
	char *arr[] = { "a", "", "ccc", NULL };
	uint32_t ints[] = { 1, 2, 0xffffffffu };
	bitmap_t *bm = bitmap_create(70);

	bitmap_set(bm, 0);
	bitmap_set(bm, 69);
	pack8(b, 0xab);
	pack16(b, 0xbeef);
	pack32(b, 0xdeadbeef);
	pack64(b, 0x0123456789abcdefULL);
	packbool(b, true);
	packdouble(b, 3.25);
	pack_time(b, (time_t)-5);
	packstr(b, "hello");
	packstr(b, NULL);
	packstr(b, "");
	packmem(b, "xyz", 3);
	packstr_list(b, arr);
	pack32_array(b, ints, 3);
	pack_bitmap(b, bm);
	pack_bitmap(b, NULL);
	bitmap_destroy(bm);
}

static void free_strv(char **a)
{
	for (size_t i = 0; a && a[i]; i++)
		xfree(a[i]);
	xfree(a);
}

/* Unpack what pack_everything wrote; -1 on the first failure.  Frees all. */
static int unpack_everything(buf_t *b)
{
	uint8_t u8; uint16_t u16; uint32_t u32, n; uint64_t u64;
	bool bo; double d; time_t t;
	char *s1 = NULL, *s2 = NULL, *s3 = NULL, **arr = NULL;
	void *mem = NULL;
	uint32_t *ints = NULL;
	bitmap_t *bm = NULL, *bm2 = NULL;
	int rc = -1;

	if (unpack8(b, &u8) || unpack16(b, &u16) || unpack32(b, &u32) ||
	    unpack64(b, &u64) || unpackbool(b, &bo) || unpackdouble(b, &d) ||
	    unpack_time(b, &t) || unpackstr(b, &s1) || unpackstr(b, &s2) ||
	    unpackstr(b, &s3) || unpackmem(b, &mem, &n, 100) ||
	    unpackstr_array(b, &arr, &n, 10) ||
	    unpack32_array(b, &ints, &n, 10) || unpack_bitmap(b, &bm) ||
	    unpack_bitmap(b, &bm2))
		goto out;
	rc = 0;
out:
	xfree(s1);
	xfree(s2);
	xfree(s3);
	xfree(mem);
	free_strv(arr);
	xfree(ints);
	if (bm)
		bitmap_destroy(bm);
	if (bm2)
		bitmap_destroy(bm2);
	return rc;
}

/* ---- bad input ---- */

static void test_truncated_everywhere(void **state)
{
	buf_t *b = buf_create(0);
	size_t len;

	pack_everything(b);
	len = buf_len(b);
	for (size_t cut = 0; cut < len; cut++) {
		buf_t *v = buf_view(buf_data(b), cut);

		assert_int_equal(unpack_everything(v), -1);
		buf_destroy(v);
	}
	buf_set_offset(b, 0);
	assert_int_equal(unpack_everything(b), 0);
	assert_int_equal(buf_remaining(b), 0);
	buf_destroy(b);
}

static void test_empty_input(void **state)
{
	buf_t *b = buf_view("", 0);
	uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
	bool bo; double d; time_t t; char *s = (char *)1;

	assert_int_equal(unpack8(b, &u8), -1);
	assert_int_equal(unpack16(b, &u16), -1);
	assert_int_equal(unpack32(b, &u32), -1);
	assert_int_equal(unpack64(b, &u64), -1);
	assert_int_equal(unpackbool(b, &bo), -1);
	assert_int_equal(unpackdouble(b, &d), -1);
	assert_int_equal(unpack_time(b, &t), -1);
	assert_int_equal(unpackstr(b, &s), -1);
	assert_null(s);
	buf_destroy(b);
}

static const struct {
	const char *what;
	uint8_t data[16];
	size_t len;
} bad_strings[] = {
	{ "huge length", { 0xff, 0xff, 0xff, 0xf0, 'a', 0 }, 6 },
	{ "over PACK_MAX_STR_LEN", { 0x04, 0x00, 0x00, 0x01, 'a', 0 }, 6 },
	{ "length past end", { 0, 0, 0, 5, 'a', 'b', 0 }, 7 },
	{ "no NUL", { 0, 0, 0, 3, 'a', 'b', 'c' }, 7 },
	{ "embedded NUL", { 0, 0, 0, 4, 'a', 0, 'c', 0 }, 8 },
	{ "only NUL missing", { 0, 0, 0, 1, 'x' }, 5 },
	{ "short length", { 0, 0, 1 }, 3 },
};

static void test_bad_strings(void **state)
{
	for (size_t i = 0; i < sizeof(bad_strings) / sizeof(bad_strings[0]); i++) {
		buf_t *b = bytes(bad_strings[i].data, bad_strings[i].len);
		char *s = NULL;

		print_message("bad string: %s\n", bad_strings[i].what);
		assert_int_equal(unpackstr(b, &s), -1);
		assert_null(s);
		assert_int_equal(buf_offset(b), 0);
		buf_destroy(b);
	}
}

static void test_bad_bool(void **state)
{
	uint8_t raw[] = { 2 };
	buf_t *b = bytes(raw, 1);
	bool v;

	assert_int_equal(unpackbool(b, &v), -1);
	assert_int_equal(buf_offset(b), 0);
	buf_destroy(b);
}

static void test_bad_counts(void **state)
{
	/* Counts that the input cannot hold must fail before allocating. */
	uint8_t huge[] = { 0x00, 0x0f, 0xff, 0xff, 0, 0, 0, 2, 'a', 0 };
	uint8_t capped[] = { 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	uint8_t maxed[] = { 0xff, 0xff, 0xff, 0xff };
	uint8_t nullstr[] = { 0, 0, 0, 1, 0, 0, 0, 0 };
	buf_t *b;
	char **arr = (char **)1;
	uint32_t *ints = (uint32_t *)1, n = 7;
	void *mem = (void *)1;

	b = bytes(huge, sizeof(huge));
	assert_int_equal(unpackstr_array(b, &arr, &n, PACK_MAX_ARRAY_LEN), -1);
	assert_null(arr);
	assert_int_equal(buf_offset(b), 0);
	assert_int_equal(unpack32_array(b, &ints, &n, PACK_MAX_ARRAY_LEN), -1);
	assert_null(ints);
	assert_int_equal(unpackmem(b, &mem, &n, UINT32_MAX), -1);
	assert_null(mem);
	assert_int_equal(buf_offset(b), 0);
	buf_destroy(b);

	b = bytes(capped, sizeof(capped));
	assert_int_equal(unpack32_array(b, &ints, &n, 2), -1);
	assert_int_equal(unpack32_array(b, &ints, &n, 3), 0);
	assert_int_equal(n, 3);
	xfree(ints);
	buf_set_offset(b, 0);
	assert_int_equal(unpackmem(b, &mem, &n, 2), -1);
	buf_destroy(b);

	b = bytes(maxed, sizeof(maxed));
	assert_int_equal(unpackstr_array(b, &arr, &n, UINT32_MAX), -1);
	assert_int_equal(unpack32_array(b, &ints, &n, UINT32_MAX), -1);
	buf_destroy(b);

	/* A NULL string inside an array is refused. */
	b = bytes(nullstr, sizeof(nullstr));
	assert_int_equal(unpackstr_array(b, &arr, &n, 10), -1);
	assert_null(arr);
	buf_destroy(b);
}

static void test_bad_bitmaps(void **state)
{
	uint8_t huge[] = { 0x01, 0x00, 0x00, 0x01 };          /* > cap */
	uint8_t short_words[] = { 0, 0, 0, 65, 0, 0, 0, 0, 0, 0, 0, 1 };
	uint8_t tail[] = { 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0x10 };
	buf_t *b;
	bitmap_t *bm = (bitmap_t *)1;

	b = bytes(huge, sizeof(huge));
	assert_int_equal(unpack_bitmap(b, &bm), -1);
	assert_null(bm);
	buf_destroy(b);
	b = bytes(short_words, sizeof(short_words));
	assert_int_equal(unpack_bitmap(b, &bm), -1);
	assert_int_equal(buf_offset(b), 0);
	buf_destroy(b);
	b = bytes(tail, sizeof(tail));
	assert_int_equal(unpack_bitmap(b, &bm), -1);
	assert_null(bm);
	buf_destroy(b);
}

/* ---- round trips ---- */

static void test_ints(void **state)
{
	buf_t *b = buf_create(1);
	uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
	bool bo; double d; time_t t;
	const uint8_t want[] = { 0x12, 0x34, 0x56, 0x78 };

	pack32(b, 0x12345678);
	assert_memory_equal(buf_data(b), want, 4);   /* big-endian */
	pack8(b, 0xff);
	pack16(b, 0xfffe);
	pack64(b, UINT64_MAX - 1);
	packbool(b, false);
	packbool(b, true);
	packdouble(b, -1.5e300);
	pack_time(b, (time_t)1700000000);
	pack_time(b, (time_t)-1);
	assert_int_equal(buf_len(b), 4 + 1 + 2 + 8 + 2 + 8 + 8 + 8);

	assert_int_equal(unpack32(b, &u32), 0);
	assert_int_equal(u32, 0x12345678);
	assert_int_equal(unpack8(b, &u8), 0);
	assert_int_equal(u8, 0xff);
	assert_int_equal(unpack16(b, &u16), 0);
	assert_int_equal(u16, 0xfffe);
	assert_int_equal(unpack64(b, &u64), 0);
	assert_true(u64 == UINT64_MAX - 1);
	assert_int_equal(unpackbool(b, &bo), 0);
	assert_false(bo);
	assert_int_equal(unpackbool(b, &bo), 0);
	assert_true(bo);
	assert_int_equal(unpackdouble(b, &d), 0);
	assert_true(d == -1.5e300);
	assert_int_equal(unpack_time(b, &t), 0);
	assert_int_equal(t, 1700000000);
	assert_int_equal(unpack_time(b, &t), 0);
	assert_int_equal(t, -1);
	assert_int_equal(buf_remaining(b), 0);
	assert_int_equal(unpack8(b, &u8), -1);
	buf_destroy(b);
}

static void test_strings_null_vs_empty(void **state)
{
	buf_t *b = buf_create(0);
	char *s;
	const uint8_t want[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3, 'h', 'i', 0 };

	packstr(b, NULL);
	packstr(b, "");
	packstr(b, "hi");
	assert_int_equal(buf_len(b), sizeof(want));
	assert_memory_equal(buf_data(b), want, sizeof(want));
	assert_int_equal(unpackstr(b, &s), 0);
	assert_null(s);
	assert_int_equal(unpackstr(b, &s), 0);
	assert_non_null(s);
	assert_string_equal(s, "");
	xfree(s);
	assert_int_equal(unpackstr(b, &s), 0);
	assert_string_equal(s, "hi");
	xfree(s);
	buf_destroy(b);
}

static void test_mem_and_arrays(void **state)
{
	char *list[] = { "one", "two", NULL, "hidden" };
	char *with_null[] = { "x", NULL, "z" };
	uint32_t ints[] = { 7, 8, 9 };
	buf_t *b = buf_create(0);
	void *mem;
	char **arr;
	uint32_t *iv, n;

	packmem(b, "\0\1\2", 3);
	packmem(b, NULL, 5);
	packstr_list(b, list);
	packstr_list(b, NULL);
	packstr_array(b, with_null, 3);
	pack32_array(b, ints, 3);
	pack32_array(b, NULL, 0);

	assert_int_equal(unpackmem(b, &mem, &n, 3), 0);
	assert_int_equal(n, 3);
	assert_memory_equal(mem, "\0\1\2", 3);
	xfree(mem);
	assert_int_equal(unpackmem(b, &mem, &n, 3), 0);
	assert_int_equal(n, 0);
	assert_null(mem);
	assert_int_equal(unpackstr_array(b, &arr, &n, 2), 0);
	assert_int_equal(n, 2);
	assert_string_equal(arr[0], "one");
	assert_string_equal(arr[1], "two");
	assert_null(arr[2]);
	free_strv(arr);
	assert_int_equal(unpackstr_array(b, &arr, &n, 2), 0);
	assert_int_equal(n, 0);
	assert_null(arr);
	assert_int_equal(unpackstr_array(b, &arr, &n, 3), 0);
	assert_int_equal(n, 3);
	assert_string_equal(arr[1], "");        /* NULL element sent as "" */
	assert_string_equal(arr[2], "z");
	free_strv(arr);
	assert_int_equal(unpack32_array(b, &iv, &n, 3), 0);
	assert_int_equal(n, 3);
	assert_int_equal(iv[2], 9);
	xfree(iv);
	assert_int_equal(unpack32_array(b, &iv, &n, 3), 0);
	assert_int_equal(n, 0);
	assert_null(iv);
	assert_int_equal(buf_remaining(b), 0);
	buf_destroy(b);
}

static void test_bitmaps(void **state)
{
	size_t sizes[] = { 0, 1, 63, 64, 65, 1000 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		bitmap_t *bm = bitmap_create(sizes[i]), *out = NULL;
		buf_t *b = buf_create(0);

		if (sizes[i]) {
			bitmap_set(bm, 0);
			bitmap_set(bm, sizes[i] - 1);
		}
		pack_bitmap(b, bm);
		assert_int_equal(unpack_bitmap(b, &out), 0);
		assert_non_null(out);
		assert_int_equal(bitmap_size(out), sizes[i]);
		assert_true(bitmap_equal(bm, out));
		assert_int_equal(buf_remaining(b), 0);
		bitmap_destroy(bm);
		bitmap_destroy(out);
		buf_destroy(b);
	}
}

static void test_null_bitmap(void **state)
{
	buf_t *b = buf_create(0);
	bitmap_t *out = (bitmap_t *)1;

	pack_bitmap(b, NULL);
	assert_int_equal(unpack_bitmap(b, &out), 0);
	assert_null(out);
	buf_destroy(b);
}

static void test_buffers(void **state)
{
	const char raw[] = "\0\0\0\x2a";
	buf_t *v = buf_view(raw, 4), *w = buf_create(2), *c;
	uint32_t x;
	uint8_t *p;
	size_t len;

	assert_int_equal(unpack32(v, &x), 0);
	assert_int_equal(x, 42);
	pack8(v, 1);                    /* a view becomes an owned copy */
	assert_int_equal(buf_len(v), 5);
	assert_memory_equal(raw, "\0\0\0\x2a", 4);
	for (int i = 0; i < 1000; i++)
		pack32(w, i);
	packbuf(w, v);
	assert_int_equal(buf_len(w), 4005);
	c = buf_from_copy(buf_data(w), buf_len(w));
	buf_set_offset(c, 3996);
	assert_int_equal(unpack32(c, &x), 0);
	assert_int_equal(x, 999);
	buf_set_offset(c, 1 << 20);
	assert_int_equal(buf_remaining(c), 0);
	p = buf_steal(w, &len);
	assert_int_equal(len, 4005);
	assert_int_equal(buf_len(w), 0);
	xfree(p);
	pack8(w, 3);                    /* still usable after steal */
	assert_int_equal(buf_len(w), 1);
	buf_destroy(v);
	buf_destroy(w);
	buf_destroy(c);
	buf_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_bad_strings),
		cmocka_unit_test(test_bad_bool),
		cmocka_unit_test(test_bad_counts),
		cmocka_unit_test(test_bad_bitmaps),
		cmocka_unit_test(test_ints),
		cmocka_unit_test(test_strings_null_vs_empty),
		cmocka_unit_test(test_mem_and_arrays),
		cmocka_unit_test(test_bitmaps),
		cmocka_unit_test(test_null_bitmap),
		cmocka_unit_test(test_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
