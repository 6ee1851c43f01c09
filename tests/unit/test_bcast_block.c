/* test_bcast_block.c — sbcast blocks: the checks a node makes before it
 * writes one (bad blocks first), -C's library names, lz4 round trips
 * and data that does not decompress to the stated size, and the block
 * message's wire form (a signature list that does not match its nodes
 * is refused at unpack). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/bcast_block.h"
#include "common/msg_types.h"
#include "common/pack.h"
#include "common/xmalloc.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char *names[] = { "n1", "n2", NULL };
static char *sigs[] = { "s1", "s2", NULL };

static file_bcast_msg_t good(void)
{
	static char data[100];

	return (file_bcast_msg_t) {
		.job_id = 5, .uid = 1001, .gid = 1001, .fname = "/tmp/f",
		.block_no = 1, .flags = BCAST_FLAG_LAST, .file_size = 100,
		.block_len = 100, .data_len = 100, .data = data,
		.cred_payload = "ab", .node_names = names, .cred_sigs = sigs,
	};
}

/* Spoil a good block the i-th way; NULL when there are no more. */
static const char *spoil(file_bcast_msg_t *m, size_t i)
{
	switch (i) {
	case 0: m->fname = "tmp/f"; return "relative path";
	case 1: m->fname = NULL; return "no path";
	case 2: m->block_no = 0; return "block 0";
	case 3: m->offset = 50; return "past the end";
	case 4: m->offset = 200; return "offset beyond the size";
	case 5: m->block_len = BCAST_BLOCK_MAX + 1; return "too long";
	case 6: m->compress = 9; return "unknown compression";
	case 7: m->data_len = 99; return "short data";
	case 8: m->block_len = m->data_len = 50; return "last is not last";
	}
	return NULL;
}

static void test_bad_blocks(void **state)
{
	char why[160];
	const char *what;
	file_bcast_msg_t m = good();

	for (size_t i = 0; (what = spoil(&m, i)); i++, m = good()) {
		why[0] = '\0';
		if (bcast_block_check(&m, why, sizeof(why)) != -1)
			fail_msg("accepted: %s", what);
		assert_true(why[0] != '\0');
	}
}

static void test_good_blocks(void **state)
{
	file_bcast_msg_t m = good();
	char why[160];

	assert_int_equal(bcast_block_check(&m, why, sizeof(why)), 0);
	m.flags = 0;                    /* a first block of two */
	m.file_size = 200;
	assert_int_equal(bcast_block_check(&m, why, sizeof(why)), 0);
	m = good();                     /* an empty file: one empty block */
	m.file_size = m.block_len = m.data_len = 0;
	assert_int_equal(bcast_block_check(&m, why, sizeof(why)), 0);
	assert_int_equal(bcast_block_sig(&m, "n2"), 1);
	assert_int_equal(bcast_block_sig(&m, "n3"), -1);
}

static void test_compress_names(void **state)
{
	uint16_t how = 99;

	assert_int_equal(bcast_compress_parse("zlib", &how), -1);
	assert_int_equal(bcast_compress_parse("gzip", &how), -1);
	assert_int_equal(bcast_compress_parse(NULL, &how), 0);
	assert_int_equal(how, BCAST_COMPRESS_LZ4);
	assert_int_equal(bcast_compress_parse("none", &how), 0);
	assert_int_equal(how, BCAST_COMPRESS_NONE);
	assert_int_equal(bcast_compress_parse("LZ4", &how), 0);
	assert_int_equal(how, BCAST_COMPRESS_LZ4);
}

static void test_lz4(void **state)
{
	char in[4096], out[4096], *z = NULL;
	uint32_t zlen = 0;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (char) ('a' + i % 7);
	assert_int_equal(bcast_compress(BCAST_COMPRESS_LZ4, in, sizeof(in),
					&z, &zlen), 0);
	assert_true(zlen < sizeof(in));
	assert_int_equal(bcast_decompress(BCAST_COMPRESS_LZ4, z, zlen, out,
					  sizeof(out)), 0);
	assert_memory_equal(in, out, sizeof(in));
	/* the wrong size, cut or damaged data: refused */
	assert_int_equal(bcast_decompress(BCAST_COMPRESS_LZ4, z, zlen, out,
					  sizeof(out) - 1), -1);
	assert_int_equal(bcast_decompress(BCAST_COMPRESS_LZ4, z, zlen / 2,
					  out, sizeof(out)), -1);
	assert_int_equal(bcast_decompress(7, z, zlen, out, sizeof(out)), -1);
	xfree(z);
	/* random-looking data does not get smaller: sent as it is */
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (char) ((i * 2654435761u) >> 13);
	assert_int_equal(bcast_compress(BCAST_COMPRESS_LZ4, in, 64, &z, &zlen),
			 -1);
	assert_null(z);
}

static void test_wire(void **state)
{
	file_bcast_msg_t m = good();
	file_bcast_msg_t *back = NULL;
	char *one_sig[] = { "s1", NULL };
	buf_t *b = buf_create(256), *r;

	assert_int_equal(msg_body_pack(REQUEST_FILE_BCAST, &m, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	assert_int_equal(msg_body_unpack(REQUEST_FILE_BCAST, r,
					 (void **) &back), 0);
	assert_string_equal(back->fname, "/tmp/f");
	assert_int_equal(back->data_len, 100);
	assert_string_equal(back->cred_sigs[1], "s2");
	msg_body_free(REQUEST_FILE_BCAST, back);
	buf_destroy(r);
	buf_destroy(b);
	/* two nodes, one signature: refused */
	m.cred_sigs = one_sig;
	b = buf_create(256);
	assert_int_equal(msg_body_pack(REQUEST_FILE_BCAST, &m, b), 0);
	r = buf_view(buf_data(b), buf_len(b));
	back = NULL;
	assert_int_equal(msg_body_unpack(REQUEST_FILE_BCAST, r,
					 (void **) &back), -1);
	assert_null(back);
	buf_destroy(r);
	buf_destroy(b);
}

/* BcastParameters: bad words first, then what each good one sets. */
static void test_bcast_params(void **state)
{
	static const char *const bad[] = {
		"Bogus", "DestDir", "Compression=zstd", "Compression=",
		"send_libs=yes", "Flatten", "DestDir=/x,Nope",
	};
	bcast_params_t p;
	char err[128];

	(void) state;
	for (size_t i = 0; i < N(bad); i++) {
		err[0] = '\0';
		assert_int_equal(bcast_params_parse(bad[i], &p, err,
						    sizeof(err)), -1);
		assert_true(strstr(err, "BcastParameters") != NULL);
		bcast_params_free(&p);
	}
	assert_int_equal(bcast_params_parse(NULL, &p, err, sizeof(err)), 0);
	assert_null(p.dest_dir);
	assert_int_equal(p.compress, -1);
	assert_int_equal(p.send_libs, 0);
	assert_int_equal(bcast_params_parse("DestDir=/scratch,Compression=lz4,"
					    "send_libs", &p, err, sizeof(err)),
			 0);
	assert_string_equal(p.dest_dir, "/scratch");
	assert_int_equal(p.compress, BCAST_COMPRESS_LZ4);
	assert_int_equal(p.send_libs, 1);
	bcast_params_free(&p);
	assert_int_equal(bcast_params_parse("compression=none", &p, err,
					    sizeof(err)), 0);
	assert_int_equal(p.compress, BCAST_COMPRESS_NONE);
	bcast_params_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_blocks),
		cmocka_unit_test(test_good_blocks),
		cmocka_unit_test(test_compress_names),
		cmocka_unit_test(test_lz4),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_bcast_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
