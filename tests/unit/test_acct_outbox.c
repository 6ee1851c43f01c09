/* test_acct_outbox.c — the accounting outbox file: frames round-trip,
 * every way a frame can be bad (cut anywhere, flipped bit, bad header)
 * stops the reader there, and the controller's outbox (compiled in)
 * recovers from a torn tail, keeps its epoch and sequence, and empties
 * its file once everything is acknowledged. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/ctld/acct_outbox.c"
#include "common/parse_util.h"

static acct_job_rec_t sample_job(uint32_t id)
{
	acct_job_rec_t j = { .job_id = id, .name = "wrap", .uid = 1001,
			     .gid = 1001, .partition = "debug",
			     .state = 3, .requid = NO_VAL32, .submit = 1000,
			     .nodes = "n[1-2]", .num_nodes = 2,
			     .num_cpus = 4, .req_mem = NO_VAL64,
			     .work_dir = "/tmp" };
	return j;
}

static uint8_t *encode_job(uint64_t seq, uint32_t id, size_t *len)
{
	acct_job_rec_t j = sample_job(id);
	acct_frame_t f;
	uint8_t *bytes;

	acct_frame_build(&f, seq, ACCT_REC_JOB, &j);
	bytes = acct_frame_encode(&f, len);
	acct_frame_free_members(&f);
	return bytes;
}

/* ---- bad input first ---- */

static void test_header_bad(void **st)
{
	uint8_t h[ACCT_OUTBOX_HDR_LEN];
	uint64_t e;

	acct_outbox_header(h, 42);
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h) - 1, &e), -1);
	h[0] ^= 1;                                 /* magic */
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e), -1);
	h[0] ^= 1;
	h[11] = 9;                                 /* version */
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e), -1);
	h[11] = ACCT_OUTBOX_VERSION;
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e), 0);
	assert_int_equal(e, 42);
}

static void test_frame_cut_anywhere(void **st)
{
	size_t len;
	uint8_t *b = encode_job(7, 12, &len);
	acct_frame_t f;

	for (size_t cut = 0; cut < len; cut++)
		assert_int_equal(acct_frame_decode(b, cut, &f), 0);
	assert_int_equal(acct_frame_decode(b, len, &f), len);
	acct_frame_free_members(&f);
	xfree(b);
}

static void test_frame_bit_flips(void **st)
{
	size_t len;
	uint8_t *b = encode_job(7, 12, &len);
	acct_frame_t f;

	/* Any flipped bit of the body or CRC is caught; a length changed
	 * to something else is too short, too long or fails the CRC. */
	for (size_t i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			b[i] ^= (uint8_t)(1 << bit);
			assert_int_equal(acct_frame_decode(b, len, &f), 0);
			b[i] ^= (uint8_t)(1 << bit);
		}
	}
	xfree(b);
}

static void test_record_garbage(void **st)
{
	static const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 1, 2, 3 };

	assert_null(acct_rec_unpack(ACCT_REC_JOB, junk, sizeof(junk)));
	assert_null(acct_rec_unpack(99, junk, sizeof(junk)));
	assert_null(acct_rec_unpack(ACCT_REC_STEP, junk, 0));
}

/* ---- good input ---- */

static void test_frame_round_trip(void **st)
{
	size_t len;
	uint8_t *b = encode_job(99, 1234, &len);
	acct_frame_t f;
	acct_job_rec_t *j;

	assert_int_equal(acct_frame_decode(b, len, &f), len);
	assert_int_equal(f.seq, 99);
	assert_int_equal(f.kind, ACCT_REC_JOB);
	j = acct_rec_unpack(f.kind, f.data, f.len);
	assert_non_null(j);
	assert_int_equal(j->job_id, 1234);
	assert_string_equal(j->nodes, "n[1-2]");
	assert_int_equal(j->requid, NO_VAL32);
	assert_null(j->comment);
	acct_rec_free(f.kind, j);
	acct_frame_free_members(&f);
	xfree(b);
}

/* A job record from an outbox written by an older controller (before
 * the hetjob fields, before container too, before array_task_str too)
 * is still read. */
