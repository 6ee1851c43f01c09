/* test_acct_versions.c — accounting records carry the protocol version
 * they were packed at (acct_rec.h): for every record kind, every version
 * a record may be written at (this build's window) and every version the
 * REQUEST_DBD_RECORDS message carrying it may go at, the record reaches
 * slurmdbd's reader through the outbox file and the message with its
 * version, unpacks with that version's fields (the others at their
 * defaults), packs again to the same bytes, and every truncation is
 * refused.  Records of versions outside the window are refused with a
 * message naming both versions and what to upgrade. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "common/acct_rec.h"
#include "common/msg_types.h"
#include "common/pack.h"
#include "common/parse_util.h"
#include "common/proto_version.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* Every version this build knows, oldest first; the supported ones are
 * the last PROTO_SUPPORTED. */
static const uint16_t known[] = {
	PROTO_24_05, PROTO_24_11, PROTO_25_05,
#ifdef SLUICE_PROTO_NEXT
	PROTO_25_11,
#endif
};
#define N_KNOWN (sizeof(known) / sizeof(known[0]))
#define FIRST_SUPPORTED (N_KNOWN - PROTO_SUPPORTED)

static void fill(const field_desc_t *f, void *rec)
{
	for (int i = 0; f[i].name; i++) {
		char *p = (char *)rec + f[i].offset;

		switch (f[i].type) {
		case FT_U8: *(uint8_t *)p = (uint8_t)(i + 1); break;
		case FT_U16: *(uint16_t *)p = (uint16_t)(1000 + i); break;
		case FT_U32: *(uint32_t *)p = 100000u + i; break;
		case FT_U64: *(uint64_t *)p = 10000000000ull + i; break;
		case FT_BOOL: *(bool *)p = true; break;
		case FT_DOUBLE: *(double *)p = 1.5 + i; break;
		case FT_TIME: *(time_t *)p = 1700000000 + i; break;
		case FT_STR:
			*(char **)p = xstrdup_printf("%s-%d", f[i].name, i);
			break;
		default:
			fail_msg("acct record field %s: type %d not covered",
				 f[i].name, f[i].type);
		}
	}
}

/* out holds in's value for every field on the wire at v, the row's
 * default for the others. */
static void check(uint16_t kind, const field_desc_t *f, const void *in,
		  const void *out, uint16_t v)
{
	for (size_t i = 0; f[i].name; i++) {
		const char *pi = (const char *)in + f[i].offset;
		const char *po = (const char *)out + f[i].offset;
		bool on = fields_on_wire(&f[i], v);

		if (f[i].type == FT_STR) {
			if (on)
				assert_string_equal(*(char *const *)pi,
						    *(char *const *)po);
			else
				assert_null(*(char *const *)po);
		} else if (on) {
			if (memcmp(pi, po, fields_size(f[i].type)))
				fail_msg("kind %u at %04x: %s differs", kind, v,
					 f[i].name);
		} else if (f[i].type == FT_U32) {
			if (*(const uint32_t *)po != (uint32_t)f[i].dflt)
				fail_msg("kind %u at %04x: %s is not its "
					 "default", kind, v, f[i].name);
		}
	}
}

/* A frame at record version rv, through the outbox file and a
 * REQUEST_DBD_RECORDS at message version mv, as slurmdbd gets it. */
static acct_frame_t *through(const acct_frame_t *in, uint16_t mv,
			     dbd_records_msg_t **msg)
{
	acct_frame_t disk;
	size_t len;
	uint8_t *bytes = acct_frame_encode(in, &len);
	dbd_records_msg_t out = { .cluster = "c", .epoch = 7, .cnt = 1,
				  .recs = &disk };
	buf_t *b = buf_create(256), *r;
	void *back = NULL;

	assert_int_equal(acct_frame_decode(bytes, len, ACCT_OUTBOX_VERSION,
					   &disk), len);
	xfree(bytes);
	buf_set_proto(b, mv);
	assert_int_equal(msg_body_pack(REQUEST_DBD_RECORDS, &out, b), 0);
	acct_frame_free_members(&disk);
	r = buf_view(buf_data(b), buf_len(b));
	buf_set_proto(r, mv);
	assert_int_equal(msg_body_unpack(REQUEST_DBD_RECORDS, r, &back), 0);
	buf_destroy(r);
	buf_destroy(b);
	*msg = back;
	assert_int_equal((*msg)->cnt, 1);
	return &(*msg)->recs[0];
}

