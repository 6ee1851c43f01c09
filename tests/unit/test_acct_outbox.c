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
	uint32_t fmt;

	acct_outbox_header(h, 42);
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h) - 1, &e, &fmt),
			 -1);
	h[0] ^= 1;                                 /* magic */
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e, &fmt), -1);
	h[0] ^= 1;
	h[11] = 9;                                 /* a newer format */
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e, &fmt), -2);
	assert_int_equal(fmt, 9);
	h[11] = 0;                                 /* never written */
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e, &fmt), -1);
	h[11] = ACCT_OUTBOX_V1;                    /* before versions */
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e, &fmt), 0);
	assert_int_equal(fmt, ACCT_OUTBOX_V1);
	h[11] = ACCT_OUTBOX_VERSION;
	assert_int_equal(acct_outbox_header_parse(h, sizeof(h), &e, &fmt), 0);
	assert_int_equal(fmt, ACCT_OUTBOX_VERSION);
	assert_int_equal(e, 42);
}

static void test_frame_cut_anywhere(void **st)
{
	size_t len;
	uint8_t *b = encode_job(7, 12, &len);
	acct_frame_t f;

	for (size_t cut = 0; cut < len; cut++)
		assert_int_equal(acct_frame_decode(b, cut, ACCT_OUTBOX_VERSION, &f), 0);
	assert_int_equal(acct_frame_decode(b, len, ACCT_OUTBOX_VERSION, &f), len);
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
			assert_int_equal(acct_frame_decode(b, len, ACCT_OUTBOX_VERSION, &f), 0);
			b[i] ^= (uint8_t)(1 << bit);
		}
	}
	xfree(b);
}

static void test_record_garbage(void **st)
{
	static const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 1, 2, 3 };

	assert_null(acct_rec_unpack(ACCT_REC_JOB, PROTO_OWN, junk, sizeof(junk)));
	assert_null(acct_rec_unpack(99, PROTO_OWN, junk, sizeof(junk)));
	assert_null(acct_rec_unpack(ACCT_REC_STEP, PROTO_OWN, junk, 0));
}

/* ---- good input ---- */

static void test_frame_round_trip(void **st)
{
	size_t len;
	uint8_t *b = encode_job(99, 1234, &len);
	acct_frame_t f;
	acct_job_rec_t *j;

	assert_int_equal(acct_frame_decode(b, len, ACCT_OUTBOX_VERSION, &f), len);
	assert_int_equal(f.seq, 99);
	assert_int_equal(f.kind, ACCT_REC_JOB);
	assert_int_equal(f.version, PROTO_OWN);
	j = acct_rec_unpack(f.kind, f.version, f.data, f.len);
	assert_non_null(j);
	assert_int_equal(j->job_id, 1234);
	assert_string_equal(j->nodes, "n[1-2]");
	assert_int_equal(j->requid, NO_VAL32);
	assert_null(j->comment);
	acct_rec_free(f.kind, j);
	acct_frame_free_members(&f);
	xfree(b);
}

/* A job record as controllers before versioned records packed it
 * (without the last drop fields of today's table; in an outbox of format
 * 1, so unversioned) still unpacks, the missing ones empty; the full
 * record carries the container, wckey, its id, the reservation id, the
 * hetjob ids and the suspended time. */