static void test_job_record_older_layouts(void **st)
{
	static const size_t drops[] = { 0, 2, 3, 4 };
	size_t n = 0;
	acct_job_rec_t in = { .job_id = 77, .nodes = "n1", .container = "/b",
			      .array_task_str = "1-3", .het_job_id = 76,
			      .het_job_offset = 1 };

	while (acct_job_rec_fields[n].name)
		n++;
	for (size_t k = 0; k < sizeof(drops) / sizeof(drops[0]); k++) {
		size_t drop = drops[k];
		field_desc_t *f = xcalloc(n + 1, sizeof(*f));
		buf_t *b = buf_create(256);
		acct_job_rec_t *j;

		memcpy(f, acct_job_rec_fields, (n - drop) * sizeof(*f));
		fields_pack(b, f, &in);
		j = acct_rec_unpack(ACCT_REC_JOB, buf_data(b),
				    (uint32_t) buf_len(b));
		assert_non_null(j);
		assert_int_equal(j->job_id, 77);
		assert_string_equal(j->nodes, "n1");
		assert_int_equal(j->het_job_id, drop ? 0 : 76);
		assert_int_equal(j->het_job_offset, drop ? 0 : 1);
		if (drop > 2)
			assert_null(j->container);
		else
			assert_string_equal(j->container, "/b");
		if (drop == 4)
			assert_null(j->array_task_str);
		else
			assert_string_equal(j->array_task_str, "1-3");
		acct_rec_free(ACCT_REC_JOB, j);
		buf_destroy(b);
		xfree(f);
	}
}

/* ---- the outbox itself ---- */

static char dir[] = "/tmp/test_acct_outbox.XXXXXX";
static char path[sizeof(dir) + 32];

static off_t file_size(void)
{
	struct stat s;

	return stat(path, &s) == 0 ? s.st_size : -1;
}

static void append_jobs(uint32_t first, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		acct_job_rec_t j = sample_job(first + i);

		acct_outbox_append(ACCT_REC_JOB, &j);
	}
}

static void test_outbox_torn_tail(void **st)
{
	char err[256];
	uint64_t epoch;
	acct_frame_t *batch;
	uint32_t n;
	off_t full;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/acct_outbox", dir);
	assert_int_equal(acct_outbox_open(dir, err, sizeof(err)), 0);
	assert_int_equal(file_size(), ACCT_OUTBOX_HDR_LEN);
	epoch = acct_outbox_epoch();
	append_jobs(1, 3);
	assert_int_equal(acct_outbox_depth(), 3);
	full = file_size();
	acct_outbox_close();

	/* A crash in the middle of the third record's write. */
	assert_int_equal(truncate(path, full - 5), 0);
	assert_int_equal(acct_outbox_open(dir, err, sizeof(err)), 0);
	assert_int_equal(acct_outbox_depth(), 2);
	assert_true(acct_outbox_epoch() == epoch);
	assert_true(file_size() < full - 5);       /* torn bytes cut off */

	/* Sequence numbers go on after the last whole record. */
	append_jobs(10, 1);
	n = acct_outbox_take(&batch, 10, 0);
	assert_int_equal(n, 3);
	assert_int_equal(batch[0].seq, 1);
	assert_int_equal(batch[1].seq, 2);
	assert_int_equal(batch[2].seq, 3);
	xfree(batch);

	/* Acknowledged part: dropped; all of it: the file is a header. */
	acct_outbox_ack(2);
	assert_int_equal(acct_outbox_depth(), 1);
	acct_outbox_ack(3);
	assert_int_equal(acct_outbox_depth(), 0);
	assert_int_equal(file_size(), ACCT_OUTBOX_HDR_LEN);
	acct_outbox_close();

	/* Reopened with nothing to send: numbering starts again at 1, so
	 * in a new epoch (slurmdbd would skip seq 1.. of the old one as
	 * already stored). */
	assert_int_equal(acct_outbox_open(dir, err, sizeof(err)), 0);
	assert_int_equal(acct_outbox_depth(), 0);
	assert_true(acct_outbox_epoch() != epoch);
	append_jobs(1, 1);
	n = acct_outbox_take(&batch, 10, 0);
	assert_int_equal(n, 1);
	assert_int_equal(batch[0].seq, 1);
	xfree(batch);
	acct_outbox_close();
}

static void test_outbox_bad_header(void **st)
{
	char err[256];
	FILE *f = fopen(path, "w");
	char bad[256];

	fputs("not an outbox at all", f);
	fclose(f);
	assert_int_equal(acct_outbox_open(dir, err, sizeof(err)), 0);
	assert_int_equal(acct_outbox_depth(), 0);
	assert_int_equal(file_size(), ACCT_OUTBOX_HDR_LEN);
	snprintf(bad, sizeof(bad), "%s.corrupt", path);
	assert_int_equal(access(bad, F_OK), 0);     /* kept for a human */
	acct_outbox_close();
	unlink(bad);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_bad),
		cmocka_unit_test(test_frame_cut_anywhere),
		cmocka_unit_test(test_job_record_older_layouts),
		cmocka_unit_test(test_frame_bit_flips),
		cmocka_unit_test(test_record_garbage),
		cmocka_unit_test(test_frame_round_trip),
		cmocka_unit_test(test_outbox_torn_tail),
		cmocka_unit_test(test_outbox_bad_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