static void round_trip(uint16_t kind, uint16_t rv, uint16_t mv)
{
	size_t size;
	const field_desc_t *f = acct_rec_fields(kind, &size);
	void *rec = xmalloc(size), *back;
	acct_frame_t frame, *got, again;
	dbd_records_msg_t *msg;
	int old_cuts = 0;

	fill(f, rec);
	acct_frame_build_at(&frame, 42, kind, rec, rv);
	assert_int_equal(frame.version, rv);
	got = through(&frame, mv, &msg);
	assert_int_equal(got->seq, 42);
	assert_int_equal(got->kind, kind);
	assert_int_equal(got->version, rv);
	assert_int_equal(got->len, frame.len);
	back = acct_rec_unpack(kind, got->version, got->data, got->len);
	assert_non_null(back);
	check(kind, f, rec, back, rv);
	/* packed again at its version: the same bytes */
	acct_frame_build_at(&again, 42, kind, back, rv);
	assert_int_equal(again.len, frame.len);
	assert_memory_equal(again.data, frame.data, frame.len);
	/* every truncation refused, but for a step record cut just before
	 * its container: the record of a controller from before schema 22
	 * (the same protocol), read with no container */
	for (uint32_t cut = 0; cut < frame.len; cut++) {
		acct_step_rec_t *t = acct_rec_unpack(kind, rv, frame.data, cut);

		if (!t)
			continue;
		assert_int_equal(kind, ACCT_REC_STEP);
		assert_null(t->container);
		assert_int_equal(t->consumed_energy,
				 ((acct_step_rec_t *)rec)->consumed_energy);
		old_cuts++;
		acct_rec_free(kind, t);
	}
	assert_int_equal(old_cuts, kind == ACCT_REC_STEP);
	acct_frame_free_members(&again);
	acct_rec_free(kind, back);
	msg_body_free(REQUEST_DBD_RECORDS, msg);
	acct_frame_free_members(&frame);
	acct_rec_free(kind, rec);
}

static void test_every_kind_every_pair(void **state)
{
	(void)state;
	for (uint16_t k = 1; k < ACCT_REC_KIND_END; k++)
		for (size_t a = FIRST_SUPPORTED; a < N_KNOWN; a++)
			for (size_t m = FIRST_SUPPORTED; m < N_KNOWN; m++)
				round_trip(k, known[a], known[m]);
}

static void test_outside_the_window(void **state)
{
	char why[256], own[16];
	size_t size;
	const field_desc_t *f = acct_rec_fields(ACCT_REC_STEP, &size);
	void *rec = xmalloc(size), *back;
	acct_frame_t frame;
	uint16_t newer = PROTO_OWN + 0x100;       /* a year on */
	uint16_t older = proto_oldest() - 0x100;

	(void)state;
	proto_str(PROTO_OWN, own, sizeof(own));
	fill(f, rec);
	acct_frame_build(&frame, 1, ACCT_REC_STEP, rec);
	assert_int_equal(frame.version, PROTO_OWN);
	back = acct_rec_unpack(ACCT_REC_STEP, PROTO_OWN, frame.data, frame.len);
	assert_non_null(back);
	acct_rec_free(ACCT_REC_STEP, back);
	assert_null(acct_rec_unpack(ACCT_REC_STEP, newer, frame.data,
				    frame.len));
	assert_null(acct_rec_unpack(ACCT_REC_STEP, older, frame.data,
				    frame.len));

	assert_false(acct_rec_version_ok(newer, why, sizeof(why)));
	assert_non_null(strstr(why, "slurmdbd must be upgraded first"));
	assert_non_null(strstr(why, own));
	assert_false(acct_rec_version_ok(older, why, sizeof(why)));
	assert_non_null(strstr(why, "older than the oldest"));
	assert_non_null(strstr(why, own));
	for (size_t a = FIRST_SUPPORTED; a < N_KNOWN; a++)
		assert_true(acct_rec_version_ok(known[a], NULL, 0));
	assert_true(acct_rec_version_ok(ACCT_REC_UNVERSIONED, NULL, 0));
	if (FIRST_SUPPORTED)
		assert_false(acct_rec_version_ok(known[0], NULL, 0));
	acct_frame_free_members(&frame);
	acct_rec_free(ACCT_REC_STEP, rec);
}

#ifdef SLUICE_PROTO_NEXT
/* The synthetic next release's job record field: a 25.05 controller's
 * record gets its default, a 25.11 one's keeps it. */
static void test_next_job_field(void **state)
{
	acct_job_rec_t j = { .job_id = 3, .proto_next = PROTO_25_11 };
	acct_frame_t f;
	acct_job_rec_t *back;

	(void)state;
	acct_frame_build_at(&f, 1, ACCT_REC_JOB, &j, PROTO_25_05);
	back = acct_rec_unpack(ACCT_REC_JOB, PROTO_25_05, f.data, f.len);
	assert_non_null(back);
	assert_int_equal(back->proto_next, NO_VAL32);
	acct_rec_free(ACCT_REC_JOB, back);
	acct_frame_free_members(&f);
	acct_frame_build(&f, 1, ACCT_REC_JOB, &j);
	back = acct_rec_unpack(ACCT_REC_JOB, f.version, f.data, f.len);
	assert_non_null(back);
	assert_int_equal(back->proto_next, PROTO_25_11);
	acct_rec_free(ACCT_REC_JOB, back);
	acct_frame_free_members(&f);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_every_pair),
		cmocka_unit_test(test_outside_the_window),
#ifdef SLUICE_PROTO_NEXT
		cmocka_unit_test(test_next_job_field),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
