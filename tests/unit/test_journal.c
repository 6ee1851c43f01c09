/* test_journal.c — the journal format and files: damaged input first
 * (torn tails at every length, a flipped bit anywhere, bad headers), then
 * append and read back, numbering across files, removal after a
 * snapshot. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/ctld/journal.c"
#include "common/crc32c.h"

static char dir[] = "/tmp/test_journal.XXXXXX";

/* A file image: header of gen 7, then n records seq 1..n of growing
 * payloads. */
static buf_t *_image(unsigned n)
{
	buf_t *b = buf_create(4096);
	uint8_t h[JOURNAL_HDR_LEN], p[64];

	_file_header(h, 7);
	packraw(b, h, sizeof(h));
	for (unsigned i = 1; i <= n; i++) {
		memset(p, (int) i, sizeof(p));
		journal_frame(b, JREC_JOB, 1, i, p, i * 3);
	}
	return b;
}

/* Read image: records until not JOURNAL_REC; returns that result. */
static int _scan(const uint8_t *d, size_t len, unsigned *cnt, size_t *at)
{
	size_t off = JOURNAL_HDR_LEN;
	journal_rec_t r;
	char why[256];
	int rc;

	*cnt = 0;
	for (;;) {
		*at = off;
		rc = journal_next(d, len, &off, &r, why, sizeof(why));
		if (rc != JOURNAL_REC)
			return rc;
		assert_int_equal(r.seq, *cnt + 1);
		assert_int_equal(r.len, (*cnt + 1) * 3);
		for (uint32_t k = 0; k < r.len; k++)
			assert_int_equal(r.data[k], *cnt + 1);
		(*cnt)++;
	}
}

static void test_crc32c_known_value(void **st)
{
	/* the check value of CRC-32C */
	assert_int_equal(crc32c(0, "123456789", 9), 0xe3069283);
	assert_int_equal(crc32c(crc32c(0, "1234", 4), "56789", 5), 0xe3069283);
}

static void test_bad_headers(void **st)
{
	buf_t *b = _image(1);
	uint8_t d[JOURNAL_HDR_LEN];
	uint64_t gen;
	char why[256];

	for (size_t l = 0; l < JOURNAL_HDR_LEN; l++)
		assert_int_equal(journal_check_header(buf_data(b), l, &gen, why,
						      sizeof(why)), -1);
	for (size_t i = 0; i < JOURNAL_HDR_LEN; i++) {
		memcpy(d, buf_data(b), sizeof(d));
		d[i] ^= 0x01;
		assert_int_equal(journal_check_header(d, sizeof(d), &gen, why,
						      sizeof(why)), -1);
	}
	/* a version from the future is refused by name */
	memcpy(d, buf_data(b), sizeof(d));
	_put16(d + 8, JOURNAL_VERSION + 1);
	_put32(d + 20, crc32c(0, d, 20));
	assert_int_equal(journal_check_header(d, sizeof(d), &gen, why,
					      sizeof(why)), -1);
	assert_non_null(strstr(why, "not supported"));
	assert_int_equal(journal_check_header(buf_data(b), buf_len(b), &gen, why,
					      sizeof(why)), 0);
	assert_int_equal(gen, 7);
	buf_destroy(b);
}

static void test_torn_tail_every_length(void **st)
{
	buf_t *b = _image(5);
	size_t full = buf_len(b), ends[6], at;
	unsigned cnt, k = 0;

	/* record boundaries */
	ends[0] = JOURNAL_HDR_LEN;
	for (unsigned i = 1; i <= 5; i++)
		ends[i] = ends[i - 1] + JOURNAL_REC_HDR_LEN + i * 3;
	assert_int_equal(ends[5], full);
	for (size_t len = JOURNAL_HDR_LEN; len <= full; len++) {
		int rc = _scan(buf_data(b), len, &cnt, &at);

		while (k < 5 && ends[k + 1] <= len)
			k++;
		/* every whole record before the cut, never more */
		assert_int_equal(cnt, k);
		assert_int_equal(at, ends[k]);
		assert_int_equal(rc, len == ends[k] ? JOURNAL_END : JOURNAL_TORN);
	}
	buf_destroy(b);
}

static void test_zero_tail_is_torn(void **st)
{
	buf_t *b = _image(2);
	uint8_t zeros[100] = { 0 };
	unsigned cnt;
	size_t at;

	packraw(b, zeros, sizeof(zeros));
	assert_int_equal(_scan(buf_data(b), buf_len(b), &cnt, &at), JOURNAL_TORN);
	assert_int_equal(cnt, 2);
	buf_destroy(b);
}