static void test_job_record_versions(void **st)
{
	acct_job_rec_t j = sample_job(5);
	size_t n = 0;
	const field_desc_t *all = acct_rec_fields(ACCT_REC_JOB, &n);

	j.wckey = "*alpha";
	j.wckey_id = 3;
	j.resv_id = 9;
	j.array_task_str = "1-3";
	j.container = "/b";
	j.het_job_id = 4;
	j.het_job_offset = 1;
	j.time_suspended = 77;
	for (n = 0; all[n].name && !all[n].since; n++)
		;
	/* written: all (0), before time_suspended (1), before the hetjob
	 * fields (3), before container/wckey/resv (7), before
	 * array_task_str (8) */
	for (size_t drop = 0; drop <= 8; drop++) {
		field_desc_t *old = xcalloc(n + 1, sizeof(*old));
		buf_t *b = buf_create(256);
		acct_job_rec_t *back;

		buf_set_proto(b, PROTO_25_05);
		memcpy(old, all, (n - drop) * sizeof(*old));
		fields_pack(b, old, &j);
		back = acct_rec_unpack(ACCT_REC_JOB, ACCT_REC_UNVERSIONED,
				       buf_data(b), buf_len(b));
		if (drop == 2 || (drop >= 4 && drop <= 6)) {
			/* never written by any controller */
			assert_null(back);
		} else {
			assert_non_null(back);
			assert_int_equal(back->job_id, 5);
			assert_int_equal(back->time_suspended, drop ? 0 : 77);
			assert_int_equal(back->het_job_id, drop > 1 ? 0 : 4);
			assert_int_equal(back->het_job_offset, drop > 1 ? 0 : 1);
			if (drop > 3) {
				assert_null(back->container);
				assert_null(back->wckey);
				assert_int_equal(back->wckey_id, 0);
				assert_int_equal(back->resv_id, 0);
			} else {
				assert_string_equal(back->container, "/b");
				assert_string_equal(back->wckey, "*alpha");
				assert_int_equal(back->wckey_id, 3);
				assert_int_equal(back->resv_id, 9);
			}
			if (drop == 8)
				assert_null(back->array_task_str);
			else
				assert_string_equal(back->array_task_str,
						    "1-3");
			acct_rec_free(ACCT_REC_JOB, back);
		}
		buf_destroy(b);
		xfree(old);
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

/* An outbox of format 1 (a controller from before records carried their
 * version): its records load unversioned, read by the 25.05 layouts, and
 * the file is rewritten as today's format before anything is appended. */
static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static void test_outbox_format1_read(void **st)
{
	char err[256];
	uint8_t hdr[ACCT_OUTBOX_HDR_LEN], frame[512];
	acct_job_rec_t j = sample_job(77);
	buf_t *b = buf_create(256);
	acct_frame_t *batch;
	acct_job_rec_t *back;
	uint32_t body;
	FILE *f;

	buf_set_proto(b, PROTO_25_05);
	fields_pack(b, acct_job_rec_fields, &j);
	body = 10 + (uint32_t)buf_len(b);
	assert_true(body + 8 <= sizeof(frame));
	put_be(frame + 8, 5, 8);                     /* seq */
	put_be(frame + 16, ACCT_REC_JOB, 2);         /* kind, no version */
	memcpy(frame + 18, buf_data(b), buf_len(b));
	put_be(frame, body, 4);
	put_be(frame + 4, acct_crc32(frame + 8, body), 4);
	acct_outbox_header(hdr, 1234);
	put_be(hdr + 8, ACCT_OUTBOX_V1, 4);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(hdr, 1, sizeof(hdr), f);
	fwrite(frame, 1, 8 + body, f);
	fclose(f);
	buf_destroy(b);

	assert_int_equal(acct_outbox_open(dir, err, sizeof(err)), 0);
	assert_true(acct_outbox_epoch() == 1234);
	assert_int_equal(file_size(), ACCT_OUTBOX_HDR_LEN + 8 + body + 2);
	append_jobs(78, 1);
	assert_int_equal(acct_outbox_take(&batch, 10, 0), 2);
	assert_int_equal(batch[0].seq, 5);
	assert_int_equal(batch[0].version, ACCT_REC_UNVERSIONED);
	assert_int_equal(batch[1].seq, 6);
	assert_int_equal(batch[1].version, PROTO_OWN);
	back = acct_rec_unpack(ACCT_REC_JOB, batch[0].version, batch[0].data,
			       batch[0].len);
	assert_non_null(back);
	assert_int_equal(back->job_id, 77);
	assert_string_equal(back->nodes, "n[1-2]");
	acct_rec_free(ACCT_REC_JOB, back);
	xfree(batch);
	acct_outbox_close();

	/* Reopened: both records, versions kept, from the rewritten file. */
	assert_int_equal(acct_outbox_open(dir, err, sizeof(err)), 0);
	assert_int_equal(acct_outbox_take(&batch, 10, 0), 2);
	assert_int_equal(batch[0].version, ACCT_REC_UNVERSIONED);
	assert_int_equal(batch[1].version, PROTO_OWN);
	xfree(batch);
	acct_outbox_ack(6);
	acct_outbox_close();
}

/* A newer controller's outbox (a rollback with records waiting) is
 * refused with a message and left byte for byte as it was. */
static void test_outbox_newer_format_untouched(void **st)
{
	char err[256] = "";
	uint8_t hdr[ACCT_OUTBOX_HDR_LEN + 5] = { 0 }, back[64];
	FILE *f;
	size_t n;

	acct_outbox_header(hdr, 99);
	put_be(hdr + 8, ACCT_OUTBOX_VERSION + 1, 4);
	memcpy(hdr + ACCT_OUTBOX_HDR_LEN, "tail!", 5);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(hdr, 1, sizeof(hdr), f);
	fclose(f);
	assert_int_equal(acct_outbox_open(dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "written by a newer slurmctld"));
	assert_non_null(strstr(err, "left as it is"));
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(back, 1, sizeof(back), f);
	fclose(f);
	assert_int_equal(n, sizeof(hdr));
	assert_memory_equal(back, hdr, sizeof(hdr));
	unlink(path);
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
		cmocka_unit_test(test_frame_bit_flips),
		cmocka_unit_test(test_record_garbage),
		cmocka_unit_test(test_frame_round_trip),
		cmocka_unit_test(test_job_record_versions),
		cmocka_unit_test(test_outbox_torn_tail),
		cmocka_unit_test(test_outbox_format1_read),
		cmocka_unit_test(test_outbox_newer_format_untouched),
		cmocka_unit_test(test_outbox_bad_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