static void test_flipped_bit_anywhere(void **st)
{
	buf_t *b = _image(4);
	size_t len = buf_len(b), at, rec2 = JOURNAL_HDR_LEN +
		JOURNAL_REC_HDR_LEN + 3;
	uint8_t *d = xmalloc(len);
	unsigned cnt;

	for (size_t i = JOURNAL_HDR_LEN; i < len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			int rc;

			memcpy(d, buf_data(b), len);
			d[i] ^= 1u << bit;
			rc = _scan(d, len, &cnt, &at);
			/* the damaged record and nothing after it */
			assert_true(rc == JOURNAL_DAMAGED || rc == JOURNAL_TORN);
			assert_true(at <= i);
			if (i >= rec2 && i < rec2 + JOURNAL_REC_HDR_LEN + 6) {
				assert_int_equal(cnt, 1);
				assert_int_equal(rc, JOURNAL_DAMAGED);
			}
		}
	}
	/* the records after a damaged one are found again for the log */
	memcpy(d, buf_data(b), len);
	d[rec2 + JOURNAL_REC_HDR_LEN] ^= 0xff;
	{
		uint64_t first, last;

		assert_int_equal(journal_count_after(d, len, rec2, &first, &last),
				 2);
		assert_int_equal(first, 3);
		assert_int_equal(last, 4);
	}
	xfree(d);
	buf_destroy(b);
}

static void test_oversized_length_is_damage(void **st)
{
	buf_t *b = _image(2);
	size_t len = buf_len(b), at;
	uint8_t *d = xmalloc(len);
	unsigned cnt;

	memcpy(d, buf_data(b), len);
	_put32(d + JOURNAL_HDR_LEN + 16, JOURNAL_MAX_REC + 1);
	assert_int_equal(_scan(d, len, &cnt, &at), JOURNAL_DAMAGED);
	assert_int_equal(cnt, 0);
	xfree(d);
	buf_destroy(b);
}

static char *_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *d = xmalloc(1 << 20);

	assert_non_null(f);
	*len = fread(d, 1, 1 << 20, f);
	fclose(f);
	return d;
}

static void test_append_read_back(void **st)
{
	journal_file_t *f = journal_create(dir, 3, true);
	buf_t *b = buf_create(256);
	uint8_t p[9];
	size_t len, at;
	unsigned cnt;
	char *d, *path;
	uint64_t gen;
	char why[128];

	assert_non_null(f);
	assert_int_equal(journal_gen(f), 3);
	assert_int_equal(journal_size(f), JOURNAL_HDR_LEN);
	for (unsigned i = 1; i <= 3; i++) {
		buf_t *one = buf_create(64);

		memset(p, (int) i, sizeof(p));
		journal_frame(one, JREC_JOB, 1, i, p, i * 3);
		/* one append per batch, as the writer does */
		assert_int_equal(journal_append(f, buf_data(one), buf_len(one)), 0);
		buf_destroy(one);
	}
	assert_int_equal(journal_append(f, NULL, 0), 0);
	path = journal_path(dir, 3);
	d = _slurp(path, &len);
	assert_int_equal(len, journal_size(f));
	assert_int_equal(journal_check_header((uint8_t *) d, len, &gen, why,
					      sizeof(why)), 0);
	assert_int_equal(gen, 3);
	assert_int_equal(_scan((uint8_t *) d, len, &cnt, &at), JOURNAL_END);
	assert_int_equal(cnt, 3);
	xfree(d);
	xfree(path);
	buf_destroy(b);
	journal_close(f);
}

static void test_list_and_rotation(void **st)
{
	uint64_t *gens;
	size_t cnt;
	char *junk = xstrdup_printf("%s/ctld_journal.2.damaged", dir);
	FILE *fp = fopen(junk, "w");

	fclose(fp);
	for (uint64_t g = 10; g >= 8; g--)
		journal_close(journal_create(dir, g, false));
	assert_int_equal(journal_list(dir, &gens, &cnt), 0);
	/* 3 from the test before; not the .damaged file */
	assert_int_equal(cnt, 4);
	assert_int_equal(gens[0], 3);
	assert_int_equal(gens[1], 8);
	assert_int_equal(gens[3], 10);
	xfree(gens);
	/* a snapshot that starts generation 9 makes 3 and 8 redundant */
	journal_remove_before(dir, 9);
	assert_int_equal(journal_list(dir, &gens, &cnt), 0);
	assert_int_equal(cnt, 2);
	assert_int_equal(gens[0], 9);
	assert_int_equal(gens[1], 10);
	xfree(gens);
	assert_int_equal(access(junk, F_OK), 0);
	unlink(junk);
	xfree(junk);
	assert_int_equal(journal_list("/nonexistent/dir", &gens, &cnt), -1);
	assert_null(journal_create("/nonexistent/dir", 1, true));
}

static int setup(void **st)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_known_value),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_torn_tail_every_length),
		cmocka_unit_test(test_zero_tail_is_torn),
		cmocka_unit_test(test_flipped_bit_anywhere),
		cmocka_unit_test(test_oversized_length_is_damage),
		cmocka_unit_test(test_append_read_back),
		cmocka_unit_test(test_list_and_rotation),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
